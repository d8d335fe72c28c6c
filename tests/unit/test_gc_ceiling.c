/* What allocating less can win at most (model/gc_ceiling.c) and its words
 * (views/format_ceiling.c): the larger of the pauses' share of wall
 * time and the GC threads' share of the process's CPU. */
#include <string.h>

#include "model/gc_ceiling.h"
#include "tests/unit/check.h"
#include "views/format_ceiling.h"

static struct gt_f64 f(double v)
{
	return (struct gt_f64){ v, true };
}

static const struct gt_f64 NA = { 0, false };

static void test_the_larger_share(void)
{
	struct gt_gc_ceiling c;
	gt_gc_ceiling_of(f(0.022), f(0.062), f(2.0), &c);     /* 3.1% of two cores' worth */
	CHECK(c.share.valid && c.cpu_share.valid && c.pause_share.valid);
	CHECK_NEAR(c.cpu_share.value, 0.031, 1e-12);
	CHECK_NEAR(c.share.value, 0.031, 1e-12);
	gt_gc_ceiling_of(f(0.05), f(0.01), f(1.0), &c);
	CHECK_NEAR(c.share.value, 0.05, 1e-12);
	/* .NET gives no GC CPU: the pauses alone; an idle process no CPU part */
	gt_gc_ceiling_of(f(0.022), NA, f(1.0), &c);
	CHECK(!c.cpu_share.valid && c.share.valid && c.share.value == 0.022);
	gt_gc_ceiling_of(f(0.01), f(0.5), f(0), &c);
	CHECK(!c.cpu_share.valid && c.share.value == 0.01);
	/* shares past 1 (a counter gone wrong) stay within [0, 1] */
	gt_gc_ceiling_of(f(1.5), f(3), f(1), &c);
	CHECK(c.pause_share.value == 1 && c.cpu_share.value == 1 && c.share.value == 1);
	gt_gc_ceiling_of(NA, NA, f(1), &c);
	CHECK(!c.share.valid);
}

static void test_words(void)
{
	struct gt_gc_ceiling c;
	char buf[320];
	gt_gc_ceiling_of(f(0.022), f(0.031), f(1.0), &c);
	CHECK_STR(gt_format_gc_ceiling(buf, sizeof(buf), &c),
		  "GC takes 3.1% of the time (pauses 2.2% of wall time, its threads 3.1% of the process's CPU): "
		  "removing all of this allocation gains at most about that, plus the work that produced it");
	gt_gc_ceiling_of(f(0.022), NA, NA, &c);
	CHECK(strstr(gt_format_gc_ceiling(buf, sizeof(buf), &c), "GC takes 2.2% of the time (pauses 2.2% of wall time)"));
	gt_gc_ceiling_of(NA, NA, NA, &c);
	CHECK(strstr(gt_format_gc_ceiling(buf, sizeof(buf), &c), "n/a"));
	/* the pane's line: the longest form that fits, never a cut word */
	gt_gc_ceiling_of(f(0.022), NA, NA, &c);
	CHECK_STR(gt_format_gc_ceiling_short(buf, sizeof(buf), &c, 200),
		  "GC 2.2% of the time: at most ~2.2% to gain by allocating less, plus the work behind it");
	CHECK_STR(gt_format_gc_ceiling_short(buf, sizeof(buf), &c, 61),
		  "GC 2.2% of the time: at most ~2.2% to gain by allocating less");
	CHECK_STR(gt_format_gc_ceiling_short(buf, sizeof(buf), &c, 49), "GC 2.2%: at most ~2.2% to gain by allocating less");
	CHECK_STR(gt_format_gc_ceiling_short(buf, sizeof(buf), &c, 40), "GC 2.2%: gain <=2.2% by allocating less");
	CHECK_STR(gt_format_gc_ceiling_short(buf, sizeof(buf), &c, 10), "");
}

int main(void)
{
	RUN_TEST(test_the_larger_share);
	RUN_TEST(test_words);
	return check_summary();
}
