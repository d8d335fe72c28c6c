#include "model/pause_hist.h"

const double gt_pause_hist_bounds_s[GT_PAUSE_HIST_BOUNDS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
};

const double gt_gc_duration_bounds_s[GT_GC_DURATION_BOUNDS] = { 0.01, 0.1, 1, 10 };

/* The bucket of ns among n bounds: the first bound it does not exceed, n
 * (+Inf) past the last. */
static unsigned bucket_among(uint64_t ns, const double *bounds, unsigned n)
{
	double s = (double)ns / 1e9;
	unsigned b = 0;
	while (b < n && s > bounds[b])
		b++;
	return b;
}

static unsigned bucket_of(uint64_t ns)
{
	return bucket_among(ns, gt_pause_hist_bounds_s, GT_PAUSE_HIST_BOUNDS);
}

void gt_duration_hist_add(struct gt_duration_hist *h, uint64_t total_ns, uint64_t n)
{
	h->valid = true;
	if (n == 0)
		return;
	h->buckets[bucket_among(total_ns / n, gt_gc_duration_bounds_s, GT_GC_DURATION_BOUNDS)] += n;
	h->count += n;
	h->sum_ns += total_ns;
}

void gt_pause_hist_add(struct gt_pause_hist *h, const struct gt_sample *s)
{
	if (!s->pause_log.valid)
		return;
	h->valid = true;
	uint64_t end = s->pause_log.count;
	if (end < h->next)
		h->next = 0;
	uint64_t from = h->next;
	/* The ring keeps the newest GT_PAUSE_RING pauses only. */
	if (end - from > GT_PAUSE_RING) {
		h->missed += end - from - GT_PAUSE_RING;
		from = end - GT_PAUSE_RING;
	}
	for (uint64_t k = from; k < end; k++) {
		uint64_t ns = s->pause_log.ns[k % GT_PAUSE_RING];
		h->buckets[bucket_of(ns)]++;
		h->count++;
		h->sum_ns += ns;
	}
	h->next = end;
}
