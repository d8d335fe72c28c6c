import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.management.ObjectName;

/**
 * A multi-threaded service stand-in that counts its operations in a
 * perf-data counter of its own, for gctop --ops
 * (tests/integration/jvm_ops.sh). Each operation allocates a known number
 * of bytes, then adds one to the counter, as an application would with
 * jdk.internal.perf.PerfCounter (reached by reflection here, so that the
 * tests compile it with plain javac; run it with
 * --add-exports java.base/jdk.internal.perf=ALL-UNNAMED).
 *
 * Or it counts them in standard MBeans of its own, one a thread, as an
 * application's JMX instrumentation would (gctop --ops jmx:...,
 * tests/integration/jvm_ops_jmx.sh): COUNTER "mbean:DOMAIN" registers
 * DOMAIN:type=Ops,worker=N (N from 0) with the attributes Count (a long,
 * the thread's operations) and Name (a string, for a counter that is no
 * number); then no perf-data counter is made, and no --add-exports is
 * needed.
 *
 * Usage: OpsWorkload COUNTER THREADS OPS_PER_S BYTES_PER_OP SECONDS
 *   COUNTER       the perf-data counter's name (e.g. gctop.test.ops), or mbean:DOMAIN
 *   THREADS       threads doing operations
 *   OPS_PER_S     operations a second, all threads together
 *   BYTES_PER_OP  bytes each operation allocates, in 1 KiB arrays
 *                 (1008 bytes and the 16-byte array header)
 *   SECONDS       how long it runs
 * It prints "counter NAME" once the counter exists, then every 100 ms
 * "ops MONO_NS WALL_MS BYTES OPS": BYTES is
 * ThreadMXBean.getTotalThreadAllocatedBytes() (every thread of the JVM),
 * OPS the operations it counted itself; their deltas are its own bytes
 * per operation.
 */
public final class OpsWorkload {
    private static final int ARRAY = 1024 - 16;
    private static final AtomicLong ops = new AtomicLong();
    private static volatile boolean stop;
    private static volatile Object sink;

    /** The standard MBean interface of a thread's counter. */
    public interface CountMBean {
        long getCount();
        String getName();
    }

    /** One thread's operations, as an MBean. */
    public static final class Count implements CountMBean {
        private final AtomicLong n = new AtomicLong();
        private final String name;
        Count(String name) { this.name = name; }
        @Override public long getCount() { return n.get(); }
        @Override public String getName() { return name; }
    }

    public static void main(String[] args) throws Throwable {
        if (args.length != 5) {
            System.err.println("usage: OpsWorkload COUNTER THREADS OPS_PER_S BYTES_PER_OP SECONDS");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[1]);
        double rate = Double.parseDouble(args[2]);
        int arrays = Integer.parseInt(args[3]) / 1024;
        double seconds = Double.parseDouble(args[4]);

        MethodHandle increment = null;
        Count[] beans = new Count[threads];
        if (args[0].startsWith("mbean:")) {
            String domain = args[0].substring(6);
            for (int t = 0; t < threads; t++) {
                beans[t] = new Count("worker " + t);
                ManagementFactory.getPlatformMBeanServer().registerMBean(beans[t],
                        new ObjectName(domain + ":type=Ops,worker=" + t));
            }
        } else {
            Class<?> pc = Class.forName("jdk.internal.perf.PerfCounter");
            Object counter = pc.getMethod("newPerfCounter", String.class).invoke(null, args[0]);
            increment = MethodHandles.lookup().unreflect(pc.getMethod("increment")).bindTo(counter);
        }
        System.out.println("counter " + args[0]);

        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            MethodHandle inc = increment;
            Count bean = beans[t];
            workers[t] = new Thread(() -> work(rate / threads, arrays, inc, bean), "op-" + t);
            workers[t].setDaemon(true);
            workers[t].start();
        }
        long start = System.nanoTime(), end = start + (long) (seconds * 1e9), next = start;
        while (System.nanoTime() < end) {
            report(mx);
            next += 100_000_000L;
            LockSupport.parkNanos(next - System.nanoTime());
        }
        stop = true;
        for (Thread w : workers)
            w.join();
        report(mx);
    }

    /* Paced: an operation is due every 1/rate s from the start. It is
     * counted in the perf-data counter (increment) or the thread's MBean. */
    private static void work(double rate, int arrays, MethodHandle increment, Count bean) {
        long start = System.nanoTime(), done = 0;
        try {
            while (!stop) {
                if (done >= (long) ((System.nanoTime() - start) / 1e9 * rate)) {
                    LockSupport.parkNanos(200_000L);
                    continue;
                }
                for (int i = 0; i < arrays; i++) {
                    byte[] b = new byte[ARRAY];
                    b[i & 7] = 1;
                    sink = b;
                }
                ops.incrementAndGet();
                if (increment != null)
                    increment.invokeExact();
                else
                    bean.n.incrementAndGet();
                done++;
            }
        } catch (Throwable e) {
            throw new RuntimeException(e);
        }
    }

    private static void report(com.sun.management.ThreadMXBean mx) {
        long bytes = mx.getTotalThreadAllocatedBytes();
        System.out.println("ops " + System.nanoTime() + " " + System.currentTimeMillis() + " " + bytes + " " + ops.get());
        System.out.flush();
    }
}
