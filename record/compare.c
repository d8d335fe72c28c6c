#include "record/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "model/percentile.h"
#include "record/feed.h"
#include "record/record_format.h"
#include "record/record_reader.h"
#include "session/session.h"

const struct gt_fig_desc gt_fig_descs[GT_FIG_COUNT] = {
	[GT_FIG_DURATION_S] = { "duration_s", "duration", GT_UNIT_SECONDS },
	[GT_FIG_ALLOC_RATE_MEDIAN] = { "alloc.rate_bps_median", "allocation rate, median", GT_UNIT_BPS },
	[GT_FIG_ALLOC_RATE_P95] = { "alloc.rate_bps_p95", "allocation rate, p95", GT_UNIT_BPS },
	[GT_FIG_BYTES_PER_OP_MEDIAN] = { "alloc.bytes_per_op_median", "bytes per operation, median", GT_UNIT_BYTES },
	[GT_FIG_OPCOUNT_RATE] = { "ops.rate_per_s", "operations per second", GT_UNIT_PER_S },
	[GT_FIG_PAUSE_SHARE] = { "pause.share", "pause share", GT_UNIT_SHARE },
	[GT_FIG_PAUSE_P50_MS] = { "pause.p50_ms", "pause p50", GT_UNIT_MS },
	[GT_FIG_PAUSE_P99_MS] = { "pause.p99_ms", "pause p99", GT_UNIT_MS },
	[GT_FIG_PAUSE_MAX_MS] = { "pause.max_ms", "pause max", GT_UNIT_MS },
	[GT_FIG_LARGE_PEAK_BYTES] = { "large_objects.peak_bytes", "large objects, peak", GT_UNIT_BYTES },
	[GT_FIG_WORKING_SET_PEAK_BYTES] = { "memory.working_set_peak_bytes", "working set, peak", GT_UNIT_BYTES },
	[GT_FIG_COMMITTED_PEAK_BYTES] = { "memory.committed_peak_bytes", "heap committed, peak", GT_UNIT_BYTES },
	[GT_FIG_LIVE_SET_BYTES] = { "live_set.bytes", "live set, at the end", GT_UNIT_BYTES },
	[GT_FIG_LIVE_GROWTH_BPS] = { "live_set.growth_bps", "live set growth, at the end", GT_UNIT_BPS },
};

/* Values gathered over a run, for its percentiles. */
struct values {
	double *v;
	size_t n, cap;
};

static int push(struct values *vs, double x, size_t max)
{
	if (vs->n == max)
		return 0;   /* enough for a percentile: the rest is dropped */
	double *nv = gt_array_grow(vs->v, &vs->cap, vs->n + 1, sizeof(*vs->v), 256);
	if (!nv)
		return -1;
	vs->v = nv;
	vs->v[vs->n++] = x;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double gt_compare_percentile(double *v, size_t n, unsigned pct)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return gt_percentile_f64(v, n, pct);
}

static int cmp_weighted(const void *a, const void *b)
{
	return cmp_double(&((const struct gt_weighted *)a)->value, &((const struct gt_weighted *)b)->value);
}

double gt_compare_weighted_median(struct gt_weighted *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_weighted);
	double total = 0, below = 0;
	for (size_t i = 0; i < n; i++)
		total += v[i].weight;
	for (size_t i = 0; i < n; i++) {
		below += v[i].weight;
		if (2 * below >= total)
			return v[i].value;
	}
	return v[n - 1].value;
}

/* Intervals' bytes per operation, each weighted by its operations. */
struct per_op_values {
	struct gt_weighted *v;
	size_t n, cap;
};

static int push_per_op(struct per_op_values *vs, double per_op, double opcount, size_t max)
{
	if (vs->n == max)
		return 0;
	struct gt_weighted *nv = gt_array_grow(vs->v, &vs->cap, vs->n + 1, sizeof(*vs->v), 256);
	if (!nv)
		return -1;
	vs->v = nv;
	vs->v[vs->n++] = (struct gt_weighted){ per_op, opcount };
	return 0;
}

static void set_percentile(struct gt_f64 *out, struct values *vs, unsigned pct, double scale)
{
	if (vs->n)
		gt_f64_set(out, gt_compare_percentile(vs->v, vs->n, pct) * scale);
}

static void peak(struct gt_f64 *f, struct gt_u64 v)
{
	if (v.valid && (!f->valid || (double)v.value > f->value))
		gt_f64_set(f, (double)v.value);
}

/* Where a sample's pause log stood: a sample is fed before its pauses are
 * gathered, so the one before it is gone from the session by then. */
struct log_at {
	bool seen, valid;
	uint64_t count;
};

struct gather {
	struct values rates, pauses;
	struct per_op_values per_op;
	struct gt_sample first;
	/* the first with pause figures: .NET's come with the runtime's first
	 * poll of its counter, a second or more after the first sample */
	struct gt_sample first_pause;
	bool have_first_pause;
	struct log_at last;   /* the pause log's count at the sample before */
};

/* The single pauses new in cur (the newest sample fed) since the sample
 * before (g->last), as the derive step counts them. */
