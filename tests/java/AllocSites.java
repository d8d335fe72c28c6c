import java.lang.management.ManagementFactory;

/* A workload with three allocation sites in known proportions by bytes
 * (siteA 60%, siteB 30%, siteC 10%), each allocating its own array type.
 * It measures what each site really allocated with the thread's exact
 * allocation counter and prints, once a second, one line:
 *   t_ms=<wall ms> total=<ThreadMXBean total bytes> a=<bytes> b=<bytes> c=<bytes> rounds=<n>
 * Arguments: [MB per second, 0 = as fast as possible] [seconds to live]. */
public class AllocSites {
    static final Object[] sink = new Object[4096];
    static int next;
    static final long MAX_BEHIND_NS = 20_000_000L;
    static final com.sun.management.ThreadMXBean tmx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static void keep(Object o) {
        sink[next++ & (sink.length - 1)] = o;
    }

    static void siteA(int n) {
        for (int i = 0; i < n; i++) keep(new byte[256]);
    }

    static void siteB(int n) {
        for (int i = 0; i < n; i++) keep(new long[32]);
    }

    static void siteC(int n) {
        for (int i = 0; i < n; i++) keep(new int[64]);
    }

    public static void main(String[] args) throws Exception {
        double mbPerSec = args.length > 0 ? Double.parseDouble(args[0]) : 0;
        long lifeMs = (args.length > 1 ? Long.parseLong(args[1]) : 120) * 1000;
        long a = 0, b = 0, c = 0, rounds = 0;
        long start = System.nanoTime();
        long nextPrint = System.currentTimeMillis() + 1000;
        long endAt = System.currentTimeMillis() + lifeMs;
        while (true) {
            long t0 = tmx.getCurrentThreadAllocatedBytes();
            siteA(600);
            long t1 = tmx.getCurrentThreadAllocatedBytes();
            siteB(300);
            long t2 = tmx.getCurrentThreadAllocatedBytes();
            siteC(100);
            long t3 = tmx.getCurrentThreadAllocatedBytes();
            a += t1 - t0;
            b += t2 - t1;
            c += t3 - t2;
            rounds++;
            if (mbPerSec > 0) {
                long dueNs = (long) ((a + b + c) / (mbPerSec * 1e6) * 1e9);
                long ahead = dueNs - (System.nanoTime() - start);
                // At most 20 ms behind: after the machine held this thread
                // it goes on at its pace rather than catching up at full
                // speed (a burst twice the pace, which tests would read as
                // gctop's error).
                if (ahead < -MAX_BEHIND_NS) start += -ahead - MAX_BEHIND_NS;
                if (ahead > 1_000_000) Thread.sleep(ahead / 1_000_000);
            }
            long now = System.currentTimeMillis();
            if (now >= nextPrint) {
                System.out.println("t_ms=" + now + " total=" + tmx.getTotalThreadAllocatedBytes()
                    + " a=" + a + " b=" + b + " c=" + c + " rounds=" + rounds);
                System.out.flush();
                nextPrint += 1000;
                if (now >= endAt) break;
            }
        }
    }
}
