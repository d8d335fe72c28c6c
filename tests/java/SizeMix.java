import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Allocates a known mix of object sizes in several threads and prints its
 * own exact bytes per type and per allocating method, for the test of the
 * sampled allocators' shares (tests/integration/allocators_weights.sh).
 *
 * Usage: SizeMix MODE THREADS SECONDS RATE_MB_S
 *   MODE "shape": each round a 256 KiB byte[] buffer, then a 100-character
 *        request string built in a StringBuilder (the plain program);
 *        "mix": objects from 16 B (java.lang.Object) to just under half a
 *        G1 region (a short[]), each large one followed by small ones;
 *   RATE_MB_S the threads' allocation rate together, in MiB/s (0: as fast
 *        as they can), kept round by round.
 *
 * The bytes are the program's own arithmetic of HotSpot's object sizes with
 * compressed class pointers (an array: a 16-byte header and its elements,
 * aligned to 8; an instance: a 12-byte header and its fields, aligned to 8);
 * each thread also reads its own allocated bytes from ThreadMXBean, so a
 * test knows the arithmetic holds on the JVM it ran (no allocation removed
 * by escape analysis, no layout other than assumed).
 *
 * First it prints "region BYTES" (G1's region size, 0 for other
 * collectors). Every second, and once the threads stopped, it prints
 *   "truth WALL_MS MEASURED ARITH type:NAME=BYTES ... frame:NAME=BYTES ..."
 * with the threads' bytes since they started: MEASURED from ThreadMXBean,
 * ARITH the sum of the arithmetic, then the arithmetic per type and per
 * first application frame (as gctop names them). "done WALL_MS" ends it.
 */
public final class SizeMix {
    private static final int ARRAY_HEADER = 16;

    /* 12-byte header and one long: 24 bytes. */
    static final class Tag {
        long v;
        Tag(long v) {
            this.v = v;
        }
    }

    /* What the threads allocate, by kind of allocation. */
    private static final String[] TYPES = {
        "byte[]", "java.lang.StringBuilder", "java.lang.String", "java.lang.Object", "SizeMix$Tag", "char[]",
        "int[]", "long[]", "short[]"};
    private static final int T_BYTES = 0, T_SB = 1, T_STRING = 2, T_OBJECT = 3, T_TAG = 4, T_CHARS = 5, T_INTS = 6,
            T_LONGS = 7, T_SHORTS = 8;
    private static final String[] FRAMES = {
        "SizeMix.buffer", "SizeMix.request", "SizeMix.objects", "SizeMix.tags", "SizeMix.chars", "SizeMix.ints",
        "SizeMix.longs", "SizeMix.bytes", "SizeMix.shorts"};
    private static final int F_BUFFER = 0, F_REQUEST = 1, F_OBJECTS = 2, F_TAGS = 3, F_CHARS = 4, F_INTS = 5,
            F_LONGS = 6, F_BYTES = 7, F_SHORTS = 8;

    private static final String REQUEST = ("GET /orders/12345?customer=67890&page=1&size=50 HTTP/1.1 "
            + "Host: example.org Accept: */* User-Agent: sizemix").substring(0, 100);
    private static final int BUFFER_BYTES = 256 * 1024;

    private static final AtomicLongArray typeBytes = new AtomicLongArray(TYPES.length);
    private static final AtomicLongArray frameBytes = new AtomicLongArray(FRAMES.length);
    private static final AtomicLongArray measured = new AtomicLongArray(64);
    private static volatile boolean stop;
    static volatile Object sink;
    static volatile StringBuilder sbSink;

    static long array(long elements, int elementBytes) {
        return align(ARRAY_HEADER + elements * elementBytes);
    }

