/* When the HotSpot collector polls next while the JVM collects. */
#include "collectors/hotspot/hotspot.h"

/* Polls land at these points of the expected interval after a collection
 * ended (per cent of the time between collections): one early, so the
 * stretch after a collection that is filled from rates stays short, and
 * the last well before the next one, since a busy machine wakes gctop a few
 * ms late: two collections fall between two polls only when an interval is
 * much shorter than usual or a wake-up very late. Every wake-up costs the
 * kernel tens of microseconds on a busy machine, more than the read itself,
 * hence few polls. Collections less than 20 ms apart are polled every
 * quarter interval instead: there a wake-up a few ms late would miss the
 * next mark. */
static const unsigned hotspot_tick_marks[] = { 15, 45, 75 };
#define HOTSPOT_TICK_FAST_PERIOD_NS 20000000ull
#define HOTSPOT_TICK_PER_INTERVAL 4
#define HOTSPOT_TICK_DENSE_PER_INTERVAL 64

static uint64_t hotspot_tick_clamp(uint64_t ns)
{
	if (ns < HOTSPOT_TICK_MIN_NS)
		return HOTSPOT_TICK_MIN_NS;
	return ns > HOTSPOT_TICK_MAX_NS ? HOTSPOT_TICK_MAX_NS : ns;
}

uint64_t hotspot_tick_ns(uint64_t now, uint64_t last_exit, uint64_t period, bool dense)
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
	if (last_exit && last_exit <= now && period >= HOTSPOT_TICK_FAST_PERIOD_NS) {
		for (size_t i = 0; i < sizeof(hotspot_tick_marks) / sizeof(hotspot_tick_marks[0]); i++) {
			uint64_t at = last_exit + period / 100 * hotspot_tick_marks[i];
			if (at >= now + HOTSPOT_TICK_MIN_NS)
				return hotspot_tick_clamp(at - now);
		}
	}
	/* Fast collections, past the last mark (the next collection is late) or
	 * the exit is not known: a quarter of the interval at a time. */
	return hotspot_tick_clamp(period / HOTSPOT_TICK_PER_INTERVAL);
}
