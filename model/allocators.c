#include "model/allocators.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A site is its name and heap: on .NET one type goes to several heaps. */
static const struct gt_alloc_site *find_site(const struct gt_alloc_table *t, const char *name, enum gt_alloc_heap heap)
{
	for (unsigned i = 0; i < t->n && i < GT_ALLOC_SITES_MAX; i++)
		if (t->sites[i].heap == heap && strcmp(t->sites[i].name, name) == 0)
			return &t->sites[i];
	return NULL;
}

static int by_rate_desc(const void *a, const void *b)
{
	const struct gt_alloc_rate *x = a, *y = b;
	double dx = x->share.valid ? x->share.value : -1, dy = y->share.valid ? y->share.value : -1;
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

static unsigned derive_table(const struct gt_alloc_table *prev, const struct gt_alloc_table *cur,
			     double dt, double total_w, struct gt_f64 exact_bps, struct gt_alloc_rate *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < cur->n && i < GT_ALLOC_SITES_MAX; i++) {
		const struct gt_alloc_site *c = &cur->sites[i];
		const struct gt_alloc_site *p = find_site(prev, c->name, c->heap);
		uint64_t before;
		if (p)
			before = p->bytes;
		else if (prev->complete)
			before = 0;
		else
			continue;
		if (c->bytes <= before)
			continue;
		struct gt_alloc_rate *r = &out[n++];
		memset(r, 0, sizeof(*r));
		memcpy(r->name, c->name, sizeof(r->name));
		r->name[sizeof(r->name) - 1] = '\0';
		r->heap = c->heap;
		double delta = (double)(c->bytes - before);
		if (total_w > 0)
			gt_f64_set(&r->share, fmin(delta / total_w, 1.0));
		if (exact_bps.valid && r->share.valid)
			gt_f64_set(&r->bytes_per_s, r->share.value * exact_bps.value);
		else
			gt_f64_set(&r->bytes_per_s, delta / dt);
	}
	qsort(out, n, sizeof(*out), by_rate_desc);
	return n;
}

void gt_derive_allocators(const struct gt_alloc_snapshot *prev, const struct gt_alloc_snapshot *cur,
			  double dt, struct gt_f64 exact_bps, struct gt_alloc_derived *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->source, cur->source, sizeof(out->source));
	out->source[sizeof(out->source) - 1] = '\0';
	out->state = cur->state;
	out->sampled_share = cur->sampled_share;
	if (!prev || prev->generation != cur->generation || !(dt > 0) || !isfinite(dt) ||
	    cur->samples < prev->samples || cur->est_bytes < prev->est_bytes)
		return;
	out->valid = true;
	out->window_s = dt;
	out->samples = cur->samples - prev->samples;
	double total_w = (double)(cur->est_bytes - prev->est_bytes);
	gt_f64_set(&out->sampled_bps, total_w / dt);
	if (exact_bps.valid && !(exact_bps.value >= 0 && isfinite(exact_bps.value)))
		exact_bps.valid = false;
	out->n_frames = derive_table(&prev->by_frame, &cur->by_frame, dt, total_w, exact_bps, out->by_frame);
	out->n_types = derive_table(&prev->by_type, &cur->by_type, dt, total_w, exact_bps, out->by_type);
}

void gt_alloc_window_push(struct gt_alloc_window *w, const struct gt_alloc_snapshot *s)
{
	w->snaps[w->head] = *s;
	w->head = (w->head + 1) % GT_ALLOC_WINDOW_SNAPS;
	if (w->n < GT_ALLOC_WINDOW_SNAPS)
		w->n++;
}

/* i = 0 is the newest. */
static const struct gt_alloc_snapshot *window_at(const struct gt_alloc_window *w, unsigned i)
{
	return &w->snaps[(w->head + GT_ALLOC_WINDOW_SNAPS - 1 - i) % GT_ALLOC_WINDOW_SNAPS];
}

const struct gt_alloc_snapshot *gt_alloc_window_latest(const struct gt_alloc_window *w)
{
	return w->n ? window_at(w, 0) : NULL;
}

const struct gt_alloc_snapshot *gt_alloc_window_base(const struct gt_alloc_window *w, uint64_t window_ns)
{
	const struct gt_alloc_snapshot *cur = gt_alloc_window_latest(w), *best = NULL;
	if (!cur)
		return NULL;
	for (unsigned i = 1; i < w->n; i++) {
		const struct gt_alloc_snapshot *s = window_at(w, i);
		if (s->generation != cur->generation || s->mono_ns >= cur->mono_ns ||
		    cur->mono_ns - s->mono_ns > window_ns)
			break;
		best = s;
	}
	return best;
}

/* The least sampled share of the readings after base up to the newest:
 * the samples between two readings were taken at the later one's share.
 * n/a when any of them does not say. */
static struct gt_f64 least_share(const struct gt_alloc_window *w, const struct gt_alloc_snapshot *base)
{
	struct gt_f64 least = window_at(w, 0)->sampled_share;
	for (unsigned i = 1; base && i < w->n && window_at(w, i) != base; i++) {
		struct gt_f64 s = window_at(w, i)->sampled_share;
		if (!s.valid)
			return s;
		if (least.valid && s.value < least.value)
			least = s;
	}
	return least;
}

void gt_alloc_window_derive(const struct gt_alloc_window *w, uint64_t window_ns, struct gt_alloc_derived *out)
{
	const struct gt_alloc_snapshot *cur = gt_alloc_window_latest(w);
	if (!cur) {
		memset(out, 0, sizeof(*out));
		out->state = GT_SAMPLER_OFF;
		return;
	}
	const struct gt_alloc_snapshot *base = gt_alloc_window_base(w, window_ns);
	double dt = base ? (double)(cur->mono_ns - base->mono_ns) / 1e9 : 0;
	struct gt_f64 exact = { 0, false };
	if (base && base->exact_total.valid && cur->exact_total.valid && cur->exact_total.value >= base->exact_total.value &&
	    dt > 0)
		gt_f64_set(&exact, (double)(cur->exact_total.value - base->exact_total.value) / dt);
	gt_derive_allocators(base, cur, dt, exact, out);
	out->sampled_share = least_share(w, base);
}

const char *gt_sampler_state_name(enum gt_sampler_state s)
{
	switch (s) {
	case GT_SAMPLER_OFF: return "off";
	case GT_SAMPLER_STARTING: return "starting";
	case GT_SAMPLER_RUNNING: return "running";
	case GT_SAMPLER_STOPPED: return "stopped";
	case GT_SAMPLER_BUSY: return "busy";
	case GT_SAMPLER_FAILED: return "failed";
	}
	return "unknown";
}

const char *gt_alloc_heap_name(enum gt_alloc_heap h)
{
	switch (h) {
	case GT_ALLOC_HEAP_SMALL: return "small";
	case GT_ALLOC_HEAP_LARGE: return "large";
	case GT_ALLOC_HEAP_PINNED: return "pinned";
	case GT_ALLOC_HEAP_UNKNOWN: break;
	}
	return NULL;
}
