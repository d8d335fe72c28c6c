#include "model/derive.h"

#include <math.h>
#include <string.h>

struct gt_u64 gt_u64_delta(struct gt_u64 prev, struct gt_u64 cur)
{
	struct gt_u64 d = { 0, false };

	/* A counter that went backwards was reset (target restarted, collector
	 * re-opened): no honest delta exists for this interval. */
	if (prev.valid && cur.valid && cur.value >= prev.value)
		gt_u64_set(&d, cur.value - prev.value);
	return d;
}

static struct gt_f64 rate_per_s(struct gt_u64 delta, double seconds)
{
	struct gt_f64 r = { 0, false };

	if (delta.valid && seconds > 0)
		gt_f64_set(&r, (double)delta.value / seconds);
	return r;
}

static struct gt_f64 ratio(double num, double den)
{
	struct gt_f64 r = { 0, false };

	if (den > 0 && isfinite(num / den))
		gt_f64_set(&r, num / den);
	return r;
}

static const struct gt_generation *find_generation(const struct gt_sample *s, const char *name)
{
	for (unsigned i = 0; i < s->n_generations; i++)
		if (strcmp(s->generations[i].name, name) == 0)
			return &s->generations[i];
	return NULL;
}

static const struct gt_collector_stat *find_collector(const struct gt_sample *s, const char *name)
{
	for (unsigned i = 0; i < s->n_collectors; i++)
		if (strcmp(s->collectors[i].name, name) == 0)
			return &s->collectors[i];
	return NULL;
}

