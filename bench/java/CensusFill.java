/* The census benchmark's target (bench/census.py): fills the heap with a
 * live set of about LIVE_MB MiB of small objects (a Node of two longs, a
 * link and a byte[48..112], and a String for one node in eight), like an
 * application's caches, prints "ready live_mb N objects M", then idles with
 * light churn so that collections and safepoints stay rare. Usage: java
 * CensusFill LIVE_MB [SECONDS] */
import java.util.ArrayList;
import java.util.List;

public final class CensusFill {
    static final class Node {
        long a, b;
        Object next;
        byte[] data;
    }

    private static final List<Node[]> HELD = new ArrayList<>();
    static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        long target = Long.parseLong(args[0]) << 20;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 900;
        long live = 0, objects = 0;
        Node prev = null;
        while (live < target) {
            Node[] chunk = new Node[4096];
            for (int i = 0; i < chunk.length; i++) {
                Node n = new Node();
                n.a = objects;
                n.data = new byte[48 + (int) (objects % 65)];
                // header 16 + fields 24 (compressed oops), byte[] header 16 + data
                live += 40 + 16 + n.data.length;
                objects += 2;
                if (objects % 16 == 0) {
                    n.next = "node " + objects;
                    live += 24 + 16 + 16;
                    objects += 2;
                } else {
                    n.next = prev;
                }
                prev = n;
                chunk[i] = n;
            }
            live += 16 + 4L * chunk.length;
            HELD.add(chunk);
        }
        System.out.println("ready live_mb " + (live >> 20) + " objects " + objects);
        System.out.flush();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            sink = new byte[1024];
            Thread.sleep(10);
        }
    }
}
