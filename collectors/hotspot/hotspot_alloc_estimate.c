#include "collectors/hotspot/hotspot_alloc_estimate.h"

#include <string.h>

static uint64_t estimate_growth(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

void hotspot_alloc_estimate_init(struct hotspot_alloc_estimate *a, enum hotspot_alloc_model model, bool track_humongous)
{
	memset(a, 0, sizeof(*a));
	a->model = model;
	a->track_humongous = track_humongous;
}

/* Of a humongous object's regions, at most 1 / HOTSPOT_ALLOC_HUMONGOUS_WASTE_DIV
 * is unused tail (hotspot_alloc_estimate.h). */
#define HOTSPOT_ALLOC_HUMONGOUS_WASTE_DIV 2

uint64_t hotspot_alloc_estimate_humongous_waste_max(const struct hotspot_alloc_estimate *a)
{
	return a->track_humongous ? a->large_total_bytes / HOTSPOT_ALLOC_HUMONGOUS_WASTE_DIV : 0;
}

uint64_t hotspot_alloc_estimate_tails_max(const struct hotspot_alloc_estimate *a)
{
	return a->tail_max_bytes;
}

/* G1's smallest region (HeapRegionBounds::min_size). */
#define HOTSPOT_ALLOC_G1_MIN_REGION (1ull << 20)

/* G1 regions are a power of two of bytes, 1 MiB at least, and eden is
 * counted in whole ones: the largest power of two dividing every eden
 * figure seen. A figure that is no multiple of 1 MiB was not of whole
 * regions (read while being written) and is not taken. */
static void estimate_learn_region(struct hotspot_alloc_estimate *a, uint64_t eden_used)
{
	if (!a->track_humongous || eden_used == 0)
		return;
	uint64_t low = eden_used & (~eden_used + 1);
	if (low < HOTSPOT_ALLOC_G1_MIN_REGION)
		return;
	if (!a->region_bytes || low < a->region_bytes)
		a->region_bytes = low;
}

/* Eden counted in the current epoch: its tails at the last epoch's share,
 * less what earlier epochs were credited beyond their bound. */
static void estimate_tails_accrue(struct hotspot_alloc_estimate *a, uint64_t eden)
{
	uint64_t add = (uint64_t)(a->tail_share * (double)eden);
	uint64_t used = add < a->tail_credit ? add : a->tail_credit;
	a->tail_credit -= used;
	a->tail_max_bytes += add - used;
	a->tail_open_bytes += add;
	a->tail_epoch_bytes += eden;
}

/* A collection closed an epoch whose eden reached eden_bytes, the last
 * fill_bytes of it since the previous poll, and whose TLAB figures the JVM
 * has just published: its tails' bound (hotspot_alloc_estimate.h), for the
 * share of the epoch the total counted (all but the first after attach),
 * replaces what was accrued for it. */
static void estimate_tails_close(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r,
				 uint64_t eden_bytes, uint64_t fill_bytes)
{
	double share = 0.0;
	uint64_t n = r->tlab_slow_allocs;
	if (n && a->region_bytes && eden_bytes > r->tlab_bytes) {
		double x = (double)(eden_bytes - r->tlab_bytes);
		double regions = (double)eden_bytes / (double)a->region_bytes;
		share = x * regions / ((double)n + regions) / (double)eden_bytes;
	}
	uint64_t bound = (uint64_t)(share * (double)(a->tail_epoch_bytes + fill_bytes));
	if (bound >= a->tail_open_bytes)
		a->tail_max_bytes += bound - a->tail_open_bytes;
	else
		a->tail_credit += a->tail_open_bytes - bound;
	a->tail_share = share;
	a->tail_open_bytes = a->tail_epoch_bytes = 0;
}

const char *hotspot_alloc_estimate_bound_reason(enum hotspot_alloc_model model)
{
	switch (model) {
	case HOTSPOT_ALLOC_EDEN:
		return "collections came faster than gctop's poll tick: the allocation between some of them was not seen";
	case HOTSPOT_ALLOC_HEAP_GROWTH:
		return "heap growth between polls: memory a concurrent cycle reclaimed and reused in between is not seen";
	case HOTSPOT_ALLOC_TLAB_EPOCHS:
		return "TLAB bytes per collection cycle: allocation outside TLABs (large arrays) is not counted";
	}
	return NULL;
}

bool hotspot_alloc_estimate_cause_fills_eden(const char *cause)
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
static void estimate_humongous_after_pause(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	uint64_t shrink = estimate_growth(a->prev.old_used, r->old_used);
	a->large_live_bytes = a->large_live_bytes > shrink ? a->large_live_bytes - shrink : 0;
	if (a->large_live_bytes > r->old_used)
		a->large_live_bytes = r->old_used;
}

/* Two collections this close (ns) belong to one stop: Parallel's full
 * collection right after the young one that could not promote. */
#define HOTSPOT_ALLOC_SAME_STOP_NS 1000000ull

static uint64_t estimate_mono(const struct hotspot_alloc_estimate *a, uint64_t jvm_ns)
{
	if (!a->have_offset || jvm_ns == 0)
		return 0;
	int64_t mono = (int64_t)jvm_ns + a->clock_offset_ns;
	return mono > 0 ? (uint64_t)mono : 0;
}

/* Every JVM time stamp was written before we read it, so mono - jvm_clock
 * at the read is an upper bound of the offset; the least one seen is the
 * closest (within a poll tick once a collection ended just before a poll). */
static void estimate_calibrate(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	if (r->jvm_clock_ns == 0 || r->mono_ns == 0)
		return;
	int64_t off = (int64_t)r->mono_ns - (int64_t)r->jvm_clock_ns;
	if (!a->have_offset || off < a->clock_offset_ns)
		a->clock_offset_ns = off;
	a->have_offset = true;
}

/* ns between a and b inside the poll window, 0 when unknown. */
static uint64_t estimate_span(uint64_t from, uint64_t to, uint64_t window)
{
	if (!from || !to || to <= from)
		return 0;
	return to - from < window ? to - from : window;
}

/* Bytes per ns over the current and the previous epoch. */
static double estimate_rate(const struct hotspot_alloc_estimate *a, bool old)
{
	uint64_t ns = a->epoch.ns + a->last_epoch.ns;
	uint64_t bytes = old ? a->epoch.old_bytes + a->last_epoch.old_bytes
			     : a->epoch.eden_bytes + a->last_epoch.eden_bytes;
	return ns ? (double)bytes / (double)ns : 0.0;
}

static void estimate_add_large(struct hotspot_alloc_estimate *a, uint64_t bytes)
{
	a->total_bytes += bytes;
	if (a->track_humongous) {
		a->large_total_bytes += bytes;
		a->large_live_bytes += bytes;
	}
}

/* A poll window without a young or full collection: eden and old growth are
 * allocation (old grows between pauses only by direct and humongous
 * allocation). A G1 remark or cleanup pause in the window changes old by
 * reclaim, so old growth then is not measured. */
static void estimate_quiet_window(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	uint64_t eden = estimate_growth(r->eden_used, p->eden_used);
	a->total_bytes += eden;
	if (a->track_humongous)
		estimate_tails_accrue(a, eden);
	if (r->other_pauses != p->other_pauses) {
		/* Old changed by reclaim too: the old rate stands in for the
		 * stretches before and after the pause. */
		if (a->track_humongous)
			estimate_humongous_after_pause(a, r);
		uint64_t window = r->mono_ns > p->mono_ns ? r->mono_ns - p->mono_ns : 0;
		uint64_t entry = estimate_mono(a, r->jvm_other_entry_ns);
		uint64_t exit = estimate_mono(a, r->jvm_other_exit_ns);
		uint64_t seen = estimate_span(p->mono_ns, entry, window) + estimate_span(exit, r->mono_ns, window);
		estimate_add_large(a, (uint64_t)(estimate_rate(a, true) * (double)seen));
		return;
	}
	uint64_t old = estimate_growth(r->old_used, p->old_used);
	estimate_add_large(a, old);
	a->epoch.eden_bytes += eden;
	a->epoch.old_bytes += old;
	if (r->mono_ns > p->mono_ns)
		a->epoch.ns += r->mono_ns - p->mono_ns;
}

/* Where the collections of a window start and end on our clock, and how many
 * intervals between them no poll saw. */
struct estimate_window {
	uint64_t collections, blind;
	uint64_t first_entry, last_exit; /* mono ns, 0 unknown */
};

static void estimate_window(const struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r,
			    struct estimate_window *w)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	uint64_t young = r->young_gcs - p->young_gcs, full = r->full_gcs - p->full_gcs;
	w->collections = young + full;
	w->blind = w->collections - 1;
	uint64_t ye = estimate_mono(a, r->jvm_young_entry_ns), yx = estimate_mono(a, r->jvm_young_exit_ns);
	uint64_t fe = estimate_mono(a, r->jvm_full_entry_ns), fx = estimate_mono(a, r->jvm_full_exit_ns);
	if (young && full) {
		/* One stop when one began as the other ended. */
		uint64_t gap = fe > yx ? fe - yx : yx - fe;
		if (yx && fe && gap < HOTSPOT_ALLOC_SAME_STOP_NS)
			w->blind--;
		w->first_entry = ye && fe ? (ye < fe ? ye : fe) : 0;
		w->last_exit = yx && fx ? (yx > fx ? yx : fx) : 0;
	} else {
		w->first_entry = young ? ye : fe;
		w->last_exit = young ? yx : fx;
	}
}

