/* A workload whose allocation is nearly all done by a library on its
 * behalf: Report.line formats numbers with String.format, so the bytes are
 * java.util.Formatter's and java.lang's (the formatter, its StringBuilder,
 * the result), and the first application frame is Report.line. For the test
 * of the stacks behind a site on the JVM.
 * Arguments: [seconds to live]. */
public class FormatText {
    static volatile Object sink;

    static final class Report {
        static String line(int i, double v) {
            return String.format("%08d %12.4f %s|%s|%s", i, v, "alpha", "beta", "gamma");
        }
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        System.out.println("ready");
        System.out.flush();
        int i = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 2000; k++, i++)
                sink = Report.line(i, i * 0.5);
            Thread.sleep(1);
        }
    }
}
