/* The live set from the perf data: one point per collection that reached
 * the old generation, taken at the poll that first sees it over, by a rule
 * per collector (what each publishes and when, measured live on JDK 17 and
 * 25; notes/research §4):
 *   Serial      old used after a full collection (collector.1 moved): exact.
 *   Parallel    sun.gc.policy.liveAtLastFullGc after a full collection:
 *               exact (equal to PS Old Gen's collection usage).
 *   G1          a full collection: old used after it, exact. A concurrent
 *               cycle: its Remark and Cleanup move collector.2 (Cleanup
 *               frees the old regions marking found empty), then the mixed
 *               collections follow as collector.0 moves that perf data
 *               cannot tell from young ones. The point is the least old used
 *               after any of these (Remark, Cleanup, young, mixed) from one
 *               cycle's Remark to the next's, taken when the next Remark
 *               closes the window (or a full collection does). Old used only
 *               falls at those collections and rises between them by
 *               promotion, so the least comes after the last mixed one or
 *               at the next cycle's start. It still holds the garbage G1
 *               chose to leave (G1HeapWastePercent, 5 % of the heap by
 *               default) and whatever dead objects young collections
 *               promoted since the marking: an upper bound, which its kind
 *               says. Measured (JDK 17, -Xmx256m, 3 MiB/s leaked among
 *               2 MiB/s of objects dying old, -Xlog:gc+heap): seven points,
 *               179.5 to 206.8 MiB, each within 1.5 MiB of the log's old
 *               regions after that cycle's mixed collection.
 *               Until the first cycle watched, no point: old then holds
 *               garbage no marking has found.
 *   ZGC (gen.)  a major cycle (collector.2 moved): the least old used from
 *               the first poll that sees it over (sun.gc.cause back to "No
 *               GC"; the cause spans the whole cycle) to the next major
 *               cycle, taken at the minor pauses in between, given when the
 *               next one starts. ZGC writes its sizes at pause ends only, so
 *               at the cycle's end old is as its Relocate Start left it,
 *               before relocation freed the sparse pages; a minor pause
 *               after it shows old after the relocation, plus what it
 *               promoted. Measured on JDK 25 (5 ms polling beside
 *               -Xlog:gc*): 106/112/110 MiB at the cycles' ends against the
 *               log's old at Relocate End of 102/110/106 MiB. Minor
 *               collections can be rarer than major ones (13 against 17 in
 *               20 s of a leak), so many points are still the end's. Objects
 *               that die old stay counted until ZGC finds their page worth
 *               relocating: among 2 MiB/s of them the growth read 9-17 %
 *               over a leak's rate (tests/integration/jvm_live_set.sh). An
 *               upper bound, which its kind says.
 *   ZGC (17)    none: the whole heap's used is written at pauses only, before
 *               relocation, and no minor pause follows to show the result.
 *   Shenandoah  the heap used at the first poll that sees the cause back to
 *               "No GC" after collector.1 moved: used after the cycle plus
 *               what was allocated since (up to one poll interval).
 *               Generational (JDK 25, -XX:ShenandoahGCMode=generational):
 *               none, its young cycles move collector.1 too and the perf
 *               data has one space for the whole heap, so used after a
 *               young cycle would count the old generation's garbage. */
#include "collectors/hotspot/hotspot_internal.h"

#include <string.h>

/* Each kind reads after "after" ("Live: 120 MiB after full GC"). */
#define HOTSPOT_LIVE_KIND_FULL "full GC"
#define HOTSPOT_LIVE_KIND_G1_MIXED "G1 mixed collections (upper bound: may include garbage)"
#define HOTSPOT_LIVE_KIND_ZGC_MAJOR "ZGC major cycle (upper bound: may include garbage)"
#define HOTSPOT_LIVE_KIND_SHENANDOAH "Shenandoah cycle (with what was allocated since its end)"

/* The collectors perf data numbers: 0 young, 1 full (Shenandoah: its
 * phases), 2 G1 Remark/Cleanup and ZGC major pauses. */
#define HOTSPOT_LIVE_YOUNG 0
#define HOTSPOT_LIVE_FULL 1
#define HOTSPOT_LIVE_CYCLE 2

const char *hotspot_live_unavailable(enum hotspot_gc gc, bool shenandoah_generational)
{
	/* Its young cycles move collector.1 as the global ones do, and the
	 * heap is one space: used after a young cycle still holds old garbage. */
	if (gc == HOTSPOT_GC_SHENANDOAH && shenandoah_generational)
		return "generational Shenandoah's perf data has one space for the whole heap and does not tell its "
		       "young cycles from its old ones, so no reading shows the old generation after an old cycle";
	switch (gc) {
	case HOTSPOT_GC_Z:
		return "non-generational ZGC writes its heap size to perf data only at its pauses, before relocation "
		       "frees memory, so no reading shows the heap after a cycle";
	case HOTSPOT_GC_UNKNOWN:
		return "unknown collector";
	default:
		return NULL;
	}
}

void hotspot_live_init(struct hotspot_live *l, enum hotspot_gc gc, bool shenandoah_generational)
{
	memset(l, 0, sizeof(*l));
	l->gc = gc;
	l->shenandoah_generational = shenandoah_generational;
	l->log.valid = hotspot_live_unavailable(gc, shenandoah_generational) == NULL;
}

static void hotspot_live_add(struct hotspot_live *l, uint64_t bytes, uint64_t at_ns, const char *kind)
{
	struct gt_live_point *pt = &l->log.points[l->log.count % GT_LIVE_RING];
	*pt = (struct gt_live_point){ bytes, at_ns, kind };
	l->log.count++;
}

