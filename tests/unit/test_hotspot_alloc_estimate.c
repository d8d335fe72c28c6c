/* The eden-delta allocation estimator on crafted counter sequences. */
#include <string.h>

#include "collectors/hotspot/hotspot_alloc_estimate.h"
#include "tests/unit/check.h"

#define MiB (1024ull * 1024)

static struct hotspot_alloc_reading reading(uint64_t young, uint64_t full, uint64_t eden_used,
					    uint64_t eden_cap, uint64_t old_used)
{
	return (struct hotspot_alloc_reading){
		.young_gcs = young, .full_gcs = full,
		.eden_used = eden_used, .eden_capacity = eden_cap,
		.old_used = old_used, .heap_used = eden_used + old_used,
	};
}

static void test_first_reading_sets_base(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 1, 40 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 0);
	CHECK(a.have_prev);
}

static void test_no_gc_counts_eden_growth(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 10 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	r.eden_used = 30 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	r.eden_used = 55 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 45 * MiB);
	/* Direct allocation into old between pauses counts too. */
	r.old_used = 12 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 47 * MiB);
	/* A stale read that goes down adds nothing. */
	r.eden_used = 50 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 47 * MiB);
	CHECK_U64(a.large_total_bytes, 0);
}

static void test_one_young_gc_allocation_failure(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 80 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	/* GC at a full eden (20 MiB more), then 7 MiB since; old grew by promotion. */
	r = reading(6, 0, 7 * MiB, 100 * MiB, 14 * MiB);
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("Allocation Failure");
	CHECK(r.eden_was_full);
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 27 * MiB);
}

static void test_gc_not_at_full_eden(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 30 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	r = reading(5, 1, 2 * MiB, 100 * MiB, 8 * MiB);
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("System.gc()");
	CHECK(!r.eden_was_full);
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 2 * MiB);
}

/* Several collections between two polls: the intervals between them were
 * not seen, add nothing and are counted, so the total is a lower bound. */
static void test_several_gcs_between_polls(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(10, 0, 60 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	/* Three young collections: 40 to fill before the first, 5 since the last. */
	r = reading(13, 0, 5 * MiB, 100 * MiB, 11 * MiB);
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("G1 Evacuation Pause");
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.blind_collections, 2);
	/* The cause is the last collection's: the first one's fill is not known. */
	CHECK_U64(a.total_bytes, 5 * MiB);
	/* The TLAB bytes the last one published (less their unused tails) are
	 * allocation no poll saw, less the eden the previous poll counted in
	 * case that epoch began before it. */
	for (int i = 0; i < 2; i++) {
		/* The second time the same figures are a newer epoch's (a
		 * steady program publishes the same figures epoch after
		 * epoch): counted again, less the eden the poll before had. */
		r = reading(15 + 2 * (uint64_t)i, 0, (7 - 4 * (uint64_t)i) * MiB, 100 * MiB, 11 * MiB);
		r.tlab_bytes = 90 * MiB;
		r.tlab_waste_bytes = 2 * MiB;
		r.tlab_fills = 900;
		hotspot_alloc_estimate_step(&a, &r);
		CHECK_U64(a.blind_collections, 3 + (uint64_t)i);
		CHECK_U64(a.total_bytes, (i == 0 ? 5 + 7 + 90 - 2 - 5 : 5 + 7 + 90 - 2 - 5 + 90 - 2 - 7 + 3) * MiB);
	}
	/* A young and a full one of the same stop (Parallel's Ergonomics
	 * follow-up) leave no interval unseen. */
	struct hotspot_alloc_estimate b;
	hotspot_alloc_estimate_init(&b, HOTSPOT_ALLOC_EDEN, false);
	r = reading(10, 2, 90 * MiB, 100 * MiB, 50 * MiB);
	r.mono_ns = 1000000000;
	r.jvm_clock_ns = 500000000; /* the JVM clock is 500 ms behind ours */
	hotspot_alloc_estimate_step(&b, &r);
	r = reading(11, 3, 1 * MiB, 100 * MiB, 20 * MiB);
	r.mono_ns = 1100000000;
	r.jvm_young_entry_ns = 550000000;
	r.jvm_young_exit_ns = 560000000;
	r.jvm_full_entry_ns = 560100000;
	r.jvm_full_exit_ns = 590000000;
	r.jvm_clock_ns = r.jvm_full_exit_ns;
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("Ergonomics");
	hotspot_alloc_estimate_step(&b, &r);
	CHECK_U64(b.total_bytes, (10 + 1) * MiB);
	CHECK_U64(b.blind_collections, 0);
	/* Apart by more than a stop: the interval between them was not seen. */
	r = reading(12, 4, 2 * MiB, 100 * MiB, 20 * MiB);
	r.mono_ns = 1200000000;
	r.jvm_young_entry_ns = 620000000;
	r.jvm_young_exit_ns = 630000000;
	r.jvm_full_entry_ns = 660000000;
	r.jvm_full_exit_ns = 680000000;
	hotspot_alloc_estimate_step(&b, &r);
	CHECK_U64(b.blind_collections, 1);
}