    static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: SizeMix shape|mix THREADS SECONDS RATE_MB_S");
            System.exit(2);
        }
        String mode = args[0];
        int threads = Integer.parseInt(args[1]);
        double seconds = Double.parseDouble(args[2]);
        final double perThread = Double.parseDouble(args[3]) * 1024 * 1024 / threads;
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        long region = 0;
        try {
            region = Long.parseLong(ManagementFactory.getPlatformMXBean(
                    com.sun.management.HotSpotDiagnosticMXBean.class).getVMOption("G1HeapRegionSize").getValue());
        } catch (IllegalArgumentException e) {
            region = 0;
        }
        System.out.println("region " + region);
        System.out.flush();
        /* just under half a region: the largest object G1 does not treat as
         * humongous (half of 1 MiB without G1) */
        long half = (region > 0 ? region : 1024 * 1024) / 2;
        final int shorts = (int) ((half - 8 - ARRAY_HEADER) / 2);

        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int slot = t;
            workers[t] = new Thread(() -> {
                long base = mx.getCurrentThreadAllocatedBytes();
                Pace pace = new Pace(perThread);
                if (mode.equals("shape"))
                    shapeLoop(mx, base, slot, pace);
                else
                    mixLoop(mx, base, slot, pace, shorts);
            }, "sizemix-" + t);
            workers[t].setDaemon(true);
            workers[t].start();
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            Thread.sleep(1000);
            report(threads);
        }
        stop = true;
        for (Thread w : workers)
            w.join();
        report(threads);
        System.out.println("done " + System.currentTimeMillis());
        System.out.flush();
    }

    /* The arithmetic of a round is added before the round's allocations are
     * done, so that a reading never sees the threads' measured bytes ahead of
     * it by more than the rounds under way. */
    private static void add(long[] types, long[] frames, int type, int frame, long bytes) {
        types[type] += bytes;
        frames[frame] += bytes;
    }

    private static void publish(long[] types, long[] frames, com.sun.management.ThreadMXBean mx, long base, int slot) {
        for (int i = 0; i < types.length; i++) {
            if (types[i] != 0)
                typeBytes.addAndGet(i, types[i]);
            types[i] = 0;
        }
        for (int i = 0; i < frames.length; i++) {
            if (frames[i] != 0)
                frameBytes.addAndGet(i, frames[i]);
            frames[i] = 0;
        }
        measured.set(slot, mx.getCurrentThreadAllocatedBytes() - base);
    }

    /* The plain program: a 256 KiB buffer, then a request string. */
    private static void shapeLoop(com.sun.management.ThreadMXBean mx, long base, int slot, Pace pace) {
        long[] types = new long[TYPES.length], frames = new long[FRAMES.length];
        long bufferObject = BUFFER_BYTES;
        long sbValue = array(REQUEST.length() + 0, 1);
        long rounds = 0;
        while (!stop) {
            add(types, frames, T_BYTES, F_BUFFER, bufferObject);
            buffer();
            /* StringBuilder(100): the builder (12 + 4 + 1 + 4 [+ 1] -> 24) and
             * its byte[100]; toString: a String (24) and a copy byte[100]. */
            add(types, frames, T_SB, F_REQUEST, 24);
            add(types, frames, T_BYTES, F_REQUEST, 2 * sbValue);
            add(types, frames, T_STRING, F_REQUEST, 24);
            request();
            pace.after(bufferObject + 48 + 2 * sbValue);
            if ((++rounds & 63) == 0)
                publish(types, frames, mx, base, slot);
        }
        publish(types, frames, mx, base, slot);
    }

    static void buffer() {
        byte[] b = new byte[BUFFER_BYTES - ARRAY_HEADER];
        b[b.length - 1] = 1;
        sink = b;
    }

    static void request() {
        StringBuilder sb = new StringBuilder(REQUEST.length());
        sbSink = sb;    /* escapes: C2 cannot fold the builder away */
        sb.append(REQUEST);
        sink = sb.toString();
    }

    /* Sizes from 16 B to just under half a region; each large object is
     * followed by small ones of another type, the order that made the
     * sampler credit a small object with a large one's bytes. */
    private static void mixLoop(com.sun.management.ThreadMXBean mx, long base, int slot, Pace pace, int shortLen) {
        long[] types = new long[TYPES.length], frames = new long[FRAMES.length];
        long shortObj = array(shortLen, 2), byteObj = BUFFER_BYTES, longObj = array(8192, 8), intObj = array(1000, 4),
                charObj = array(100, 2);
        long rounds = 0;
        while (!stop) {
            add(types, frames, T_SHORTS, F_SHORTS, shortObj);
            add(types, frames, T_OBJECT, F_OBJECTS, 4096 * 16);
            add(types, frames, T_BYTES, F_BYTES, 2 * byteObj);
            add(types, frames, T_TAG, F_TAGS, 4096 * 24);
            add(types, frames, T_LONGS, F_LONGS, 4 * longObj);
            add(types, frames, T_CHARS, F_CHARS, 512 * charObj);
            add(types, frames, T_INTS, F_INTS, 64 * intObj);
            shorts(shortLen);
            objects(4096);
            bytes();
            tags(2048);
            bytes();
            tags(2048);
            for (int i = 0; i < 4; i++) {
                longs();
                chars(128);
                ints(16);
            }
            pace.after(shortObj + 4096 * 16 + 2 * byteObj + 4096 * 24 + 4 * longObj + 512 * charObj + 64 * intObj);
            if ((++rounds & 7) == 0)
                publish(types, frames, mx, base, slot);
        }
        publish(types, frames, mx, base, slot);
    }

    static void shorts(int len) {
        short[] s = new short[len];
        s[len - 1] = 1;
        sink = s;
    }

    static void objects(int n) {
        for (int i = 0; i < n; i++)
            sink = new Object();
    }

    static void bytes() {
        byte[] b = new byte[BUFFER_BYTES - ARRAY_HEADER];
        b[0] = 1;
        sink = b;
    }

    static void tags(int n) {
        for (int i = 0; i < n; i++)
            sink = new Tag(i);
    }

    static void longs() {
        long[] l = new long[8192];
        l[0] = 1;
        sink = l;
    }

    static void chars(int n) {
        for (int i = 0; i < n; i++)
            sink = new char[100];
    }

    static void ints(int n) {
        for (int i = 0; i < n; i++)
            sink = new int[1000];
    }

    /* Keeps a thread's bytes at its share of the rate: sleeps after a round
     * that got ahead of it. */
    static final class Pace {
        private final double bytesPerNs;
        private final long start = System.nanoTime();
        private long done;

        Pace(double bytesPerS) {
            bytesPerNs = bytesPerS / 1e9;
        }

        void after(long bytes) {
            done += bytes;
            if (bytesPerNs <= 0)
                return;
            long due = start + (long) (done / bytesPerNs);
            long now = System.nanoTime();
            if (due > now)
                LockSupport.parkNanos(due - now);
        }
    }

    private static void report(int threads) {
        StringBuilder sb = new StringBuilder(512);
        long m = 0, a = 0;
        for (int i = 0; i < threads; i++)
            m += measured.get(i);
        for (int i = 0; i < TYPES.length; i++)
            a += typeBytes.get(i);
        sb.append("truth ").append(System.currentTimeMillis()).append(' ').append(m).append(' ').append(a);
        for (int i = 0; i < TYPES.length; i++)
            if (typeBytes.get(i) > 0)
                sb.append(" type:").append(TYPES[i]).append('=').append(typeBytes.get(i));
        for (int i = 0; i < FRAMES.length; i++)
            if (frameBytes.get(i) > 0)
                sb.append(" frame:").append(FRAMES[i]).append('=').append(frameBytes.get(i));
        System.out.println(sb);
        System.out.flush();
    }
}
