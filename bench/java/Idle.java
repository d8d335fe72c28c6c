// A small idle JVM for gctop's benchmarks: sleeps, then exits by itself after
// SECONDS (default 900), so a benchmark that was killed leaves nothing behind
// for long.
public final class Idle {
    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 900;
        System.out.println("idle");
        System.out.flush();
        Thread.sleep((long) (seconds * 1000));
    }
}
