/* The duty cycle of .NET's allocation sampling (collectors/dotnet/dotnet_duty.c):
 * the share from the rate (budget / rate, at least 5%), when cycling starts,
 * the windows' timing, and that samples weighted by 1/share estimate the
 * bytes without bias, also for work that repeats every second. (That a
 * sample's bytes are scaled by 1/share once set is test_dotnet_alloc's
 * test_scaled_samples.) */
#include <math.h>
#include <stdint.h>

#include "collectors/dotnet/dotnet_duty.h"
#include "tests/unit/check.h"

#define S 1000000000ull

static void test_share_for(void)
{
	CHECK_NEAR(gt_dn_duty_share_for(0), 1, 0);        /* not measured yet */
	CHECK_NEAR(gt_dn_duty_share_for(-5), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(NAN), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(500), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(2000), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(4000), 0.5, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(18000), 2000.0 / 18000, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(40000), 0.05, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(1e7), GT_DN_DUTY_SHARE_MIN, 0);   /* the floor */
}

/* Always on, the rate is checked a second at a time: up to 2,500 events a
 * second (the budget and its margin) it stays on; past it cycling begins. */
static void test_check_starts_cycling(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 5 * S, 7);
	CHECK_NEAR(d.share, 1, 0);
	CHECK(!gt_dn_duty_check(&d, 2400, S, 6 * S));
	CHECK_NEAR(d.rate, 2400, 1e-9);
	CHECK_NEAR(d.share, 1, 0);
	CHECK(!gt_dn_duty_check(&d, 2500, S, 7 * S));
	CHECK(!gt_dn_duty_check(&d, 0, 0, 7 * S));     /* no time: no rate */
	CHECK(gt_dn_duty_check(&d, 5200, 2 * S, 9 * S));
	CHECK_NEAR(d.rate, 2600, 1e-9);
	CHECK_NEAR(d.share, 2000.0 / 2600, 1e-12);
	CHECK_U64(d.off_at, 9 * S);                    /* windows timed from here */
}

/* Each stopped session measures the rate again from its own events and
 * time on; the next window is share x 1 s long, after a gap of at most
 * 2 (1 - share) s from the last window's end. */
static void test_session_done_sets_the_next_window(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 99);
	CHECK(gt_dn_duty_check(&d, 10000, S, S));
	CHECK_NEAR(d.share, 0.2, 1e-12);
	/* the always-on session, 1 s at 10,000 a second, drained 3 ms later */
	gt_dn_duty_session_done(&d, 10000, S, S + 3000000);
	CHECK_NEAR(d.share, 0.2, 1e-12);
	CHECK(d.on_at >= S + 3000000 && d.on_at <= S + 1600000000ull);
	CHECK_U64(d.off_at - d.on_at, 200000000);
	/* a window that saw 1,000 events in 0.2 s: 5,000 a second, share 0.4 */
	uint64_t end = d.off_at;
	gt_dn_duty_session_done(&d, 1000, 200000000, end + 1000000);
	CHECK_NEAR(d.rate, 5000, 1e-6);
	CHECK_NEAR(d.share, 0.4, 1e-12);
	CHECK(d.on_at >= end + 1000000 && d.on_at <= end + 1200000000ull);
	CHECK_U64(d.off_at - d.on_at, 400000000);
	/* a stream that took longer to drain than the gap: the window starts
	 * now, still its full length */
	end = d.off_at;
	gt_dn_duty_session_done(&d, 2000, 400000000, end + 5 * S);
	CHECK_U64(d.on_at, end + 5 * S);
	CHECK_U64(d.off_at - d.on_at, 400000000);
	/* the rate fell within the budget: always on, from now */
	end = d.off_at;
	gt_dn_duty_session_done(&d, 100, 400000000, end + 2000000);
	CHECK_NEAR(d.rate, 250, 1e-9);
	CHECK_NEAR(d.share, 1, 0);
	CHECK_U64(d.on_at, end + 2000000);
}

/* A session that did not start is tried again after a gap timed from now. */
static void test_retry(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 3);
	CHECK(gt_dn_duty_check(&d, 8000, S, S));
	gt_dn_duty_session_done(&d, 8000, S, S);
	for (int i = 0; i < 100; i++) {
		uint64_t now = d.on_at + 1000;
		gt_dn_duty_retry(&d, now);
		CHECK(d.on_at >= now && d.on_at <= now + 1500000000ull);
		CHECK_U64(d.off_at - d.on_at, 250000000);
	}
}

