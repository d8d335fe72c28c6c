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

/* The one grid both histograms count at (model/sample.h). */
#define GT_PAUSE_HIST_BOUNDS GT_GC_DURATION_BOUNDS

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

/* The bucket bounds a collector's durations are written with
 * (jvm_gc_duration_seconds): a choice among gt_pause_hist_bounds_s, as
 * indexes into it, ascending; +Inf after the last. A choice on the grid
 * the durations are counted at keeps every bucket exact. */
struct gt_duration_bounds {
	unsigned n;
	unsigned at[GT_PAUSE_HIST_BOUNDS];
};

/* OpenTelemetry's advice for jvm.gc.duration (docs/runtime/jvm-metrics.md):
 * 0.01, 0.1, 1, 10 s. Too coarse for a young pause's percentile: gctop's
 * own gctop_gc_pause_seconds, or --gc-duration-buckets, resolves those. */
extern const struct gt_duration_bounds gt_duration_bounds_otel;

/* Parses --gc-duration-buckets' LIST: seconds, comma-separated, ascending,
 * each one of gt_pause_hist_bounds_s. Returns 0, or -1 with why (static). */
int gt_duration_bounds_parse(const char *list, struct gt_duration_bounds *out, const char **why);

/* h's pauses that lasted at most bound k of b (k == b->n: all of them). */
uint64_t gt_duration_hist_upto(const struct gt_duration_hist *h, const struct gt_duration_bounds *b, unsigned k);

/* Counts n pauses that lasted total_ns together into h (valid from then on),
 * each in the bucket of their mean: one pause, or several known only by
 * their count and total time. */
void gt_duration_hist_add(struct gt_duration_hist *h, uint64_t total_ns, uint64_t n);

/* Counts the pauses of s's log not counted yet. A log that went backwards
 * (another session) starts again from its own start. */
void gt_pause_hist_add(struct gt_pause_hist *h, const struct gt_sample *s);

#endif
