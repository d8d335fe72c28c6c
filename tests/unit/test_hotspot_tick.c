/* The poll tick while a JVM collects: two to four polls at set points of
 * the interval after each collection (fewer while the intervals are
 * regular), then a share of the interval apart while one is late. */
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "tests/unit/check.h"

#define MS 1000000ull

static void test_two_marks_an_interval(void)
{
	uint64_t exit = 1000 * MS, period = 40 * MS;
	/* Two shares of 20 ms: marks 6 and 26 ms after the exit, then 46 ms,
	 * the first mark of the next interval. */
	CHECK_U64(hotspot_tick_ns(exit, exit, period, 2, false), 6 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 6 * MS, exit, period, 2, false), 20 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 26 * MS, exit, period, 2, false), 20 * MS);
	/* Past every mark (the next collection is late): a share at a time,
	 * as between the marks, also when the next mark is less than 1 ms away. */
	CHECK_U64(hotspot_tick_ns(exit + 46 * MS, exit, period, 2, false), 20 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 45500000, exit, period, 2, false), 20 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 90 * MS, exit, period, 4, false), 10 * MS);
}

static void test_four_marks_an_interval(void)
{
	uint64_t exit = 1000 * MS, period = 40 * MS;
	/* Shares of 10 ms: 3, 13, 23, 33, then 43 ms. */
	CHECK_U64(hotspot_tick_ns(exit, exit, period, 4, false), 3 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 3 * MS, exit, period, 4, false), 10 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 33 * MS, exit, period, 4, false), 10 * MS);
	/* Not known (0): four. */
	CHECK_U64(hotspot_tick_ns(exit + 3 * MS, exit, period, 0, false), 10 * MS);
}

static void test_fast_collections(void)
{
	uint64_t exit = 1000 * MS, period = 10 * MS;
	/* Shares of 5 ms: 1.5, 6.5, 11.5 ms. */
	CHECK_U64(hotspot_tick_ns(exit, exit, period, 2, false), 1500000);
	CHECK_U64(hotspot_tick_ns(exit + 1500000, exit, period, 2, false), 5 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 7 * MS, exit, period, 2, false), 4500000);
	/* Never below 1 ms, never above 100 ms. */
	CHECK_U64(hotspot_tick_ns(exit, exit, 2 * MS, 2, false), 1300000);
	CHECK_U64(hotspot_tick_ns(exit + 1500000, exit, 2 * MS, 2, false), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(exit, exit, 5000 * MS, 2, false), HOTSPOT_TICK_MAX_NS);
}

static void test_unknown_exit_or_period(void)
{
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 40 * MS, 2, false), 10 * MS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1000 * MS, 0, 2, false), HOTSPOT_TICK_MAX_NS);
	/* An exit after now (clock offset not settled): as if unknown. */
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1010 * MS, 40 * MS, 2, false), 10 * MS);
}

/* G1 allocating humongous arrays: old is read 64 times an interval, every
 * millisecond at 15 collections a second and more. */
static void test_dense_while_humongous(void)
{
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1000 * MS, 32 * MS, 2, true), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 64 * MS, 2, true), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 960 * MS, 2, true), 15 * MS);
	/* Not while nothing collects. */
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 0, 2, true), HOTSPOT_TICK_MAX_NS);
}

/* Collections less than 20 ms apart: two polls an interval while no
 * interval is much shorter than the period, up to four as the shortest one
 * shrinks; 20 ms apart or more: three at least. */
static void test_polls_an_interval(void)
{
	CHECK(hotspot_tick_per_interval(10 * MS, 0) == 4);
	CHECK(hotspot_tick_per_interval(10 * MS, 9 * MS) == 2);
	CHECK(hotspot_tick_per_interval(10 * MS, 10 * MS) == 2);
	CHECK(hotspot_tick_per_interval(10 * MS, 4900000) == 3);
	CHECK(hotspot_tick_per_interval(10 * MS, 3 * MS) == 4);
	CHECK(hotspot_tick_per_interval(10 * MS, 1 * MS) == 4);
	CHECK(hotspot_tick_per_interval(19 * MS, 18 * MS) == 2);
	CHECK(hotspot_tick_per_interval(20 * MS, 18 * MS) == 3);
	CHECK(hotspot_tick_per_interval(40 * MS, 36 * MS) == 3);
	CHECK(hotspot_tick_per_interval(40 * MS, 12 * MS) == 4);
	CHECK(hotspot_tick_per_interval(40 * MS, 0) == 4);
}

static void reading(struct hotspot_alloc_reading *r, uint64_t mono_ms, uint64_t young, uint64_t entry_ms,
		    uint64_t exit_ms)
{
	memset(r, 0, sizeof(*r));
	r->mono_ns = mono_ms * MS;
	r->young_gcs = young;
	r->jvm_young_entry_ns = entry_ms * MS;
	r->jvm_young_exit_ns = exit_ms * MS;
}

/* The shortest interval: from a collection's entry to the previous exit
 * when a poll saw one, from the window over its collections when it saw
 * several; it falls at once and creeps back up. */
static void test_shortest_interval(void)
{
	struct hotspot_tick_state t;
	memset(&t, 0, sizeof(t));
	struct hotspot_alloc_reading r;
	reading(&r, 1000, 10, 100, 101);
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.shortest_ns, 0);
	reading(&r, 1035, 11, 130, 131);
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.shortest_ns, 29 * MS);
	reading(&r, 1055, 12, 150, 151);
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.shortest_ns, 19 * MS);
	/* 30 ms: a sixteenth of the way from 19 up. */
	reading(&r, 1090, 13, 181, 182);
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.shortest_ns, 19 * MS + 11 * MS / 16);
	/* A window under way is not looked at. */
	reading(&r, 1095, 14, 186, 182);
	r.in_progress = true;
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.collections, 13);
	/* Two collections in a 30 ms window: 15 ms each at most. */
	reading(&r, 1120, 15, 210, 211);
	hotspot_tick_note(&t, &r, 40 * MS);
	CHECK_U64(t.shortest_ns, 15 * MS);
}

int main(void)
{
	RUN_TEST(test_two_marks_an_interval);
	RUN_TEST(test_four_marks_an_interval);
	RUN_TEST(test_fast_collections);
	RUN_TEST(test_unknown_exit_or_period);
	RUN_TEST(test_dense_while_humongous);
	RUN_TEST(test_polls_an_interval);
	RUN_TEST(test_shortest_interval);
	return check_summary();
}
