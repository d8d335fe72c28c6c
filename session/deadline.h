/* Deadline arithmetic on CLOCK_MONOTONIC, so drawing time never drifts the
 * sample rate (next += interval, not now + interval). Pure. */
#ifndef GCTOP_SESSION_DEADLINE_H
#define GCTOP_SESSION_DEADLINE_H

#include <stdbool.h>
#include <stdint.h>

/* Never: a deadline that does not come (an exited target, no tick). */
#define GT_DEADLINE_NEVER UINT64_MAX

/* The deadline after `next`. After a stall (suspended with ^Z, a slow
 * sample) the missed ticks are skipped rather than sampled in a burst. */
uint64_t gt_deadline_next(uint64_t next, uint64_t interval_ns, uint64_t now);

/* Milliseconds for poll() until `deadline`, rounded up so the loop never
 * wakes a little early and spins; 0 when it has passed. */
int gt_deadline_timeout_ms(uint64_t deadline, uint64_t now);

/* The collector's next tick, given the next sample: every sample polls the
 * collector itself, so a tick due within half a tick before it would only
 * repeat that work and is moved to one tick after it. UINT64_MAX (never)
 * stays never. Pure. */
uint64_t gt_deadline_skip_poll_near_sample(uint64_t next_poll, uint64_t next_sample, uint64_t poll_ns);

/* When a watched target (or the picker's rows) is next sampled, and when its
 * collector next wants its cheap work between samples (the poll tick). The
 * one schedule of the screen, the batch loop and every other front end. */
struct gt_schedule {
	uint64_t interval_ns;
	uint64_t next_sample;
	uint64_t next_poll;
	uint64_t poll_ns;    /* the collector's tick as last asked; 0: none */
};

/* The first sample at once; the tick poll_ns from now (0: never). */
void gt_schedule_start(struct gt_schedule *s, uint64_t interval_ns, uint64_t poll_ns, uint64_t now);
/* Nothing more is due (the target has gone). */
void gt_schedule_stop(struct gt_schedule *s);
static inline bool gt_schedule_sample_due(const struct gt_schedule *s, uint64_t now)
{
	return now >= s->next_sample;
}
static inline bool gt_schedule_poll_due(const struct gt_schedule *s, uint64_t now)
{
	return s->poll_ns && now >= s->next_poll;
}
/* After a sample, with the collector's tick asked again: the sample polled
 * too, so the tick may have changed (collections began), and a long tick
 * must not be waited out. */
void gt_schedule_sampled(struct gt_schedule *s, uint64_t poll_ns, uint64_t now);
/* After a poll tick at now, with the tick asked again: the next one
 * poll_ns from now (a collector's tick is the time to when it next wants
 * to read, not a fixed cadence). */
void gt_schedule_polled(struct gt_schedule *s, uint64_t poll_ns, uint64_t now);
/* The next wake-up: the sample or the tick, whichever comes first (a tick
 * just before the sample moves past it). */
uint64_t gt_schedule_deadline(struct gt_schedule *s);
/* A new interval takes effect at once: the next sample one new interval
 * from now, not from the old deadline. */
void gt_schedule_set_interval(struct gt_schedule *s, uint64_t interval_ns, uint64_t now);
/* The next sample now (a refresh key, a sampler just turned on), unless
 * sampling has stopped. */
void gt_schedule_sample_now(struct gt_schedule *s, uint64_t now);

#endif
