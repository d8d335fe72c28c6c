/* The eden-delta allocation estimator on crafted counter sequences. */
#include <string.h>

#include "../../collectors/hotspot_alloc.h"
#include "check.h"

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
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 1, 40 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 0);
	CHECK(a.have_prev);
}

static void test_no_gc_counts_eden_growth(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 10 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	r.eden_used = 30 * MiB;
	hotspot_alloc_step(&a, &r);
	r.eden_used = 55 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 45 * MiB);
	/* Direct allocation into old between pauses counts too. */
	r.old_used = 12 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 47 * MiB);
	/* A stale read that goes down adds nothing. */
	r.eden_used = 50 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 47 * MiB);
	CHECK_U64(a.large_total_bytes, 0);
}

static void test_one_young_gc_allocation_failure(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 80 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	/* GC at a full eden (20 MiB more), then 7 MiB since; old grew by promotion. */
	r = reading(6, 0, 7 * MiB, 100 * MiB, 14 * MiB);
	r.eden_was_full = hotspot_alloc_cause_fills_eden("Allocation Failure");
	CHECK(r.eden_was_full);
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 27 * MiB);
}

static void test_gc_not_at_full_eden(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(5, 0, 30 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	r = reading(5, 1, 2 * MiB, 100 * MiB, 8 * MiB);
	r.eden_was_full = hotspot_alloc_cause_fills_eden("System.gc()");
	CHECK(!r.eden_was_full);
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 2 * MiB);
}

static void test_several_gcs_between_polls(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(10, 0, 60 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	/* Three young collections: 40 to fill, two more full edens, 5 since. */
	r = reading(13, 0, 5 * MiB, 100 * MiB, 11 * MiB);
	r.eden_was_full = hotspot_alloc_cause_fills_eden("G1 Evacuation Pause");
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, (40 + 200 + 5) * MiB);
	/* A young and a full one (Parallel's Ergonomics follow-up). */
	struct hotspot_alloc b;
	hotspot_alloc_init(&b, HOTSPOT_ALLOC_EDEN, false);
	r = reading(10, 2, 90 * MiB, 100 * MiB, 50 * MiB);
	hotspot_alloc_step(&b, &r);
	r = reading(11, 3, 1 * MiB, 100 * MiB, 20 * MiB);
	r.eden_was_full = hotspot_alloc_cause_fills_eden("Ergonomics");
	hotspot_alloc_step(&b, &r);
	CHECK_U64(b.total_bytes, (10 + 100 + 1) * MiB);
}

static void test_g1_resized_eden(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(3, 0, 100 * MiB, 150 * MiB, 20 * MiB);
	hotspot_alloc_step(&a, &r);
	/* The pause shrinks eden to 60 MiB; what filled before is measured
	 * against the capacity eden had then. */
	r = reading(4, 0, 4 * MiB, 60 * MiB, 22 * MiB);
	r.eden_was_full = true;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, (50 + 4) * MiB);
	/* Two more pauses in one window at the new size. */
	r = reading(6, 0, 10 * MiB, 60 * MiB, 24 * MiB);
	r.eden_was_full = true;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, (54 + 56 + 60 + 10) * MiB);
	CHECK_U64(a.large_total_bytes, 0);
}

static void test_g1_humongous_growth(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, true);
	struct hotspot_alloc_reading r = reading(3, 0, 10 * MiB, 100 * MiB, 20 * MiB);
	hotspot_alloc_step(&a, &r);
	/* Two 3 MiB arrays take four 1 MiB regions each. */
	r.old_used = 28 * MiB;
	r.eden_used = 12 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 10 * MiB);
	CHECK_U64(a.large_total_bytes, 8 * MiB);
	CHECK_U64(a.large_live_bytes, 8 * MiB);
	/* A remark pause (collector.2): old changes but is not allocation. */
	r.other_pauses = 1;
	r.old_used = 26 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 10 * MiB);
	CHECK_U64(a.large_live_bytes, 6 * MiB);
	/* A young pause reclaims one array eagerly. */
	r = reading(4, 0, 1 * MiB, 100 * MiB, 22 * MiB);
	r.other_pauses = 1;
	r.eden_was_full = hotspot_alloc_cause_fills_eden("G1 Humongous Allocation");
	CHECK(!r.eden_was_full);
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 11 * MiB);
	CHECK_U64(a.large_live_bytes, 2 * MiB);
	CHECK_U64(a.large_total_bytes, 8 * MiB);
	/* A full collection emptying old leaves no humongous bytes. */
	r = reading(4, 1, 0, 100 * MiB, 0);
	r.other_pauses = 1;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.large_live_bytes, 0);
}

