/* Deadline arithmetic on CLOCK_MONOTONIC, so drawing time never drifts the
 * sample rate (next += interval, not now + interval). Pure. */
#ifndef GCTOP_TUI_DEADLINE_H
#define GCTOP_TUI_DEADLINE_H

#include <stdint.h>

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

#endif
