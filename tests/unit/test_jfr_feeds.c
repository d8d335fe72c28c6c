/* What the JFR source makes of the JVM's own GC and allocation events,
 * on crafted event lists: the order events come in (a chunk's, not
 * time's), events read twice across a recording's renewal, threads that
 * end. */
#include <stdlib.h>

#include "collectors/hotspot/jfr/jfr_alloc_total.h"
#include "collectors/hotspot/jfr/jfr_gc.h"
#include "collectors/hotspot/jfr/jfr_live.h"
#include "tests/unit/check.h"

#define S 1000000000ll /* one second in ns */

static void alloc_total_sums_threads_and_keeps_the_ended(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	CHECK(t.at_ns == 0);
	/* period 1: threads 1 and 2 */
	jfr_alloc_total_note(&t, 1, 100, 10 * S);
	jfr_alloc_total_note(&t, 2, 50, 10 * S);
	CHECK(t.total == 150 && t.at_ns == 10 * S && t.prev_ns == 0);
	/* period 2: thread 2 has ended, thread 3 began; 2's 50 stay */
	jfr_alloc_total_note(&t, 1, 300, 11 * S);
	jfr_alloc_total_note(&t, 3, 70, 11 * S);
	CHECK(t.total == 420);
	CHECK(t.prev_total == 150 && t.prev_ns == 10 * S && t.at_ns == 11 * S);
	/* the same period read again (the old and the new recording both
	 * wrote it, or a chunk read twice): nothing changes */
	jfr_alloc_total_note(&t, 1, 300, 11 * S);
	jfr_alloc_total_note(&t, 3, 70, 11 * S);
	CHECK(t.total == 420 && t.prev_total == 150 && t.at_ns == 11 * S);
	/* an event of an older period after a newer one: the total never goes down */
	jfr_alloc_total_note(&t, 1, 100, 10 * S);
	CHECK(t.total == 420 && t.at_ns == 11 * S);
	/* thread id 0 and the largest id are threads like any other */
	jfr_alloc_total_note(&t, 0, 5, 12 * S);
	jfr_alloc_total_note(&t, UINT64_MAX, 5, 12 * S);
	CHECK(t.total == 430 && t.prev_total == 420 && t.prev_ns == 11 * S);
	jfr_alloc_total_free(&t);
}

static void alloc_total_holds_many_threads_in_any_order(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	/* 10,000 threads, each period in a shuffled order */
	const uint64_t n = 10000;
	for (int64_t p = 1; p <= 3; p++)
		for (uint64_t k = 0; k < n; k++) {
			uint64_t id = (k * 7919) % n;
			jfr_alloc_total_note(&t, id, (uint64_t)p * (id + 1), p * S);
		}
	uint64_t want = 3 * (n * (n + 1) / 2);
	CHECK(t.total == want && t.used == n && t.threads_lost == 0);
	CHECK(t.prev_total == 2 * (n * (n + 1) / 2) && t.prev_ns == 2 * S);
	jfr_alloc_total_free(&t);
}

static void alloc_total_bounds_its_table(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	for (uint64_t k = 0; k < JFR_ALLOC_TOTAL_THREADS_KEPT + 10; k++)
		jfr_alloc_total_note(&t, k, 1, S);
	CHECK(t.used == JFR_ALLOC_TOTAL_THREADS_KEPT);
	CHECK(t.threads_lost == 10);
	CHECK(t.total == JFR_ALLOC_TOTAL_THREADS_KEPT);
	CHECK(t.cap <= 2 * JFR_ALLOC_TOTAL_THREADS_KEPT);
	/* a thread kept still rises */
	jfr_alloc_total_note(&t, 5, 11, 2 * S);
	CHECK(t.total == JFR_ALLOC_TOTAL_THREADS_KEPT + 10);
	jfr_alloc_total_free(&t);
}

static void live_kinds_by_collection_name(void)
{
	CHECK(jfr_live_kind("G1Full") != NULL);
	CHECK(jfr_live_kind("ParallelOld") != NULL);
	CHECK(jfr_live_kind("SerialOld") != NULL);
	CHECK(jfr_live_kind("Z") != NULL);
	CHECK(jfr_live_kind("G1New") == NULL);
	CHECK(jfr_live_kind("G1Old") == NULL);   /* a cycle's end: mixed collections follow */
	CHECK(jfr_live_kind("ParallelScavenge") == NULL);
	CHECK(jfr_live_kind("DefNew") == NULL);
	CHECK(jfr_live_kind("") == NULL);
}

static void live_joins_halves_by_gc_id_once(void)
{
	struct jfr_live l;
	jfr_live_init(&l);
	/* a young collection: no point */
	jfr_live_note_gc(&l, 1, "ParallelScavenge");
	jfr_live_note_after(&l, 1, 100, 1 * S);
	CHECK(l.count == 0);
	/* a full one, its summary first (a chunk's order) */
	jfr_live_note_after(&l, 2, 80, 2 * S);
	CHECK(l.count == 0);
	jfr_live_note_gc(&l, 2, "ParallelOld");
	CHECK(l.count == 1 && l.points[0].gc_id == 2 && l.points[0].bytes == 80 && l.points[0].at_ns == 2 * S);
	/* the same collection read again (two recordings, one chunk) */
	jfr_live_note_gc(&l, 2, "ParallelOld");
	jfr_live_note_after(&l, 2, 80, 2 * S);
	CHECK(l.count == 1);
	/* halves of two collections interleaved */
	jfr_live_note_gc(&l, 3, "Z");
	jfr_live_note_gc(&l, 4, "Z");
	jfr_live_note_after(&l, 4, 40, 4 * S);
	jfr_live_note_after(&l, 3, 30, 3 * S);
	CHECK(l.count == 3 && l.points[1].gc_id == 4 && l.points[2].gc_id == 3 && l.points[2].bytes == 30);
	/* a gcId far older than the newest: given or lost long ago */
	jfr_live_note_gc(&l, 10000, "G1New");
	jfr_live_note_gc(&l, 5, "G1Full");
	jfr_live_note_after(&l, 5, 50, 5 * S);
	CHECK(l.count == 3);
}

