/* The duty cycle of .NET's allocation sampling (collectors/dotnet/sampler/dotnet_duty.c):
 * the share from the rate (budget / rate, at least 5%), when cycling starts,
 * the windows' timing, and that samples weighted by 1/share estimate the
 * bytes without bias, also for work that repeats every second. (That a
 * sample's bytes are scaled by 1/share once set is test_dotnet_alloc's
 * test_scaled_samples.) */
#include <math.h>
#include <stdint.h>

#include "collectors/dotnet/sampler/dotnet_duty.h"
#include "tests/unit/check.h"

#define S 1000000000ull
/* The budget, events a second: the rates below are multiples of it. */
#define B GT_DN_SAMPLER_BUDGET_PER_S

/* Events in ns at rate events a second, whole ones as a stream holds. */
static uint64_t events_in(uint64_t ns, double rate)
{
	return (uint64_t)((double)ns * rate / 1e9);
}

static void test_share_for(void)
{
	CHECK_NEAR(gt_dn_duty_share_for(0), 1, 0);        /* not measured yet */
	CHECK_NEAR(gt_dn_duty_share_for(-5), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(NAN), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(B / 4), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(B), 1, 0);
	CHECK_NEAR(gt_dn_duty_share_for(2 * B), 0.5, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(9 * B), 1.0 / 9, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(20 * B), 0.05, 1e-12);
	CHECK_NEAR(gt_dn_duty_share_for(1e7), GT_DN_DUTY_SHARE_MIN, 0);   /* the floor */
}

/* Always on, the rate is checked a second at a time: up to 1.25 times the
 * budget (its margin) it stays on; past it cycling begins, its first cycle
 * at once. */
static void test_check_starts_cycling(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 5 * S, 7);
	CHECK_NEAR(d.share, 1, 0);
	CHECK(!gt_dn_duty_check(&d, events_in(S, 1.2 * B), S, 6 * S));
	CHECK_NEAR(d.rate, 1.2 * B, 1e-9);
	CHECK_NEAR(d.share, 1, 0);
	CHECK(!gt_dn_duty_check(&d, events_in(S, 1.25 * B), S, 7 * S));
	CHECK(!gt_dn_duty_check(&d, 0, 0, 7 * S));     /* no time: no rate */
	CHECK(gt_dn_duty_check(&d, events_in(2 * S, 1.3 * B), 2 * S, 9 * S));
	CHECK_NEAR(d.rate, 1.3 * B, 1e-9);
	CHECK_NEAR(d.share, 1 / 1.3, 1e-12);
	gt_dn_duty_session_done(&d, events_in(2 * S, 1.3 * B), 2 * S, 9 * S + 1000000);
	CHECK_U64(d.cycle_start, 9 * S);
}

/* A cycle's windows: within it, share x 1 s in all (two windows when the
 * first would run past the cycle's end: its rest from the start). */
static void check_cycle(const struct gt_dn_duty *d, double share)
{
	uint64_t end = d->cycle_start + S, on = (uint64_t)(share * (double)S);
	CHECK(d->on_at >= d->cycle_start && d->off_at <= end && d->on_at < d->off_at);
	if (!d->wrapped) {
		CHECK_U64(d->off_at - d->on_at, on);
		return;
	}
	CHECK_U64(d->on_at, d->cycle_start);
	CHECK_U64(d->wrap_off, end);
	CHECK(d->wrap_on > d->off_at);
	CHECK_U64(d->off_at - d->on_at + d->wrap_off - d->wrap_on, on);
}

/* The windows one after the other, as the sampler ends each session at
 * off_at and reads its stream to the end drain_ns later. */
static void session_ends(struct gt_dn_duty *d, uint64_t events, uint64_t drain_ns)
{
	gt_dn_duty_session_done(d, events, d->off_at - d->on_at, d->off_at + drain_ns);
}

/* Each stopped session measures the rate again from its own events and
 * time on; the share changes from the next cycle on. */
static void test_session_done_sets_the_next_window(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 99);
	CHECK(gt_dn_duty_check(&d, events_in(S, 5 * B), S, S));
	CHECK_NEAR(d.share, 0.2, 1e-12);
	gt_dn_duty_session_done(&d, events_in(S, 5 * B), S, S + 3000000);
	CHECK_U64(d.cycle_start, S);
	check_cycle(&d, 0.2);
	int wraps = 0;
	for (int i = 0; i < 200; i++) {
		uint64_t cycle = d.cycle_start;
		/* 2.5 budgets a second: share 0.4, from the next cycle; the
		 * rate of a cycle of two windows from both */
		double before = d.share;
		bool second = d.wrapped;
		session_ends(&d, events_in(d.off_at - d.on_at, 2.5 * B), 1000000);
		if (second) {
			wraps++;
			CHECK_U64(d.cycle_start, cycle);
			CHECK_NEAR(d.share, before, 0);
		} else {
			CHECK_U64(d.cycle_start, cycle + S);
			/* whole events in each window: a cycle's rate is low by
			 * at most two events over its time on */
			CHECK(d.rate <= 2.5 * B && d.rate >= 2.5 * B - 2 / 0.2);
			CHECK_NEAR(d.share, B / d.rate, 1e-12);
			check_cycle(&d, d.share);
		}
	}
	/* a window runs past the second's end with probability share */
	CHECK(wraps > 20 && wraps < 80);
	/* a stream that drained for 5 s: the next cycle starts then */
	uint64_t late = d.off_at + 5 * S;
	d.wrapped = false;
	gt_dn_duty_session_done(&d, events_in(d.off_at - d.on_at, 2.5 * B), d.off_at - d.on_at, late);
	CHECK_U64(d.cycle_start, late);
	/* the rate fell within the budget: always on, from now */
	d.wrapped = false;
	gt_dn_duty_session_done(&d, events_in(400000000, B / 4), 400000000, late + S);
	CHECK_NEAR(d.rate, B / 4, 1e-9);
	CHECK_NEAR(d.share, 1, 0);
	CHECK_U64(d.on_at, late + S);
}

