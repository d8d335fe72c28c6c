// An allocation-bound loop for gctop's benchmarks: allocates small objects and
// arrays (a few of which survive in a ring, so young collections have work),
// and prints once a second one line "ops_per_s N" (N: loop iterations in
// that second). Runs for SECONDS, then exits.
//
// usage: java AllocLoop [SECONDS] [MB_PER_SECOND]
//   MB_PER_SECOND 0 (default): as fast as it can (the throughput benchmark);
//   > 0: paced to about that allocation rate (a steady target to watch).
public final class AllocLoop {
    static final class Node {
        final long id;
        final Object payload;
        Node(long id, Object payload) { this.id = id; this.payload = payload; }
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        double mbPerSec = args.length > 1 ? Double.parseDouble(args[1]) : 0;
        Object[] ring = new Object[8192];
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long nextPrint = System.nanoTime() + 1_000_000_000L;
        long ops = 0, total = 0, sink = 0;
        // Each iteration allocates ~ 16 + 24 + (16 + 8*k) + 40 bytes, k in 0..15.
        final double bytesPerOp = 160;
        long paceStart = System.nanoTime();
        while (true) {
            for (int i = 0; i < 1024; i++) {
                int k = (int) (total & 15);
                long[] arr = new long[k + 1];
                arr[0] = total;
                Node n = new Node(total, arr);
                String s = k == 0 ? Long.toString(total) : null;
                // Every object escapes (no scalar replacement); the ring keeps
                // the last 8192 alive, so a few survive each young collection.
                ring[(int) (total & (ring.length - 1))] = (total & 7) == 0 ? n : arr;
                sink += n.id + arr.length + (s != null ? s.length() : 0);
                total++;
                ops++;
            }
            long now = System.nanoTime();
            if (mbPerSec > 0) {
                double due = (now - paceStart) / 1e9 * mbPerSec * 1e6 / bytesPerOp;
                if (total > due) {
                    long ahead = (long) ((total - due) * bytesPerOp / (mbPerSec * 1e6) * 1e9);
                    if (ahead > 200_000)
                        Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
                    now = System.nanoTime();
                }
            }
            if (now >= nextPrint) {
                System.out.println("ops_per_s " + ops);
                System.out.flush();
                ops = 0;
                nextPrint += 1_000_000_000L;
                if (now >= end)
                    break;
            }
        }
        if (sink == 42)
            System.out.println("");
    }
}
