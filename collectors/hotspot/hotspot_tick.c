/* When the HotSpot collector polls next while the JVM collects. */
#include "collectors/hotspot/hotspot_internal.h"

/* Polls land at set points of the expected interval after a collection
 * ended: per_interval of them, evenly spaced, the first a little after the
 * exit (30% of a share), so that the stretch after a collection that is
 * filled from rates stays short. The estimator needs a poll on each side of
 * every collection and two inside an interval for its rates; more only
 * split the same growth finer. Every wake-up costs the kernel about 30
 * microseconds of CPU on a busy virtual machine, a hundred times the read
 * itself (bench/ 1e), so the tick takes as few as the intervals allow:
 * three while collections are 20 ms apart or more, two when they come
 * faster and regularly, up to four when some intervals are much shorter
 * than the period (two collections fall between two polls only when an
 * interval is shorter than the gap between them plus a wake-up's
 * lateness). */
#define HOTSPOT_TICK_FIRST_PERMILLE 300u
#define HOTSPOT_TICK_MIN_PER_INTERVAL 2u
#define HOTSPOT_TICK_MAX_PER_INTERVAL 4u
#define HOTSPOT_TICK_SLOW_PERIOD_NS 20000000ull
#define HOTSPOT_TICK_SLOW_PER_INTERVAL 3u
#define HOTSPOT_TICK_DENSE_PER_INTERVAL 64
/* The shortest interval creeps back up by this share of the way to the
 * period at each collection, so that one short interval does not keep the
 * tick fast for long, and a workload whose intervals keep varying keeps it. */
#define HOTSPOT_TICK_SHORTEST_RISE 16

static uint64_t hotspot_tick_clamp(uint64_t ns)
{
	if (ns < HOTSPOT_TICK_MIN_NS)
		return HOTSPOT_TICK_MIN_NS;
	return ns > HOTSPOT_TICK_MAX_NS ? HOTSPOT_TICK_MAX_NS : ns;
}

unsigned hotspot_tick_per_interval(uint64_t period, uint64_t shortest)
{
	if (!shortest)
		return HOTSPOT_TICK_MAX_PER_INTERVAL;
	uint64_t n = (period + shortest - 1) / shortest;
	/* Collections 20 ms apart or more: three polls an interval cost under
	 * half a percent of a core, and keep every gap at a third of it. */
	unsigned least = period >= HOTSPOT_TICK_SLOW_PERIOD_NS ? HOTSPOT_TICK_SLOW_PER_INTERVAL
							       : HOTSPOT_TICK_MIN_PER_INTERVAL;
	if (n < least)
		return least;
	return n > HOTSPOT_TICK_MAX_PER_INTERVAL ? HOTSPOT_TICK_MAX_PER_INTERVAL : (unsigned)n;
}

static uint64_t hotspot_tick_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void hotspot_tick_note(struct hotspot_tick_state *t, const struct hotspot_alloc_reading *r, uint64_t period)
{
	/* The stamps of a collection under way are half written. */
	if (r->in_progress)
		return;
	uint64_t n = r->young_gcs + r->full_gcs;
	uint64_t entry = hotspot_tick_max(r->jvm_young_entry_ns, r->jvm_full_entry_ns);
	uint64_t exit = hotspot_tick_max(r->jvm_young_exit_ns, r->jvm_full_exit_ns);
	if (t->prev_poll_ns && n > t->collections && r->mono_ns > t->prev_poll_ns) {
		uint64_t seen;
		if (n - t->collections == 1 && t->last_exit_ns && entry > t->last_exit_ns)
			seen = entry - t->last_exit_ns;
		else /* several in one window: on average no longer than this */
			seen = (r->mono_ns - t->prev_poll_ns) / (n - t->collections);
		if (!t->shortest_ns || seen < t->shortest_ns)
			t->shortest_ns = seen;
		else
			t->shortest_ns += (hotspot_tick_max(t->shortest_ns, seen < period ? seen : period) - t->shortest_ns) /
					  HOTSPOT_TICK_SHORTEST_RISE;
	}
	t->collections = n;
	t->last_exit_ns = exit;
	t->prev_poll_ns = r->mono_ns;
}

uint64_t hotspot_tick_ns(uint64_t now, uint64_t last_exit, uint64_t period, unsigned per_interval, bool dense)
{
	if (!period)
		return HOTSPOT_TICK_MAX_NS;
	/* Humongous allocation comes in bursts around G1's collections (a
	 * humongous allocation starts one and the threads that waited for it
	 * allocate right after it), which no rate can fill in: measured at 14
	 * collections a second, a tick of 4.5 ms (a sixteenth of the interval)
	 * still missed a fifth of them on a busy machine, 1 ms well under 1%.
	 * What a burst is worth shrinks as the interval grows, so collections a
	 * second apart are read every 15 ms, not every millisecond. */
	if (dense)
		return hotspot_tick_clamp(period / HOTSPOT_TICK_DENSE_PER_INTERVAL);
	if (!per_interval)
		per_interval = HOTSPOT_TICK_MAX_PER_INTERVAL;
	/* The exit is not known: a quarter of the interval at a time. */
	if (!last_exit || last_exit > now)
		return hotspot_tick_clamp(period / HOTSPOT_TICK_MAX_PER_INTERVAL);
	/* The marks of this interval, then the first of the next. */
	uint64_t share = period / per_interval;
	for (unsigned j = 0; j <= per_interval; j++) {
		uint64_t at = last_exit + share * j + share / 1000 * HOTSPOT_TICK_FIRST_PERMILLE;
		if (at >= now + HOTSPOT_TICK_MIN_NS)
			return hotspot_tick_clamp(at - now);
	}
	/* Past the last mark: the next collection is late. The polls go on a
	 * share apart, as between the marks: the one after it cannot come
	 * sooner than the shortest interval, which the share does not exceed
	 * (hotspot_tick_per_interval). Polling faster than the marks while it
	 * is late (a quarter interval, earlier) only added wake-ups: 3-9 a
	 * second of 220-259 at 100 collections a second (bench/ 1e), more
	 * where the intervals vary. */
	return hotspot_tick_clamp(share);
}