static void test_heap_growth_model(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_HEAP_GROWTH, false);
	struct hotspot_alloc_reading r = { .heap_used = 100 * MiB };
	hotspot_alloc_step(&a, &r);
	r.heap_used = 130 * MiB;
	hotspot_alloc_step(&a, &r);
	r.heap_used = 40 * MiB; /* a concurrent cycle reclaimed */
	r.other_pauses = 2;
	hotspot_alloc_step(&a, &r);
	r.heap_used = 45 * MiB;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 35 * MiB);
}

/* A collection that starts with eden not full (a big array did not fit):
 * the rate seen since the previous collection decides, within the bounds. */
static void test_rate_between_bounds(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(1, 0, 0, 100 * MiB, 10 * MiB);
	r.mono_ns = 1000000000;
	hotspot_alloc_step(&a, &r);
	for (int i = 1; i <= 8; i++) { /* 10 MiB per 100 ms */
		r.mono_ns += 100000000;
		r.eden_used = (uint64_t)i * 10 * MiB;
		hotspot_alloc_step(&a, &r);
	}
	CHECK_U64(a.total_bytes, 80 * MiB);
	/* GC at 84 MiB of 100 (a 6 MiB array did not fit), then 6 + 2 MiB. */
	r = reading(2, 0, 8 * MiB, 100 * MiB, 10 * MiB);
	r.mono_ns = 1900000000;
	r.eden_was_full = true;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 90 * MiB); /* the rate's 10 MiB, not the 28 of a full eden */
	/* With no allocation seen since, the bounds decide: here the lower one. */
	r = reading(3, 0, 1 * MiB, 100 * MiB, 10 * MiB);
	r.mono_ns = 2000000000;
	r.eden_was_full = false;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 91 * MiB);
	/* A rate far above what the bounds allow is capped by them. */
	r.mono_ns += 100000000;
	r.eden_used = 91 * MiB;
	hotspot_alloc_step(&a, &r);
	r = reading(4, 0, 2 * MiB, 100 * MiB, 10 * MiB);
	r.mono_ns = 2200000000;
	r.eden_was_full = true;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, (181 + 9 + 2) * MiB);
}

static void test_tlab_epochs_model(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_TLAB_EPOCHS, false);
	struct hotspot_alloc_reading r = { .tlab_bytes = 40 * MiB, .tlab_fills = 100 };
	hotspot_alloc_step(&a, &r); /* an epoch before we attached: not counted */
	hotspot_alloc_step(&a, &r); /* nothing published since */
	CHECK_U64(a.total_bytes, 0);
	r.tlab_bytes = 64 * MiB;
	r.tlab_fills = 180;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 64 * MiB);
	/* Same bytes, other fills: a new epoch that happened to match. */
	r.tlab_fills = 170;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 128 * MiB);
}

static void test_counter_going_back_restarts(void)
{
	struct hotspot_alloc a;
	hotspot_alloc_init(&a, HOTSPOT_ALLOC_EDEN, false);
	struct hotspot_alloc_reading r = reading(50, 2, 10 * MiB, 100 * MiB, 10 * MiB);
	hotspot_alloc_step(&a, &r);
	r = reading(1, 0, 20 * MiB, 100 * MiB, 10 * MiB);
	r.eden_was_full = true;
	hotspot_alloc_step(&a, &r);
	CHECK_U64(a.total_bytes, 0);
	r.eden_used = 25 * MiB;
	hotspot_alloc_step(&a, &r);
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
	RUN_TEST(test_heap_growth_model);
	RUN_TEST(test_rate_between_bounds);
	RUN_TEST(test_tlab_epochs_model);
	RUN_TEST(test_counter_going_back_restarts);
	return check_summary();
}