static void test_g1_resized_eden(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(3, 0, 100 * MiB, 150 * MiB, 20 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	/* The pause shrinks eden to 60 MiB; what filled before is measured
	 * against the capacity eden had then. */
	r = reading(4, 0, 4 * MiB, 60 * MiB, 22 * MiB);
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, (50 + 4) * MiB);
	CHECK_U64(a.large_total_bytes, 0);
}

static void test_g1_humongous_growth(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(3, 0, 10 * MiB, 100 * MiB, 20 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	/* Two 3 MiB arrays take four 1 MiB regions each. */
	r.old_used = 28 * MiB;
	r.eden_used = 12 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 10 * MiB);
	CHECK_U64(a.large_total_bytes, 8 * MiB);
	CHECK_U64(a.large_live_bytes, 8 * MiB);
	/* A remark pause (collector.2): old changes but is not allocation. */
	r.other_pauses = 1;
	r.old_used = 26 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 10 * MiB);
	CHECK_U64(a.large_live_bytes, 6 * MiB);
	/* A young pause reclaims one array eagerly. */
	r = reading(4, 0, 1 * MiB, 100 * MiB, 22 * MiB);
	r.other_pauses = 1;
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("G1 Humongous Allocation");
	CHECK(!r.eden_was_full);
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 11 * MiB);
	CHECK_U64(a.large_live_bytes, 2 * MiB);
	CHECK_U64(a.large_total_bytes, 8 * MiB);
	/* A full collection emptying old leaves no humongous bytes. */
	r = reading(4, 1, 0, 100 * MiB, 0);
	r.other_pauses = 1;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.large_live_bytes, 0);
}

/* Humongous objects are counted in whole regions: the bound on their
 * unused tails holds for the worst shapes (just over half a region, just
 * over a region multiple) and is tight for the first. */