/* Over many windows at a fixed share: a window a second on average, on for
 * that share of the time, and every phase of the second covered as often
 * as any other (10 phases, each within 0.01 of the share over 20,000
 * windows, where the binomial spread is about 0.003). A window placed at
 * random within each second would cover the phases near the second's edges
 * less (at a share of 0.2, the first and last tenth of the second 0.125
 * and the middle 0.25). */
static void test_every_instant_equally_likely(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 12345);
	CHECK(gt_dn_duty_check(&d, 10000, S, S));
	gt_dn_duty_session_done(&d, 10000, S, S);
	const int n = 20000, phases = 10;
	double covered[10] = { 0 }, on_total = 0;
	uint64_t first = d.on_at;
	for (int i = 0; i < n; i++) {
		/* the window's time on, split over the phases of the second it covers */
		for (uint64_t t = d.on_at; t < d.off_at;) {
			uint64_t in_phase = t % (S / phases);
			uint64_t step = S / phases - in_phase;
			if (t + step > d.off_at)
				step = d.off_at - t;
			covered[(t % S) / (S / phases)] += (double)step;
			t += step;
		}
		on_total += (double)(d.off_at - d.on_at);
		/* a window at 10,000 events a second keeps the share at 0.2 */
		gt_dn_duty_session_done(&d, 2000, d.off_at - d.on_at, d.off_at);
	}
	double span = (double)(d.on_at - first);
	CHECK_NEAR(span / n / (double)S, 1, 0.02);
	CHECK_NEAR(on_total / span, 0.2, 0.005);
	for (int p = 0; p < phases; p++)
		CHECK_NEAR(covered[p] / (span / phases), 0.2, 0.01);
}

/* Bytes of a workload that repeats every second: half of its 1 MB a second
 * in a 100 ms burst at phase `burst` of the second, the rest spread over
 * the other 900 ms. Cumulative bytes at t. */
static double periodic_bytes(uint64_t t, double burst)
{
	double u = (double)t / (double)S - burst;
	double whole = floor(u), x = u - whole;
	return whole * 1e6 + (x < 0.1 ? x * 5e6 : 5e5 + (x - 0.1) * (5e5 / 0.9));
}

/* The duty cycle run against that workload, one event per 100 bytes: each
 * window's bytes weighted by 1/share (the share it was started with) and
 * the rate measured again from each window, as the sampler does. Over 4,000
 * windows the estimate of bytes a second is within 5% of the truth
 * wherever the burst falls (its spread, from the windows that catch the
 * burst or not, is about 1.2% here). A window at a random point of each
 * second was off by -21% to +16% on this workload. */
static void test_periodic_work_unbiased(void)
{
	const double bursts[] = { 0.0, 0.35, 0.75, 0.95 };
	for (unsigned b = 0; b < sizeof(bursts) / sizeof(bursts[0]); b++) {
		struct gt_dn_duty d;
		gt_dn_duty_init(&d, 0, 2024 + b);
		uint64_t start = 1300000000ull;
		double events = (periodic_bytes(start, bursts[b]) - periodic_bytes(start - S, bursts[b])) / 100;
		CHECK(gt_dn_duty_check(&d, (uint64_t)events, S, start));
		gt_dn_duty_session_done(&d, (uint64_t)events, S, start);
		double est = 0;
		for (int i = 0; i < 4000; i++) {
			double bytes = periodic_bytes(d.off_at, bursts[b]) - periodic_bytes(d.on_at, bursts[b]);
			est += bytes / d.share;
			gt_dn_duty_session_done(&d, (uint64_t)(bytes / 100), d.off_at - d.on_at, d.off_at + 2000000);
		}
		double secs = (double)(d.on_at - start) / (double)S;
		CHECK_NEAR(est / secs / 1e6, 1, 0.05);
	}
}

int main(void)
{
	RUN_TEST(test_share_for);
	RUN_TEST(test_check_starts_cycling);
	RUN_TEST(test_session_done_sets_the_next_window);
	RUN_TEST(test_retry);
	RUN_TEST(test_every_instant_equally_likely);
	RUN_TEST(test_periodic_work_unbiased);
	return check_summary();
}
