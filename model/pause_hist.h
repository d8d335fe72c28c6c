/* A cumulative histogram of individual GC pauses, since gctop began
 * watching: the exporter's pause-time histogram (gctop --serve).
 *
 * Prometheus wants counts that only grow, with buckets fine enough for a GC
 * (a young collection takes a few hundred microseconds, a full one
 * seconds), so the bounds run from 100 µs to 10 s in 1-2.5-5 steps rather
 * than the OpenTelemetry conventions' four (10 ms to 10 s). Pure: fed one
 * sample at a time from the sample's pause log (model/sample.h). */
#ifndef GCTOP_MODEL_PAUSE_HIST_H
#define GCTOP_MODEL_PAUSE_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include "model/sample.h"

#define GT_PAUSE_HIST_BOUNDS 16

/* Upper bounds in seconds, ascending; a last bucket (+Inf) holds the rest. */
extern const double gt_pause_hist_bounds_s[GT_PAUSE_HIST_BOUNDS];

struct gt_pause_hist {
	bool valid;                  /* the collector times single pauses (pause_log) */
	uint64_t next;               /* number of the next pause to count */
	uint64_t buckets[GT_PAUSE_HIST_BOUNDS + 1]; /* per bucket, not cumulative; last is +Inf */
	uint64_t count;              /* pauses counted: the sum of buckets */
	uint64_t sum_ns;             /* their total length */
	uint64_t missed;             /* pauses that left the log before a sample saw them */
};

/* A collector's pause durations (struct gt_duration_hist, model/sample.h):
 * upper bounds in seconds, ascending, +Inf after. OpenTelemetry advises
 * these four for jvm.gc.duration (docs/runtime/jvm-metrics.md). */
extern const double gt_gc_duration_bounds_s[GT_GC_DURATION_BOUNDS];

/* Counts n pauses that lasted total_ns together into h (valid from then on),
 * each in the bucket of their mean: one pause, or several known only by
 * their count and total time. */
void gt_duration_hist_add(struct gt_duration_hist *h, uint64_t total_ns, uint64_t n);

/* Counts the pauses of s's log not counted yet. A log that went backwards
 * (another session) starts again from its own start. */
void gt_pause_hist_add(struct gt_pause_hist *h, const struct gt_sample *s);

#endif
