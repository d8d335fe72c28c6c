/* The live set: the Theil–Sen trend and Sen's interval against hand-computed
 * values and known slopes among noise, the tracker's folding of live logs
 * (missed points, a restarted log, the window) and the projection. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/live_set.h"
#include "model/trend.h"
#include "tests/unit/check.h"

#define S 1000000000ull
#define MB 1000000.0

static struct gt_sample sample;          /* large: off the stack */
static struct gt_live_tracker tracker;

/* Deterministic noise in [-1, 1): the same every run. */
static double noise(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (double)((*state >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* Appends a point to the sample's live log, as a collector does. */
static void log_point(uint64_t at_ns, double bytes)
{
	struct gt_live_log *l = &sample.live_log;
	l->valid = true;
	l->points[l->count % GT_LIVE_RING] = (struct gt_live_point){ (uint64_t)bytes, at_ns, "full GC" };
	l->count++;
}

static void fold_at(uint64_t now_ns)
{
	sample.mono_ns = now_ns;
	gt_live_tracker_fold(&tracker, &sample);
}

static void reset(void)
{
	memset(&sample, 0, sizeof(sample));
	gt_live_tracker_clear(&tracker);
}

/* Five points on y = x with one outlier: ten slopes, six of them 1, then
 * 25, 33, 49, 97. Median 1; residuals 0,0,0,0,96, intercept 0. Sen's
 * interval at 90%: C = 1.6449 * sqrt(5*4*15/18) = 6.7151, lower rank
 * (10 - C)/2 = 1.64 (slope 1), upper rank (10 + C)/2 + 1 = 9.3575, between
 * 49 and 97: 49 + 0.3575 * 48 = 66.162. */
static void test_theil_sen_by_hand(void)
{
	double x[] = { 0, 1, 2, 3, 4 }, y[] = { 0, 1, 2, 3, 100 };
	struct gt_trend t;
	CHECK(gt_trend_fit(x, y, 5, &t) == 0);
	CHECK(t.valid);
	CHECK_U64(t.pairs, 10);
	CHECK_NEAR(t.slope, 1, 1e-12);
	CHECK_NEAR(t.intercept, 0, 1e-12);
	CHECK_NEAR(t.low, 1, 1e-12);
	CHECK_NEAR(t.high, 66.162, 0.001);
}

static void test_theil_sen_degenerate(void)
{
	double x[] = { 5, 5, 5 }, y[] = { 1, 2, 3 };
	struct gt_trend t;
	CHECK(gt_trend_fit(x, y, 1, &t) == 0 && !t.valid);
	CHECK(gt_trend_fit(x, y, 3, &t) == 0 && !t.valid);   /* no two x differ */
	double many[GT_TREND_MAX_POINTS + 1] = { 0 };
	CHECK(gt_trend_fit(many, many, GT_TREND_MAX_POINTS + 1, &t) == 0 && !t.valid);
}

/* A slope of 1 MB/s among noise of +-20 MB on a 500 MB live set, one
 * point every 20 s for 20 minutes: within 5% and inside its interval;
 * least squares would be thrown off by the two outliers, Theil–Sen is not. */
static void test_known_slope_with_noise(void)
{
	double x[60], y[60];
	unsigned st = 7;
	for (int i = 0; i < 60; i++) {
		x[i] = 20.0 * i;
		y[i] = 500 * MB + 1 * MB * x[i] + 20 * MB * noise(&st);
	}
	y[10] += 400 * MB;
	y[50] -= 300 * MB;
	struct gt_trend t;
	CHECK(gt_trend_fit(x, y, 60, &t) == 0);
	CHECK_NEAR(t.slope, 1 * MB, 0.05 * MB);
	CHECK(t.low < 1 * MB && t.high > 1 * MB);
	CHECK(t.low > 0.9 * MB && t.high < 1.1 * MB);
}

/* A flat live set among noise: the interval holds zero. */
static void test_flat_interval_holds_zero(void)
{
	double x[40], y[40];
	unsigned st = 11;
	for (int i = 0; i < 40; i++) {
		x[i] = 30.0 * i;
		y[i] = 2000 * MB + 50 * MB * noise(&st);
	}
	struct gt_trend t;
	CHECK(gt_trend_fit(x, y, 40, &t) == 0);
	CHECK(t.low < 0 && t.high > 0);
}

static void test_rank_interpolates_and_clamps(void)
{
	double v[] = { 10, 20, 30 };
	CHECK_NEAR(gt_trend_rank(v, 3, 0.2), 10, 0);
	CHECK_NEAR(gt_trend_rank(v, 3, 1.5), 15, 1e-12);
	CHECK_NEAR(gt_trend_rank(v, 3, 2.25), 22.5, 1e-12);
	CHECK_NEAR(gt_trend_rank(v, 3, 7), 30, 0);
}

/* Several points per sample, and a count that jumps past the ring: the
 * points the ring overwrote are counted as missed, the rest folded. */
static void test_tracker_takes_new_points_and_counts_missed(void)
{
	reset();
	log_point(1 * S, 100 * MB);
	log_point(2 * S, 101 * MB);
	fold_at(2 * S);
	CHECK_U64(tracker.n, 2);
	fold_at(3 * S);                          /* nothing new: nothing taken twice */
	CHECK_U64(tracker.n, 2);
	for (int i = 0; i < 20; i++)
		log_point((uint64_t)(3 + i) * S, (102 + i) * MB);
	fold_at(23 * S);
	CHECK_U64(tracker.missed, 4);
	CHECK_U64(tracker.n, 2 + GT_LIVE_RING);
	struct gt_live_set ls;
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.valid);
	CHECK_U64(ls.bytes, (uint64_t)(121 * MB));
	CHECK_U64(ls.missed, 4);
	CHECK_STR(ls.kind, "full GC");
}

/* A log whose count went backwards (a new collector session): a new series. */
static void test_tracker_restarted_log(void)
{
	reset();
	for (int i = 0; i < 6; i++)
		log_point((uint64_t)(1 + i) * S, 100 * MB);
	fold_at(7 * S);
	CHECK_U64(tracker.n, 6);
	sample.live_log.count = 0;
	log_point(8 * S, 50 * MB);
	fold_at(8 * S);
	CHECK_U64(tracker.n, 1);
	CHECK_U64(tracker.points[tracker.head].bytes, (uint64_t)(50 * MB));
}

/* Points older than the window at the sample's moment leave it, and past
 * GT_LIVE_SET_POINTS the ring thins evenly, keeping the oldest and newest. */
static void test_tracker_window_and_bound(void)
{
	reset();
	log_point(10 * S, 1 * MB);
	fold_at(10 * S);
	fold_at(10 * S + GT_LIVE_SET_WINDOW_NS);
	CHECK_U64(tracker.n, 1);                 /* exactly the window: kept */
	fold_at(11 * S + GT_LIVE_SET_WINDOW_NS);
	CHECK_U64(tracker.n, 0);
	struct gt_live_set ls;
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.valid);
	CHECK_STR(ls.why, "no collection has reached the old generation in the last 30 minutes");
	reset();
	sample.live_log.valid = true;
	fold_at(1 * S);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK_STR(ls.why, "no collection has reached the old generation yet");

	reset();
	for (int i = 0; i < GT_LIVE_SET_POINTS + 30; i++) {
		log_point((uint64_t)(i + 1) * S, (double)i);
		fold_at((uint64_t)(i + 1) * S);
	}
	CHECK_U64(tracker.n, GT_LIVE_SET_POINTS);
	CHECK_U64(tracker.points[tracker.head].bytes, 0);   /* the oldest stays */
	CHECK_U64(tracker.points[(tracker.head + tracker.n - 1) % GT_LIVE_SET_POINTS].bytes,
		  GT_LIVE_SET_POINTS + 29);                    /* and the newest */
	uint64_t widest = 0;
	for (size_t i = 1; i < tracker.n; i++) {
		uint64_t gap = tracker.points[(tracker.head + i) % GT_LIVE_SET_POINTS].at_ns -
			       tracker.points[(tracker.head + i - 1) % GT_LIVE_SET_POINTS].at_ns;
		widest = gap > widest ? gap : widest;
	}
	CHECK(widest <= 2 * S);                             /* spread evenly, not a hole */
}

/* A dying JVM: a point every 30 s for 20 minutes, then a collection every
 * second for its last 5 minutes (G1 near a full heap). The span stays the
 * whole 25 minutes, so the trend never goes back to "too short a span"
 * (before, the newest 128 points spanned about two minutes); the growth
 * stays the leak's 1 MB/s. */
static void test_tracker_fast_collections_keep_span(void)
{
	reset();
	uint64_t t = 0;
	for (int i = 0; i < 40; i++, t += 30 * S) {
		log_point(t + 1, (double)t / S * MB);
		fold_at(t + 1);
	}
	for (int i = 0; i < 300; i++, t += S) {
		log_point(t + 1, (double)t / S * MB);
		fold_at(t + 1);
	}
	struct gt_live_set ls;
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK_U64(tracker.n, GT_LIVE_SET_POINTS);
	CHECK(ls.span_s.valid && ls.span_s.value >= 1490);
	CHECK(ls.growth_bps.valid && fabs(ls.growth_bps.value - MB) < 0.01 * MB);
}

/* A steady 1 MB/s over ten points, 20 s apart, ending at 300 MB; the
 * sample is taken 10 s after the newest point. */
static void steady_growth(void)
{
	reset();
	for (int i = 0; i < 10; i++)
		log_point((uint64_t)(100 + 20 * i) * S, 120 * MB + 20 * MB * i);
	fold_at(290 * S);   /* newest point at 280 s, 300 MB; the line is at 310 MB now */
}

static void test_too_few_points_or_too_short(void)
{
	struct gt_live_set ls;
	reset();
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.valid);
	CHECK_STR(ls.why, "the collector does not measure the live set");
	sample.live_unavailable = "ZGC on JDK 17 publishes no used-after-cycle";
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK_STR(ls.why, "ZGC on JDK 17 publishes no used-after-cycle");

	reset();
	for (int i = 0; i < 4; i++)
		log_point((uint64_t)(1 + 30 * i) * S, 100 * MB);
	fold_at(100 * S);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.valid && !ls.growth_bps.valid && !ls.exhaustion_s.valid);
	CHECK(strstr(ls.growth_why, "too few points") != NULL);

	reset();
	for (int i = 0; i < 8; i++)
		log_point((uint64_t)(1 + 5 * i) * S, 100 * MB);   /* 35 s */
	fold_at(40 * S);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.growth_bps.valid);
	CHECK(strstr(ls.growth_why, "too short a span") != NULL);
	CHECK_STR(ls.exhaustion_why, ls.growth_why);
}

