import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/* A leak among steady churn, for gctop's live set (issue 28): a static map
 * grows by LEAK_KB kilobytes a second, in 32 KiB arrays (small enough not
 * to be humongous on G1 with 1 MiB regions, large enough that the map's
 * own nodes and keys add under 0.3 %), while THREADS threads allocate
 * short-lived garbage and a turnover cache replaces its entries so that
 * some objects die after reaching the old generation (old garbage, which
 * G1's mixed collections must reclaim). It prints its own count of
 * retained bytes with System.nanoTime() (CLOCK_MONOTONIC on Linux) twice a
 * second, and on OutOfMemoryError "oom NANOS" before halting with 3. Before
 * it leaks it prints "old_max BYTES": what the old generation can hold, by
 * the JVM's own memory pools, the limit the leak runs into.
 *
 * java LeakWorkload LEAK_KB_PER_S SECONDS THREADS [BASE_MB [TURNOVER_MB [TURNOVER_S [WARM_S]]]]
 * replaces the turnover cache's size every TURNOVER_S seconds (default 8).
 * It churns WARM_S seconds (default 0) before it prints "phase steady" and
 * starts to leak: until the base and the turnover cache have been promoted
 * the old generation grows faster than anything leaks (measured on ZGC:
 * old used rose 10 MiB more than the leak in the first 12 s, then kept
 * within 2 MiB of it), so a watcher that should see only the leak starts
 * after that. */
public class LeakWorkload {
	static final int CHUNK = 32 * 1024;
	static final int TURN_ITEM = 4 * 1024;
	static final Map<Long, byte[]> LEAK = new HashMap<>();
	static final List<byte[]> BASE = new ArrayList<>();
	static volatile long retained; /* bytes in LEAK: array payloads */
	static volatile Object sink;

	static void oom(Throwable t) {
		System.out.println("oom " + System.nanoTime());
		System.out.flush();
		Runtime.getRuntime().halt(3);
	}

	static void leak(long bytesPerSec, long endNs) throws InterruptedException {
		long start = System.nanoTime();
		long key = 0, next = start;
		while (System.nanoTime() < endNs) {
			long want = (System.nanoTime() - start) / 1000 * bytesPerSec / 1000000;
			while (retained + CHUNK <= want) {
				byte[] b = new byte[CHUNK];
				b[key % CHUNK == 0 ? 1 : 0] = 1;
				LEAK.put(key++, b);
				retained += CHUNK;
			}
			long now = System.nanoTime();
			if (now >= next) {
				System.out.println("retained " + retained + " " + now);
				next = now + 500_000_000L;
			}
			Thread.sleep(5);
		}
	}

	/* About 40 MB/s per thread of short-lived objects, in 1 ms steps. */
	static void churn() {
		List<Object> recent = new ArrayList<>();
		ThreadLocalRandom r = ThreadLocalRandom.current();
		try {
			for (;;) {
				for (int i = 0; i < 40; i++) {
					Object o = new byte[64 + r.nextInt(1900)];
					if (recent.size() < 256)
						recent.add(o);
					else
						recent.set(r.nextInt(256), o);
				}
				sink = recent.get(0);
				Thread.sleep(1);
			}
		} catch (InterruptedException e) {
			return;
		}
	}

	/* Replaces random slots of a cache of TURNOVER_MB, the cache's size
	 * every TURNOVER_S seconds: the replaced entries die old. */
	static void turnover(int mb, int periodS) {
		Object[] cache = new Object[mb * 1024 * 1024 / TURN_ITEM];
		ThreadLocalRandom r = ThreadLocalRandom.current();
		for (int i = 0; i < cache.length; i++)
			cache[i] = new byte[TURN_ITEM];
		int perTick = Math.max(1, cache.length / (100 * periodS));
		try {
			for (;;) {
				for (int i = 0; i < perTick; i++)
					cache[r.nextInt(cache.length)] = new byte[TURN_ITEM];
				Thread.sleep(10);
			}
		} catch (InterruptedException e) {
			return;
		}
	}

	/* The most the old generation can hold, by the JVM's own pool (the
	 * heap's maximum where the collector has one old space for it): what a
	 * leak runs into. */
	static long oldMax() {
		long least = Runtime.getRuntime().maxMemory();
		for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
			String n = p.getName();
			if (p.getType() == MemoryType.HEAP && (n.contains("Old") || n.contains("Tenured")) && p.getUsage().getMax() > 0)
				least = Math.min(least, p.getUsage().getMax());
		}
		return least;
	}

	static Thread daemon(Runnable r) {
		Thread t = new Thread(r);
		t.setDaemon(true);
		t.start();
		return t;
	}

	public static void main(String[] args) throws Exception {
		Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
			if (e instanceof OutOfMemoryError)
				oom(e);
		});
		long leakKb = Long.parseLong(args[0]);
		long seconds = Long.parseLong(args[1]);
		int threads = Integer.parseInt(args[2]);
		int baseMb = args.length > 3 ? Integer.parseInt(args[3]) : 30;
		int turnMb = args.length > 4 ? Integer.parseInt(args[4]) : 16;
		int turnS = args.length > 5 ? Integer.parseInt(args[5]) : 8;
		int warmS = args.length > 6 ? Integer.parseInt(args[6]) : 0;
		for (int i = 0; i < baseMb * 32; i++)
			BASE.add(new byte[CHUNK]);
		if (turnMb > 0)
			daemon(() -> turnover(turnMb, turnS));
		for (int i = 0; i < threads; i++)
			daemon(LeakWorkload::churn);
		Thread.sleep(warmS * 1000L);
		System.out.println("old_max " + oldMax());
		System.out.println("phase steady");
		try {
			leak(leakKb * 1024, System.nanoTime() + seconds * 1_000_000_000L);
		} catch (OutOfMemoryError e) {
			oom(e);
		}
		System.out.println("done");
	}
}
