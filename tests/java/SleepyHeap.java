/* A JVM that holds a fixed amount of touched heap and then sleeps, so its
 * resident set stays steady while a test compares figures taken a moment
 * apart. Usage: java SleepyHeap [MIB] ; prints "ready" once the heap is held. */
public final class SleepyHeap {
    private static byte[][] held;

    public static void main(String[] args) throws InterruptedException {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        held = new byte[mib][];
        for (int i = 0; i < mib; i++) {
            held[i] = new byte[1 << 20];
            // Writing every page makes it resident, not merely reserved.
            for (int j = 0; j < held[i].length; j += 4096) {
                held[i][j] = (byte) j;
            }
        }
        System.out.println("ready");
        System.out.flush();
        while (true) {
            Thread.sleep(60_000);
        }
    }
}
