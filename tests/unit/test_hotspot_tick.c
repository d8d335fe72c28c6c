/* The poll tick while a JVM collects: polls at set points of the interval
 * after each collection, then every quarter interval while one is late. */
#include "collectors/hotspot/hotspot.h"
#include "tests/unit/check.h"

#define MS 1000000ull

static void test_marks_after_a_collection(void)
{
	uint64_t exit = 1000 * MS, period = 40 * MS;
	/* 15%, 45% and 75% of 40 ms after the exit. */
	CHECK_U64(hotspot_tick_ns(exit, exit, period, false), 6 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 6 * MS, exit, period, false), 12 * MS);
	CHECK_U64(hotspot_tick_ns(exit + 18 * MS, exit, period, false), 12 * MS);
	/* Past the last mark: a quarter interval. */
	CHECK_U64(hotspot_tick_ns(exit + 30 * MS, exit, period, false), 10 * MS);
}

/* Collections less than 20 ms apart: a quarter interval at a time. */
static void test_fast_collections_quarter_interval(void)
{
	uint64_t exit = 1000 * MS, period = 10 * MS;
	CHECK_U64(hotspot_tick_ns(exit, exit, period, false), 2500000);
	CHECK_U64(hotspot_tick_ns(exit + 7 * MS, exit, period, false), 2500000);
	/* Never below 1 ms, never above 100 ms. */
	CHECK_U64(hotspot_tick_ns(exit, exit, 2 * MS, false), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(exit, exit, 5000 * MS, false), HOTSPOT_TICK_MAX_NS);
}

static void test_unknown_exit_or_period(void)
{
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 40 * MS, false), 10 * MS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1000 * MS, 0, false), HOTSPOT_TICK_MAX_NS);
	/* An exit after now (clock offset not settled): as if unknown. */
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1010 * MS, 40 * MS, false), 10 * MS);
}

/* G1 allocating humongous arrays: old is read 64 times an interval, every
 * millisecond at 15 collections a second and more. */
static void test_dense_while_humongous(void)
{
	CHECK_U64(hotspot_tick_ns(1000 * MS, 1000 * MS, 32 * MS, true), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 64 * MS, true), HOTSPOT_TICK_MIN_NS);
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 960 * MS, true), 15 * MS);
	/* Not while nothing collects. */
	CHECK_U64(hotspot_tick_ns(1000 * MS, 0, 0, true), HOTSPOT_TICK_MAX_NS);
}

int main(void)
{
	RUN_TEST(test_marks_after_a_collection);
	RUN_TEST(test_fast_collections_quarter_interval);
	RUN_TEST(test_unknown_exit_or_period);
	RUN_TEST(test_dense_while_humongous);
	return check_summary();
}
