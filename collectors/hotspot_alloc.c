#include "hotspot_alloc.h"

#include <string.h>

static uint64_t hotspot_alloc_growth(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

void hotspot_alloc_init(struct hotspot_alloc *a, enum hotspot_alloc_model model, bool track_humongous)
{
	memset(a, 0, sizeof(*a));
	a->model = model;
	a->track_humongous = track_humongous;
}

bool hotspot_alloc_cause_fills_eden(const char *cause)
{
	/* A young collection started because an allocation did not fit; Parallel's
	 * "Ergonomics" full collection follows such a young one in the same window;
	 * a GC locker collection runs when an allocation failed during a JNI
	 * critical section. Other causes (System.gc(), metadata, humongous
	 * allocation, periodic) collect a partly filled eden. */
	static const char *const full[] = {
		"Allocation Failure", "G1 Evacuation Pause", "Ergonomics", "GCLocker Initiated GC",
	};
	for (size_t i = 0; i < sizeof(full) / sizeof(full[0]); i++)
		if (strcmp(cause, full[i]) == 0)
			return true;
	return false;
}

/* At a pause, old-gen shrinkage is taken as reclaimed humongous objects
 * (young pauses only free humongous regions eagerly; promotion can hide some
 * of that, so the live figure is an upper bound), never more than old holds. */
static void hotspot_alloc_humongous_after_pause(struct hotspot_alloc *a, const struct hotspot_alloc_reading *r)
{
	uint64_t shrink = hotspot_alloc_growth(a->prev.old_used, r->old_used);
	a->large_live_bytes = a->large_live_bytes > shrink ? a->large_live_bytes - shrink : 0;
	if (a->large_live_bytes > r->old_used)
		a->large_live_bytes = r->old_used;
}

static void hotspot_alloc_step_eden(struct hotspot_alloc *a, const struct hotspot_alloc_reading *r)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	uint64_t collections = (r->young_gcs - p->young_gcs) + (r->full_gcs - p->full_gcs);
	bool other_pause = r->other_pauses != p->other_pauses;

	if (collections == 0) {
		uint64_t eden_growth = hotspot_alloc_growth(r->eden_used, p->eden_used);
		a->total_bytes += eden_growth;
		a->epoch_bytes += eden_growth;
		if (r->mono_ns > p->mono_ns)
			a->epoch_ns += r->mono_ns - p->mono_ns;
		if (!other_pause) {
			/* Between pauses only direct allocation makes old grow. */
			uint64_t old_growth = hotspot_alloc_growth(r->old_used, p->old_used);
			a->total_bytes += old_growth;
			a->epoch_bytes += old_growth;
			if (a->track_humongous) {
				a->large_total_bytes += old_growth;
				a->large_live_bytes += old_growth;
			}
		} else if (a->track_humongous) {
			hotspot_alloc_humongous_after_pause(a, r);
		}
		return;
	}

	/* Eden after the last collection holds only what was allocated since. */
	uint64_t low = r->eden_used, high = low;
	if (r->eden_was_full) {
		/* The rest of eden filled up before the first collection, and every
		 * further one in this window emptied a full eden. */
		high += hotspot_alloc_growth(p->eden_capacity, p->eden_used);
		high += (collections - 1) * p->eden_capacity;
	}
	/* A collection can start with eden not quite full (an array that does
	 * not fit the rest), so "full" is an upper bound. Within the bounds,
	 * the rate seen since the previous collection is the better guess. */
	uint64_t bytes = high;
	if (a->epoch_bytes > 0 && a->epoch_ns > 0 && r->mono_ns > p->mono_ns) {
		double guess = (double)a->epoch_bytes / (double)a->epoch_ns * (double)(r->mono_ns - p->mono_ns);
		bytes = guess <= (double)low ? low : guess >= (double)high ? high : (uint64_t)guess;
	}
	a->total_bytes += bytes;
	a->epoch_bytes = 0;
	a->epoch_ns = 0;
	if (a->track_humongous)
		hotspot_alloc_humongous_after_pause(a, r);
}

void hotspot_alloc_step(struct hotspot_alloc *a, const struct hotspot_alloc_reading *r)
{
	/* Counters only grow; going back means a different JVM or a torn read:
	 * start again from this reading rather than invent bytes. */
	if (a->have_prev && (r->young_gcs < a->prev.young_gcs || r->full_gcs < a->prev.full_gcs ||
			     r->other_pauses < a->prev.other_pauses)) {
		a->prev = *r;
		return;
	}
	if (a->have_prev) {
		if (a->model == HOTSPOT_ALLOC_EDEN)
			hotspot_alloc_step_eden(a, r);
		else if (a->model == HOTSPOT_ALLOC_TLAB_EPOCHS) {
			/* A new epoch changes the published figures; an epoch without
			 * TLAB allocation publishes nothing and keeps the old ones. */
			if (r->tlab_bytes != a->prev.tlab_bytes || r->tlab_fills != a->prev.tlab_fills)
				a->total_bytes += r->tlab_bytes;
		} else
			a->total_bytes += hotspot_alloc_growth(r->heap_used, a->prev.heap_used);
	}
	a->prev = *r;
	a->have_prev = true;
}
