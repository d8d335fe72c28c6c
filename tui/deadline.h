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

#endif