static int gather_pauses(struct gather *g, const struct gt_sample *cur)
{
	struct log_at prev = g->last;
	g->last = (struct log_at){ true, cur->pause_log.valid, cur->pause_log.count };
	if (!prev.seen || !prev.valid || !cur->pause_log.valid || cur->pause_log.count < prev.count)
		return 0;
	uint64_t from = prev.count, count = cur->pause_log.count;
	if (count - from > GT_PAUSE_RING)
		from = count - GT_PAUSE_RING;
	for (uint64_t k = from; k < count; k++)
		if (push(&g->pauses, (double)cur->pause_log.ns[k % GT_PAUSE_RING], GT_COMPARE_PAUSES_MAX) != 0)
			return -1;
	return 0;
}

/* The interval the sample just fed into s ends, its figures gathered. */
static int gather_sample(struct gather *g, const struct gt_session *s, struct gt_run *run)
{
	const struct gt_sample *cur = &s->prev;
	if (gather_pauses(g, cur) != 0)
		return -1;
	if (s->samples == 1)
		g->first = *cur;
	if (!g->have_first_pause && (cur->pause_at.valid || cur->pause_total_ns.valid)) {
		g->first_pause = *cur;
		g->have_first_pause = true;
	}
	const struct gt_derived *d = &s->live.derived;
	if (!d->first && d->alloc_rate_bps.valid && push(&g->rates, d->alloc_rate_bps.value, GT_RECORD_SAMPLES_MAX) != 0)
		return -1;
	/* bytes_per_op is valid only over a valid count of operations above 0
	 * (derive_opcount): every weight is at least one */
	if (!d->first && d->bytes_per_op.valid &&
	    push_per_op(&g->per_op, d->bytes_per_op.value, (double)d->opcount.value, GT_RECORD_SAMPLES_MAX) != 0)
		return -1;
	if (cur->opcount_name)
		snprintf(run->opcount_name, sizeof(run->opcount_name), "%s", cur->opcount_name);
	peak(&run->fig[GT_FIG_LARGE_PEAK_BYTES], cur->large_bytes);
	peak(&run->fig[GT_FIG_WORKING_SET_PEAK_BYTES], cur->rss_bytes);
	peak(&run->fig[GT_FIG_COMMITTED_PEAK_BYTES], cur->heap_committed_bytes);
	if (cur->gc_heap_count.valid && (!run->gc_heaps_max.valid || cur->gc_heap_count.value > run->gc_heaps_max.value))
		run->gc_heaps_max = cur->gc_heap_count;
	return 0;
}

/* The figures over the whole run: the derive step over its first and last samples. */
static void whole_run(struct gather *g, const struct gt_session *s, struct gt_run *run)
{
	struct gt_derived *whole = malloc(sizeof(*whole));
	if (whole) {
		/* the pause share over the span its figures cover */
		if (g->have_first_pause) {
			gt_derive(&g->first_pause, &s->prev, whole);
			run->fig[GT_FIG_PAUSE_SHARE] = whole->pause_share;
		}
		gt_derive(&g->first, &s->prev, whole);
		run->fig[GT_FIG_DURATION_S] = whole->interval_s;
		/* the operations of the run over its span, where they were counted */
		run->fig[GT_FIG_OPCOUNT_RATE] = whole->opcount_rate;
		run->n_generations = s->prev.n_generations;
		for (unsigned i = 0; i < run->n_generations && i < GT_MAX_GENERATIONS; i++) {
			snprintf(run->generation[i], sizeof(run->generation[i]), "%s", s->prev.generations[i].name);
			run->per_min[i] = whole->generations[i].per_minute;
		}
		free(whole);
	}
	/* the live set as the replay's tracker has it after the last sample */
	const struct gt_live_set *l = &s->live.derived.live_set;
	if (l->valid)
		gt_f64_set(&run->fig[GT_FIG_LIVE_SET_BYTES], (double)l->bytes);
	run->fig[GT_FIG_LIVE_GROWTH_BPS] = l->growth_bps;
	set_percentile(&run->fig[GT_FIG_ALLOC_RATE_MEDIAN], &g->rates, 50, 1);
	set_percentile(&run->fig[GT_FIG_ALLOC_RATE_P95], &g->rates, 95, 1);
	/* Weighted by operations: an interval at either end of the load holds
	 * a few operations, and a request cut by its edge (counted when it
	 * starts, its bytes on both sides) moves its figure by a large share;
	 * with few intervals in a run, the plain median of the intervals can
	 * be such an end. Weighted, it is the bytes per operation of the
	 * median operation. */
	if (g->per_op.n)
		gt_f64_set(&run->fig[GT_FIG_BYTES_PER_OP_MEDIAN], gt_compare_weighted_median(g->per_op.v, g->per_op.n));
	set_percentile(&run->fig[GT_FIG_PAUSE_P50_MS], &g->pauses, 50, 1e-6);
	set_percentile(&run->fig[GT_FIG_PAUSE_P99_MS], &g->pauses, 99, 1e-6);
	set_percentile(&run->fig[GT_FIG_PAUSE_MAX_MS], &g->pauses, 100, 1e-6);
}

