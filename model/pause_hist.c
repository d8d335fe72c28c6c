#include "model/pause_hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

const double gt_pause_hist_bounds_s[GT_PAUSE_HIST_BOUNDS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
	0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
};

/* 0.01, 0.1, 1, 10 s on the grid above. */
const struct gt_duration_bounds gt_duration_bounds_otel = { .n = 4, .at = { 6, 9, 12, 15 } };

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
	h->buckets[bucket_of(total_ns / n)] += n;
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

/* The grid's index of seconds, or -1 when it is none of its bounds. */
static int grid_index(double s)
{
	for (unsigned i = 0; i < GT_PAUSE_HIST_BOUNDS; i++)
		if (fabs(s - gt_pause_hist_bounds_s[i]) <= gt_pause_hist_bounds_s[i] * 1e-9)
			return (int)i;
	return -1;
}

#define DURATION_BOUNDS_WANTS "ascending seconds separated by commas, each one of 0.0001, 0.00025, 0.0005, " \
			      "0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10"

int gt_duration_bounds_parse(const char *list, struct gt_duration_bounds *out, const char **why)
{
	*out = (struct gt_duration_bounds){ 0 };
	const char *p = list;
	for (;;) {
		char *end;
		errno = 0;
		/* strtod reads '.' as the decimal point: gctop sets LC_CTYPE only. */
		double v = strtod(p, &end);
		int at = end != p && !errno ? grid_index(v) : -1;
		if (at < 0 || (out->n && (unsigned)at <= out->at[out->n - 1]) || out->n == GT_PAUSE_HIST_BOUNDS) {
			*why = DURATION_BOUNDS_WANTS;
			return -1;
		}
		out->at[out->n++] = (unsigned)at;
		if (*end == '\0')
			return 0;
		if (*end != ',') {
			*why = DURATION_BOUNDS_WANTS;
			return -1;
		}
		p = end + 1;
	}
}

uint64_t gt_duration_hist_upto(const struct gt_duration_hist *h, const struct gt_duration_bounds *b, unsigned k)
{
	unsigned last = k < b->n ? b->at[k] : GT_PAUSE_HIST_BOUNDS;
	uint64_t n = 0;
	for (unsigned i = 0; i <= last; i++)
		n += h->buckets[i];
	return n;
}
