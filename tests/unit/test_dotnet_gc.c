/* GC event payloads (bytes as .NET 10.0.12 sent them), pause pairing, the
 * anchored totals and the counter series. */
#include <stdio.h>
#include <string.h>

#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "tests/unit/check.h"
#include "tests/unit/dotnet_captured.h"

/* GCStart_V2 of a background gen2 GC #10, reason AllocLarge (live capture) */
static const uint8_t gc_start[26] = { 0x0a, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
static const uint8_t suspend_for_gc[10] = { 1, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t suspend_other[10] = { 0, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t restart[2] = { 0, 0 };

static void test_payloads(void)
{
	struct gt_dn_gc_start s;
	CHECK(gt_dn_parse_gc_start(gc_start, sizeof(gc_start), &s) == 0);
	CHECK_U64(s.count, 10);
	CHECK_U64(s.depth, 2);
	CHECK_STR(gt_dn_gc_reason_name(s.reason), "AllocLarge");
	CHECK_U64(s.type, 1);
	CHECK(gt_dn_parse_gc_start(gc_start, 15, &s) == -1);

	struct gt_dn_heap_stats h;
	CHECK(gt_dn_parse_heap_stats(heap_stats, sizeof(heap_stats), &h) == 0);
	CHECK_U64(h.gen_size[0], 0x55c7b8);
	CHECK_U64(h.gen_size[3], 0x64bc78);
	CHECK(h.has_poh);
	CHECK_U64(h.gen_size[4], 0x1ff8);
	/* version 1 (94 bytes) has no POH */
	CHECK(gt_dn_parse_heap_stats(heap_stats, 94, &h) == 0);
	CHECK(!h.has_poh);
	CHECK(gt_dn_parse_heap_stats(heap_stats, 63, &h) == -1);
}

static void test_committed_usage(void)
{
	uint8_t p[78] = { 0 };
	const char *name = "CommittedUsage";
	for (size_t i = 0; i < strlen(name); i++)
		p[2 * i] = (uint8_t)name[i];
	p[30] = 42;      /* data size */
	p[34] = 1;       /* version */
	p[36] = 0x10;    /* in use: 0x1000 << 4 ... */
	p[37] = 0x20;    /* = 0x2010 */
	p[36 + 32] = 5;  /* bookkeeping */
	uint64_t c;
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == 0);
	CHECK_U64(c, 0x2010 + 5);
	p[30] = 200;     /* data beyond the payload */
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == -1);
	p[30] = 42;
	p[0] = 'X';      /* another dynamic event */
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == 1);
}

static const uint8_t suspend_for_gc_prep[10] = { 6, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
/* GCStart_V2 of a blocking gen1 GC #11 */
static const uint8_t gc_start_gen1[16] = { 11, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
/* GCEnd_V1 of GC #10 at depth 2 (the background GC's end) */
static const uint8_t gc_end_bgc[10] = { 10, 0, 0, 0, 2, 0, 0, 0, 0, 0 };

static void test_pauses_pair_on_the_suspending_thread(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 1000, suspend_for_gc, sizeof(suspend_for_gc));
	CHECK(gt_dn_gc_suspended(&g));
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 1100, gc_start, sizeof(gc_start));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 9, 1200, restart, sizeof(restart)); /* another thread */
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 1500, restart, sizeof(restart));
	/* the restart's end, written once the restarting thread runs again, is no end */
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_END, 7, 9500, restart, sizeof(restart));
	CHECK(!gt_dn_gc_suspended(&g));
	CHECK_U64(g.pause_total_ns, 500);
	CHECK_U64(g.last_pause_ns, 500);
	/* a suspension for the debugger (or a precise allocation count) is no GC pause */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 2000, suspend_other, sizeof(suspend_other));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 9000, restart, sizeof(restart));
	CHECK_U64(g.pause_total_ns, 500);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 8, 10000, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 8, 10200, restart, sizeof(restart));
	CHECK_U64(g.pause_total_ns, 700);
	CHECK_U64(g.last_pause_ns, 200);
	CHECK_U64(gt_dn_gc_take_window_max(&g), 500);
	CHECK_U64(gt_dn_gc_take_window_max(&g), 0);
	CHECK_U64(g.by_depth[2], 1);
	CHECK(g.background_running);
	CHECK_U64(g.pause_count, 2);
	CHECK_U64(g.pause_log[0], 500);
	CHECK_U64(g.pause_log[1], 200);
}