static int read_run(struct gt_record_reader *r, struct gt_session *s, struct gather *g, struct gt_run *run,
		    struct gt_error *err)
{
	struct gt_sample *cur = malloc(sizeof(*cur));
	if (!cur)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	int rc;
	while ((rc = gt_feed_next(r, s, cur, GT_FEED_FIGURES, err)) > 0) {
		if (gather_sample(g, s, run) != 0) {
			rc = gt_fail(err, GT_EXIT_FAILURE, "out of memory");
			break;
		}
		run->samples++;
	}
	free(cur);
	return rc;
}

int gt_compare_load(const char *file, struct gt_run *run, struct gt_error *err)
{
	memset(run, 0, sizeof(*run));
	run->file = file;
	struct gt_record_reader *r = gt_record_open(file, err);
	if (!r)
		return -1;
	struct gt_session *s = malloc(sizeof(*s));
	struct gather *g = calloc(1, sizeof(*g));
	int rc = -1;
	if (!s || !g || gt_session_init(s, gt_record_info(r), err) != 0) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		free(s);
		s = NULL;
	} else if (read_run(r, s, g, run, err) == 0) {
		if (run->samples < 2) {
			gt_fail(err, GT_EXIT_BAD_RECORDING, "%s holds %llu sample%s: no interval to compare", file,
				(unsigned long long)run->samples, run->samples == 1 ? "" : "s");
		} else {
			whole_run(g, s, run);
			rc = 0;
		}
	}
	run->info = *gt_record_info(r);
	run->truncated = gt_record_truncated(r);
	if (s) {
		gt_session_close(s);
		free(s);
	}
	if (g) {
		free(g->rates.v);
		free(g->per_op.v);
		free(g->pauses.v);
		free(g);
	}
	gt_record_close(r);
	return rc;
}

int gt_compare_figure(const struct gt_run *run, const char *key, struct gt_f64 *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < GT_FIG_COUNT; i++)
		if (strcmp(key, gt_fig_descs[i].key) == 0) {
			*out = run->fig[i];
			return 0;
		}
	static const char gens[] = "collections_per_min.";
	if (strncmp(key, gens, sizeof(gens) - 1) != 0)
		return -1;
	for (unsigned g = 0; g < run->n_generations; g++)
		if (strcmp(key + sizeof(gens) - 1, run->generation[g]) == 0)
			*out = run->per_min[g];
	return 0;
}

struct gt_f64 gt_compare_ratio(struct gt_f64 a, struct gt_f64 b)
{
	struct gt_f64 r = { 0 };
	if (a.valid && b.valid && a.value != 0 && isfinite(a.value) && isfinite(b.value))
		gt_f64_set(&r, b.value / a.value);
	return r;
}

/* The one sentence for a name that is no figure: the names there are. */
static int unknown_figure(const char *key, struct gt_error *err)
{
	char names[384];
	size_t at = 0;
	for (int f = 0; f < GT_FIG_COUNT && at < sizeof(names); f++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s, ", gt_fig_descs[f].key);
	return gt_fail(err, GT_EXIT_USAGE, "--fail-if: '%s' names no figure; the figures are %sor collections_per_min.GENERATION",
		       key, names);
}

int gt_fail_if_parse(const char *expr, struct gt_fail_if *out, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	const char *op = strpbrk(expr, "<>");
	size_t klen = op ? (size_t)(op - expr) : 0;
	if (!op || klen == 0 || klen >= sizeof(out->key))
		goto bad;
	memcpy(out->key, expr, klen);
	out->greater = *op == '>';
	out->or_equal = op[1] == '=';
	const char *num = op + 1 + out->or_equal;
	char *end;
	errno = 0;
	out->percent = strtod(num, &end);
	if (errno || end == num || strcmp(end, "%") != 0 || !isfinite(out->percent))
		goto bad;
	struct gt_run probe = { 0 };
	struct gt_f64 unused;
	if (gt_compare_figure(&probe, out->key, &unused) != 0)
		return unknown_figure(out->key, err);
	return 0;
bad:
	return gt_fail(err, GT_EXIT_USAGE, "--fail-if wants FIGURE>+N%% or FIGURE<-N%%, e.g. alloc.bytes_per_op_median>+10%%, not '%s'",
		       expr);
}

int gt_fail_if_judge(const struct gt_fail_if *f, const struct gt_run *first, const struct gt_run *last,
		     double *change_pct, struct gt_error *err)
{
	struct gt_f64 a, b;
	gt_compare_figure(first, f->key, &a);
	gt_compare_figure(last, f->key, &b);
	struct gt_f64 ratio = gt_compare_ratio(a, b);
	if (!ratio.valid)
		return gt_fail(err, GT_EXIT_FAILURE, "--fail-if: %s is n/a or 0 in %s or %s; nothing to judge", f->key,
			       first->file, last->file);
	double pct = (ratio.value - 1) * 100;
	*change_pct = pct;
	if (f->greater)
		return f->or_equal ? pct >= f->percent : pct > f->percent;
	return f->or_equal ? pct <= f->percent : pct < f->percent;
}
