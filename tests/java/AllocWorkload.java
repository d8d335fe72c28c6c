import java.lang.management.ManagementFactory;
import java.util.concurrent.locks.LockSupport;

/**
 * A steady allocator for gctop's integration tests, reporting its own exact
 * allocated bytes so a test can compare gctop's estimate with the truth.
 *
 * Usage: AllocWorkload MODE RATE_MB_S BUSY_SECONDS QUIET_SECONDS
 *   MODE small:     1 KiB arrays only
 *   MODE humongous: 1 KiB arrays plus one 3-4 MiB array every ~12 MiB
 * It allocates at RATE_MB_S for BUSY_SECONDS, then allocates nothing for
 * QUIET_SECONDS (so counters hold still for a comparison with jstat), then
 * exits. Every 100 ms it prints "alloc MONO_NS WALL_MS BYTES" where BYTES is
 * the JVM's total allocated bytes (ThreadMXBean), MONO_NS System.nanoTime()
 * (CLOCK_MONOTONIC) and WALL_MS System.currentTimeMillis(). It prints
 * "phase quiet WALL_MS" when the quiet phase starts.
 */
public final class AllocWorkload {
    private static final int SMALL = 1024;
    private static final long MIB = 1024L * 1024L;

    /* A modest live set, so collections copy something and objects age. */
    private static final Object[] keep = new Object[4096];
    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: AllocWorkload small|humongous RATE_MB_S BUSY_SECONDS QUIET_SECONDS");
            System.exit(2);
        }
        boolean humongous = args[0].equals("humongous");
        double rate = Double.parseDouble(args[1]) * MIB;
        double busy = Double.parseDouble(args[2]);
        double quiet = Double.parseDouble(args[3]);

        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        threads.setThreadAllocatedMemoryEnabled(true);

        long start = System.nanoTime();
        long busyEnd = start + (long) (busy * 1e9);
        long nextReport = start;
        long planned = 0;      /* bytes the schedule allows so far */
        long sinceBig = 0;
        int slot = 0;
        int bigSize = 3 * (int) MIB;
        while (true) {
            long now = System.nanoTime();
            if (now >= nextReport) {
                report(threads, now);
                nextReport += 100_000_000L;
            }
            if (now >= busyEnd)
                break;
            long allowed = (long) ((now - start) / 1e9 * rate);
            if (planned >= allowed) {
                LockSupport.parkNanos(1_000_000L);
                continue;
            }
            /* Allocate in 64 KiB steps of small arrays so the rate stays even. */
            for (int i = 0; i < 64; i++) {
                byte[] b = new byte[SMALL];
                b[0] = (byte) i;
                if ((i & 15) == 0)
                    keep[slot++ & (keep.length - 1)] = b;
                sink = b;
            }
            planned += 64 * SMALL;
            sinceBig += 64 * SMALL;
            if (humongous && sinceBig >= 12 * MIB) {
                byte[] big = new byte[bigSize];
                big[big.length - 1] = 1;
                sink = big;
                planned += bigSize;
                sinceBig = 0;
                bigSize = bigSize == 3 * (int) MIB ? 4 * (int) MIB - 4096 : 3 * (int) MIB;
            }
        }
        sink = null;
        System.out.println("phase quiet " + System.currentTimeMillis());
        System.out.flush();
        long quietEnd = System.nanoTime() + (long) (quiet * 1e9);
        while (System.nanoTime() < quietEnd) {
            Thread.sleep(100);
            report(threads, System.nanoTime());
        }
    }

    private static void report(com.sun.management.ThreadMXBean threads, long mono) {
        long bytes;
        try {
            bytes = threads.getTotalThreadAllocatedBytes();
        } catch (UnsupportedOperationException | NoSuchMethodError e) {
            bytes = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        System.out.println("alloc " + mono + " " + System.currentTimeMillis() + " " + bytes);
        System.out.flush();
    }
}