#define S 1000000000LL

/* The interval's pause time of the sample taken at the runtime's moment at
 * (gctop's clock the same here). */
static uint64_t interval_pause(struct gt_dn_gc *g, int64_t at)
{
	static struct gt_sample out;
	memset(&out, 0, sizeof(out));
	gt_dn_gc_fill_pause_at(g, (uint64_t)at, at, &out);
	CHECK(out.pause_at.valid);
	CHECK(out.pause_at.total >= out.pause_at.prev_total);
	return out.pause_at.total - out.pause_at.prev_total;
}

/* A pause is credited to the time it took, split across the samples it
 * spans, by the runtime's timestamps: a 3.2 s pause from 1.0 s to 4.2 s,
 * sampled at 1.5, 2.5 and 4.5 s, is 0.3 + 1.0 + 1.9 s (under way, it is
 * counted up to GT_DN_STREAM_LAG_NS before each sample), where crediting
 * it whole when its end is read put 3.2 s into one interval of 2 s. */
static void test_pause_split_across_the_samples_it_spans(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	static struct gt_sample first;
	gt_dn_gc_fill_pause_at(&g, (uint64_t)(S / 2), S / 2, &first);
	CHECK(!first.pause_at.valid);              /* no moment before it */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S, suspend_for_gc, sizeof(suspend_for_gc));
	CHECK_U64(interval_pause(&g, S * 3 / 2), S * 3 / 10);
	CHECK_U64(interval_pause(&g, S * 5 / 2), S);
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, S * 42 / 10, restart, sizeof(restart));
	CHECK_U64(interval_pause(&g, S * 9 / 2), S * 19 / 10);
	CHECK_U64(g.pause_total_ns, S * 32 / 10);  /* the pause's own length, once */
	CHECK_U64(interval_pause(&g, S * 11 / 2), 0);
	/* a DATAS heap-count change (ForGCPrep by a thread that suspends
	 * ForGC) under way is no pause */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S * 6, suspend_for_gc_prep, sizeof(suspend_for_gc_prep));
	CHECK_U64(interval_pause(&g, S * 13 / 2), 0);
}

/* Events read late: a pause read after the sample past it goes to the next
 * interval with room, never more than an interval holds; a suspension
 * counted as under way whose end came before the sample gives the excess
 * back from the pauses that follow. The intervals add up to the pauses. */
static void test_pause_read_late(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	static struct gt_sample first;
	gt_dn_gc_fill_pause_at(&g, (uint64_t)S, S, &first);
	/* 0.3 s from 1.9 s, read after the sample at 2 s */
	CHECK_U64(interval_pause(&g, 2 * S), 0);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S * 19 / 10, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, S * 22 / 10, restart, sizeof(restart));
	CHECK_U64(interval_pause(&g, 3 * S), S * 3 / 10);
	/* 1.6 s from 2.9 s, the stream stalled until after 5 s: 1 s of it in
	 * the interval to 5 s (its own length), the rest in the next */
	CHECK_U64(interval_pause(&g, 4 * S), 0);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S * 29 / 10, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, S * 45 / 10, restart, sizeof(restart));
	CHECK_U64(interval_pause(&g, 5 * S), S);
	CHECK_U64(interval_pause(&g, 6 * S), S * 6 / 10);
	/* from 6.0 s, under way at 7 s as read (counted to 6.8 s), its end at
	 * 6.5 s read after: 0.3 s too many, given back from the next pause */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S * 6, suspend_for_gc, sizeof(suspend_for_gc));
	CHECK_U64(interval_pause(&g, 7 * S), S * 8 / 10);
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, S * 65 / 10, restart, sizeof(restart));
	CHECK_U64(interval_pause(&g, 8 * S), 0);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, S * 81 / 10, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, S * 86 / 10, restart, sizeof(restart));
	CHECK_U64(interval_pause(&g, 9 * S), S * 2 / 10);
	CHECK_U64(g.pause_total_ns, S * 29 / 10);   /* 0.3 + 1.6 + 0.5 + 0.5 */
	CHECK_U64(g.pause_credited, S * 29 / 10);
}