static void sort_u64(uint64_t *v, size_t n)
{
	/* insertion sort: at most GT_PAUSE_RING values, mostly few */
	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Nearest rank: the smallest value with at least p% of the values <= it. */
static uint64_t nearest_rank(const uint64_t *sorted, size_t n, unsigned pct)
{
	size_t rank = (n * pct + 99) / 100;
	return sorted[rank > 0 ? rank - 1 : 0];
}

void gt_pause_dist(const struct gt_sample *s, uint64_t from, struct gt_pause_dist *out)
{
	memset(out, 0, sizeof(*out));
	if (!s->pause_log.valid || from > s->pause_log.count)
		return;
	uint64_t n = s->pause_log.count - from;
	gt_u64_set(&out->count, n);
	if (n == 0)
		return;
	out->partial = n > GT_PAUSE_RING;
	size_t kept = out->partial ? GT_PAUSE_RING : (size_t)n;
	uint64_t v[GT_PAUSE_RING];
	for (size_t i = 0; i < kept; i++)
		v[i] = s->pause_log.ns[(s->pause_log.count - kept + i) % GT_PAUSE_RING];
	sort_u64(v, kept);
	gt_u64_set(&out->p50_ns, nearest_rank(v, kept, 50));
	gt_u64_set(&out->p99_ns, nearest_rank(v, kept, 99));
	gt_u64_set(&out->max_ns, v[kept - 1]);
}

/* The pauses between the two samples: a log that went backwards (another
 * session) or is missing in either gives none. */
static void derive_pause_dist(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out)
{
	if (!prev->pause_log.valid || !cur->pause_log.valid)
		return;
	struct gt_pause_dist d;
	gt_pause_dist(cur, prev->pause_log.count, &d);
	out->pause_count = d.count;
	out->pause_p50_ns = d.p50_ns;
	out->pause_p99_ns = d.p99_ns;
	out->pause_max_ns = d.max_ns;
	out->pause_dist_partial = d.partial;
}

/* The bytes allocated between the two samples' totals, and in *span_s the
 * seconds they took: the samples' distance, or where the totals are as of
 * the runtime's own polls (alloc_at), the distance between those polls. */
static struct gt_u64 derive_alloc(const struct gt_sample *prev, const struct gt_sample *cur, double *span_s)
{
	struct gt_u64 alloc = { 0, false };
	/* A change of source (estimate -> exact when an agent arrives) is a new
	 * series: mixing them in one delta would invent allocation. */
	bool same = prev->alloc_source == cur->alloc_source && prev->alloc_since == cur->alloc_since &&
		    prev->alloc_at.valid == cur->alloc_at.valid;
	if (same)
		alloc = gt_u64_delta(prev->alloc_bytes_total, cur->alloc_bytes_total);
	if (!cur->alloc_at.valid)
		return alloc;
	if (alloc.valid && cur->alloc_at.ns > prev->alloc_at.ns) {
		*span_s = (double)(cur->alloc_at.ns - prev->alloc_at.ns) / 1e9;
		return alloc;
	}
	/* No earlier figure, or no poll since it: the last poll interval. */
	alloc.valid = false;
	if (cur->alloc_bytes_total.valid && cur->alloc_at.ns > cur->alloc_at.prev_ns &&
	    cur->alloc_bytes_total.value >= cur->alloc_at.prev_total) {
		gt_u64_set(&alloc, cur->alloc_bytes_total.value - cur->alloc_at.prev_total);
		*span_s = (double)(cur->alloc_at.ns - cur->alloc_at.prev_ns) / 1e9;
	}
	return alloc;
}

static void derive_memory(const struct gt_sample *cur, struct gt_derived *out)
{
	if (cur->heap_max_bytes.valid && cur->cgroup_limit_bytes.valid)
		out->heap_max_share_of_limit =
			ratio((double)cur->heap_max_bytes.value, (double)cur->cgroup_limit_bytes.value);
}

static void derive_causes(const struct gt_collection_causes *prev, const struct gt_collection_causes *cur,
			  struct gt_collection_causes *out)
{
	out->seen = gt_u64_delta(prev->seen, cur->seen);
	out->induced = gt_u64_delta(prev->induced, cur->induced);
	out->humongous = gt_u64_delta(prev->humongous, cur->humongous);
	out->gen2 = gt_u64_delta(prev->gen2, cur->gen2);
	out->gen2_alloc_large = gt_u64_delta(prev->gen2_alloc_large, cur->gen2_alloc_large);
}

static struct gt_f64 share_of(double part, double whole)
{
	struct gt_f64 r = ratio(part < 0 ? 0 : part, whole);
	if (r.valid && r.value > 1)
		r.value = 1;
	return r;
}

/* Large-object rate and share. Rates, not byte counts: the allocation
 * total can be as of the runtime's poll (alloc_at), a span other than the
 * samples'. Where the large figure counts whole regions, the objects' bytes
 * lie between it less the tails' bound and it; an estimated total holds the
 * same regions (so it is an upper bound too, and the share's least is
 * (large - tails) / (alloc - tails)), an exact one the objects' own bytes
 * (so the share's most is large / alloc, never past all of it). */
static void derive_large(const struct gt_sample *prev, const struct gt_sample *cur, double dt, struct gt_derived *out)
{
	/* The agent's samples replacing the perf data's regions (or the other
	 * way) start a new series: no rate across the change. */
	const char *was = prev->large_source, *is = cur->large_source;
	if (was != is && (!was || !is || strcmp(was, is) != 0))
		return;
	out->large_waste_rate_bps =
		rate_per_s(gt_u64_delta(prev->large_waste_bytes_total, cur->large_waste_bytes_total), dt);
	out->large_alloc_rate_bps = rate_per_s(gt_u64_delta(prev->large_alloc_bytes_total, cur->large_alloc_bytes_total), dt);
	out->large_waste_max_rate_bps =
		rate_per_s(gt_u64_delta(prev->large_waste_max_bytes_total, cur->large_waste_max_bytes_total), dt);
	if (!out->large_alloc_rate_bps.valid || !out->alloc_rate_bps.valid)
		return;
	double large = out->large_alloc_rate_bps.value, alloc = out->alloc_rate_bps.value;
	out->large_alloc_share = share_of(large, alloc);
	if (!out->large_waste_max_rate_bps.valid)
		return;
	double tails = out->large_waste_max_rate_bps.value;
	if (cur->alloc_source != GT_ALLOC_SOURCE_ESTIMATE) {
		out->large_alloc_share_min = share_of(large - tails, alloc);
		return;
	}
	out->large_alloc_share_min = share_of(large - tails, alloc - tails);
	if (tails > 0) {
		out->alloc_upper_bound = true;
		out->alloc_excess_max_bps = out->large_waste_max_rate_bps;
	}
}

/* Operations of the interval, over the span the allocation total covers
 * (ops_total is read as of the allocation total's moment), and the bytes
 * allocated per operation. */
static void derive_ops(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_u64 alloc, double span,
		       struct gt_derived *out)
{
	struct gt_u64 ops = gt_u64_delta(prev->ops_total, cur->ops_total);
	if (cur->alloc_at.valid && !(prev->alloc_at.valid && cur->alloc_at.ns > prev->alloc_at.ns))
		ops.valid = false;
	out->ops = ops;
	out->ops_rate = rate_per_s(ops, span);
	if (ops.valid && alloc.valid)
		out->bytes_per_op = ratio((double)alloc.value, (double)ops.value);
}

void gt_derive(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out)
{
	memset(out, 0, sizeof(*out));
	out->cur = *cur;
	derive_memory(cur, out);

	out->first = prev == NULL || prev->pid != cur->pid || cur->mono_ns <= prev->mono_ns;
	if (out->first)
		return;

	double dt = (double)(cur->mono_ns - prev->mono_ns) / 1e9;
	gt_f64_set(&out->interval_s, dt);

	/* A change of source or origin (estimate since attach -> exact since
	 * the process started, when an agent arrives) is a new, marked series. */
	out->alloc_new_series = prev->alloc_source != cur->alloc_source || prev->alloc_since != cur->alloc_since;
	double alloc_dt = dt;
	struct gt_u64 alloc = derive_alloc(prev, cur, &alloc_dt);
	out->alloc_rate_bps = rate_per_s(alloc, alloc_dt);
	/* Collections whose interval the estimate did not see: at least this. */
	if (alloc.valid && prev->alloc_blind_collections.valid && cur->alloc_blind_collections.valid &&
	    cur->alloc_blind_collections.value > prev->alloc_blind_collections.value)
		out->alloc_lower_bound = true;
	if (out->alloc_rate_bps.valid)
		gt_f64_set(&out->alloc_span_s, alloc_dt);

	for (unsigned i = 0; i < cur->n_generations; i++) {
		const struct gt_generation *p = find_generation(prev, cur->generations[i].name);
		if (!p)
			continue;
		struct gt_u64 d = gt_u64_delta(p->collections, cur->generations[i].collections);
		out->generations[i].collections = d;
		struct gt_f64 per_s = rate_per_s(d, dt);
		if (per_s.valid)
			gt_f64_set(&out->generations[i].per_minute, per_s.value * 60.0);
	}

	for (unsigned i = 0; i < cur->n_collectors; i++) {
		const struct gt_collector_stat *p = find_collector(prev, cur->collectors[i].name);
		if (!p)
			continue;
		out->collectors[i].invocations = gt_u64_delta(p->invocations, cur->collectors[i].invocations);
		struct gt_u64 t = gt_u64_delta(p->time_ns, cur->collectors[i].time_ns);
		if (t.valid)
			out->collectors[i].time_share = ratio((double)t.value / 1e9, dt);
	}

	derive_causes(&prev->causes, &cur->causes, &out->causes);
	derive_pause_dist(prev, cur, out);
	out->pause_ns = gt_u64_delta(prev->pause_total_ns, cur->pause_total_ns);
	if (out->pause_ns.valid)
		out->pause_share = ratio((double)out->pause_ns.value / 1e9, dt);

	struct gt_u64 sp = gt_u64_delta(prev->safepoint_ns, cur->safepoint_ns);
	if (sp.valid)
		out->safepoint_share = ratio((double)sp.value / 1e9, dt);

	struct gt_u64 gccpu = gt_u64_delta(prev->gc_cpu_ns, cur->gc_cpu_ns);
	if (gccpu.valid)
		out->gc_cpu_share = ratio((double)gccpu.value / 1e9, dt);

	struct gt_u64 ticks = gt_u64_delta(prev->cpu_ticks, cur->cpu_ticks);
	if (ticks.valid && cur->cpu_hz.valid && cur->cpu_hz.value > 0)
		out->cpu_share = ratio((double)ticks.value / (double)cur->cpu_hz.value, dt);

	derive_large(prev, cur, dt, out);
	derive_ops(prev, cur, alloc, cur->alloc_at.valid ? alloc_dt : dt, out);
}