static void test_humongous_waste_bound(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(3, 0, 10 * MiB, 100 * MiB, 20 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(hotspot_alloc_estimate_humongous_waste_max(&a), 0);
	/* Three objects of half a region and 16 bytes: one region each. */
	uint64_t objects = 3 * (MiB / 2 + 16);
	r.old_used += 3 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	uint64_t waste = 3 * MiB - objects;
	CHECK(hotspot_alloc_estimate_humongous_waste_max(&a) >= waste);
	CHECK(hotspot_alloc_estimate_humongous_waste_max(&a) - waste <= 48);
	/* Two of three regions and 16 bytes: four regions each. */
	objects += 2 * (3 * MiB + 16);
	r.old_used += 8 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	waste = 11 * MiB - objects;
	CHECK_U64(a.large_total_bytes, 11 * MiB);
	CHECK(hotspot_alloc_estimate_humongous_waste_max(&a) >= waste);
	CHECK(a.total_bytes - hotspot_alloc_estimate_humongous_waste_max(&a) <= objects);
	/* Parallel and Serial have no regions: nothing is bounded. */
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	hotspot_alloc_estimate_step(&a, &r);
	r.old_used += 8 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(hotspot_alloc_estimate_humongous_waste_max(&a), 0);
}

/* 100 regions of 1 MiB, each with three 256 KiB buffers (and their 16-byte
 * header) placed outside TLABs and a tail too short for a fourth. */
#define TAILS_REGIONS 100
#define TAILS_BUFFER (256 * 1024ull + 16)
#define TAILS_TLAB (64 * 1024ull)

static void tails_epoch(struct hotspot_alloc_estimate *a, uint64_t young, uint64_t slow)
{
	struct hotspot_alloc_reading r = reading(young, 0, 50 * MiB, TAILS_REGIONS * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(a, &r);
	r.eden_used = 99 * MiB;
	hotspot_alloc_estimate_step(a, &r);
	/* Collected at a full eden; what the epoch published comes with it. */
	r = reading(young + 1, 0, 0, TAILS_REGIONS * MiB, 10 * MiB);
	r.eden_was_full = true;
	r.tlab_bytes = TAILS_TLAB;
	r.tlab_fills = young + 1;
	r.tlab_slow_allocs = slow;
	hotspot_alloc_estimate_step(a, &r);
}

static void test_g1_eden_tails_bound(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	tails_epoch(&a, 0, 3 * TAILS_REGIONS);
	CHECK_U64(a.region_bytes, MiB);
	uint64_t tails = TAILS_REGIONS * MiB - 3 * TAILS_REGIONS * TAILS_BUFFER - TAILS_TLAB;
	/* Of the first epoch only the half since the first reading counts;
	 * the second is whole. */
	uint64_t bound = hotspot_alloc_estimate_tails_max(&a);
	tails_epoch(&a, 1, 3 * TAILS_REGIONS);
	bound = hotspot_alloc_estimate_tails_max(&a) - bound;
	/* The eden estimate holds the tails; the bound holds them, and is
	 * over by under 0.1% of the allocation (the tails are nearly a
	 * buffer each, the most they can be). */
	CHECK(bound >= tails);
	CHECK(bound - tails <= (TAILS_REGIONS * MiB - tails) / 1000);
	/* The next epochs: between collections the bound grows at the last
	 * epoch's share, trued up at the next; it never falls. */
	uint64_t before = hotspot_alloc_estimate_tails_max(&a);
	tails_epoch(&a, 2, 3 * TAILS_REGIONS);
	CHECK(hotspot_alloc_estimate_tails_max(&a) >= before);
	CHECK(hotspot_alloc_estimate_tails_max(&a) - before <= 2 * bound);
	/* An epoch of small objects only (no allocation outside TLABs) has
	 * no such tails: what was accrued for it is taken back later. */
	before = hotspot_alloc_estimate_tails_max(&a);
	tails_epoch(&a, 3, 0);
	CHECK(a.tail_share == 0.0);
	tails_epoch(&a, 4, 0);
	CHECK(hotspot_alloc_estimate_tails_max(&a) - before <= bound + bound / 100);
	/* Not on Parallel or Serial: eden is one space, no regions. */
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	tails_epoch(&a, 0, 3 * TAILS_REGIONS);
	CHECK_U64(hotspot_alloc_estimate_tails_max(&a), 0);
}

static void test_heap_growth_model(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_HEAP_GROWTH, false);
	struct hotspot_alloc_reading r = { .heap_used = 100 * MiB };
	hotspot_alloc_estimate_step(&a, &r);
	r.heap_used = 130 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	r.heap_used = 40 * MiB; /* a concurrent cycle reclaimed */
	r.other_pauses = 2;
	hotspot_alloc_estimate_step(&a, &r);
	r.heap_used = 45 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 35 * MiB);
	/* The cycle's window and the shrinking one make it a lower bound. */
	CHECK_U64(a.blind_collections, 3);
}

/* Ten polls of 10 MiB per 10 ms, on a JVM clock 1 s behind ours. */
static void eden_epoch(struct hotspot_alloc_estimate *a, struct hotspot_alloc_reading *r, uint64_t young)
{
	*r = reading(young, 0, 0, 200 * MiB, 10 * MiB);
	r->mono_ns = 2000000000;
	r->jvm_clock_ns = 1000000000;
	hotspot_alloc_estimate_step(a, r);
	for (int i = 1; i <= 10; i++) {
		r->mono_ns += 10000000;
		r->jvm_clock_ns += 10000000;
		r->eden_used = (uint64_t)i * 10 * MiB;
		hotspot_alloc_estimate_step(a, r);
	}
}

/* A collection between two polls: eden filled at the epoch's rate from the
 * poll before it to its lastEntryTime, then held what was allocated since. */
