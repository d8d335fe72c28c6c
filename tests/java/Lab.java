import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/* The seed's Lab workload: a small service whose request loop has three
 * allocation sites, the ones its field report was about ("a profile sorted
 * by bytes ranked a cheap buffer above costly parsing"):
 *   lineFormat  one big output buffer per request (a char[] of 24 KiB, as
 *               a formatter that never reuses its buffer has): most of
 *               the bytes, almost none of the time;
 *   keysHash    the request's fields parsed and hashed: many small objects
 *               (substrings, boxed keys, HashMap nodes and tables), most
 *               of the time, fewer of the bytes;
 *   key         the cache keys the request looks up: small objects.
 * Several threads serve requests; each measures what each site allocated
 * with its thread's exact allocation counter. Once a second it prints:
 *   ops_per_s <requests> t_ms=<wall ms> requests=<total> line=<bytes> keys=<bytes> key=<bytes>
 * (ops_per_s first, as make bench's targets print it).
 * Arguments: [requests per second over all threads, 0 = as fast as
 * possible] [seconds to live] [threads]. */
public class Lab {
    /* The formatter's buffer: 12 Ki chars, 24 KiB. */
    static final int LINE_CHARS = 12 * 1024;
    /* Fields in one request, and the cache keys it looks up. */
    static final int FIELDS = 64;
    static final int KEYS = 160;
    static final long MAX_BEHIND_NS = 20_000_000L;
    static final com.sun.management.ThreadMXBean tmx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /* requests, then line, keys and key bytes, summed over the threads */
    static final AtomicLongArray totals = new AtomicLongArray(4);
    static final String[] requests = new String[64];

    /* What a request's objects escape to (a response queue, a cache), so
     * the JIT cannot drop their allocations. */
    static final class Sink {
        final Object[] slots = new Object[1024];
        int next;

        void keep(Object o) {
            slots[next++ & (slots.length - 1)] = o;
        }
    }

    static final class Key {
        final int hash;
        final int slot;
        final long stamp;

        Key(int hash, int slot, long stamp) {
            this.hash = hash;
            this.slot = slot;
            this.stamp = stamp;
        }
    }

    /* The cheap site: a fresh buffer, a few characters written. */
    static char[] lineFormat(String request, int hash) {
        char[] line = new char[LINE_CHARS];
        int n = Math.min(request.length(), 64);
        request.getChars(0, n, line, 0);
        line[n] = (char) ('0' + (hash & 7));
        return line;
    }

    /* The costly site: "name=value;" fields parsed into a map of boxed
     * values (above Integer's cache, so each is a new object) to names, and
     * hashed. */
    static int keysHash(String request, Sink sink) {
        Map<Integer, String> fields = new HashMap<>();
        int at = 0;
        while (at < request.length()) {
            int eq = request.indexOf('=', at);
            int end = request.indexOf(';', eq);
            String name = request.substring(at, eq);
            int value = Integer.parseInt(request, eq + 1, end, 10);
            fields.put(Integer.valueOf(value), name.toLowerCase());
            at = end + 1;
        }
        int h = 17;
        for (Map.Entry<Integer, String> e : fields.entrySet()) {
            h = 31 * h + (e.getKey() ^ e.getValue().hashCode());
            for (int r = 0; r < 8; r++) h = Integer.rotateLeft(h * 0x9E3779B9, 5) ^ r;
        }
        sink.keep(fields);
        return h;
    }

    /* The small site: one cache key. */
    static Key key(int hash, int slot, long stamp) {
        return new Key(hash, slot, stamp);
    }

    static void serve(String request, long stamp, Sink sink, long[] bytes) {
        long t0 = tmx.getCurrentThreadAllocatedBytes();
        int h = keysHash(request, sink);
        long t1 = tmx.getCurrentThreadAllocatedBytes();
        sink.keep(lineFormat(request, h));
        long t2 = tmx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < KEYS; i++) sink.keep(key(h, i, stamp));
        long t3 = tmx.getCurrentThreadAllocatedBytes();
        bytes[0] += t2 - t1;
        bytes[1] += t1 - t0;
        bytes[2] += t3 - t2;
    }

    static void worker(double perSecond, long endNs) {
        Sink sink = new Sink();
        long[] bytes = new long[3];
        long done = 0, reported = 0;
        long start = System.nanoTime();
        while (true) {
            serve(requests[(int) (done & (requests.length - 1))], done, sink, bytes);
            done++;
            // Hand the counts over now and then, not per request.
            if ((done & 63) == 0) {
                totals.addAndGet(0, done - reported);
                reported = done;
                for (int i = 0; i < 3; i++) {
                    totals.addAndGet(i + 1, bytes[i]);
                    bytes[i] = 0;
                }
                if (System.nanoTime() >= endNs) return;
            }
            if (perSecond > 0) {
                long dueNs = (long) (done / perSecond * 1e9);
                long ahead = dueNs - (System.nanoTime() - start);
                // At most 20 ms behind: after the machine held this thread
                // it goes on at its pace rather than catching up in a burst.
                if (ahead < -MAX_BEHIND_NS) start += -ahead - MAX_BEHIND_NS;
                if (ahead > 1_000_000) {
                    try {
                        Thread.sleep(ahead / 1_000_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        double perSecond = args.length > 0 ? Double.parseDouble(args[0]) : 0;
        long lifeMs = (args.length > 1 ? Long.parseLong(args[1]) : 120) * 1000;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        for (int r = 0; r < requests.length; r++) {
            StringBuilder sb = new StringBuilder();
            for (int f = 0; f < FIELDS; f++) sb.append("Field").append(r).append('_').append(f).append('=')
                .append(1000 + r * FIELDS + f).append(';');
            requests[r] = sb.toString();
        }
        long endNs = System.nanoTime() + lifeMs * 1_000_000L;
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> worker(perSecond / threads, endNs), "lab-" + i);
            ts[i].setDaemon(true);
            ts[i].start();
        }
        long last = 0;
        long nextPrint = System.currentTimeMillis() + 1000;
        while (System.nanoTime() < endNs) {
            long now = System.currentTimeMillis();
            if (now < nextPrint) {
                Thread.sleep(nextPrint - now);
                continue;
            }
            long n = totals.get(0);
            System.out.println("ops_per_s " + (n - last) + " t_ms=" + now + " requests=" + n + " line="
                + totals.get(1) + " keys=" + totals.get(2) + " key=" + totals.get(3));
            System.out.flush();
            last = n;
            nextPrint += 1000;
        }
    }
}
