/* What the JVM's own management beans call its collectors and memory pools,
 * printed for a test to hold gctop's label values against, in the same JVM:
 * the GarbageCollectorMXBeans' names, the MemoryPoolMXBeans' names and
 * types, and the (gcName, gcAction) pairs of the collections' notifications.
 *
 * Usage: java MxNames GO_FILE SECONDS
 * Prints "bean NAME" and "pool heap|non_heap NAME" lines, then "ready";
 * idles until GO_FILE exists; prints "before NAME COUNT" for every bean;
 * allocates (young collections; about half the heap kept live, which
 * starts concurrent cycles) and calls System.gc(); prints "after NAME COUNT"
 * and one "action NAME\tACTION" line per pair seen, and per bean the
 * collections notified since GO_FILE by their GcInfo duration: at each of
 * 10 ms, 100 ms, 1 s and 10 s, how many were under it for sure and how many
 * perhaps (durations are whole milliseconds), then all
 * ("hist NAME\tSURE1 MAYBE1 ... SURE4 MAYBE4 ALL"),
 * then "done"; idles SECONDS more and exits. Counts are getCollectionCount(). */
import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

public final class MxNames {
    private static final Set<String> ACTIONS = ConcurrentHashMap.newKeySet();
    private static final long[] BOUNDS_MS = { 10, 100, 1000, 10000 };
    private static final Map<String, long[]> HIST = new ConcurrentHashMap<>();
    private static volatile boolean counting;
    private static volatile Object sink;

    private static void note(GarbageCollectionNotificationInfo i) {
        ACTIONS.add(i.getGcName() + "\t" + i.getGcAction());
        if (!counting) {
            return;
        }
        long[] h = HIST.computeIfAbsent(i.getGcName(), k -> new long[2 * BOUNDS_MS.length + 1]);
        // Whole milliseconds, its start and end each cut to one: the pause
        // lasted within 1 ms of it, so at most a bound for sure when 1 ms
        // under it, perhaps when on it.
        long ms = i.getGcInfo().getDuration();
        synchronized (h) {
            for (int b = 0; b < BOUNDS_MS.length; b++) {
                if (ms <= BOUNDS_MS[b] - 1) {
                    h[2 * b]++;
                }
                if (ms <= BOUNDS_MS[b]) {
                    h[2 * b + 1]++;
                }
            }
            h[2 * BOUNDS_MS.length]++;
        }
    }

    private static final Map<String, Long> BEFORE = new ConcurrentHashMap<>();
    private static final Map<String, Long> AFTER = new ConcurrentHashMap<>();

    private static void counts(String what) {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            (what.equals("before") ? BEFORE : AFTER).put(b.getName(), b.getCollectionCount());
            System.out.println(what + " " + b.getName() + "\t" + b.getCollectionCount());
        }
    }

    private static boolean allNotified() {
        for (Map.Entry<String, Long> e : AFTER.entrySet()) {
            long[] h = HIST.get(e.getKey());
            long seen = h == null ? 0 : h[2 * BOUNDS_MS.length];
            if (seen < e.getValue() - BEFORE.getOrDefault(e.getKey(), 0L)) {
                return false;
            }
        }
        return true;
    }

    public static void main(String[] args) throws Exception {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            System.out.println("bean " + b.getName());
            ((NotificationEmitter) b).addNotificationListener((n, h) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                    note(GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()));
                }
            }, null, null);
        }
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            System.out.println("pool " + (p.getType() == MemoryType.HEAP ? "heap" : "non_heap") + " " + p.getName());
        }
        System.out.println("ready");
        System.out.flush();
        while (!Files.exists(Paths.get(args[0]))) {
            Thread.sleep(50);
        }
        counting = true;
        counts("before");
        long max = Runtime.getRuntime().maxMemory();
        // A ring of 64 KiB arrays holding about half the heap, churned
        // through several times: young collections, old-generation growth.
        byte[][] ring = new byte[(int) (max / 2 / 65536)][];
        for (long i = 0; i < 6L * ring.length; i++) {
            ring[(int) (i % ring.length)] = new byte[65536];
            sink = new byte[4096];
        }
        sink = ring;
        System.gc();
        counts("after");
        // The notifications come from a service thread, late on a busy
        // machine: wait (10 s at most) until every collection counted has
        // been notified.
        for (int i = 0; i < 200 && !allNotified(); i++) {
            Thread.sleep(50);
        }
        for (String a : ACTIONS) {
            System.out.println("action " + a);
        }
        for (Map.Entry<String, long[]> e : HIST.entrySet()) {
            StringBuilder line = new StringBuilder("hist " + e.getKey() + "\t");
            for (long n : e.getValue()) {
                line.append(n).append(' ');
            }
            System.out.println(line.toString().trim());
        }
        System.out.println("done");
        System.out.flush();
        Thread.sleep(Long.parseLong(args[1]) * 1000);
    }
}