static void test_collection_split_at_entry(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r;
	eden_epoch(&a, &r, 1);
	CHECK_U64(a.total_bytes, 100 * MiB);
	/* Entered 4 ms after the last poll (4 MiB more at the rate, not the 100
	 * MiB of room: the cause says eden was not full), left 1 ms later. */
	uint64_t jvm = r.jvm_clock_ns;
	r = reading(2, 0, 3 * MiB, 200 * MiB, 10 * MiB);
	r.mono_ns = 2110000000;
	r.jvm_young_entry_ns = jvm + 4000000;
	r.jvm_young_exit_ns = jvm + 5000000;
	r.jvm_clock_ns = r.jvm_young_exit_ns;
	r.eden_was_full = hotspot_alloc_estimate_cause_fills_eden("G1 Humongous Allocation");
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, (100 + 4 + 3) * MiB);
	CHECK_U64(a.blind_collections, 0);
	/* Without the collection's start, a full eden counts its room. */
	struct hotspot_alloc_estimate b;
	hotspot_alloc_estimate_init(&b, HOTSPOT_ALLOC_EDEN, false);
	eden_epoch(&b, &r, 1);
	r = reading(2, 0, 3 * MiB, 200 * MiB, 10 * MiB);
	r.mono_ns = 2110000000;
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&b, &r);
	CHECK_U64(b.total_bytes, (200 + 3) * MiB);
	/* G1, eden full: its room too, even where the epoch's rate says more
	 * (the rate misses the moment's on a busy machine; G1 collects when
	 * eden holds its target's regions). */
	struct hotspot_alloc_estimate g;
	hotspot_alloc_estimate_init(&g, HOTSPOT_ALLOC_EDEN, true);
	eden_epoch(&g, &r, 1);
	r.eden_capacity = 105 * MiB; /* eden at 100 of 105 MiB */
	hotspot_alloc_estimate_step(&g, &r);
	uint64_t at = r.jvm_clock_ns;
	r = reading(2, 0, 3 * MiB, 105 * MiB, 10 * MiB);
	r.mono_ns = 2200000000;
	r.jvm_young_entry_ns = at + 20000000; /* 20 MiB at the rate, 5 of room */
	r.jvm_young_exit_ns = at + 21000000;
	r.jvm_clock_ns = r.jvm_young_exit_ns;
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&g, &r);
	CHECK_U64(g.total_bytes, (100 + 5 + 3) * MiB);
}

/* A partial eden fills at the rate for the time from the poll to the
 * collection's entry less what the threads spent reaching its safepoint
 * (sun.rt.safepointSyncTime's growth). */
static void test_fill_leaves_out_the_safepoint_wait(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r;
	eden_epoch(&a, &r, 1);
	r.safepoint_sync_ns = 7000000;
	hotspot_alloc_estimate_step(&a, &r);
	uint64_t jvm = r.jvm_clock_ns;
	r = reading(2, 0, 3 * MiB, 200 * MiB, 10 * MiB);
	r.mono_ns = 2110000000;
	r.jvm_young_entry_ns = jvm + 6000000; /* 6 ms after the poll, 2 of them waiting */
	r.jvm_young_exit_ns = jvm + 7000000;
	r.jvm_clock_ns = r.jvm_young_exit_ns;
	r.safepoint_sync_ns = 9000000;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, (100 + 4 + 3) * MiB);
}

/* Old growth before and after a collection (humongous arrays) comes from
 * the old rate of the epoch. */
static void test_humongous_around_a_collection(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(1, 0, 0, 200 * MiB, 10 * MiB);
	r.mono_ns = 2000000000;
	r.jvm_clock_ns = 1000000000;
	hotspot_alloc_estimate_step(&a, &r);
	for (int i = 1; i <= 10; i++) { /* 4 MiB of old per 10 ms */
		r.mono_ns += 10000000;
		r.jvm_clock_ns += 10000000;
		r.old_used += 4 * MiB;
		hotspot_alloc_estimate_step(&a, &r);
	}
	CHECK_U64(a.large_total_bytes, 40 * MiB);
	uint64_t jvm = r.jvm_clock_ns;
	/* 5 ms before the collection, 5 ms after: 2 + 2 MiB. */
	r = reading(2, 0, 0, 200 * MiB, 14 * MiB);
	r.mono_ns = 2111000000;
	r.jvm_young_entry_ns = jvm + 5000000;
	r.jvm_young_exit_ns = jvm + 6000000;
	r.jvm_clock_ns = r.jvm_young_exit_ns;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.large_total_bytes, 44 * MiB);
}

/* Parallel says what a young collection promoted: old's growth across it
 * less that is direct-to-old allocation, whatever the time. */
