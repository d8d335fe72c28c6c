/* The nearest-rank percentile, the one rule behind every pause and rate
 * percentile gctop shows (the derive step's pause p50/p99, the agent's
 * exact pauses, --compare's figures): the smallest value with at least
 * pct% of the values at or below it, always one of the values, never an
 * interpolation, so a p99 of pauses is a pause that happened. */
#ifndef GCTOP_MODEL_PERCENTILE_H
#define GCTOP_MODEL_PERCENTILE_H

#include <stddef.h>
#include <stdint.h>

/* The 0-based index of the pct-th percentile (0..100) among n sorted
 * values: ceil(n * pct / 100) - 1, and 0 for pct 0; n > 0. */
size_t gt_nearest_rank(size_t n, unsigned pct);

/* The pct-th percentile of n values sorted ascending; n > 0. */
uint64_t gt_percentile_u64(const uint64_t *sorted, size_t n, unsigned pct);
double gt_percentile_f64(const double *sorted, size_t n, unsigned pct);

#endif
