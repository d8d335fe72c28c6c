#include "model/pause_hist.h"

const double gt_pause_hist_bounds_s[GT_PAUSE_HIST_BOUNDS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
};

static unsigned bucket_of(uint64_t ns)
{
	double s = (double)ns / 1e9;
	unsigned b = 0;
	while (b < GT_PAUSE_HIST_BOUNDS && s > gt_pause_hist_bounds_s[b])
		b++;
	return b;
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