/* Collections up to a moment other than the sample's, by their starts. */
static void test_collections_until_a_moment(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, S, gc_start, sizeof(gc_start));
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 3 * S, gc_start, sizeof(gc_start));
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 8, 2 * S, gc_start, sizeof(gc_start)); /* another thread's, later in the stream */
	CHECK_U64(gt_dn_gc_collections_until(&g, S / 2), 0);
	CHECK_U64(gt_dn_gc_collections_until(&g, S), 1);
	CHECK_U64(gt_dn_gc_collections_until(&g, 5 * S / 2), 2);
	CHECK_U64(gt_dn_gc_collections_until(&g, 4 * S), 3);
}

/* The stream is in time order per thread only: the background GC thread's
 * final-mark suspension can show up inside a user thread's, and both count. */
static void test_pauses_of_two_threads_interleaved_in_the_stream(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	/* the final mark's suspension (ForGCPrep, background GC thread 30)
	 * shows up inside thread 7's, before the background GC's start */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 1000, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 30, 3000, suspend_for_gc_prep, sizeof(suspend_for_gc_prep));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 30, 3400, restart, sizeof(restart));
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 50, gc_start, sizeof(gc_start)); /* background GC #10 */
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 1100, gc_start_gen1, sizeof(gc_start_gen1));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 2000, restart, sizeof(restart));
	CHECK_U64(g.pause_count, 2);
	CHECK_U64(g.pause_total_ns, 400 + 1000);
	/* ForGCPrep by the thread that suspends ForGC (the Server GC thread) is
	 * DATAS changing the heap count, which GC.GetTotalPauseDuration does not
	 * count, with or without a background GC */
	gt_dn_gc_event(&g, GT_DN_EV_GC_END, 30, 5000, gc_end_bgc, sizeof(gc_end_bgc));
	CHECK(!g.background_running);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 6000, suspend_for_gc_prep, sizeof(suspend_for_gc_prep));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 9000, restart, sizeof(restart));
	CHECK_U64(g.pause_count, 2);
	CHECK_U64(g.pause_total_ns, 1400);
	/* a suspension cut by a session restart is forgotten, not half counted */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 10000, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_forget_suspensions(&g);
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 10100, restart, sizeof(restart));
	CHECK_U64(g.pause_count, 2);
	/* more suspending threads than slots: the oldest is dropped */
	for (uint64_t t = 100; t < 100 + GT_DN_OPEN_SUSPENSIONS + 1; t++)
		gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, t, (int64_t)(20000 + t), suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 100, 30000, restart, sizeof(restart));
	CHECK_U64(g.pause_count, 2);
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 101, 30000, restart, sizeof(restart));
	CHECK_U64(g.pause_count, 3);
}

static void test_pause_log_wraps(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	for (int64_t k = 0; k < GT_PAUSE_RING + 3; k++) {
		gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 1000 * k, suspend_for_gc, sizeof(suspend_for_gc));
		gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_BEGIN, 7, 1000 * k + 10 + k, restart, sizeof(restart));
	}
	CHECK_U64(g.pause_count, GT_PAUSE_RING + 3);
	CHECK_U64(g.pause_log[0], 10 + GT_PAUSE_RING);      /* pause 256 overwrote pause 0 */
	CHECK_U64(g.pause_log[3], 13);
}

