/* The history ring: ordering, wrap-around, series and window figures. */
#include <stdlib.h>
#include <string.h>

#include "model/history.h"
#include "tests/unit/check.h"

static struct gt_history hist; /* large: keep it off the stack */

/* One interval of dt seconds ending at t seconds, with the given figures. */
static void push_interval(double t, double dt, double rate, uint64_t pause_ns, uint64_t young, uint64_t old)
{
	struct gt_derived d;
	memset(&d, 0, sizeof(d));
	d.cur.mono_ns = (uint64_t)(t * 1e9);
	d.cur.n_generations = 2;
	gt_f64_set(&d.interval_s, dt);
	gt_f64_set(&d.alloc_rate_bps, rate);
	gt_u64_set(&d.pause_ns, pause_ns);
	gt_f64_set(&d.pause_share, (double)pause_ns / 1e9 / dt);
	gt_u64_set(&d.cur.last_pause_ns, pause_ns);
	gt_u64_set(&d.generations[0].collections, young);
	gt_u64_set(&d.generations[1].collections, old);
	gt_history_push(&hist, &d);
}

static void test_first_sample_adds_nothing(void)
{
	struct gt_derived d;
	memset(&d, 0, sizeof(d));
	d.first = true;
	gt_history_clear(&hist);
	gt_history_push(&hist, &d);
	CHECK_U64(gt_history_count(&hist), 0);
	CHECK(gt_history_at(&hist, 0) == NULL);

	struct gt_history_window w;
	gt_history_window(&hist, 60000000000ull, &w);
	CHECK_U64(w.points, 0);
	CHECK(!w.pause_share.valid);
	CHECK(!w.longest_pause_ns.valid);
	CHECK(!w.span_s.valid);
}

static void test_order_and_wrap(void)
{
	gt_history_clear(&hist);
	for (int i = 1; i <= GT_HISTORY_CAPACITY + 10; i++)
		push_interval(i, 1.0, (double)i, 0, 0, 0);
	CHECK_U64(gt_history_count(&hist), GT_HISTORY_CAPACITY);
	CHECK_NEAR(gt_history_at(&hist, 0)->alloc_rate_bps.value, GT_HISTORY_CAPACITY + 10, 0);
	CHECK_NEAR(gt_history_at(&hist, GT_HISTORY_CAPACITY - 1)->alloc_rate_bps.value, 11, 0);
	CHECK(gt_history_at(&hist, GT_HISTORY_CAPACITY) == NULL);

	struct gt_f64 s[5];
	CHECK_U64(gt_history_series(&hist, GT_HISTORY_ALLOC_RATE, s, 5), 5);
	/* oldest first, ending with the newest */
	CHECK_NEAR(s[0].value, GT_HISTORY_CAPACITY + 6, 0);
	CHECK_NEAR(s[4].value, GT_HISTORY_CAPACITY + 10, 0);
}

static void test_series_shorter_than_asked(void)
{
	gt_history_clear(&hist);
	push_interval(1, 1, 10, 0, 1, 0);
	push_interval(2, 1, 20, 0, 2, 1);
	struct gt_f64 s[8];
	CHECK_U64(gt_history_series(&hist, GT_HISTORY_COLLECTIONS, s, 8), 2);
	CHECK_NEAR(s[0].value, 1, 0);
	CHECK_NEAR(s[1].value, 3, 0);
}

static void test_invalid_values_stay_invalid(void)
{
	struct gt_derived d;
	memset(&d, 0, sizeof(d));
	gt_history_clear(&hist);
	d.cur.mono_ns = 5000000000ull;
	gt_f64_set(&d.interval_s, 1.0);
	gt_history_push(&hist, &d);
	struct gt_f64 s[1];
	gt_history_series(&hist, GT_HISTORY_ALLOC_RATE, s, 1);
	CHECK(!s[0].valid);
	gt_history_series(&hist, GT_HISTORY_HEAP_USED, s, 1);
	CHECK(!s[0].valid);
	gt_history_series(&hist, GT_HISTORY_COLLECTIONS, s, 1);
	CHECK(!s[0].valid);

	struct gt_history_window w;
	gt_history_window(&hist, 60000000000ull, &w);
	CHECK_U64(w.points, 1);
	CHECK(!w.pause_share.valid);
	CHECK(!w.alloc_rate_bps.valid);
	CHECK(!w.longest_pause_ns.valid);
	CHECK(!w.per_minute[0].valid);
}

static void test_window_figures(void)
{
	gt_history_clear(&hist);
	/* 100 one-second intervals; only the last 60 s are in the window. */
	for (int i = 1; i <= 100; i++) {
		uint64_t pause = i == 30 ? 900000000ull : (i % 10 == 0 ? 20000000ull : 0);
		push_interval(i, 1.0, i <= 40 ? 1000.0 : 2000.0, pause, i % 2, i == 100);
	}
	struct gt_history_window w;
	gt_history_window(&hist, 60000000000ull, &w);
	CHECK_U64(w.points, 60);
	CHECK_NEAR(w.span_s.value, 60, 1e-9);
	/* six 20 ms pauses (50, 60, ..., 100) in 60 s; the 900 ms one is older */
	CHECK_NEAR(w.pause_share.value, 0.120 / 60.0, 1e-9);
	CHECK_U64(w.longest_pause_ns.value, 20000000ull);
	CHECK_NEAR(w.alloc_rate_bps.value, 2000.0, 1e-9);
	CHECK_U64(w.collections[0].value, 30);
	CHECK_NEAR(w.per_minute[0].value, 30.0, 1e-9);
	CHECK_U64(w.collections[1].value, 1);
	CHECK_NEAR(w.per_minute[1].value, 1.0, 1e-9);

	/* A longer window reaches the long pause. */
	gt_history_window(&hist, 80000000000ull, &w);
	CHECK_U64(w.longest_pause_ns.value, 900000000ull);
	CHECK_U64(w.points, 80);
	CHECK_NEAR(w.alloc_rate_bps.value, (20 * 1000.0 + 60 * 2000.0) / 80.0, 1e-9);
}

