#include "model/percentile.h"

size_t gt_nearest_rank(size_t n, unsigned pct)
{
	/* 1-based rank ceil(n * pct / 100) in integers: no rounding of a
	 * double can move p50 of an even count onto the upper middle value. */
	size_t rank = (n * pct + 99) / 100;
	return rank > 0 ? rank - 1 : 0;
}

uint64_t gt_percentile_u64(const uint64_t *sorted, size_t n, unsigned pct)
{
	return sorted[gt_nearest_rank(n, pct)];
}

double gt_percentile_f64(const double *sorted, size_t n, unsigned pct)
{
	return sorted[gt_nearest_rank(n, pct)];
}
