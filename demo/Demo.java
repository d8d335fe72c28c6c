import java.util.ArrayList;
import java.util.List;

/**
 * The bundled demo workload for `make demo`: a pretend service whose "export"
 * requests format a CSV report row by row (many short-lived strings), render it
 * into one big buffer (a humongous array under G1) and keep a little of every
 * report in a cache that is cleared now and then, so every pane of gctop,
 * including the top allocators, has something to show.
 */
public final class Demo {
    private static volatile long sink;
    private static final List<byte[]> cache = new ArrayList<>();

    static StringBuilder formatRows(int rows) {
        StringBuilder csv = new StringBuilder();
        for (int row = 0; row < rows; row++) {
            csv.append(row + "," + (row * 31) + ",customer-" + (row % 977) + "," + (row * 0.25) + "\n");
        }
        return csv;
    }

    static byte[] renderReport(StringBuilder csv) {
        return csv.toString().getBytes();
    }

    static void cacheSummary(byte[] report) {
        cache.add(new byte[Math.min(report.length, 256 * 1024)]);
        if (cache.size() > 200) {
            cache.clear();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        int rowsPerRequest = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        for (long request = 1; ; request++) {
            long start = System.nanoTime();
            StringBuilder csv = formatRows(rowsPerRequest);
            if (request % 5 == 0) {
                byte[] report = renderReport(csv);
                cacheSummary(report);
                sink += report.length;
            }
            sink += csv.length();
            long spentMs = (System.nanoTime() - start) / 1_000_000;
            Thread.sleep(Math.max(1, 20 - spentMs));
        }
    }
}
