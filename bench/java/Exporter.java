// A multi-threaded, allocation-heavy target for gctop's benchmarks, shaped
// like the service in issue 14: a statement exporter. Each worker formats
// statement lines (String.format), splits them, upper-cases fields, joins
// them in a StringBuilder, encodes them into byte[] buffers and checksums
// them; the last statements of each worker stay alive in a ring, so young
// collections have survivors. Once a second it prints "ops_per_s N" (N:
// statements exported by all workers in that second), as AllocLoop does.
//
// usage: java Exporter [SECONDS] [THREADS] [DEPTH]
//   THREADS 0 (default): one per available processor.
//   DEPTH: frames each worker nests before it starts (0 by default), as a
//   service's framework puts some dozens of frames under its code.
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLongArray;

public final class Exporter {
    // One counter per worker, 16 longs (128 bytes) apart: the workers do
    // not share a cache line, so the target measures allocation, not
    // contention on its own counter.
    static final int STRIDE = 16;
    static final String[] MEMOS = {"card payment", "transfer in", "standing order", "fee", "interest",
                                   "refund", "direct debit", "cash withdrawal"};

    static long statement(long seq, StringBuilder sb, Object[] ring) {
        sb.setLength(0);
        long sum = 0;
        int lines = 8 + (int) (seq & 7);
        for (int i = 0; i < lines; i++) {
            long id = seq * 16 + i;
            String line = String.format("%s;%08d;%12.2f;%s;%s", "acct-" + (id % 977), id,
                                        (id % 100003) / 7.0, MEMOS[(int) (id & 7)], "EUR");
            String[] f = line.split(";");
            for (String x : f) {
                sb.append(x.trim().toUpperCase()).append(',');
            }
            sb.setCharAt(sb.length() - 1, '\n');
        }
        byte[] out = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[4096];
        int n = Math.min(out.length, buf.length);
        System.arraycopy(out, 0, buf, 0, n);
        for (int i = 0; i < n; i += 16)
            sum += buf[i];
        // Keeps the last statements alive: a few survive each collection.
        ring[(int) (seq & (ring.length - 1))] = (seq & 3) == 0 ? out : buf;
        return sum;
    }

    static void work(int me, AtomicLongArray counts, long[] sinks) {
        StringBuilder sb = new StringBuilder(2048);
        Object[] ring = new Object[1024];
        long seq = (long) me << 40, sink = 0;
        while (true) {
            sink += statement(seq++, sb, ring);
            counts.lazySet(me * STRIDE, counts.get(me * STRIDE) + 1);
            if (sink == 42)
                sinks[me] = sink;
        }
    }

    static int nest(int depth, int me, AtomicLongArray counts, long[] sinks) {
        if (depth <= 0) {
            work(me, counts, sinks);
            return 0;
        }
        return nest(depth - 1, me, counts, sinks) + 1;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 60;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        final int depth = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        if (threads <= 0)
            threads = Runtime.getRuntime().availableProcessors();
        final AtomicLongArray counts = new AtomicLongArray(threads * STRIDE);
        final long[] sinks = new long[threads];
        for (int t = 0; t < threads; t++) {
            final int me = t;
            Thread w = new Thread(() -> nest(depth, me, counts, sinks), "exporter-" + t);
            w.setDaemon(true);
            w.start();
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long next = System.nanoTime() + 1_000_000_000L, last = 0;
        while (true) {
            long now = System.nanoTime();
            if (now < next) {
                Thread.sleep((next - now) / 1_000_000, (int) ((next - now) % 1_000_000));
                continue;
            }
            long total = 0;
            for (int t = 0; t < threads; t++)
                total += counts.get(t * STRIDE);
            System.out.println("ops_per_s " + (total - last));
            System.out.flush();
            last = total;
            next += 1_000_000_000L;
            if (now >= end)
                break;
        }
    }
}
