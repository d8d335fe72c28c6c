#include "model/history.h"

#include <string.h>

void gt_history_clear(struct gt_history *h)
{
	h->head = 0;
	h->count = 0;
}

struct gt_u64 gt_history_longest_pause(const struct gt_derived *d)
{
	struct gt_u64 r = { 0, false };

	if (d->cur.pause_max_ns.valid)
		return d->cur.pause_max_ns;
	if (!d->pause_ns.valid)
		return r;
	/* last_pause_ns keeps the length of an older pause while nothing runs:
	 * it belongs to this interval only if pause time grew in it. */
	if (d->pause_ns.value == 0)
		gt_u64_set(&r, 0);
	else if (d->cur.last_pause_ns.valid)
		r = d->cur.last_pause_ns;
	return r;
}

bool gt_history_point_of(const struct gt_derived *d, struct gt_history_point *p)
{
	if (d->first || !d->interval_s.valid)
		return false;
	memset(p, 0, sizeof(*p));
	p->mono_ns = d->cur.mono_ns;
	p->wall_ms = d->cur.wall_ms;
	memcpy(p->last_gc_cause, d->cur.last_gc_cause, sizeof(p->last_gc_cause));
	p->interval_s = d->interval_s;
	p->alloc_rate_bps = d->alloc_rate_bps;
	p->pause_ns = d->pause_ns;
	p->pause_share = d->pause_share;
	p->gc_cpu_share = d->gc_cpu_share;
	p->cpu_share = d->cpu_share;
	p->longest_pause_ns = gt_history_longest_pause(d);
	if (d->cur.pause_log.valid && d->pause_count.valid) {
		p->pause_log_valid = true;
		p->pause_log_to = d->cur.pause_log.count;
		p->pause_log_from = p->pause_log_to - d->pause_count.value;
	}
	p->n_generations = d->cur.n_generations;
	for (unsigned i = 0; i < p->n_generations && i < GT_MAX_GENERATIONS; i++)
		p->collections[i] = d->generations[i].collections;
	p->heap_used_bytes = d->cur.heap_used_bytes;
	p->rss_bytes = d->cur.rss_bytes;
	p->causes = d->causes;
	p->opcount = d->opcount;
	p->bytes_per_op = d->bytes_per_op;
	p->opcount_alloc_bytes = d->opcount_alloc_bytes;
	p->opcount_collections = d->opcount_collections;
	p->alloc_lower_bound = d->alloc_lower_bound;
	p->alloc_upper_bound = d->alloc_upper_bound;
	return true;
}

void gt_history_push_point(struct gt_history *h, const struct gt_history_point *p)
{
	h->points[h->head] = *p;
	h->head = (h->head + 1) % GT_HISTORY_CAPACITY;
	if (h->count < GT_HISTORY_CAPACITY)
		h->count++;
}

void gt_history_push(struct gt_history *h, const struct gt_derived *d)
{
	struct gt_history_point p;
	if (gt_history_point_of(d, &p))
		gt_history_push_point(h, &p);
}

size_t gt_history_count(const struct gt_history *h)
{
	return h->count;
}

const struct gt_history_point *gt_history_at(const struct gt_history *h, size_t age)
{
	if (age >= h->count)
		return NULL;
	size_t i = (h->head + GT_HISTORY_CAPACITY - 1 - age) % GT_HISTORY_CAPACITY;
	return &h->points[i];
}

static struct gt_f64 point_metric(const struct gt_history_point *p, enum gt_history_metric m)
{
	struct gt_f64 v = { 0, false };

	switch (m) {
	case GT_HISTORY_ALLOC_RATE:
		return p->alloc_rate_bps;
	case GT_HISTORY_PAUSE_SHARE:
		return p->pause_share;
	case GT_HISTORY_LONGEST_PAUSE:
		if (p->longest_pause_ns.valid)
			gt_f64_set(&v, (double)p->longest_pause_ns.value);
		return v;
	case GT_HISTORY_COLLECTIONS: {
		double sum = 0;
		bool any = false;
		for (unsigned g = 0; g < p->n_generations; g++) {
			if (p->collections[g].valid) {
				sum += (double)p->collections[g].value;
				any = true;
			}
		}
		if (any)
			gt_f64_set(&v, sum);
		return v;
	}
	case GT_HISTORY_HEAP_USED:
		if (p->heap_used_bytes.valid)
			gt_f64_set(&v, (double)p->heap_used_bytes.value);
		return v;
	case GT_HISTORY_RSS:
		if (p->rss_bytes.valid)
			gt_f64_set(&v, (double)p->rss_bytes.value);
		return v;
	}
	return v;
}

