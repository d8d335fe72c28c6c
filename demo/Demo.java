import java.util.ArrayList;
import java.util.List;

/**
 * The bundled demo workload for `make demo`: a pretend service whose "export"
 * requests build a CSV report row by row (many short-lived strings) and now and
 * then render it into one big buffer (a humongous array under G1), so every
 * pane of gctop has something to show.
 */
public final class Demo {
    private static volatile long sink;

    public static void main(String[] args) throws InterruptedException {
        int rowsPerRequest = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        List<byte[]> cache = new ArrayList<>();
        long requests = 0;
        while (true) {
            long start = System.nanoTime();
            StringBuilder csv = new StringBuilder();
            for (int row = 0; row < rowsPerRequest; row++) {
                String line = row + "," + (row * 31) + ",customer-" + (row % 977) + "," + (row * 0.25) + "\n";
                csv.append(line);
            }
            if (++requests % 5 == 0) {
                byte[] rendered = csv.toString().getBytes();   // one large array per report
                sink += rendered.length;
                cache.add(new byte[256 * 1024]);                // a slow leak into the old generation
                if (cache.size() > 200) {
                    cache.clear();
                }
            }
            sink += csv.length();
            long spentMs = (System.nanoTime() - start) / 1_000_000;
            Thread.sleep(Math.max(1, 20 - spentMs));
        }
    }
}