static void live_bounds_what_it_waits_for(void)
{
	struct jfr_live l;
	jfr_live_init(&l);
	/* halves whose other half never comes: the lowest gcId goes first */
	for (uint64_t id = 0; id < 3 * JFR_LIVE_PENDING; id++)
		jfr_live_note_gc(&l, id, "G1Full");
	unsigned used = 0;
	for (size_t i = 0; i < JFR_LIVE_PENDING; i++)
		used += l.pending[i].used && l.pending[i].gc_id >= 2 * JFR_LIVE_PENDING;
	CHECK(used == JFR_LIVE_PENDING);
	jfr_live_note_after(&l, 3 * JFR_LIVE_PENDING - 1, 7, S);
	CHECK(l.count == 1 && l.points[0].bytes == 7);
	/* more points than the ring: the newest stay */
	for (uint64_t id = 1000; id < 1000 + 2 * JFR_LIVE_POINTS; id++) {
		jfr_live_note_gc(&l, id, "SerialOld");
		jfr_live_note_after(&l, id, id, (int64_t)id * S);
	}
	CHECK(l.count == 1 + 2 * JFR_LIVE_POINTS);
	CHECK(l.points[(l.count - 1) % JFR_LIVE_POINTS].gc_id == 1000 + 2 * JFR_LIVE_POINTS - 1);
}

static void pauses_once_each_in_start_order(void)
{
	static struct jfr_gc g;
	jfr_gc_init(&g);
	/* a chunk's order: the Remark of collection 8 after the young
	 * collection 9 that started later, a young one before them both */
	CHECK(jfr_gc_note(&g, 9, 30 * S, 5000000));
	CHECK(jfr_gc_note(&g, 8, 20 * S, 9000000));
	CHECK(jfr_gc_note(&g, 7, 10 * S, 1000000));
	CHECK(jfr_gc_note(&g, 8, 25 * S, 100000)); /* its Cleanup: same gcId, another start */
	/* read again (a chunk two recordings share): refused */
	CHECK(!jfr_gc_note(&g, 9, 30 * S, 5000000));
	CHECK(!jfr_gc_note(&g, 8, 20 * S, 9000000));
	struct jfr_gc_pause out[8];
	size_t n = jfr_gc_take(&g, out, 8);
	CHECK(n == 4 && g.pauses == 4);
	CHECK(out[0].gc_id == 7 && out[1].start_ns == 20 * S && out[2].start_ns == 25 * S && out[3].gc_id == 9);
	CHECK(out[1].duration_ns == 9000000 && out[2].duration_ns == 100000);
	/* taken: nothing new; a pause read again after it was taken is still refused */
	CHECK(jfr_gc_take(&g, out, 8) == 0);
	CHECK(!jfr_gc_note(&g, 7, 10 * S, 1000000));
	/* a take with less room leaves the rest, in order, for the next */
	CHECK(jfr_gc_note(&g, 11, 50 * S, 1));
	CHECK(jfr_gc_note(&g, 10, 40 * S, 1));
	CHECK(jfr_gc_take(&g, out, 1) == 1 && out[0].gc_id == 10);
	CHECK(jfr_gc_take(&g, out, 8) == 1 && out[0].gc_id == 11);
}

static void pauses_bound_what_they_hold(void)
{
	static struct jfr_gc g;
	jfr_gc_init(&g);
	for (uint64_t id = 0; id < JFR_GC_FRESH + 5; id++)
		CHECK(jfr_gc_note(&g, id, (int64_t)id * S, 1));
	CHECK(g.n_fresh == JFR_GC_FRESH && g.lost == 5 && g.pauses == JFR_GC_FRESH + 5);
	static struct jfr_gc_pause out[JFR_GC_FRESH];
	CHECK(jfr_gc_take(&g, out, JFR_GC_FRESH) == JFR_GC_FRESH);
	/* the refusal remembers the newest JFR_GC_SEEN: the oldest are forgotten */
	CHECK(!jfr_gc_note(&g, JFR_GC_FRESH + 4, (int64_t)(JFR_GC_FRESH + 4) * S, 1));
	CHECK(g.seen_n == JFR_GC_SEEN);
}

int main(void)
{
	RUN_TEST(pauses_once_each_in_start_order);
	RUN_TEST(pauses_bound_what_they_hold);
	RUN_TEST(live_kinds_by_collection_name);
	RUN_TEST(live_joins_halves_by_gc_id_once);
	RUN_TEST(live_bounds_what_it_waits_for);
	RUN_TEST(alloc_total_sums_threads_and_keeps_the_ended);
	RUN_TEST(alloc_total_holds_many_threads_in_any_order);
	RUN_TEST(alloc_total_bounds_its_table);
	return check_summary();
}
