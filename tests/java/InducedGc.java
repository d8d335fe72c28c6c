/* A JVM with one steady finding: it asks for a collection (System.gc())
 * every second and does little else, so any window of a few seconds holds
 * induced collections, short ones, and no other finding.
 * Usage: java InducedGc ; prints "ready" after its first System.gc(). */
public final class InducedGc {
    private static volatile Object sink;

    public static void main(String[] args) throws InterruptedException {
        for (long n = 0;; n++) {
            sink = new byte[64 * 1024];
            System.gc();
            if (n == 0) {
                System.out.println("ready");
                System.out.flush();
            }
            Thread.sleep(1000);
        }
    }
}
