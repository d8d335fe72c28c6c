import java.util.ArrayList;
import java.util.List;

/* A workload whose allocation is all done by java.base on behalf of one
 * application method: Report.render turns a tree of lists, DEPTH levels
 * deep with 5,000 numbers at its leaf, into text with List.toString, so
 * java.util.AbstractCollection.toString recurses through the levels (three
 * frames a level: some 130 below the application frame at the leaf), each
 * level's StringBuilder copying its child's text. Every byte is allocated
 * by java.lang and java.util, spread over all the levels, and the first
 * application frame is Report.render. The tree is made once, before the
 * loop. For the test of the stacks behind a site on the JVM.
 * Arguments: [renders per second] [seconds to live]. */
public class NestedText {
    static final int DEPTH = 40;
    static volatile Object sink;

    static final class Report {
        static String render(List<Object> tree) {
            return tree.toString();
        }
    }

    static List<Object> tree() {
        List<Object> node = new ArrayList<>();
        for (int i = 0; i < 5000; i++)
            node.add(i * 7919);
        for (int d = 0; d < DEPTH; d++) {
            List<Object> up = new ArrayList<>();
            up.add(node);
            node = up;
        }
        return node;
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 60;
        List<Object> tree = tree();
        long start = System.nanoTime(), end = start + seconds * 1_000_000_000L, done = 0;
        System.out.println("ready");
        System.out.flush();
        while (System.nanoTime() < end) {
            if (done * 1_000_000_000L >= (System.nanoTime() - start) * rate) {
                Thread.sleep(2);
                continue;
            }
            sink = Report.render(tree);
            done++;
        }
    }
}