/* A session that did not start: the next window (the cycle's second, else
 * the next cycle's). */
static void test_retry(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 3);
	CHECK(gt_dn_duty_check(&d, events_in(S, 4 * B), S, S));
	gt_dn_duty_session_done(&d, events_in(S, 4 * B), S, S);
	for (int i = 0; i < 100; i++) {
		uint64_t cycle = d.cycle_start;
		bool second = d.wrapped;
		gt_dn_duty_next_window(&d, d.on_at + 1000);
		CHECK_U64(d.cycle_start, second ? cycle : cycle + S);
		if (!second)
			check_cycle(&d, 0.25);
	}
}

/* Over many cycles at a fixed share: every second sampled for exactly that
 * share, and every phase of the second as often as any other (10 phases,
 * each within 0.01 of the share over 20,000 cycles, where the binomial
 * spread is about 0.003). A window kept within the second would cover the
 * phases near its edges less (at a share of 0.2, the first and last tenth
 * of the second 0.1 and the middle 0.25). */
static void test_every_instant_equally_likely(void)
{
	struct gt_dn_duty d;
	gt_dn_duty_init(&d, 0, 12345);
	CHECK(gt_dn_duty_check(&d, events_in(S, 5 * B), S, S));
	gt_dn_duty_session_done(&d, events_in(S, 5 * B), S, S);
	const int cycles = 20000, phases = 10;
	double covered[10] = { 0 };
	uint64_t first = d.cycle_start, cycle = first, in_cycle = 0;
	uint64_t want = (uint64_t)(d.share * (double)S);
	int bad_cycles = 0;
	while (d.cycle_start < first + (uint64_t)cycles * S) {
		if (d.cycle_start != cycle) {
			bad_cycles += in_cycle != want;
			cycle = d.cycle_start;
			in_cycle = 0;
			want = (uint64_t)(d.share * (double)S);
		}
		in_cycle += d.off_at - d.on_at;
		/* the window's time on, split over the phases of the second */
		for (uint64_t t = d.on_at; t < d.off_at;) {
			uint64_t step = S / phases - (t - first) % (S / phases);
			if (t + step > d.off_at)
				step = d.off_at - t;
			covered[((t - first) % S) / (S / phases)] += (double)step;
			t += step;
		}
		/* 5 budgets a second keep the share at 0.2 (a little over:
		 * whole events in each window) */
		session_ends(&d, events_in(d.off_at - d.on_at, 5 * B), 0);
	}
	CHECK(bad_cycles == 0);
	for (int p = 0; p < phases; p++)
		CHECK_NEAR(covered[p] / ((double)cycles * S / phases), 0.2, 0.01);
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

/* One event per this many bytes of that workload: 5 budgets a second, a
 * share of 0.2. */
#define PERIODIC_EVENT_BYTES (1e6 / (5 * B))

/* The duty cycle run against that workload, an event per
 * PERIODIC_EVENT_BYTES: each
 * window's bytes weighted by 1/share (the share it was started with) and
 * the rate measured again from each cycle, as the sampler does, the
 * stream drained 2 ms after each stop. Over 4,000 seconds the estimate is
 * within 3% of the truth wherever the burst falls (its spread, from the
 * windows that catch the burst or not, is under 1% here). A window kept
 * within the second was off by -22% to +17% on this workload. */
static void test_periodic_work_unbiased(void)
{
	const double bursts[] = { 0.0, 0.35, 0.75, 0.95 };
	for (unsigned b = 0; b < sizeof(bursts) / sizeof(bursts[0]); b++) {
		struct gt_dn_duty d;
		gt_dn_duty_init(&d, 0, 2024 + b);
		uint64_t start = 1300000000ull;
		double events = (periodic_bytes(start, bursts[b]) - periodic_bytes(start - S, bursts[b])) / PERIODIC_EVENT_BYTES;
		CHECK(gt_dn_duty_check(&d, (uint64_t)events, S, start));
		gt_dn_duty_session_done(&d, (uint64_t)events, S, start);
		uint64_t first = d.cycle_start, end = first + 4000 * S;
		double est = 0;
		while (d.cycle_start < end) {
			double bytes = periodic_bytes(d.off_at, bursts[b]) - periodic_bytes(d.on_at, bursts[b]);
			est += bytes / d.share;
			session_ends(&d, (uint64_t)(bytes / PERIODIC_EVENT_BYTES), 2000000);
		}
		CHECK_NEAR(est / (periodic_bytes(end, bursts[b]) - periodic_bytes(first, bursts[b])), 1, 0.03);
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