/* Direct-to-old and humongous allocation across the collections of a
 * window. Parallel says what its one young collection promoted, so old's
 * growth less that is exact. Otherwise the old rate of the epoch stands in
 * for the stretches before and after (G1 is polled 64 times an interval
 * while it allocates humongous objects, so they are short). */
static uint64_t estimate_old_across(const struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r,
				    const struct estimate_window *w, uint64_t before, uint64_t after)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	if (r->has_promoted && w->collections == 1 && r->full_gcs == p->full_gcs)
		return estimate_growth(r->old_used, p->old_used + r->promoted_bytes);
	return (uint64_t)(estimate_rate(a, true) * (double)(before + after));
}

/* Each collection publishes the TLAB figures of the epoch it closed
 * (sun.gc.tlab.*), inside its pause, and a reading inside a pause is not
 * taken (in_progress): a window with collections has the figures of the
 * epoch its last one closed. Whether they changed says nothing: a steady
 * program's epochs publish the same figures (the same TLAB bytes and
 * outside allocations, two epochs in a row of 40 in a run of 256 KiB
 * buffers), and taking that for no new epoch left out its tails' bound and
 * its TLAB waste. */
/* A window that hid whole intervals: each collection publishes the TLAB
 * bytes of the epoch it closed (sun.gc.tlab.alloc, unused tails included),
 * so new figures are the TLAB allocation of the last epoch with any, which
 * ended in this window: no poll saw it unless it began before the previous
 * poll, whose eden (counted then) is taken off so that the total stays a
 * lower bound. Allocation outside TLABs in it is not seen. */