size_t gt_history_series(const struct gt_history *h, enum gt_history_metric m,
			 struct gt_f64 *out, size_t max)
{
	size_t n = h->count < max ? h->count : max;
	for (size_t i = 0; i < n; i++)
		out[i] = point_metric(gt_history_at(h, n - 1 - i), m);
	return n;
}

void gt_history_window(const struct gt_history *h, uint64_t window_ns, struct gt_history_window *out)
{
	memset(out, 0, sizeof(*out));
	const struct gt_history_point *newest = gt_history_at(h, 0);
	if (!newest)
		return;

	double span = 0, pause_span = 0, pause_s = 0, alloc_span = 0, alloc_bytes = 0;
	double cpu_span = 0, gc_cpu_s = 0, cpu_s = 0;
	double gen_span[GT_MAX_GENERATIONS] = { 0 };
	bool longest_known = false;
	uint64_t longest = 0;

	for (size_t age = 0; age < h->count; age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		if (newest->mono_ns - p->mono_ns >= window_ns)
			break;
		out->points++;
		double dt = p->interval_s.value;
		span += dt;
		if (p->pause_ns.valid) {
			pause_s += (double)p->pause_ns.value / 1e9;
			pause_span += dt;
		}
		if (p->alloc_rate_bps.valid) {
			alloc_bytes += p->alloc_rate_bps.value * dt;
			alloc_span += dt;
		}
		/* both or neither: the GC's share of the process's CPU */
		if (p->gc_cpu_share.valid && p->cpu_share.valid) {
			gc_cpu_s += p->gc_cpu_share.value * dt;
			cpu_s += p->cpu_share.value * dt;
			cpu_span += dt;
		}
		if (p->longest_pause_ns.valid) {
			longest_known = true;
			if (p->longest_pause_ns.value > longest)
				longest = p->longest_pause_ns.value;
		}
		for (unsigned g = 0; g < p->n_generations && g < GT_MAX_GENERATIONS; g++) {
			if (!p->collections[g].valid)
				continue;
			gt_u64_set(&out->collections[g], out->collections[g].value + p->collections[g].value);
			gen_span[g] += dt;
		}
	}
	if (span > 0)
		gt_f64_set(&out->span_s, span);
	if (pause_span > 0)
		gt_f64_set(&out->pause_share, pause_s / pause_span);
	if (alloc_span > 0)
		gt_f64_set(&out->alloc_rate_bps, alloc_bytes / alloc_span);
	if (cpu_span > 0) {
		gt_f64_set(&out->gc_cpu_share, gc_cpu_s / cpu_span);
		gt_f64_set(&out->cpu_share, cpu_s / cpu_span);
	}
	if (longest_known)
		gt_u64_set(&out->longest_pause_ns, longest);
	for (unsigned g = 0; g < GT_MAX_GENERATIONS; g++)
		if (out->collections[g].valid && gen_span[g] > 0)
			gt_f64_set(&out->per_minute[g], (double)out->collections[g].value / gen_span[g] * 60.0);
}

void gt_history_pause_dist(const struct gt_history *h, uint64_t window_ns, const struct gt_sample *cur,
			   struct gt_pause_dist *out)
{
	memset(out, 0, sizeof(*out));
	const struct gt_history_point *newest = gt_history_at(h, 0);
	if (!newest || !newest->pause_log_valid || !cur->pause_log.valid ||
	    cur->pause_log.count != newest->pause_log_to)
		return;
	uint64_t from = newest->pause_log_from;
	for (size_t age = 1; age < h->count; age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		if (newest->mono_ns - p->mono_ns >= window_ns)
			break;
		/* a gap (a point without a log, a new session) ends the window */
		if (!p->pause_log_valid || p->pause_log_to != from)
			break;
		from = p->pause_log_from;
	}
	gt_pause_dist(cur, from, out);
}
