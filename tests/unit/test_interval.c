/* The one interval reader of -d and the d prompt (base/interval.h): seconds
 * with fractions, or with a unit s, m or h, within 0.1 s to an hour. */
#include <stdint.h>
#include <string.h>

#include "tests/unit/check.h"
#include "base/interval.h"
#include "frontends/options.h"

static uint64_t ns_of(const char *s)
{
	uint64_t ns = 0;
	CHECK(gt_interval_parse(s, &ns) == GT_INTERVAL_OK);
	return ns;
}

static void test_units(void)
{
	CHECK_U64(ns_of("5m"), 300000000000ull);
	CHECK_U64(ns_of("1.5s"), 1500000000ull);
	CHECK_U64(ns_of("1.5"), 1500000000ull);
	CHECK_U64(ns_of("0.5h"), 1800000000000ull);
	CHECK_U64(ns_of("1h"), 3600000000000ull);
	CHECK_U64(ns_of("0.1"), 100000000ull);
	CHECK_U64(ns_of(".25"), 250000000ull);
	CHECK_U64(ns_of("2."), 2000000000ull);
	CHECK_U64(ns_of("60m"), 3600000000000ull);
}

/* 2h is read, and refused as longer than the hour an interval may be */
static void test_range(void)
{
	uint64_t ns = 7;
	CHECK(gt_interval_parse("2h", &ns) == GT_INTERVAL_RANGE);
	CHECK(gt_interval_parse("61m", &ns) == GT_INTERVAL_RANGE);
	CHECK(gt_interval_parse("3601", &ns) == GT_INTERVAL_RANGE);
	CHECK(gt_interval_parse("0.09", &ns) == GT_INTERVAL_RANGE);
	CHECK(gt_interval_parse("0", &ns) == GT_INTERVAL_RANGE);
	CHECK(gt_interval_parse("0.001m", &ns) == GT_INTERVAL_RANGE);
	CHECK_U64(ns, 7);
}

static void test_bad_input(void)
{
	static const char *const bad[] = { "", "abc", "m", "5x", "5 m", " 5", "5m ", "5ms", "1e3", "inf", "nan",
					   "0x10", "-1", "+1", "1.2.3", ".", "5mm", "5M", "1,5" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t ns = 7;
		if (gt_interval_parse(bad[i], &ns) != GT_INTERVAL_BAD)
			check_fail(__FILE__, __LINE__, "\"%s\" was not refused as bad input", bad[i]);
		CHECK_U64(ns, 7);
	}
	CHECK(gt_interval_parse(NULL, &(uint64_t){ 0 }) == GT_INTERVAL_BAD);
}

/* -d reads the same way */
static void test_delay_option(void)
{
	char *argv[] = { "gctop", "-p", "7", "-b", "-d", "5m", NULL };
	struct gt_options o;
	struct gt_error e;
	CHECK(gt_options_parse(6, argv, &o, &e) == 0);
	CHECK_U64(o.interval_ns, 300000000000ull);
	char *bad[] = { "gctop", "-p", "7", "-b", "-d", "2h", NULL };
	CHECK(gt_options_parse(6, bad, &o, &e) != 0);
}

int main(void)
{
	RUN_TEST(test_units);
	RUN_TEST(test_range);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_delay_option);
	return check_summary();
}