static void test_parallel_promoted(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(1, 0, 50 * MiB, 100 * MiB, 10 * MiB);
	r.has_promoted = true;
	hotspot_alloc_estimate_step(&a, &r);
	r = reading(2, 0, 0, 100 * MiB, 25 * MiB);
	r.has_promoted = true;
	r.promoted_bytes = 3 * MiB;
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, (50 + 12) * MiB);
	/* A full collection compacts old: no direct allocation is read from it. */
	r = reading(3, 1, 0, 100 * MiB, 40 * MiB);
	r.has_promoted = true;
	r.promoted_bytes = 1 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 62 * MiB);
}

/* A reading taken while a collection runs (entered, not left) may carry the
 * new sizes with the old count or the reverse: it is skipped, so promotion
 * into old is never taken for humongous allocation. */
static void test_reading_during_collection_skipped(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(5, 0, 80 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	/* Counted at its start, sizes already updated, exit not yet written. */
	r = reading(6, 0, 0, 100 * MiB, 11 * MiB);
	r.in_progress = true;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 0);
	r.in_progress = false;
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 20 * MiB);
	CHECK_U64(a.large_total_bytes, 0);
}

/* TLAB tails the epoch left unused filled eden but were never allocated. */
static void test_tlab_waste_subtracted(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 90 * MiB, 100 * MiB, 10 * MiB);
	r.tlab_waste_bytes = 3 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	r = reading(6, 0, 2 * MiB, 100 * MiB, 10 * MiB);
	r.eden_was_full = true;
	r.tlab_waste_bytes = 1 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, (10 + 2 - 1) * MiB);
}

/* The JVM clock's offset from ours is the least mono - jvm seen. */
static void test_clock_offset(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(1, 0, 0, 100 * MiB, 0);
	r.mono_ns = 5000000000;
	r.jvm_clock_ns = 1000000000; /* stamped 30 ms before the read */
	hotspot_alloc_estimate_step(&a, &r);
	CHECK(a.clock_offset_ns == 4000000000);
	r.mono_ns = 5100000000;
	r.jvm_clock_ns = 1129000000; /* stamped 1 ms before the read: closer */
	hotspot_alloc_estimate_step(&a, &r);
	CHECK(a.clock_offset_ns == 3971000000);
	r.mono_ns = 5200000000;
	r.jvm_clock_ns = 1150000000; /* an older stamp read later: no change */
	hotspot_alloc_estimate_step(&a, &r);
	CHECK(a.clock_offset_ns == 3971000000);
}

static void test_tlab_epochs_model(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_TLAB_EPOCHS, false);
	struct hotspot_alloc_reading r = { .tlab_bytes = 40 * MiB, .tlab_fills = 100 };
	hotspot_alloc_estimate_step(&a, &r); /* an epoch before we attached: not counted */
	hotspot_alloc_estimate_step(&a, &r); /* nothing published since */
	CHECK_U64(a.total_bytes, 0);
	r.tlab_bytes = 64 * MiB;
	r.tlab_fills = 180;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 64 * MiB);
	/* Same bytes, other fills: a new epoch that happened to match. */
	r.tlab_fills = 170;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 128 * MiB);
}

static void test_counter_going_back_restarts(void)
{
	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(50, 2, 10 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_estimate_step(&a, &r);
	r = reading(1, 0, 20 * MiB, 100 * MiB, 10 * MiB);
	r.eden_was_full = true;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 0);
	r.eden_used = 25 * MiB;
	hotspot_alloc_estimate_step(&a, &r);
	CHECK_U64(a.total_bytes, 5 * MiB);
}

int main(void)
{
	RUN_TEST(test_first_reading_sets_base);
	RUN_TEST(test_no_gc_counts_eden_growth);
	RUN_TEST(test_one_young_gc_allocation_failure);
	RUN_TEST(test_gc_not_at_full_eden);
	RUN_TEST(test_several_gcs_between_polls);
	RUN_TEST(test_g1_resized_eden);
	RUN_TEST(test_g1_humongous_growth);
	RUN_TEST(test_humongous_waste_bound);
	RUN_TEST(test_g1_eden_tails_bound);
	RUN_TEST(test_heap_growth_model);
	RUN_TEST(test_collection_split_at_entry);
	RUN_TEST(test_fill_leaves_out_the_safepoint_wait);
	RUN_TEST(test_humongous_around_a_collection);
	RUN_TEST(test_parallel_promoted);
	RUN_TEST(test_reading_during_collection_skipped);
	RUN_TEST(test_tlab_waste_subtracted);
	RUN_TEST(test_clock_offset);
	RUN_TEST(test_tlab_epochs_model);
	RUN_TEST(test_counter_going_back_restarts);
	return check_summary();
}
