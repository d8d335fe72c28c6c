/* The duty cycle of .NET's allocation sampling session (dotnet_sampler.h),
 * without the sessions: which share of each second to sample, from the
 * event rate measured, and where in the second. Pure, so that the math the
 * cost and the accuracy rest on is tested without a runtime.
 *
 * Past the budget the session is on for share x 1 s of each second, from a
 * random offset in [0, 1 s); a window that would run past the second's end
 * wraps to its start (two sessions in that second). So every instant of a
 * second is sampled with the same probability, share, also in work that
 * repeats every second, and every second holds the same time sampled. (A
 * window kept within the second, its offset in [0, 1 s - window), samples
 * the middle of the second more often than its edges: a burst at a fixed
 * point of each second came out 22% low or 17% high that way in
 * tests/unit/test_dotnet_duty.c.) */
#ifndef GCTOP_COLLECTORS_DOTNET_DUTY_H
#define GCTOP_COLLECTORS_DOTNET_DUTY_H

#include <stdbool.h>
#include <stdint.h>

/* Events a second the target may pay for; below it the session stays on.
 * What sampling costs a .NET service grows with the time sampled
 * (AllocationSampled with its type name and stack walk, and the GC at
 * Verbose while a window is on). On bench/README.md's 2d Service
 * --allocators kept 0.947-0.953 of its throughput at 2,000 a second,
 * 0.943-0.971 at 1,000 and 0.962-0.967 at 500, each halving higher than
 * the budget before it in the same rounds; those runs were taken while
 * the runtime still sampled between windows (dotnet_sampler.c,
 * settle_runtime). Since that was mended, 500 a second measured 0.972-0.987
 * in three runs, within a standard error of gctop's plain session; 1,000
 * was not measured again. 500 a second is what the JVM's agent aims at
 * too, and still gives the 10 s window of the pane (GT_ALLOC_WINDOW_NS)
 * some 5,000 samples (a site's bytes within about 3%); JFR's allocation
 * sampling is throttled to 150 (default) or 300 (profile) a second. */
#define GT_DN_SAMPLER_BUDGET_PER_S 500.0
/* A cycle is a second. */
#define GT_DN_DUTY_CYCLE_NS 1000000000ull
/* The least share of a cycle: 50 ms, a few hundred samples a second still. */
#define GT_DN_DUTY_SHARE_MIN 0.05
/* Past budget * this, an always-on session starts cycling. */
#define GT_DN_DUTY_OVER_BUDGET 1.25

struct gt_dn_duty {
	double share;            /* of each cycle the session is on; 1: always */
	double rate;             /* events a second at full rate, last measured; 0: not yet */
	uint64_t cycle_start;
	uint64_t on_at, off_at;  /* the current window */
	bool wrapped;            /* the cycle's second window is still to come */
	uint64_t wrap_on, wrap_off;
	uint64_t cycle_events, cycle_on_ns;  /* of the cycle's windows so far */
	uint64_t rng;
};

/* Always on from now; seed picks the windows' offsets (not 0). */
void gt_dn_duty_init(struct gt_dn_duty *d, uint64_t now, uint64_t seed);
/* The share for a full rate of events a second: budget / rate, within
 * [GT_DN_DUTY_SHARE_MIN, 1]; 1 while the rate is unknown (0). */
double gt_dn_duty_share_for(double rate);
/* Always on: events seen over span_ns set the rate; true when it is past
 * the budget (by GT_DN_DUTY_OVER_BUDGET): the share is set and the first
 * cycle begins at now (the caller stops the session). */
bool gt_dn_duty_check(struct gt_dn_duty *d, uint64_t events, uint64_t span_ns, uint64_t now);
/* A stopped session was on for on_ns and saw events: while cycling, a
 * cycle's windows measure the rate again, and the share follows from the
 * next cycle on (a cycle's two windows have one share); the next window is
 * set (at once when the share is 1). */
void gt_dn_duty_session_done(struct gt_dn_duty *d, uint64_t events, uint64_t on_ns, uint64_t now);
/* The next window: the current cycle's second one, else the next cycle's
 * (a cycle already past starts at now). Also after a start that failed. */
void gt_dn_duty_next_window(struct gt_dn_duty *d, uint64_t now);

#endif