static bool hotspot_live_no_gc(const struct hotspot_live_reading *r)
{
	return strcmp(r->cause, HOTSPOT_CAUSE_NONE) == 0;
}

/* A window's least old used so far. */
static void hotspot_live_least(struct hotspot_live *l, const struct hotspot_live_reading *r)
{
	if (!l->have_least || r->old_used < l->least) {
		l->least = r->old_used;
		l->least_at_ns = r->mono_ns;
		l->have_least = true;
	}
}

/* The window's least becomes a point. */
static void hotspot_live_flush(struct hotspot_live *l, const char *kind)
{
	if (l->have_least)
		hotspot_live_add(l, l->least, l->least_at_ns, kind);
	l->have_least = false;
}

/* G1: the window of a concurrent cycle closes; the least old used seen in
 * it is the cycle's point, once a young or mixed collection came after the
 * cycle's pauses (the Remark and Cleanup of one cycle, ms apart, fall in one
 * window whether or not a poll separates them). */
static void hotspot_live_close_window(struct hotspot_live *l)
{
	if (!l->young_seen)
		return;
	hotspot_live_flush(l, HOTSPOT_LIVE_KIND_G1_MIXED);
	l->young_seen = false;
}

static void hotspot_live_g1(struct hotspot_live *l, const struct hotspot_live_reading *r, const bool moved[3])
{
	if (moved[HOTSPOT_LIVE_FULL]) {
		hotspot_live_close_window(l);
		hotspot_live_add(l, r->old_used, r->mono_ns, HOTSPOT_LIVE_KIND_FULL);
		/* until the next concurrent cycle */
		l->window = false;
		l->have_least = false;
		l->young_seen = false;
		return;
	}
	/* The next cycle's Remark closes the window. */
	if (moved[HOTSPOT_LIVE_CYCLE]) {
		hotspot_live_close_window(l);
		l->window = true;
	}
	if (!l->window || !(moved[HOTSPOT_LIVE_CYCLE] || moved[HOTSPOT_LIVE_YOUNG]))
		return;
	if (moved[HOTSPOT_LIVE_YOUNG] && !moved[HOTSPOT_LIVE_CYCLE])
		l->young_seen = true;
	hotspot_live_least(l, r);
}

/* Generational ZGC: a major cycle's window runs from its end to the next
 * one's start. */
static void hotspot_live_zgc(struct hotspot_live *l, const struct hotspot_live_reading *r, const bool moved[3])
{
	if (moved[HOTSPOT_LIVE_CYCLE]) {
		hotspot_live_flush(l, HOTSPOT_LIVE_KIND_ZGC_MAJOR);
		l->window = false;
		l->armed = true;
	}
	if (!hotspot_live_no_gc(r))
		return;
	if (l->armed) {
		l->armed = false;
		l->window = true;
		hotspot_live_least(l, r);
	} else if (l->window && moved[HOTSPOT_LIVE_YOUNG]) {
		hotspot_live_least(l, r);
	}
}

/* A concurrent cycle's point: the first settled poll with no collection
 * under way after its collector moved (in the same poll if it is over). */
static void hotspot_live_cycle_end(struct hotspot_live *l, const struct hotspot_live_reading *r, bool moved,
				   const char *kind)
{
	if (moved)
		l->armed = true;
	if (l->armed && hotspot_live_no_gc(r)) {
		hotspot_live_add(l, r->old_used, r->mono_ns, kind);
		l->armed = false;
	}
}

static void hotspot_live_step(struct hotspot_live *l, const struct hotspot_live_reading *r, const bool moved[3])
{
	switch (l->gc) {
	case HOTSPOT_GC_SERIAL:
		if (moved[HOTSPOT_LIVE_FULL])
			hotspot_live_add(l, r->old_used, r->mono_ns, HOTSPOT_LIVE_KIND_FULL);
		return;
	case HOTSPOT_GC_PARALLEL:
		if (moved[HOTSPOT_LIVE_FULL])
			hotspot_live_add(l, r->has_live_at_full ? r->live_at_full : r->old_used, r->mono_ns,
					 HOTSPOT_LIVE_KIND_FULL);
		return;
	case HOTSPOT_GC_G1:
		hotspot_live_g1(l, r, moved);
		return;
	case HOTSPOT_GC_Z_GENERATIONAL:
		hotspot_live_zgc(l, r, moved);
		return;
	case HOTSPOT_GC_SHENANDOAH:
		hotspot_live_cycle_end(l, r, moved[HOTSPOT_LIVE_FULL], HOTSPOT_LIVE_KIND_SHENANDOAH);
		return;
	case HOTSPOT_GC_Z:
	case HOTSPOT_GC_UNKNOWN:
		return;
	}
}

void hotspot_live_note(struct hotspot_live *l, const struct hotspot_live_reading *r)
{
	/* A collection under way may have half-written sizes: the next settled
	 * poll sees the same moves. */
	if (r->in_progress || !l->log.valid)
		return;
	bool moved[3];
	for (int i = 0; i < 3; i++)
		moved[i] = l->started && r->invocations[i] != l->invocations[i];
	/* Collections before the first poll are not this watch's. */
	if (l->started)
		hotspot_live_step(l, r, moved);
	memcpy(l->invocations, r->invocations, sizeof(l->invocations));
	l->started = true;
}

void hotspot_live_fill(const struct hotspot_live *l, struct gt_sample *out)
{
	out->live_log = l->log;
	out->live_unavailable = hotspot_live_unavailable(l->gc, l->shenandoah_generational);
}