static uint64_t estimate_blind_tlab(const struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	uint64_t used = estimate_growth(r->tlab_bytes, r->tlab_waste_bytes);
	return estimate_growth(used, p->eden_used);
}

/* Of the time from the previous poll to a collection's entry (before), what
 * the threads spent being brought to its safepoint: the collection's entry
 * stamp is written once they all stopped, and allocation stopped when the
 * allocation that asked for the collection failed, so that wait is no
 * fill (measured: 0.1 ms a collection on a quiet machine, up to 10 ms
 * beside two CPU hogs). The JVM sums the waits of all safepoints; those of
 * other safepoints in the window are taken off too, so the rate's fill is
 * then short (a partial eden's fill is a lower bound anyway). */
static uint64_t estimate_allocating_span(const struct hotspot_alloc_reading *p, const struct hotspot_alloc_reading *r,
					 uint64_t before)
{
	uint64_t waited = estimate_growth(r->safepoint_sync_ns, p->safepoint_sync_ns);
	return before > waited ? before - waited : 0;
}

/* A window with young or full collections. Eden after the last collection
 * holds only what was allocated since. Before the first one eden grew from
 * what the previous poll saw to what the collection found: at the rate of
 * this epoch over the time from that poll to the collection's entry
 * (lastEntryTime), or to a full eden when its cause says so. Humongous and direct-to-old
 * allocation before and after it come from the same rates. Intervals
 * between two collections of one window are not seen: they add nothing and
 * are counted as blind, so the total is then a lower bound. */
