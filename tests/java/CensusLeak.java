/* A JVM that leaks one known type at a known rate among churn of others,
 * for the census's tests against the workload's own count.
 * Usage: java CensusLeak [PER_TICK] [STATE_FILE] [BALLAST_MB]
 * Every 50 ms it adds PER_TICK (default 100) CensusLeak$LeakNode objects
 * to a static list (64 bytes each, no array inside) and rewrites STATE_FILE with
 * "leaked N" (N: the nodes held after the tick), while it allocates and
 * drops Strings and byte[] as churn. It also holds a fixed int[64][8] and
 * a String[3][5], so array names in source form can be checked, and
 * BALLAST_MB (default 0) MiB of long[2] that never change, so that a
 * census (a full collection and a heap walk) takes a while. Prints "ready"
 * after its first tick. */
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

public final class CensusLeak {
    /* 16 bytes of header and 6 longs: 64 bytes each, all in the one type */
    static final class LeakNode {
        final long id, a, b, c, d, e;
        LeakNode(long id) { this.id = id; a = id + 1; b = id + 2; c = id + 3; d = id + 4; e = id + 5; }
    }

    private static final List<LeakNode> LEAK = new ArrayList<>();
    static int[][] grid = new int[64][8];
    static String[][] words = new String[3][5];
    static volatile Object sink;
    static long[][] ballast;

    private static void writeState(Path file, long n) throws IOException {
        Path tmp = Paths.get(file + ".tmp");
        Files.write(tmp, ("leaked " + n + "\n").getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static void main(String[] args) throws Exception {
        int perTick = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        Path state = Paths.get(args.length > 1 ? args[1] : "census-leak.state");
        int ballastMb = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        ballast = new long[(int) (((long) ballastMb << 20) / 32)][];
        for (int i = 0; i < ballast.length; i++)
            ballast[i] = new long[2];
        boolean ready = false;
        while (true) {
            long tickEnd = System.nanoTime() + 50_000_000L;
            synchronized (LEAK) {
                for (int i = 0; i < perTick; i++)
                    LEAK.add(new LeakNode(LEAK.size()));
                writeState(state, LEAK.size());
            }
            if (!ready) {
                System.out.println("ready");
                System.out.flush();
                ready = true;
            }
            while (System.nanoTime() < tickEnd) {
                for (int i = 0; i < 200; i++) {
                    sink = new byte[256];
                    sink = "churn " + i;
                }
                Thread.sleep(2);
            }
        }
    }
}