static void test_fragmentation_belongs_to_the_gc_that_ended_last(void)
{
	static struct gt_dn_frag f;
	memset(&f, 0, sizeof(f));
	uint64_t out[5];
	const uint64_t a[5] = { 1, 2, 3, 4, 5 }, b[5] = { 10, 20, 30, 40, 50 }, c[5] = { 100, 200, 300, 400, 500 };
	CHECK(!gt_dn_frag_latest(&f, out));
	/* blocking GC 26 on thread 1, two heaps: history, heaps, then its end
	 * at time 2000 */
	gt_dn_frag_global(&f, 1, 2);
	gt_dn_frag_heap(&f, 1, b);
	CHECK(!gt_dn_frag_latest(&f, out));   /* no number yet */
	gt_dn_frag_heap(&f, 1, c);
	gt_dn_frag_gc_end(&f, 1, 26, 2000);
	CHECK(gt_dn_frag_latest(&f, out));
	CHECK_U64(out[0], 110);
	CHECK_U64(out[4], 550);
	/* background GC 25 (started before 26) ended at 1000, before 26, but
	 * its events, from thread 2, are read after 26's: end first, then its
	 * group; GC 26 stays the figure */
	gt_dn_frag_gc_end(&f, 2, 25, 1000);
	gt_dn_frag_global(&f, 2, 1);
	gt_dn_frag_heap(&f, 2, a);
	CHECK(gt_dn_frag_latest(&f, out));
	CHECK_U64(out[2], 330);
	/* background GC 27 ends at 4000; blocking GC 28, nested in it, ended
	 * at 3000 and is read first: 27 ended last, so it is the figure, as
	 * GC.GetGCMemoryInfo reports it, although 28 has the higher number */
	gt_dn_frag_global(&f, 1, 1);
	gt_dn_frag_heap(&f, 1, b);
	gt_dn_frag_gc_end(&f, 1, 28, 3000);
	CHECK(gt_dn_frag_latest(&f, out));
	CHECK_U64(out[2], 30);
	gt_dn_frag_gc_end(&f, 2, 27, 4000);
	gt_dn_frag_global(&f, 2, 1);
	CHECK(gt_dn_frag_latest(&f, out));
	CHECK_U64(out[2], 30);                /* GC 27's group is not complete */
	gt_dn_frag_heap(&f, 2, a);
	gt_dn_frag_heap(&f, 2, c);            /* more records than heaps: ignored */
	CHECK(gt_dn_frag_latest(&f, out));
	CHECK_U64(out[2], 3);
}

/* The heap after the last GC: a GCHeapStats read late from another thread,
 * written before the one already read, does not replace it. */
static void test_heap_stats_of_the_gc_that_ended_last(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	uint8_t later[sizeof(heap_stats)];
	memcpy(later, heap_stats, sizeof(later));
	later[48] = 0x11;       /* LOH size's low byte */
	gt_dn_gc_event(&g, GT_DN_EV_HEAP_STATS, 1, 5000, later, sizeof(later));
	gt_dn_gc_event(&g, GT_DN_EV_HEAP_STATS, 2, 4000, heap_stats, sizeof(heap_stats));
	CHECK(g.have_heap);
	CHECK_U64(g.heap.gen_size[3], 0x64bc11);
	gt_dn_gc_event(&g, GT_DN_EV_HEAP_STATS, 2, 6000, heap_stats, sizeof(heap_stats));
	CHECK_U64(g.heap.gen_size[3], 0x64bc78);
}

static void test_per_heap_history_layout(void)
{
	/* 64-bit layout: 2 + 6*8 + 5*4 = 70 heap index, 74 ExtraGen0Commit,
	 * 82 count, 86 generation records of ten u64 */
	uint8_t p[86 + 5 * 80] = { 0 };
	p[70] = 3;
	p[82] = 5;
	for (int g = 0; g < 5; g++) {
		p[86 + 80 * g + 32] = (uint8_t)(10 * g + 1); /* FreeListAfter */
		p[86 + 80 * g + 40] = 2;                     /* FreeObjAfter */
	}
	struct gt_dn_per_heap h;
	CHECK(gt_dn_parse_per_heap(p, sizeof(p), 8, &h) == 0);
	CHECK_U64(h.heap_index, 3);
	CHECK_U64(h.n_generations, 5);
	CHECK_U64(h.fragmented[0], 3);
	CHECK_U64(h.fragmented[4], 43);
	CHECK(gt_dn_parse_per_heap(p, sizeof(p) - 1, 8, &h) == -1); /* count beyond the payload */
	CHECK(gt_dn_parse_per_heap(p, sizeof(p), 3, &h) == -1);
}

/* A GCPerHeapHistory of heap `heap` whose LOH holds `before` bytes of
 * objects before the GC and `after` after it (no free space). */