static void estimate_collection_window(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	struct estimate_window w;
	estimate_window(a, r, &w);
	uint64_t window = r->mono_ns > p->mono_ns ? r->mono_ns - p->mono_ns : 0;
	uint64_t before = estimate_span(p->mono_ns, w.first_entry, window);
	uint64_t after = estimate_span(w.last_exit, r->mono_ns, window);
	double eden_rate = estimate_rate(a, false);

	/* A full eden when the cause says so: its room at the last poll. Exact
	 * for Serial and Parallel (JDK 25's publish eden only at collections,
	 * and 17's only every 50 ms), and for G1 to a region: its eden capacity
	 * is its young target's regions, recomputed at each eden region it
	 * takes, and a young collection comes when eden holds them all. The
	 * rate's fill is no floor for G1: on a busy machine the rate of an
	 * epoch misses the moment's by a fifth either way, and the larger of
	 * the two read a 256 KiB-buffer server's window 5.6% over. Otherwise
	 * the rate of this epoch up to the collection's start. */
	uint64_t room = estimate_growth(p->eden_capacity, p->eden_used);
	uint64_t allocating = estimate_allocating_span(p, r, before);
	uint64_t by_rate = eden_rate > 0 && w.first_entry ? (uint64_t)(eden_rate * (double)allocating) : 0;
	uint64_t fill = r->eden_was_full ? room : by_rate;
	/* With collections unseen, only the last one's start and cause are
	 * known: the fill before the first is not, and is left out so that the
	 * total stays a lower bound; what the JVM published of an unseen epoch
	 * stands in for it. */
	if (w.blind)
		fill = estimate_blind_tlab(a, r);
	uint64_t eden = fill + r->eden_used;
	/* TLAB tails left unused fill eden but were never allocated. */
	if (w.collections == 1)
		eden = eden > r->tlab_waste_bytes ? eden - r->tlab_waste_bytes : 0;
	a->total_bytes += eden;
	a->blind_collections += w.blind;
	if (a->track_humongous) {
		/* An unseen epoch's outside allocation is not in the total (the
		 * TLAB bytes stand in for it), so neither are its tails. */
		if (!w.blind)
			estimate_tails_close(a, r, p->eden_used + fill, fill);
		else
			a->tail_open_bytes = a->tail_epoch_bytes = 0;
		estimate_tails_accrue(a, r->eden_used);
	}

	if (a->track_humongous)
		estimate_humongous_after_pause(a, r);
	/* As for eden, the stretch before an unseen first collection is left out. */
	estimate_add_large(a, estimate_old_across(a, r, &w, w.blind ? 0 : before, after));

	a->last_epoch = a->epoch;
	memset(&a->epoch, 0, sizeof(a->epoch));
}

static void estimate_step_eden(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	const struct hotspot_alloc_reading *p = &a->prev;
	if (r->young_gcs == p->young_gcs && r->full_gcs == p->full_gcs)
		estimate_quiet_window(a, r);
	else
		estimate_collection_window(a, r);
}

void hotspot_alloc_estimate_step(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r)
{
	estimate_calibrate(a, r);
	estimate_learn_region(a, r->eden_used);
	if (r->in_progress && a->model == HOTSPOT_ALLOC_EDEN)
		return;
	/* Counters only grow; going back means a different JVM or a torn read:
	 * start again from this reading rather than invent bytes. */
	if (a->have_prev && (r->young_gcs < a->prev.young_gcs || r->full_gcs < a->prev.full_gcs ||
			     r->other_pauses < a->prev.other_pauses)) {
		a->prev = *r;
		return;
	}
	if (a->have_prev) {
		if (a->model == HOTSPOT_ALLOC_EDEN)
			estimate_step_eden(a, r);
		else if (a->model == HOTSPOT_ALLOC_TLAB_EPOCHS) {
			/* A new epoch changes the published figures; an epoch without
			 * TLAB allocation publishes nothing and keeps the old ones. */
			if (r->tlab_bytes != a->prev.tlab_bytes || r->tlab_fills != a->prev.tlab_fills) {
				a->total_bytes += r->tlab_bytes;
				/* Allocation outside TLABs (large arrays) is in no epoch. */
				a->blind_collections++;
			}
		} else {
			a->total_bytes += estimate_growth(r->heap_used, a->prev.heap_used);
			/* Memory a concurrent cycle reclaimed while we were not looking
			 * hides the allocation that reused it: a window with a cycle, or
			 * with the heap shrinking (its figure is refreshed late). */
			a->blind_collections += (r->full_gcs - a->prev.full_gcs) + (r->other_pauses - a->prev.other_pauses);
			if (r->heap_used < a->prev.heap_used)
				a->blind_collections++;
		}
	}
	a->prev = *r;
	a->have_prev = true;
}
