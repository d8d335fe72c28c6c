import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The shape of a server answering each request with one large buffer
 * (issue 42): THREADS threads each build a request line of about 100 bytes
 * (a String) and allocate a byte[] of BUFFER_BYTES, in turn, for the
 * allocation tests (tests/integration/jvm_alloc_buffers.sh). Buffers under
 * half a G1 region are not humongous: they go into eden, in a TLAB when one
 * holds them, otherwise into the current eden region directly.
 *
 * Usage: BufferWorkload THREADS RATE_MB_S BUFFER_BYTES BUSY_S QUIET_S
 *   RATE_MB_S  total allocation rate wanted (MiB/s); 0 = as fast as they can
 * Prints "region BYTES" (G1's region size, 0 for other collectors), then
 * every 100 ms "alloc MONO_NS WALL_MS BYTES BUFFER_BYTES_TOTAL": BYTES is
 * ThreadMXBean.getTotalThreadAllocatedBytes() (every thread of the JVM), the
 * truth; BUFFER_BYTES_TOTAL the buffers' bytes (length plus the 16-byte
 * array header). "phase quiet WALL_MS" marks the end of the busy phase; the
 * JVM exits QUIET_S seconds later. The output is MixWorkload's, so that
 * tests/java/compare_matrix.py reads either.
 */
public final class BufferWorkload {
    private static final int HEADER = 16;
    private static final double MAX_BEHIND_S = 0.02;

    private static final AtomicLong bufferBytes = new AtomicLong();
    private static volatile boolean stop;
    private static volatile Object sink;

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: BufferWorkload THREADS RATE_MB_S BUFFER_BYTES BUSY_S QUIET_S");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        double rate = Double.parseDouble(args[1]) * 1024 * 1024;
        int buffer = Integer.parseInt(args[2]);
        double busy = Double.parseDouble(args[3]);
        double quiet = Double.parseDouble(args[4]);

        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        System.out.println("region " + ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("G1HeapRegionSize").getValue());

        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final double perThread = rate / threads;
            final int id = t;
            workers[t] = new Thread(() -> work(id, perThread, buffer), "request-" + t);
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

    /* One "request" after another: its line, then its buffer. */
    private static void work(int id, double rate, int buffer) {
        long start = System.nanoTime();
        long done = 0;
        long n = 0;
        // Never more than MAX_BEHIND_S behind the schedule: a thread the
        // machine held up (beside a CPU hog) drops what it missed rather than
        // catching up at full speed. A catch-up ran at 1.5 times the rate
        // wanted, twice the collections a second, more than one between
        // gctop's polls, and its window a lower bound.
        long maxBehind = (long) (rate * MAX_BEHIND_S);
        while (!stop) {
            long due = (long) ((System.nanoTime() - start) / 1e9 * rate);
            if (rate > 0 && due - done > maxBehind)
                done = due - maxBehind;
            if (rate > 0 && done >= due) {
                LockSupport.parkNanos(200_000L);
                continue;
            }
            String line = "GET /api/v1/items/" + n + "?session=" + id + "-" + (n * 31) + " HTTP/1.1";
            byte[] b = new byte[buffer];
            b[(int) (n % buffer)] = (byte) line.length();
            sink = b;
            n++;
            bufferBytes.addAndGet(buffer + HEADER);
            done += buffer + HEADER + 100;
        }
    }

    private static void report(com.sun.management.ThreadMXBean mx) {
        long bytes = mx.getTotalThreadAllocatedBytes();
        System.out.println("alloc " + System.nanoTime() + " " + System.currentTimeMillis() + " " + bytes + " "
                + bufferBytes.get());
        System.out.flush();
    }
}