static void loh_history(uint8_t *p, size_t n, uint8_t heap, uint64_t before, uint64_t after)
{
	memset(p, 0, n);
	p[70] = heap;
	p[82] = 5;
	uint8_t *loh = p + 86 + 80 * 3;
	for (int i = 0; i < 8; i++) {
		loh[i] = (uint8_t)(before >> (8 * i));        /* SizeBefore */
		loh[24 + i] = (uint8_t)(after >> (8 * i));    /* SizeAfter */
	}
}

/* LOH allocation is counted at each GC, per heap: the LOH's objects before
 * a GC less those after the heap's previous GC. */
static void test_loh_allocation_counted_at_each_gc(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	g.pointer_size = 8;
	uint8_t p[86 + 5 * 80];
	loh_history(p, sizeof(p), 0, 5000000, 1000000);
	gt_dn_gc_event(&g, GT_DN_EV_PER_HEAP_HISTORY, 1, 0, p, sizeof(p));
	CHECK(!g.have_loh_alloc);                   /* nothing to compare with yet */
	loh_history(p, sizeof(p), 1, 700000, 700000);
	gt_dn_gc_event(&g, GT_DN_EV_PER_HEAP_HISTORY, 1, 0, p, sizeof(p));
	loh_history(p, sizeof(p), 0, 61000000, 1000000);   /* 60 MB on heap 0 */
	gt_dn_gc_event(&g, GT_DN_EV_PER_HEAP_HISTORY, 1, 0, p, sizeof(p));
	loh_history(p, sizeof(p), 1, 900000, 0);           /* 200 KB on heap 1 */
	gt_dn_gc_event(&g, GT_DN_EV_PER_HEAP_HISTORY, 1, 0, p, sizeof(p));
	CHECK(g.have_loh_alloc);
	CHECK_U64(g.loh_alloc_total, 60200000);
	/* a sweep between GCs freed objects: no negative allocation */
	loh_history(p, sizeof(p), 0, 400000, 400000);
	gt_dn_gc_event(&g, GT_DN_EV_PER_HEAP_HISTORY, 1, 0, p, sizeof(p));
	CHECK_U64(g.loh_alloc_total, 60200000);
}

static void test_series_interpolates_between_observations(void)
{
	static struct gt_dn_series s;
	memset(&s, 0, sizeof(s));
	uint64_t v = 0;
	CHECK(!gt_dn_series_at(&s, 5, &v));
	gt_dn_series_add(&s, 1000, 100);
	gt_dn_series_add(&s, 2000, 300);
	gt_dn_series_add(&s, 1500, 999);          /* out of order: ignored */
	CHECK(gt_dn_series_at(&s, 500, &v));
	CHECK_U64(v, 100);
	CHECK(gt_dn_series_at(&s, 1250, &v));
	CHECK_U64(v, 150);
	CHECK(gt_dn_series_at(&s, 5000, &v));
	CHECK_U64(v, 300);
	gt_dn_series_add(&s, 3000, 200);          /* a cumulative figure never falls */
	CHECK(gt_dn_series_at(&s, 3000, &v));
	CHECK_U64(v, 300);
	for (int i = 0; i < 40; i++)
		gt_dn_series_add(&s, 4000 + i * 1000, 400 + (uint64_t)i * 10);
	CHECK(gt_dn_series_at(&s, 42500, &v));
	CHECK_U64(v, 785);
}

/* An EventCounters event: { Payload: { Name, <value field> } }. */
static void counter_meta(struct gt_nettrace_meta *m, struct gt_nettrace_field *f, const char *provider,
			 const char *value_field)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->provider, sizeof(m->provider), "%s", provider);
	snprintf(m->event_name, sizeof(m->event_name), "EventCounters");
	memset(f, 0, 3 * sizeof(*f));
	f[0] = (struct gt_nettrace_field){ .type = GT_NT_OBJECT, .subtree = 3, .n_children = 2, .name = "Payload" };
	f[1] = (struct gt_nettrace_field){ .type = GT_NT_STRING, .subtree = 1, .name = "Name" };
	f[2] = (struct gt_nettrace_field){ .type = GT_NT_DOUBLE, .subtree = 1 };
	snprintf(f[2].name, sizeof(f[2].name), "%s", value_field);
	m->fields = f;
	m->n_fields = 3;
	m->n_top = 1;
	m->fields_decodable = true;
}