static void test_window_uneven_intervals(void)
{
	gt_history_clear(&hist);
	/* a 0.5 s interval with 100 ms of pause, then a 2 s one with none */
	push_interval(10.0, 0.5, 100, 100000000ull, 1, 0);
	push_interval(12.0, 2.0, 400, 0, 0, 0);
	struct gt_history_window w;
	gt_history_window(&hist, 60000000000ull, &w);
	CHECK_NEAR(w.pause_share.value, 0.1 / 2.5, 1e-9);
	CHECK_NEAR(w.alloc_rate_bps.value, (50.0 + 800.0) / 2.5, 1e-9);
	CHECK_NEAR(w.per_minute[0].value, 60.0 / 2.5, 1e-9);
}

static void test_longest_pause_sources(void)
{
	struct gt_derived d;
	memset(&d, 0, sizeof(d));
	/* no pause data at all */
	CHECK(!gt_history_longest_pause(&d).valid);
	/* no pause in the interval: an old last pause does not count */
	gt_u64_set(&d.pause_ns, 0);
	gt_u64_set(&d.cur.last_pause_ns, 5000000);
	CHECK(gt_history_longest_pause(&d).valid);
	CHECK_U64(gt_history_longest_pause(&d).value, 0);
	/* a pause happened: the last one is the best we know */
	gt_u64_set(&d.pause_ns, 7000000);
	CHECK_U64(gt_history_longest_pause(&d).value, 5000000);
	/* the runtime's own maximum wins */
	gt_u64_set(&d.cur.pause_max_ns, 6000000);
	CHECK_U64(gt_history_longest_pause(&d).value, 6000000);
	/* pause time grew but the runtime gives no pause length */
	memset(&d, 0, sizeof(d));
	gt_u64_set(&d.pause_ns, 7000000);
	CHECK(!gt_history_longest_pause(&d).valid);
}

/* Pushes one interval ending at t whose pauses are the log's [from, to);
 * pause k lasts k ms. Returns the derived sample (its cur holds the log). */
static struct gt_sample scratch; /* large: keep it off the stack */
static struct gt_derived logged;

static void push_logged(struct gt_derived *d, double t, uint64_t from, uint64_t to)
{
	scratch = d->cur;
	gt_derive(NULL, &scratch, d);        /* clears the figures, keeps cur */
	d->first = false;
	d->cur.mono_ns = (uint64_t)(t * 1e9);
	gt_f64_set(&d->interval_s, 1.0);
	d->cur.pause_log.valid = true;
	d->cur.pause_log.count = to;
	for (uint64_t k = from; k < to; k++)
		d->cur.pause_log.ns[k % GT_PAUSE_RING] = k * 1000000ull;
	gt_u64_set(&d->pause_count, to - from);
	gt_history_push(&hist, d);
}

static void test_window_pause_distribution(void)
{
	struct gt_derived *d = &logged;
	memset(d, 0, sizeof(*d));
	gt_history_clear(&hist);
	push_logged(d, 1, 0, 10);
	push_logged(d, 2, 10, 20);
	push_logged(d, 3, 20, 30);
	struct gt_pause_dist w;
	/* the last two seconds: pauses 10..29 (10..29 ms) */
	gt_history_pause_dist(&hist, 2000000000ull, &d->cur, &w);
	CHECK_U64(w.count.value, 20);
	CHECK_U64(w.p50_ns.value, 19000000ull);
	CHECK_U64(w.max_ns.value, 29000000ull);
	CHECK(!w.partial);
	/* a minute: all 30 */
	gt_history_pause_dist(&hist, 60000000000ull, &d->cur, &w);
	CHECK_U64(w.count.value, 30);
	CHECK_U64(w.p99_ns.value, 29000000ull);
	/* 300 more pauses: the window holds more than the log, said so */
	push_logged(d, 4, 30, 330);
	gt_history_pause_dist(&hist, 60000000000ull, &d->cur, &w);
	CHECK_U64(w.count.value, 330);
	CHECK(w.partial);
	CHECK_U64(w.max_ns.value, 329000000ull);
	/* an interval without a log ends the window there */
	scratch = d->cur;
	gt_derive(NULL, &scratch, d);
	d->first = false;
	d->cur.mono_ns = 5000000000ull;
	d->cur.pause_log.valid = false;
	gt_f64_set(&d->interval_s, 1.0);
	gt_history_push(&hist, d);
	gt_history_pause_dist(&hist, 60000000000ull, &d->cur, &w);
	CHECK(!w.count.valid);
	push_logged(d, 6, 330, 332);
	gt_history_pause_dist(&hist, 60000000000ull, &d->cur, &w);
	CHECK_U64(w.count.value, 2);
}

int main(void)
{
	RUN_TEST(test_first_sample_adds_nothing);
	RUN_TEST(test_order_and_wrap);
	RUN_TEST(test_series_shorter_than_asked);
	RUN_TEST(test_invalid_values_stay_invalid);
	RUN_TEST(test_window_figures);
	RUN_TEST(test_window_uneven_intervals);
	RUN_TEST(test_longest_pause_sources);
	RUN_TEST(test_window_pause_distribution);
	return check_summary();
}