/* Heap max 500 MB: (500 - 310) MB at 1 MB/s = 190 s. */
static void test_exhaustion_heap_max(void)
{
	struct gt_live_set ls;
	steady_growth();
	gt_u64_set(&sample.heap_max_bytes, (uint64_t)(600 * MB));
	gt_u64_set(&sample.old_max_bytes, (uint64_t)(500 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK_NEAR(ls.growth_bps.value, 1 * MB, 1);
	CHECK_U64(ls.points, 10);
	CHECK_NEAR(ls.span_s.value, 180, 1e-9);
	CHECK(ls.exhaustion_s.valid);
	CHECK_NEAR(ls.exhaustion_s.value, 190, 1e-6);
	CHECK(ls.limit_kind == GT_LIVE_LIMIT_HEAP_MAX);
	CHECK_U64(ls.limit_bytes.value, (uint64_t)(500 * MB));
	CHECK_STR(gt_live_limit_name(ls.limit_kind), "heap-max");
}

/* A container with 1000 MB, 950 MB of it in use: 50 s, before the heap's
 * 190 s. Without a working set the usage counts. */
static void test_exhaustion_container_first(void)
{
	struct gt_live_set ls;
	steady_growth();
	gt_u64_set(&sample.old_max_bytes, (uint64_t)(500 * MB));
	gt_u64_set(&sample.cgroup_limit_bytes, (uint64_t)(1000 * MB));
	gt_u64_set(&sample.cgroup_usage_bytes, (uint64_t)(980 * MB));
	gt_u64_set(&sample.cgroup_working_set_bytes, (uint64_t)(950 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.limit_kind == GT_LIVE_LIMIT_CONTAINER);
	CHECK_NEAR(ls.exhaustion_s.value, 50, 1e-6);
	sample.cgroup_working_set_bytes.valid = false;
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK_NEAR(ls.exhaustion_s.value, 20, 1e-6);
}

static void test_exhaustion_na(void)
{
	struct gt_live_set ls;
	steady_growth();
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.exhaustion_s.valid && ls.limit_kind == GT_LIVE_LIMIT_NONE);
	CHECK(strstr(ls.exhaustion_why, "no limit is known") != NULL);

	reset();
	unsigned st = 3;
	for (int i = 0; i < 30; i++)
		log_point((uint64_t)(1 + 20 * i) * S, 300 * MB + 10 * MB * noise(&st));
	fold_at(600 * S);
	gt_u64_set(&sample.heap_max_bytes, (uint64_t)(500 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.growth_bps.valid && !ls.exhaustion_s.valid);
	CHECK(ls.limit_kind == GT_LIVE_LIMIT_HEAP_MAX);   /* the limit known is still named */
	CHECK(strstr(ls.exhaustion_why, "not growing") != NULL);
}

/* The plausibility rules (model/live_set.c), on a host of 8 GB. */
static void test_plausibility(void)
{
	struct gt_live_set ls;
	steady_growth();   /* 1 MB/s over 180 s, 310 MB now */
	gt_u64_set(&sample.host_mem_total_bytes, (uint64_t)(8000 * MB));
	/* an 8 EiB heap max is no limit */
	gt_u64_set(&sample.heap_max_bytes, UINT64_C(1) << 63);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.growth_bps.valid && !ls.exhaustion_s.valid);
	CHECK(strstr(ls.exhaustion_why, "above the host's memory") != NULL);
	/* 690 s away: within 10 times the 180 s span */
	gt_u64_set(&sample.heap_max_bytes, (uint64_t)(1000 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.exhaustion_s.valid);
	CHECK_NEAR(ls.exhaustion_s.value, 690, 1e-6);
	/* 3690 s away: past 1800 s, so none */
	gt_u64_set(&sample.heap_max_bytes, (uint64_t)(4000 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.exhaustion_s.valid);
	CHECK(strstr(ls.exhaustion_why, "10 times the span") != NULL);
	/* a heap max above the container's limit is not the limit */
	gt_u64_set(&sample.heap_max_bytes, (uint64_t)(600 * MB));
	gt_u64_set(&sample.cgroup_limit_bytes, (uint64_t)(500 * MB));
	gt_u64_set(&sample.cgroup_working_set_bytes, (uint64_t)(400 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.limit_kind == GT_LIVE_LIMIT_CONTAINER);
	CHECK_NEAR(ls.exhaustion_s.value, 100, 1e-6);
	/* a container limit above the host's memory is not one either */
	gt_u64_set(&sample.cgroup_limit_bytes, (uint64_t)(16000 * MB));
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.limit_kind == GT_LIVE_LIMIT_HEAP_MAX);
	CHECK_NEAR(ls.exhaustion_s.value, 290, 1e-6);

	/* a point the host could not hold: the growth is n/a, and why */
	steady_growth();
	gt_u64_set(&sample.host_mem_total_bytes, (uint64_t)(8000 * MB));
	log_point(285 * S, 9000 * MB);
	log_point(286 * S, 320 * MB);
	fold_at(290 * S);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(ls.valid && !ls.growth_bps.valid && !ls.exhaustion_s.valid);
	CHECK(strstr(ls.growth_why, GT_LIVE_SET_IMPLAUSIBLE) != NULL);
	/* a maximal live set: none of the figures */
	log_point(287 * S, 1e19);   /* near the counter's maximum */
	fold_at(290 * S);
	gt_live_set_figures(&tracker, &sample, &ls);
	CHECK(!ls.valid);
	CHECK(strstr(ls.why, GT_LIVE_SET_IMPLAUSIBLE) != NULL);
}

int main(void)
{
	RUN_TEST(test_theil_sen_by_hand);
	RUN_TEST(test_theil_sen_degenerate);
	RUN_TEST(test_known_slope_with_noise);
	RUN_TEST(test_flat_interval_holds_zero);
	RUN_TEST(test_rank_interpolates_and_clamps);
	RUN_TEST(test_tracker_takes_new_points_and_counts_missed);
	RUN_TEST(test_tracker_restarted_log);
	RUN_TEST(test_tracker_window_and_bound);
	RUN_TEST(test_tracker_fast_collections_keep_span);
	RUN_TEST(test_too_few_points_or_too_short);
	RUN_TEST(test_exhaustion_heap_max);
	RUN_TEST(test_exhaustion_container_first);
	RUN_TEST(test_exhaustion_na);
	RUN_TEST(test_plausibility);
	return check_summary();
}
