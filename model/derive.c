#include "model/derive.h"

#include <math.h>
#include <string.h>

#include "model/percentile.h"

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

/* A part of a whole (of wall time, of all bytes), num and den over the
 * same window, so within [0, 1] by construction. The bound is a last guard
 * only, like an assertion that does not stop the program: a figure above 1
 * would be a window mismatch to fix where the figures are taken. */
static struct gt_f64 share(double num, double den)
{
	struct gt_f64 r = ratio(num, den);
	if (r.valid && r.value > 1)
		r.value = 1;
	if (r.valid && r.value < 0)
		r.value = 0;
	return r;
}

/* The pause time of the interval. Where the collector times pauses by the
 * runtime's clock (pause_at), what it credited to the interval between the
 * two samples (at most its length); else the growth of the total of the
 * pauses read. */
static struct gt_u64 derive_pause(const struct gt_sample *prev, const struct gt_sample *cur)
{
	struct gt_u64 d = { 0, false };
	const struct gt_pause_at *at = &cur->pause_at;
	/* figures as of the same earlier moment as the sample before's, with
	 * nothing credited since (.NET's pause counter before it is 2.5 s
	 * old, or a late poll): no span of the runtime's time, no share */
	if (at->valid && at->ns && at->ns == prev->pause_at.ns && at->total == at->prev_total)
		return d;
	if (at->valid && at->prev_ns == prev->mono_ns) {
		if (at->total >= at->prev_total)
			gt_u64_set(&d, at->total - at->prev_total);
		return d;
	}
	/* samples not taken one after the other (a recording's gap): both
	 * totals by the runtime's clock, the older as known then */
	if (at->valid && prev->pause_at.valid) {
		if (at->total >= prev->pause_at.total)
			gt_u64_set(&d, at->total - prev->pause_at.total);
		return d;
	}
	return gt_u64_delta(prev->pause_total_ns, cur->pause_total_ns);
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
	gt_u64_set(&out->p50_ns, gt_percentile_u64(v, kept, 50));
	gt_u64_set(&out->p99_ns, gt_percentile_u64(v, kept, 99));
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

/* A change of source (estimate -> exact when an agent arrives) is a new
 * series: mixing them in one delta would invent allocation. */
static bool same_alloc_series(const struct gt_sample *prev, const struct gt_sample *cur)
{
	return prev->alloc_source == cur->alloc_source && prev->alloc_since == cur->alloc_since &&
	       prev->alloc_at.valid == cur->alloc_at.valid;
}

/* The bytes allocated between the two samples' totals, and in *span_s the
 * seconds they took: the samples' distance, or where the totals are as of
 * the runtime's own polls (alloc_at), the distance between those polls. */
static struct gt_u64 derive_alloc(const struct gt_sample *prev, const struct gt_sample *cur, double *span_s)
{
	struct gt_u64 alloc = { 0, false };
	if (same_alloc_series(prev, cur))
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
	out->census = gt_u64_delta(prev->census, cur->census);
	out->inspection = gt_u64_delta(prev->inspection, cur->inspection);
}

/* Large-object rate and share. .NET counts large objects at the GCs beside
 * all the bytes they count (large_alloc_of_total): the share is of those,
 * the bytes of the interval's GCs, which allocated over the time since the
 * GC before, not over the interval, so the rate is that share of the
 * interval's allocation rate, and neither exists for an interval without a
 * GC. Else rates, not byte counts: the allocation total can be as of the
 * runtime's poll (alloc_at), a span other than the samples'. Where the
 * large figure counts whole regions, the objects' bytes lie between it less
 * the tails' bound and it; an estimated total holds the same regions (so it
 * is an upper bound too, and the share's least is (large - tails) / (alloc
 * - tails)), an exact one the objects' own bytes (so the share's most is
 * large / alloc, never past all of it). */
static void derive_large(const struct gt_sample *prev, const struct gt_sample *cur, double dt, struct gt_derived *out)
{
	/* The agent's samples replacing the perf data's regions (or the other
	 * way) start a new series: no rate across the change. */
	const char *was = prev->large_source, *is = cur->large_source;
	if (was != is && (!was || !is || strcmp(was, is) != 0))
		return;
	struct gt_u64 large_bytes = gt_u64_delta(prev->large_alloc_bytes_total, cur->large_alloc_bytes_total);
	if (cur->large_alloc_of_total.valid) {
		struct gt_u64 all = gt_u64_delta(prev->large_alloc_of_total, cur->large_alloc_of_total);
		if (large_bytes.valid && all.valid && all.value > 0)
			out->large_alloc_share = share((double)large_bytes.value, (double)all.value);
		if (out->large_alloc_share.valid && out->alloc_rate_bps.valid)
			gt_f64_set(&out->large_alloc_rate_bps, out->large_alloc_share.value * out->alloc_rate_bps.value);
		return;
	}
	out->large_waste_rate_bps =
		rate_per_s(gt_u64_delta(prev->large_waste_bytes_total, cur->large_waste_bytes_total), dt);
	out->large_alloc_rate_bps = rate_per_s(large_bytes, dt);
	out->large_waste_max_rate_bps =
		rate_per_s(gt_u64_delta(prev->large_waste_max_bytes_total, cur->large_waste_max_bytes_total), dt);
	if (!out->large_alloc_rate_bps.valid || !out->alloc_rate_bps.valid)
		return;
	double large = out->large_alloc_rate_bps.value, alloc = out->alloc_rate_bps.value;
	out->large_alloc_share = share(large, alloc);
	if (!out->large_waste_max_rate_bps.valid)
		return;
	double tails = out->large_waste_max_rate_bps.value;
	if (cur->alloc_source != GT_ALLOC_SOURCE_ESTIMATE) {
		out->large_alloc_share_min = share(large - tails, alloc);
		return;
	}
	out->large_alloc_share_min = share(large - tails, alloc - tails);
	if (tails > 0) {
		out->alloc_upper_bound = true;
		out->alloc_excess_max_bps = out->large_waste_max_rate_bps;
	}
}

/* Eden regions' tails in an estimated total (alloc_excess_max_bytes_total):
 * at most this, over by at most their rate besides the humongous tails'. */
static void derive_alloc_tails(const struct gt_sample *prev, const struct gt_sample *cur, double dt,
			       struct gt_derived *out)
{
	if (cur->alloc_source != GT_ALLOC_SOURCE_ESTIMATE || !out->alloc_rate_bps.valid)
		return;
	struct gt_f64 tails =
		rate_per_s(gt_u64_delta(prev->alloc_excess_max_bytes_total, cur->alloc_excess_max_bytes_total), dt);
	if (!tails.valid || tails.value <= 0)
		return;
	double humongous = 0;
	if (out->alloc_upper_bound && out->alloc_excess_max_bps.valid)
		humongous = out->alloc_excess_max_bps.value;
	out->alloc_upper_bound = true;
	gt_f64_set(&out->alloc_excess_max_bps, humongous + tails.value);
}

/* Operations of the interval, over the span the allocation total covers
 * (opcount_total is read as of the allocation total's moment), with the bytes
 * allocated and the collections over that same span. A total as of a
 * runtime's poll that did not advance (its requests counter had not
 * arrived) counts 0 operations with 0 bytes and collections, and the next
 * interval counts its polls' whole: dropping such an interval instead
 * dropped its collections while its operations came in the next, 0.18
 * collections per request read where the run had 0.225. Only the rate
 * has no span then. */
/* Operations read at moments of their own (opcount_at_ns), with the bytes
 * allocated between those same moments: a delta of the sample's allocation
 * total would be of other moments, and a burst of requests between the two
 * counted in one interval's bytes and the next one's requests. The rate is
 * over the span between the readings; none where no new reading came. */
static void derive_opcount_at(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out)
{
	if (!prev->opcount_at_ns.valid)
		return;
	out->opcount = gt_u64_delta(prev->opcount_total, cur->opcount_total);
	if (same_alloc_series(prev, cur))
		out->opcount_alloc_bytes = gt_u64_delta(prev->opcount_alloc_total, cur->opcount_alloc_total);
	out->opcount_collections = gt_u64_delta(prev->opcount_collections_total, cur->opcount_collections_total);
	uint64_t was = prev->opcount_at_ns.value, is = cur->opcount_at_ns.value;
	if (is > was)
		out->opcount_rate = rate_per_s(out->opcount, (double)(is - was) / 1e9);
	if (out->opcount.valid && out->opcount_alloc_bytes.valid)
		out->bytes_per_op = ratio((double)out->opcount_alloc_bytes.value, (double)out->opcount.value);
	gt_plausible_bytes_per_op(out, is > was ? (double)(is - was) / 1e9 : 0);
}

static void derive_opcount(const struct gt_sample *prev, const struct gt_sample *cur, double span, struct gt_derived *out)
{
	if (cur->opcount_at_ns.valid) {
		derive_opcount_at(prev, cur, out);
		return;
	}
	struct gt_u64 opcount = gt_u64_delta(prev->opcount_total, cur->opcount_total);
	out->opcount = opcount;
	if (same_alloc_series(prev, cur))
		out->opcount_alloc_bytes = gt_u64_delta(prev->alloc_bytes_total, cur->alloc_bytes_total);
	out->opcount_collections = gt_u64_delta(prev->opcount_collections_total, cur->opcount_collections_total);
	if (!cur->alloc_at.valid || (prev->alloc_at.valid && cur->alloc_at.ns > prev->alloc_at.ns))
		out->opcount_rate = rate_per_s(opcount, span);
	if (opcount.valid && out->opcount_alloc_bytes.valid)
		out->bytes_per_op = ratio((double)out->opcount_alloc_bytes.value, (double)opcount.value);
	gt_plausible_bytes_per_op(out, span);
}

/* The interval's figures, from two samples the plausibility rules held. */
static void derive_interval(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out);

/* Every figure below is derived from the samples with the figures that
 * break their plausibility rules set n/a (model/plausible.h): cur as out
 * holds it, prev as a copy, so that no rate is taken from an absurd total. */
void gt_derive(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out)
{
	memset(out, 0, sizeof(*out));
	out->live_set.why = out->live_set.growth_why = out->live_set.exhaustion_why = "the live set is not tracked";
	out->cur = *cur;
	gt_plausible_sample(&out->cur, &out->implausible);
	derive_memory(&out->cur, out);

	out->first = prev == NULL || prev->pid != cur->pid || cur->mono_ns <= prev->mono_ns;
	if (out->first)
		return;
	struct gt_sample held = *prev;
	gt_plausible_sample(&held, NULL);
	derive_interval(&held, &out->cur, out);
	gt_plausible_rates(out);
}

static void derive_interval(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out)
{
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
			out->collectors[i].time_share = share((double)t.value / 1e9, dt);
	}

	derive_causes(&prev->causes, &cur->causes, &out->causes);
	derive_pause_dist(prev, cur, out);
	out->pause_ns = derive_pause(prev, cur);
	if (out->pause_ns.valid)
		out->pause_share = share((double)out->pause_ns.value / 1e9, dt);

	struct gt_u64 sp = gt_u64_delta(prev->safepoint_ns, cur->safepoint_ns);
	if (sp.valid)
		out->safepoint_share = share((double)sp.value / 1e9, dt);

	struct gt_u64 gccpu = gt_u64_delta(prev->gc_cpu_ns, cur->gc_cpu_ns);
	if (gccpu.valid)
		out->gc_cpu_share = ratio((double)gccpu.value / 1e9, dt);

	struct gt_u64 ticks = gt_u64_delta(prev->cpu_ticks, cur->cpu_ticks);
	if (ticks.valid && cur->cpu_hz.valid && cur->cpu_hz.value > 0)
		out->cpu_share = ratio((double)ticks.value / (double)cur->cpu_hz.value, dt);

	derive_large(prev, cur, dt, out);
	derive_alloc_tails(prev, cur, alloc_dt, out);
	derive_opcount(prev, cur, cur->alloc_at.valid ? alloc_dt : dt, out);
}