static size_t utf16(uint8_t *p, const char *s)
{
	size_t n = 0;
	for (; *s; s++) {
		p[n++] = (uint8_t)*s;
		p[n++] = 0;
	}
	p[n++] = 0;
	p[n++] = 0;
	return n;
}

static size_t counter_payload(uint8_t *p, const char *name, double value)
{
	size_t n = utf16(p, name);
	memcpy(p + n, &value, 8);
	return n + 8;
}

/* alloc-rate as the runtime sends it: Name, Increment and IntervalSec (a
 * Single), the span the increment covers. */
static void alloc_rate_meta(struct gt_nettrace_meta *m, struct gt_nettrace_field *f)
{
	counter_meta(m, f, "System.Runtime", "Increment");
	f[0].subtree = 4;
	f[0].n_children = 3;
	f[3] = (struct gt_nettrace_field){ .type = GT_NT_SINGLE, .subtree = 1, .name = "IntervalSec" };
	m->n_fields = 4;
}

static size_t alloc_rate_payload(uint8_t *p, double increment, float interval_s)
{
	size_t n = counter_payload(p, "alloc-rate", increment);
	memcpy(p + n, &interval_s, 4);
	return n + 4;
}

static void test_event_counters(void)
{
	static struct gt_dn_counters c;
	gt_dn_counters_init(&c);
	struct gt_nettrace_meta m;
	struct gt_nettrace_field f[4];
	alloc_rate_meta(&m, f);
	uint8_t p[256];
	struct gt_nettrace_event e = { .meta = &m, .payload = p };
	/* the first poll only starts the count, whatever IntervalSec says:
	 * the increment's start is not observable (the reset precedes the
	 * stamped start by the group's first-use work) */
	e.timestamp = 5000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 4000000, 0.75f);
	gt_dn_counters_event(&c, &e);
	CHECK(c.have_alloc);
	CHECK_U64(c.alloc_total, 0);
	CHECK(c.alloc_prev_ts == c.alloc_ts);
	/* from the second on, each poll's increment over the time since the
	 * poll before, both ends event timestamps */
	e.timestamp = 6000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 6000000, 1.0f);
	gt_dn_counters_event(&c, &e);
	CHECK_U64(c.alloc_total, 6000000);
	CHECK_U64(c.alloc_prev_total, 0);
	CHECK_U64((uint64_t)c.alloc_prev_ts, 5000000000);
	CHECK_U64((uint64_t)c.alloc_ts, 6000000000);
	e.timestamp = 7000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 4000000, 1.0f);
	gt_dn_counters_event(&c, &e);
	CHECK_U64(c.alloc_total, 10000000);
	CHECK_U64(c.alloc_prev_total, 6000000);
	/* poll by poll, newest first */
	int64_t ts;
	uint64_t total;
	CHECK(gt_dn_series_nth(&c.alloc_polls, 0, &ts, &total) && ts == 7000000000 && total == 10000000);
	CHECK(gt_dn_series_nth(&c.alloc_polls, 1, &ts, &total) && ts == 6000000000 && total == 6000000);
	CHECK(gt_dn_series_nth(&c.alloc_polls, 2, &ts, &total) && ts == 5000000000 && total == 0);
	CHECK(!gt_dn_series_nth(&c.alloc_polls, 3, &ts, &total));
	/* a replayed (older) poll and nonsense are ignored */
	e.timestamp = 5500000000;
	gt_dn_counters_event(&c, &e);
	e.timestamp = 8000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 1e30, 1.0f);
	gt_dn_counters_event(&c, &e);
	e.payload_len = 7; /* cut short */
	gt_dn_counters_event(&c, &e);
	CHECK_U64(c.alloc_total, 10000000);
	CHECK_U64((uint64_t)c.alloc_ts, 7000000000);
	CHECK_U64(c.alloc_held_polls, 0);

	/* DATAS takes two heaps away that had allocated 3 MB: the runtime's
	 * total falls by that, less the 1 MB the other heaps allocated; gctop's
	 * holds at its highest and counts the polls held back, and follows
	 * again once the runtime's total is past it (the heaps returned). */
	static const struct { double increment; uint64_t total, held; } datas[] = {
		{ -2000000, 10000000, 1 }, { 1500000, 10000000, 2 }, { 3000000, 12500000, 2 }, { 1000000, 13500000, 2 },
	};
	for (size_t i = 0; i < sizeof(datas) / sizeof(datas[0]); i++) {
		e.timestamp = 8000000000 + (int64_t)i * 1000000000;
		e.payload_len = (uint32_t)alloc_rate_payload(p, datas[i].increment, 1.0f);
		gt_dn_counters_event(&c, &e);
		CHECK_U64(c.alloc_total, datas[i].total);
		CHECK_U64(c.alloc_held_polls, datas[i].held);
	}
	/* the held count as of each poll, beside its total */
	uint64_t held;
	CHECK(gt_dn_series_nth(&c.alloc_held, 0, &ts, &held) && ts == 11000000000 && held == 2);
	CHECK(gt_dn_series_nth(&c.alloc_held, 3, &ts, &held) && ts == 8000000000 && held == 1);
	CHECK(gt_dn_series_nth(&c.alloc_held, 4, &ts, &held) && ts == 7000000000 && held == 0);
	CHECK_U64((uint64_t)c.alloc_ts, 11000000000);

	/* .NET 8: the first increment is everything since the process
	 * started; it too only starts the count */
	static struct gt_dn_counters c8;
	gt_dn_counters_init(&c8);
	e.timestamp = 5000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 900000000, 1.0f);
	gt_dn_counters_event(&c8, &e);
	CHECK(c8.have_alloc);
	CHECK_U64(c8.alloc_total, 0);
	CHECK(c8.alloc_prev_ts == c8.alloc_ts);

	/* .NET 10 (first_counts): the first increment counts, from the
	 * session's enable or the group's poll before, IntervalSec kept for
	 * the collector to place its start; a negative one counts nothing */
	static struct gt_dn_counters c10;
	gt_dn_counters_init(&c10);
	c10.first_counts = true;
	e.timestamp = 5000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 4000000, 0.75f);
	gt_dn_counters_event(&c10, &e);
	CHECK(c10.have_alloc && c10.alloc_first_counted);
	CHECK_U64(c10.alloc_total, 4000000);
	CHECK_U64(c10.alloc_first_interval_ns, 750000000);
	CHECK(gt_dn_series_nth(&c10.alloc_polls, 0, &ts, &total) && ts == 5000000000 && total == 4000000);
	e.timestamp = 6000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, 6000000, 1.0f);
	gt_dn_counters_event(&c10, &e);
	CHECK_U64(c10.alloc_total, 10000000);
	CHECK_U64(c10.alloc_first_interval_ns, 750000000);
	gt_dn_counters_init(&c10);
	c10.first_counts = true;
	e.timestamp = 5000000000;
	e.payload_len = (uint32_t)alloc_rate_payload(p, -3000000, 1e30f);
	gt_dn_counters_event(&c10, &e);
	CHECK(c10.have_alloc);
	CHECK_U64(c10.alloc_total, 0);
	CHECK_U64(c10.alloc_first_interval_ns, 0); /* an IntervalSec past any real one is none */

	/* without IntervalSec alike */
	static struct gt_dn_counters c2;
	gt_dn_counters_init(&c2);
	counter_meta(&m, f, "System.Runtime", "Increment");
	e.timestamp = 1000;
	e.payload_len = (uint32_t)counter_payload(p, "alloc-rate", 4000000);
	gt_dn_counters_event(&c2, &e);
	CHECK(c2.have_alloc);
	CHECK_U64(c2.alloc_total, 0);
	CHECK(c2.alloc_prev_ts == c2.alloc_ts);
	e.timestamp = 2000;
	e.payload_len = (uint32_t)counter_payload(p, "alloc-rate", 6000000);
	gt_dn_counters_event(&c2, &e);
	CHECK_U64(c2.alloc_total, 6000000);
	e.timestamp = 3000;
	e.payload_len = (uint32_t)counter_payload(p, "gen-0-gc-count", 5); /* not an allocation */
	gt_dn_counters_event(&c2, &e);
	CHECK_U64(c2.alloc_total, 6000000);
	e.timestamp = 4000;
	uint64_t v = 0;

	/* sizes and committed bytes are means of a single reading */
	counter_meta(&m, f, "System.Runtime", "Mean");
	e.payload_len = (uint32_t)counter_payload(p, "loh-size", 3400952);
	gt_dn_counters_event(&c, &e);
	e.payload_len = (uint32_t)counter_payload(p, "gc-committed", 15.609856);
	gt_dn_counters_event(&c, &e);
	CHECK(c.size_valid[3] && !c.size_valid[0]);
	CHECK_U64(c.size[3], 3400952);
	CHECK(c.have_committed);
	CHECK_U64(c.committed, 15609856);

	/* ASP.NET Core's total-requests is a polled total */
	counter_meta(&m, f, "Microsoft.AspNetCore.Hosting", "Mean");
	e.payload_len = (uint32_t)counter_payload(p, "total-requests", 92);
	gt_dn_counters_event(&c, &e);
	CHECK(gt_dn_series_at(&c.requests, 4000, &v));
	CHECK_U64(v, 92);
	/* the same name from another provider is not a request count */
	counter_meta(&m, f, "Other", "Mean");
	e.timestamp = 5000;
	e.payload_len = (uint32_t)counter_payload(p, "total-requests", 1000);
	gt_dn_counters_event(&c, &e);
	CHECK(gt_dn_series_at(&c.requests, 9000, &v));
	CHECK_U64(v, 92);
}

