// A steady allocator for the TUI tests: short-lived garbage at a visible
// rate, a small retained set that churns (so old collections happen too),
// and now and then a large array. Runs until killed, or for args[0] seconds.
import java.util.ArrayList;
import java.util.List;

public class TuiWorkload {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : Long.MAX_VALUE / 2000;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<byte[]> retained = new ArrayList<>();
        int i = 0;
        System.out.println("ready");
        while (System.nanoTime() < end) {
            // about 20 MB per 100 ms tick: a few young collections a second
            for (int k = 0; k < 2000; k++) {
                byte[] b = new byte[10_000];
                sink += b.length;
            }
            if (retained.size() < 400) {
                retained.add(new byte[64_000]);
            } else {
                retained.set(i % retained.size(), new byte[64_000]);
            }
            if (i % 20 == 0) {
                sink += new byte[4 << 20].length; // large: humongous on G1
            }
            i++;
            Thread.sleep(100);
        }
    }
}
