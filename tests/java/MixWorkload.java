import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A multi-threaded allocator with a chosen share of large arrays, for the
 * allocation matrix (tests/integration/jvm_alloc_matrix.sh). It reports its
 * own truth so a test can compare gctop's figures with it.
 *
 * Usage: MixWorkload THREADS RATE_MB_S LARGE_SHARE LARGE_BYTES BUSY_S QUIET_S
 *   THREADS      allocating threads
 *   RATE_MB_S    total allocation rate wanted (MiB/s); 0 = as fast as they can
 *   LARGE_SHARE  share of the bytes allocated as LARGE_BYTES arrays (0..1);
 *                the rest are 112-byte arrays, some kept a while so that
 *                collections copy and promote something
 *   LARGE_BYTES  length of the large arrays (3 MiB: humongous on G1 with
 *                1 MiB regions)
 * First it prints "region BYTES", the G1 region size the JVM chose (0 for
 * the other collectors), from HotSpotDiagnosticMXBean: the JVM's own truth
 * of how many regions an array takes, so a test knows the unused tails.
 * Every 100 ms it prints "alloc MONO_NS WALL_MS BYTES LARGE_BYTES": BYTES is
 * ThreadMXBean.getTotalThreadAllocatedBytes() (every thread of the JVM),
 * LARGE_BYTES what the threads allocated as large arrays (length plus the
 * 16-byte array header). "phase quiet WALL_MS" marks the end of the busy
 * phase; the JVM exits after QUIET_S more seconds.
 */
public final class MixWorkload {
    private static final double MAX_BEHIND_S = 0.02;
    private static final int SMALL = 112 - 16; /* 112 bytes with the array header */
    private static final int HEADER = 16;
    private static final int CHUNK = 64 * 1024; /* small bytes between pacing checks */

    private static final AtomicLong largeBytes = new AtomicLong();
    private static volatile boolean stop;
    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: MixWorkload THREADS RATE_MB_S LARGE_SHARE LARGE_BYTES BUSY_S QUIET_S");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        double rate = Double.parseDouble(args[1]) * 1024 * 1024;
        double share = Double.parseDouble(args[2]);
        int large = Integer.parseInt(args[3]);
        double busy = Double.parseDouble(args[4]);
        double quiet = Double.parseDouble(args[5]);

        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        System.out.println("region " + ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("G1HeapRegionSize").getValue());

        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final double perThread = rate / threads;
            workers[t] = new Thread(() -> work(perThread, share, large), "alloc-" + t);
            workers[t].setDaemon(true);
            workers[t].start();
        }
        long start = System.nanoTime();
        long busyEnd = start + (long) (busy * 1e9);
        long next = start;
        while (System.nanoTime() < busyEnd) {
            report(mx);
            next += 100_000_000L;
            LockSupport.parkNanos(next - System.nanoTime());
        }
        stop = true;
        for (Thread w : workers)
            w.join();
        report(mx);
        System.out.println("phase quiet " + System.currentTimeMillis());
        System.out.flush();
        long quietEnd = System.nanoTime() + (long) (quiet * 1e9);
        while (System.nanoTime() < quietEnd) {
            Thread.sleep(100);
            report(mx);
        }
    }

    /* Allocates small arrays in chunks and a large array whenever the large
     * share of this thread's bytes falls below `share`. */
    private static void work(double rate, double share, int large) {
        Object[] keep = new Object[2048];
        int slot = 0;
        long start = System.nanoTime();
        long small = 0, big = 0;
        while (!stop) {
            long total = small + big;
            if (rate > 0) {
                long allowed = (long) ((System.nanoTime() - start) / 1e9 * rate);
                // Never more than MAX_BEHIND_S behind: a thread the machine
                // held up moves its schedule on rather than catching up at
                // full speed (tests/java/BufferWorkload.java says why).
                long behind = allowed - total - (long) (rate * MAX_BEHIND_S);
                if (behind > 0) {
                    start += (long) (behind / rate * 1e9);
                    allowed -= behind;
                }
                if (total >= allowed) {
                    LockSupport.parkNanos(500_000L);
                    continue;
                }
            }
            if (share > 0 && big < share * (total + large + HEADER)) {
                byte[] b = new byte[large];
                b[large - 1] = 1;
                sink = b;
                big += large + HEADER;
                largeBytes.addAndGet(large + HEADER);
                continue;
            }
            for (int i = 0; i < CHUNK / (SMALL + HEADER); i++) {
                byte[] b = new byte[SMALL];
                b[0] = (byte) i;
                if ((i & 31) == 0)
                    keep[slot++ & (keep.length - 1)] = b;
                sink = b;
            }
            small += (CHUNK / (SMALL + HEADER)) * (SMALL + HEADER);
        }
    }

    private static void report(com.sun.management.ThreadMXBean mx) {
        long bytes = mx.getTotalThreadAllocatedBytes();
        System.out.println("alloc " + System.nanoTime() + " " + System.currentTimeMillis() + " " + bytes + " "
                + largeBytes.get());
        System.out.flush();
    }
}