/* GCStart's reason counts the causes: gen2 by AllocLarge (the live capture),
 * induced collections of every induced reason, and every collection seen. */
static void test_causes_from_gc_start_reasons(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_dn_gc_fill_causes(&g, &s);
	CHECK(s.causes.seen.valid && s.causes.seen.value == 0);
	CHECK(!s.causes.humongous.valid);    /* no such thing on .NET */
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 100, gc_start, sizeof(gc_start));          /* gen2, AllocLarge */
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 200, gc_start_gen1, sizeof(gc_start_gen1)); /* gen1, AllocSmall */
	uint8_t p[16];
	memcpy(p, gc_start_gen1, sizeof(p));
	p[4] = 2;                              /* gen2 ... */
	const uint8_t induced[] = { 1, 7, 9, 10 };
	for (size_t i = 0; i < sizeof(induced); i++) {
		p[8] = induced[i];             /* ... by Induced, InducedNotForced, InducedLowMemory, InducedCompacting */
		gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 300, p, sizeof(p));
	}
	p[4] = 0;                              /* gen0 by AllocLarge: no gen2 */
	p[8] = 4;
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 400, p, sizeof(p));
	gt_dn_gc_fill_causes(&g, &s);
	CHECK_U64(s.causes.seen.value, 7);
	CHECK_U64(s.causes.gen2.value, 5);
	CHECK_U64(s.causes.gen2_alloc_large.value, 1);
	CHECK_U64(s.causes.induced.value, 4);
}

int main(void)
{
	RUN_TEST(test_payloads);
	RUN_TEST(test_committed_usage);
	RUN_TEST(test_pauses_pair_on_the_suspending_thread);
	RUN_TEST(test_pauses_of_two_threads_interleaved_in_the_stream);
	RUN_TEST(test_pause_log_wraps);
	RUN_TEST(test_fragmentation_belongs_to_the_gc_that_ended_last);
	RUN_TEST(test_heap_stats_of_the_gc_that_ended_last);
	RUN_TEST(test_per_heap_history_layout);
	RUN_TEST(test_loh_allocation_counted_at_each_gc);
	RUN_TEST(test_series_interpolates_between_observations);
	RUN_TEST(test_event_counters);
	RUN_TEST(test_causes_from_gc_start_reasons);
	RUN_TEST(test_pause_split_across_the_samples_it_spans);
	RUN_TEST(test_pause_read_late);
	RUN_TEST(test_collections_until_a_moment);
	return check_summary();
}
