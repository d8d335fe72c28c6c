/* The duty cycle of .NET's allocation sampling session (dotnet_sampler.h),
 * without the sessions: which share of the time to sample, from the event
 * rate measured, and when. Pure, so that the math the cost and the
 * accuracy rest on is tested without a runtime.
 *
 * Past the budget the session is on for windows of share x 1 s, each after
 * a random gap, uniform in [0, 2 (1 - share) s]: a second a window on
 * average, and, since the gaps have no period, every instant is sampled
 * with the same probability, share, also for work that repeats every
 * second (a window placed at random within each second would sample the
 * middle of the second more often than its edges: a burst at a fixed
 * point of each second was counted 21% low or 16% high that way,
 * tests/unit/test_dotnet_duty.c). */
#ifndef GCTOP_COLLECTORS_DOTNET_DUTY_H
#define GCTOP_COLLECTORS_DOTNET_DUTY_H

#include <stdbool.h>
#include <stdint.h>

/* Events a second the target may pay for; below it the session stays on. */
#define GT_DN_SAMPLER_BUDGET_PER_S 2000.0
/* A window and its gap: a second on average. */
#define GT_DN_DUTY_CYCLE_NS 1000000000ull
/* The least share of a cycle: 50 ms, a few hundred samples a second still. */
#define GT_DN_DUTY_SHARE_MIN 0.05
/* Past budget * this, an always-on session starts cycling. */
#define GT_DN_DUTY_OVER_BUDGET 1.25

struct gt_dn_duty {
	double share;            /* of each cycle the session is on; 1: always */
	double rate;             /* events a second at full rate, last measured; 0: not yet */
	uint64_t on_at, off_at;  /* the current (or last) window */
	uint64_t rng;
};

/* Always on from now; seed picks the windows' offsets (not 0). */
void gt_dn_duty_init(struct gt_dn_duty *d, uint64_t now, uint64_t seed);
/* The share for a full rate of events a second: budget / rate, within
 * [GT_DN_DUTY_SHARE_MIN, 1]; 1 while the rate is unknown (0). */
double gt_dn_duty_share_for(double rate);
/* Always on: events seen over span_ns set the rate; true when it is past
 * the budget (by GT_DN_DUTY_OVER_BUDGET): the share is set and the windows
 * are timed from now (the caller stops the session). */
bool gt_dn_duty_check(struct gt_dn_duty *d, uint64_t events, uint64_t span_ns, uint64_t now);
/* A stopped session was on for on_ns and saw events: while cycling they
 * measure the rate again; the share follows, and the next window is set
 * (at once when the share is 1). */
void gt_dn_duty_session_done(struct gt_dn_duty *d, uint64_t events, uint64_t on_ns, uint64_t now);
/* The window after the last one: share x 1 s after a random gap from the
 * last window's end; not before now. */
void gt_dn_duty_next_window(struct gt_dn_duty *d, uint64_t now);
/* A session that did not start: the next window is timed from now. */
void gt_dn_duty_retry(struct gt_dn_duty *d, uint64_t now);

#endif
