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
 * collections notified since GO_FILE, each as its GcInfo id (the bean's
 * count with it) and duration in whole milliseconds, in id order
 * ("pauses NAME\tID:MS ID:MS ..."), then "done"; idles SECONDS more and
 * exits. Counts are getCollectionCount(). */
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
import java.util.concurrent.ConcurrentSkipListMap;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

public final class MxNames {
    private static final Set<String> ACTIONS = ConcurrentHashMap.newKeySet();
    private static final Map<String, Map<Long, Long>> PAUSES = new ConcurrentHashMap<>();
    private static volatile boolean counting;
    private static volatile Object sink;

    private static void note(GarbageCollectionNotificationInfo i) {
        ACTIONS.add(i.getGcName() + "\t" + i.getGcAction());
        if (!counting) {
            return;
        }
        PAUSES.computeIfAbsent(i.getGcName(), k -> new ConcurrentSkipListMap<>())
              .put(i.getGcInfo().getId(), i.getGcInfo().getDuration());
    }

    private static final Map<String, Long> BEFORE = new ConcurrentHashMap<>();
    private static final Map<String, Long> AFTER = new ConcurrentHashMap<>();

    private static void counts(String what) {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            (what.equals("before") ? BEFORE : AFTER).put(b.getName(), b.getCollectionCount());
            if (what.equals("before")) {
                System.out.println(what + " " + b.getName() + "\t" + b.getCollectionCount());
            }
        }
    }

    private static boolean allNotified() {
        for (Map.Entry<String, Long> e : AFTER.entrySet()) {
            Map<Long, Long> p = PAUSES.get(e.getKey());
            long seen = p == null ? 0 : p.size();
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
        // A concurrent cycle the churn started may still pause (G1's remark
        // and cleanup), and the notifications come from a service thread,
        // late on a busy machine: the counts are read once they have stood
        // still for half a second and every collection counted has been
        // notified (10 s at most; ZGC never stands still).
        counts("after");
        Map<String, Long> last = new java.util.HashMap<>(AFTER);
        for (int i = 0; i < 20; i++) {
            Thread.sleep(500);
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                AFTER.put(b.getName(), b.getCollectionCount());
            }
            if (AFTER.equals(last) && allNotified()) {
                break;
            }
            last = new java.util.HashMap<>(AFTER);
        }
        for (Map.Entry<String, Long> e : AFTER.entrySet()) {
            System.out.println("after " + e.getKey() + "\t" + e.getValue());
        }
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            java.lang.management.MemoryUsage u = p.getUsage();
            System.out.println("usage " + p.getName() + "\t" + u.getUsed() + " " + u.getCommitted() + " " + u.getMax());
            if (p.getCollectionUsage() != null) {
                System.out.println("collected " + p.getName() + "\t" + p.getCollectionUsage().getUsed());
            }
        }
        for (String a : ACTIONS) {
            System.out.println("action " + a);
        }
        for (Map.Entry<String, Map<Long, Long>> e : PAUSES.entrySet()) {
            StringBuilder line = new StringBuilder("pauses " + e.getKey() + "\t");
            for (Map.Entry<Long, Long> p : e.getValue().entrySet()) {
                line.append(p.getKey()).append(':').append(p.getValue()).append(' ');
            }
            System.out.println(line.toString().trim());
        }
        System.out.println("done");
        System.out.flush();
        Thread.sleep(Long.parseLong(args[1]) * 1000);
    }
}
