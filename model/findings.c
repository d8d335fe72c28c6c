/* The rules behind the findings (model/findings.h). Each rule reads figures
 * the collectors really give; where one is n/a the rule stays silent. */
#include "model/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sanitize.h"
#include "model/findings_advice.h"
#include "model/findings_live.h"

/* ---- thresholds, each with its source ---- */

/* JMC's GC pause ratio rule: the share of wall time spent in pauses over the
 * worst 60 s window, info from 5%, warning from 10%. */
#define GT_FINDING_PAUSE_WINDOW_NS 60000000000ull
#define GT_FINDING_PAUSE_SHARE_INFO 0.05
#define GT_FINDING_PAUSE_SHARE_WARNING 0.10
/* JMC's longest GC pause rule: a single pause of 100 ms is felt by users
 * (warning), one of a second breaks timeouts (critical). */
#define GT_FINDING_LONG_PAUSE_WARNING_NS 100000000ull
#define GT_FINDING_LONG_PAUSE_CRITICAL_NS 1000000000ull
/* JMC's G1 full GC rule: any full collection on G1 is a warning (G1 falls
 * back to one only when it cannot keep up). */
#define GT_FINDING_G1_FULL_MIN 1
/* JMC's System.gc() rule and the .NET GC team's guidance (GC.Collect is
 * rarely right in a server): any induced collection is worth knowing. */
#define GT_FINDING_INDUCED_MIN 1
/* gctop's own: gen2 collections triggered by large-object allocation
 * (AllocLarge), as PerfView's GCStats lists them by reason: from a fifth of
 * at least two gen2 collections info, from half a warning. */
#define GT_FINDING_GEN2_MIN 2
#define GT_FINDING_ALLOC_LARGE_INFO 0.20
#define GT_FINDING_ALLOC_LARGE_WARNING 0.50
/* gctop's own: G1 collections started by a humongous allocation, as a share
 * of the collections whose cause was seen (at least two of them): from 5%
 * info, from a quarter a warning. */
#define GT_FINDING_HUMONGOUS_MIN 2
#define GT_FINDING_HUMONGOUS_INFO 0.05
#define GT_FINDING_HUMONGOUS_WARNING 0.25
/* gctop's own: humongous objects' unused region tails as a share of all
 * allocation, as the agent's samples measure them, or from perf data the
 * most they can be (half the regions' bytes; hotspot_alloc_estimate.h): from 5%
 * info (past the 5% within which the allocation estimate is tested,
 * jvm_alloc_matrix.sh), from a fifth a warning (a fifth of the heap the
 * program fills holding nothing: collections a quarter more often than its
 * bytes need). The most they can be is never a warning: perf data moves
 * alike for arrays that fill their regions and arrays that leave nearly a
 * region each. */
#define GT_FINDING_REGION_WASTE_INFO 0.05
#define GT_FINDING_REGION_WASTE_WARNING 0.20
/* gctop's own: committed heap or working set within 10% of the container
 * limit leaves no room for a burst before the OOM killer. */
#define GT_FINDING_LIMIT_NEAR 0.90
/* gctop's own: a heap allowed to grow past the container limit is killed
 * before its collector sees a full heap. */
#define GT_FINDING_HEAP_OVER_LIMIT 1.0
/* The .NET GC team's guidance: Server GC gives each core a heap and a GC
 * thread; with one heap (one core) Workstation GC does the same work with
 * less memory. DATAS starts Server GC with one heap on purpose. */
#define GT_FINDING_SERVER_ONE_HEAP 1

/* gctop's own, after the lesson "every request triggers a collection
 * because it allocates 60 MB": collections per operation (request), of at
 * least 10 operations. From one collection every ten operations info (each
 * allocates a tenth of what starts a collection), from one per operation
 * a warning (each operation alone starts one or more). */
#define GT_FINDING_OPCOUNT_MIN 10
#define GT_FINDING_GC_PER_OP_INFO 0.10
#define GT_FINDING_GC_PER_OP_WARNING 1.0

#define GT_MIB (1024.0 * 1024.0)

/* HotSpot's lastCause after a pause that was no collection (G1's remark and
 * cleanup, a reading between a pause's two strings): it names no cause. */
#define GT_FINDING_NO_CAUSE "No GC"

const char *gt_severity_name(enum gt_severity s)
{
	switch (s) {
	case GT_SEVERITY_INFO: return "info";
	case GT_SEVERITY_WARNING: return "warning";
	case GT_SEVERITY_CRITICAL: return "critical";
	case GT_SEVERITY_NONE: break;
	}
	return "none";
}

/* ---- building a finding ---- */

/* The finding's advice comes from the table of model/findings_advice.c, by
 * id, in the words of out->runtime. */
static struct gt_finding *add(struct gt_findings *out, const char *id, enum gt_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static struct gt_finding *add(struct gt_findings *out, const char *id, enum gt_severity sev, const char *fmt, ...)
{
	if (out->count >= GT_FINDINGS_MAX)
		return NULL;
	struct gt_finding *f = &out->items[out->count++];
	memset(f, 0, sizeof(*f));
	f->id = id;
	f->severity = sev;
	gt_findings_advice(f->advice, sizeof(f->advice), id, out->runtime, GT_FRONT_OPTIONS);
	gt_findings_advice(f->advice_keys, sizeof(f->advice_keys), id, out->runtime, GT_FRONT_SCREEN);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->title, sizeof(f->title), fmt, ap);
	va_end(ap);
	if (sev > out->worst)
		out->worst = sev;
	return f;
}

/* Ends f's next step with what allocation sampling would add, named as each
 * front end starts it (model/findings_advice.h). */
static void advise_sampling(struct gt_finding *f, const char *what)
{
	if (!f)
		return;
	size_t n = strlen(f->advice), k = strlen(f->advice_keys);
	snprintf(f->advice + n, sizeof(f->advice) - n, "; --allocators %s", what);
	snprintf(f->advice_keys + k, sizeof(f->advice_keys) - k, "; key a %s", what);
}

static void evidence(struct gt_finding *f, const char *key, enum gt_evidence_unit unit, double value)
{
	if (!f || f->n_evidence >= GT_FINDING_EVIDENCE_MAX)
		return;
	f->evidence[f->n_evidence++] = (struct gt_evidence){ key, unit, value };
}

/* ---- sums over the history ---- */

/* Everything the history holds: the span watched, the longest pause, the
 * collections by cause and the full collections (generation full_gen). */
struct history_sums {
	double span_s;
	bool longest_known;
	uint64_t longest_ns;
	const struct gt_history_point *longest_at;  /* the interval of the longest pause */
	struct gt_collection_causes causes;
	struct gt_u64 full;
};

static void add_u64(struct gt_u64 *sum, struct gt_u64 v)
{
	if (v.valid)
		gt_u64_set(sum, sum->value + v.value);
}

static void sum_causes(struct gt_collection_causes *sum, const struct gt_collection_causes *c)
{
	add_u64(&sum->seen, c->seen);
	add_u64(&sum->induced, c->induced);
	add_u64(&sum->humongous, c->humongous);
	add_u64(&sum->gen2, c->gen2);
	add_u64(&sum->gen2_alloc_large, c->gen2_alloc_large);
	add_u64(&sum->census, c->census);
	add_u64(&sum->inspection, c->inspection);
}

/* Whether point p has collections whose cause the runtime had not named
 * at the poll: HotSpot counts a collection when it starts and names its
 * cause when it ends (sun.gc.lastCause reads "No GC" until then), so a
 * poll during another tool's heap inspection counts a full collection
 * whose cause, the inspection, only the next poll has. */
static bool cause_pending(const struct gt_history_point *p)
{
	if (!p->causes.seen.valid || p->causes.seen.value > 0)
		return false;
	for (unsigned g = 0; g < p->n_generations && g < GT_MAX_GENERATIONS; g++)
		if (p->collections[g].valid && p->collections[g].value > 0)
			return true;
	return false;
}

static void sum_history(const struct gt_history *h, int full_gen, struct history_sums *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t age = 0; h && age < gt_history_count(h); age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		if (p->interval_s.valid)
			s->span_s += p->interval_s.value;
		if (p->longest_pause_ns.valid) {
			s->longest_known = true;
			if (p->longest_pause_ns.value > s->longest_ns || !s->longest_at) {
				s->longest_ns = p->longest_pause_ns.value;
				s->longest_at = p;
			}
		}
		sum_causes(&s->causes, &p->causes);
		/* the newest interval's full collections wait for their cause
		 * (one poll) before they count as G1's own */
		if (full_gen >= 0 && (unsigned)full_gen < p->n_generations && !(age == 0 && cause_pending(p)))
			add_u64(&s->full, p->collections[full_gen]);
	}
}

/* Sums over the points of a window, in ns so that taking a point out is
 * exact. */
struct window_sums {
	uint64_t span_ns, pause_span_ns, pause_ns;
};

static void window_add(struct window_sums *w, const struct gt_history_point *p, int sign)
{
	uint64_t dt = p->interval_s.valid && p->interval_s.value > 0 ? (uint64_t)(p->interval_s.value * 1e9 + 0.5) : 0;
	uint64_t paused = p->pause_ns.valid ? p->pause_ns.value : 0;
	if (sign > 0) {
		w->span_ns += dt;
		if (p->pause_ns.valid) {
			w->pause_span_ns += dt;
			w->pause_ns += paused;
		}
	} else {
		w->span_ns -= dt;
		if (p->pause_ns.valid) {
			w->pause_span_ns -= dt;
			w->pause_ns -= paused;
		}
	}
}

/* The worst pause share of a window of GT_FINDING_PAUSE_WINDOW_NS ending at
 * any point (the points whose end lies within it); while the history is
 * shorter than the window, the whole of it. One pass, oldest end first.
 * False when no point has a pause figure. */
static bool worst_pause_window(const struct gt_history *h, double *share, double *span_s)
{
	size_t n = h ? gt_history_count(h) : 0;
	if (n == 0)
		return false;
	const struct gt_history_point *oldest = gt_history_at(h, n - 1);
	struct window_sums w = { 0, 0, 0 };
	size_t tail = n - 1;   /* the oldest point in the window, by age */
	bool found = false;
	for (size_t end = n; end-- > 0;) {
		const struct gt_history_point *e = gt_history_at(h, end);
		window_add(&w, e, +1);
		while (tail > end && e->mono_ns - gt_history_at(h, tail)->mono_ns >= GT_FINDING_PAUSE_WINDOW_NS)
			window_add(&w, gt_history_at(h, tail--), -1);
		/* A window cut by the start of the history is only taken
		 * when it is the whole history (the newest end). */
		bool complete = e->mono_ns - oldest->mono_ns >= GT_FINDING_PAUSE_WINDOW_NS;
		if (!(complete || end == 0) || w.pause_span_ns == 0)
			continue;
		double ratio = (double)w.pause_ns / (double)w.pause_span_ns;
		if (!found || ratio > *share) {
			*share = ratio;
			*span_s = (double)w.span_ns / 1e9;
			found = true;
		}
	}
	return found;
}

/* Operations over the history: the intervals with an operations count and
 * the bytes allocated over its span, their bytes and their collections,
 * over that span too where the collector counts them so (.NET: as of the
 * runtime's counter poll). An interval that counted 0 operations is one
 * like any other: its collections belong to the span. Each collection is
 * counted in one generation (model/sample.h). */
struct opcount_sums {
	uint64_t opcount;
	double bytes, span_s;
	struct gt_u64 collections;
	bool lower_bound;   /* an interval's allocation was a lower bound */
	bool upper_bound;   /* an interval's allocation was an upper bound */
};

/* The bytes of an interval's operations: a recording of a gctop before
 * opcount_alloc_bytes has their count and bytes per operation only. */
static bool opcount_bytes(const struct gt_history_point *p, double *bytes)
{
	if (p->opcount_alloc_bytes.valid)
		*bytes = (double)p->opcount_alloc_bytes.value;
	else if (p->bytes_per_op.valid)
		*bytes = p->bytes_per_op.value * (double)p->opcount.value;
	else
		return false;
	return true;
}

static void sum_opcount(const struct gt_history *h, struct opcount_sums *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t age = 0; h && age < gt_history_count(h); age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		double bytes;
		if (!p->opcount.valid || !opcount_bytes(p, &bytes))
			continue;
		s->opcount += p->opcount.value;
		s->bytes += bytes;
		s->lower_bound |= p->alloc_lower_bound;
		s->upper_bound |= p->alloc_upper_bound;
		if (p->interval_s.valid)
			s->span_s += p->interval_s.value;
		if (p->opcount_collections.valid) {
			add_u64(&s->collections, p->opcount_collections);
			continue;
		}
		for (unsigned g = 0; g < p->n_generations && g < GT_MAX_GENERATIONS; g++)
			add_u64(&s->collections, p->collections[g]);
	}
}

/* ---- the rules ---- */

static void rule_pause_share(const struct gt_history *h, struct gt_findings *out)
{
	double share = 0, span = 0;
	if (!worst_pause_window(h, &share, &span))
		return;
	enum gt_severity sev = share >= GT_FINDING_PAUSE_SHARE_WARNING ? GT_SEVERITY_WARNING
			     : share >= GT_FINDING_PAUSE_SHARE_INFO ? GT_SEVERITY_INFO : GT_SEVERITY_NONE;
	if (sev == GT_SEVERITY_NONE)
		return;
	struct gt_finding *f = add(out, "pause-share", sev, "GC pauses took %.1f%% of the worst %.0f s",
				   share * 100.0, span);
	evidence(f, "pause_share", GT_EVIDENCE_SHARE, share);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, span);
}

/* When the longest pause was, so that an outside event at that moment can
 * be recognised: the end of its interval (at) as UTC time and as seconds
 * before the newest sample (cur). */
static void long_pause_when(const struct gt_history_point *at, const struct gt_sample *cur, char *when, size_t len,
			    double *ago_s)
{
	*ago_s = cur->mono_ns > at->mono_ns ? (double)(cur->mono_ns - at->mono_ns) / 1e9 : 0;
	time_t t = (time_t)(at->wall_ms / 1000);
	struct tm tm;
	if (at->wall_ms > 0 && gmtime_r(&t, &tm))
		snprintf(when, len, " at %02d:%02d:%02d UTC, %.0f s ago", tm.tm_hour, tm.tm_min, tm.tm_sec, *ago_s);
	else
		snprintf(when, len, " %.0f s ago", *ago_s);
}

/* The title names when and why (the cause the runtime gave for the last
 * collection of the pause's interval), the evidence the same as figures. */
static void rule_long_pause(const struct history_sums *s, const struct gt_sample *cur, struct gt_findings *out)
{
	if (!s->longest_known || s->longest_ns < GT_FINDING_LONG_PAUSE_WARNING_NS)
		return;
	enum gt_severity sev = s->longest_ns >= GT_FINDING_LONG_PAUSE_CRITICAL_NS ? GT_SEVERITY_CRITICAL
										  : GT_SEVERITY_WARNING;
	const struct gt_history_point *at = s->longest_at;
	char when[64], cause[GT_NAME_LEN];
	double ago_s;
	long_pause_when(at, cur, when, sizeof(when), &ago_s);
	gt_sanitize(cause, sizeof(cause), strcmp(at->last_gc_cause, GT_FINDING_NO_CAUSE) ? at->last_gc_cause : "",
		    GT_SANITIZE_ASCII);
	/* short enough for the screen's findings line at 100 columns */
	struct gt_finding *f = add(out, "long-pause", sev, "a %.0f ms GC pause%s%s%s%s", (double)s->longest_ns / 1e6,
				   when, cause[0] ? " (" : "", cause, cause[0] ? ")" : "");
	if (!f)
		return;
	memcpy(f->cause, cause, sizeof(f->cause));
	evidence(f, "longest_pause_ms", GT_EVIDENCE_MILLIS, (double)s->longest_ns / 1e6);
	if (at->wall_ms > 0)
		evidence(f, "at_unix_ms", GT_EVIDENCE_UNIX_MS, (double)at->wall_ms);
	evidence(f, "age_s", GT_EVIDENCE_SECONDS, ago_s);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

/* The generation that counts full collections on G1 ("old"), or -1. */
static int g1_full_generation(const struct gt_target_info *info, const struct gt_sample *cur)
{
	if (!info || strcmp(info->gc_name, "G1") != 0)
		return -1;
	for (unsigned i = 0; i < cur->n_generations; i++)
		if (strcmp(cur->generations[i].name, "old") == 0)
			return (int)i;
	return -1;
}

/* n less the collections censuses asked for in the window: neither the
 * program nor the collector chose those. This gctop's own are counted from
 * its request; any tool's heap inspection where the runtime names the
 * cause (another gctop's census, jmap -histo:live). One census is often
 * both, so the larger count, not their sum. */
static uint64_t less_census(uint64_t n, const struct history_sums *s)
{
	uint64_t own = s->causes.census.valid ? s->causes.census.value : 0;
	uint64_t named = s->causes.inspection.valid ? s->causes.inspection.value : 0;
	uint64_t asked = own > named ? own : named;
	return n > asked ? n - asked : 0;
}

static void rule_g1_full(const struct history_sums *s, struct gt_findings *out)
{
	if (!s->full.valid)
		return;
	uint64_t full = less_census(s->full.value, s);
	if (full < GT_FINDING_G1_FULL_MIN)
		return;
	struct gt_finding *f = add(out, "g1-full-gc", GT_SEVERITY_WARNING, "G1 fell back to %llu full collection%s",
				   (unsigned long long)full, full == 1 ? "" : "s");
	evidence(f, "full_collections", GT_EVIDENCE_COUNT, (double)full);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

static void rule_induced(const struct gt_target_info *info, const struct history_sums *s, struct gt_findings *out)
{
	const struct gt_collection_causes *c = &s->causes;
	if (!c->induced.valid)
		return;
	bool census_counted = info && info->runtime && info->runtime->census_counts_as_induced;
	uint64_t induced = census_counted ? less_census(c->induced.value, s) : c->induced.value;
	if (induced < GT_FINDING_INDUCED_MIN)
		return;
	/* every runtime names its call (model/runtime.h); a recording of an
	 * unknown runtime says what it always said */
	const char *call = info && info->runtime && info->runtime->induced_call ? info->runtime->induced_call
										: "System.gc()";
	struct gt_finding *f = add(out, "induced-gc", GT_SEVERITY_INFO, "the program asked for %llu collection%s (%s)",
				   (unsigned long long)induced, induced == 1 ? "" : "s", call);
	evidence(f, "induced_collections", GT_EVIDENCE_COUNT, (double)induced);
	if (c->seen.valid)
		evidence(f, "collections", GT_EVIDENCE_COUNT, (double)c->seen.value);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

static void rule_alloc_large(const struct history_sums *s, struct gt_findings *out)
{
	const struct gt_collection_causes *c = &s->causes;
	if (!c->gen2.valid || !c->gen2_alloc_large.valid || c->gen2.value < GT_FINDING_GEN2_MIN)
		return;
	double share = (double)c->gen2_alloc_large.value / (double)c->gen2.value;
	enum gt_severity sev = share >= GT_FINDING_ALLOC_LARGE_WARNING ? GT_SEVERITY_WARNING
			     : share >= GT_FINDING_ALLOC_LARGE_INFO ? GT_SEVERITY_INFO : GT_SEVERITY_NONE;
	if (sev == GT_SEVERITY_NONE)
		return;
	struct gt_finding *f = add(out, "loh-gen2", sev,
				   "%.0f%% of gen2 collections were triggered by large-object allocation (AllocLarge)",
				   share * 100.0);
	evidence(f, "gen2_collections", GT_EVIDENCE_COUNT, (double)c->gen2.value);
	evidence(f, "alloc_large_gen2_collections", GT_EVIDENCE_COUNT, (double)c->gen2_alloc_large.value);
	evidence(f, "alloc_large_share", GT_EVIDENCE_SHARE, share);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

static void rule_humongous(const struct gt_target_info *info, const struct gt_sample *cur,
			   const struct history_sums *s, struct gt_findings *out)
{
	const struct gt_collection_causes *c = &s->causes;
	if (!c->humongous.valid || !c->seen.valid || c->humongous.value < GT_FINDING_HUMONGOUS_MIN)
		return;
	double share = (double)c->humongous.value / (double)c->seen.value;
	enum gt_severity sev = share >= GT_FINDING_HUMONGOUS_WARNING ? GT_SEVERITY_WARNING
			     : share >= GT_FINDING_HUMONGOUS_INFO ? GT_SEVERITY_INFO : GT_SEVERITY_NONE;
	if (sev == GT_SEVERITY_NONE)
		return;
	struct gt_u64 max = cur->heap_max_bytes.valid ? cur->heap_max_bytes : info->heap_max_bytes;
	uint64_t region = gt_findings_region_bytes(info->runtime, info->heap_flags, max);
	/* the sizes are in the evidence: the title fits the screen's findings
	 * line at 100 columns */
	struct gt_finding *f = add(out, "g1-humongous", sev,
				   "%.0f%% of G1's collections were started by humongous allocation", share * 100.0);
	evidence(f, "humongous_collections", GT_EVIDENCE_COUNT, (double)c->humongous.value);
	evidence(f, "collections", GT_EVIDENCE_COUNT, (double)c->seen.value);
	evidence(f, "humongous_share", GT_EVIDENCE_SHARE, share);
	if (region) {
		evidence(f, "region_bytes", GT_EVIDENCE_BYTES, (double)region);
		evidence(f, "humongous_from_bytes", GT_EVIDENCE_BYTES, (double)region / 2);
	}
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

/* The tails against all allocation: measured by the agent's samples (the
 * newest interval's rates: its counters and its exact total count from
 * different starts), else their bound, over the totals since attach when
 * both count from then, else the newest interval's rates. */
static bool region_waste_share(const struct gt_derived *d, double *share, bool *measured)
{
	const struct gt_sample *c = &d->cur;
	struct gt_f64 r = { 0, false };
	*measured = d->large_waste_rate_bps.valid;
	if (*measured) {
		if (d->alloc_rate_bps.valid && d->alloc_rate_bps.value > 0)
			gt_f64_set(&r, d->large_waste_rate_bps.value / d->alloc_rate_bps.value);
		*share = r.value;
		return r.valid;
	}
	if (!c->large_waste_max_bytes_total.valid)
		return false;
	if (c->alloc_since == GT_ALLOC_SINCE_ATTACH && c->alloc_bytes_total.valid && c->alloc_bytes_total.value > 0)
		gt_f64_set(&r, (double)c->large_waste_max_bytes_total.value / (double)c->alloc_bytes_total.value);
	else if (c->alloc_since != GT_ALLOC_SINCE_ATTACH && d->large_waste_max_rate_bps.valid &&
		 d->alloc_rate_bps.valid && d->alloc_rate_bps.value > 0)
		gt_f64_set(&r, d->large_waste_max_rate_bps.value / d->alloc_rate_bps.value);
	*share = r.value;
	return r.valid;
}

static void rule_region_waste(const struct gt_target_info *info, const struct gt_derived *d,
			      const struct history_sums *s, struct gt_findings *out)
{
	double share;
	bool measured;
	if (!region_waste_share(d, &share, &measured))
		return;
	enum gt_severity sev = share >= GT_FINDING_REGION_WASTE_WARNING && measured ? GT_SEVERITY_WARNING
			     : share >= GT_FINDING_REGION_WASTE_INFO ? GT_SEVERITY_INFO : GT_SEVERITY_NONE;
	if (sev == GT_SEVERITY_NONE)
		return;
	const struct gt_sample *c = &d->cur;
	struct gt_u64 max = c->heap_max_bytes.valid ? c->heap_max_bytes : info->heap_max_bytes;
	uint64_t region = gt_findings_region_bytes(info->runtime, info->heap_flags, max);
	struct gt_finding *f = add(out, "g1-region-waste", sev,
				   "humongous objects take whole G1 regions: %s%.0f%% of allocation %s their last "
				   "regions' unused tails, heap nothing else can use", measured ? "" : "up to ",
				   share * 100.0, measured ? "is" : "may be");
	if (!measured)
		advise_sampling(f, "measures the tails");
	if (measured) {
		evidence(f, "region_waste_share", GT_EVIDENCE_SHARE, share);
		if (c->large_waste_bytes_total.valid)   /* since the agent's segment began */
			evidence(f, "region_waste_bytes", GT_EVIDENCE_BYTES, (double)c->large_waste_bytes_total.value);
	} else {
		evidence(f, "region_waste_max_share", GT_EVIDENCE_SHARE, share);
		evidence(f, "region_waste_max_bytes", GT_EVIDENCE_BYTES, (double)c->large_waste_max_bytes_total.value);
		if (c->large_alloc_bytes_total.valid)
			evidence(f, "humongous_region_bytes", GT_EVIDENCE_BYTES, (double)c->large_alloc_bytes_total.value);
	}
	if (region)
		evidence(f, "region_bytes", GT_EVIDENCE_BYTES, (double)region);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s->span_s);
}

static void rule_alloc_per_op(const struct gt_sample *cur, const struct gt_history *h, struct gt_findings *out)
{
	struct opcount_sums s;
	sum_opcount(h, &s);
	if (s.opcount < GT_FINDING_OPCOUNT_MIN || !s.collections.valid)
		return;
	double per_op = (double)s.collections.value / (double)s.opcount, bytes = s.bytes / (double)s.opcount;
	enum gt_severity sev = per_op >= GT_FINDING_GC_PER_OP_WARNING ? GT_SEVERITY_WARNING
			     : per_op >= GT_FINDING_GC_PER_OP_INFO ? GT_SEVERITY_INFO : GT_SEVERITY_NONE;
	if (sev == GT_SEVERITY_NONE)
		return;
	/* "requests" -> "request": the title speaks of one */
	char what[32];
	snprintf(what, sizeof(what), "%s", cur->opcount_name ? cur->opcount_name : "operations");
	size_t n = strlen(what);
	if (n > 1 && what[n - 1] == 's')
		what[n - 1] = '\0';
	/* Both: missed intervals and whole regions pull opposite ways. */
	const char *bound = s.lower_bound == s.upper_bound ? "" : s.lower_bound ? "at least " : "at most ";
	struct gt_finding *f = add(out, "alloc-per-op", sev,
				   "each %s allocates %s%.1f %s: %.2f collections per %s", what,
				   bound, bytes >= GT_MIB ? bytes / GT_MIB : bytes / 1024.0, bytes >= GT_MIB ? "MiB" : "KiB",
				   per_op, what);
	evidence(f, "bytes_per_op", GT_EVIDENCE_BYTES, bytes);
	evidence(f, "operations", GT_EVIDENCE_COUNT, (double)s.opcount);
	evidence(f, "collections", GT_EVIDENCE_COUNT, (double)s.collections.value);
	evidence(f, "collections_per_op", GT_EVIDENCE_RATIO, per_op);
	evidence(f, "window_s", GT_EVIDENCE_SECONDS, s.span_s);
}

/* One figure within GT_FINDING_LIMIT_NEAR of the limit. */
static void near_limit(struct gt_findings *out, const char *id, const char *what, const char *key,
		       struct gt_u64 v, struct gt_u64 limit)
{
	if (!v.valid || !limit.valid || limit.value == 0)
		return;
	double share = (double)v.value / (double)limit.value;
	if (share < GT_FINDING_LIMIT_NEAR)
		return;
	struct gt_finding *f = add(out, id, GT_SEVERITY_WARNING, "%s is at %.0f%% of the container limit", what,
				   share * 100.0);
	evidence(f, key, GT_EVIDENCE_BYTES, (double)v.value);
	evidence(f, "cgroup_limit_bytes", GT_EVIDENCE_BYTES, (double)limit.value);
	evidence(f, "share_of_limit", GT_EVIDENCE_SHARE, share);
}

static void rule_container(const struct gt_derived *d, struct gt_findings *out)
{
	const struct gt_sample *s = &d->cur;
	near_limit(out, "heap-near-limit", "the committed heap", "heap_committed_bytes", s->heap_committed_bytes,
		   s->cgroup_limit_bytes);
	near_limit(out, "memory-near-limit", "the working set", "working_set_bytes", s->rss_bytes,
		   s->cgroup_limit_bytes);
	if (s->oom_kills.valid && s->oom_kills.value > 0) {
		struct gt_finding *f = add(out, "oom-kills", GT_SEVERITY_WARNING,
					   "the container's OOM killer has struck %llu time%s",
					   (unsigned long long)s->oom_kills.value, s->oom_kills.value == 1 ? "" : "s");
		evidence(f, "oom_kills", GT_EVIDENCE_COUNT, (double)s->oom_kills.value);
	}
}

static void rule_config(const struct gt_target_info *info, const struct gt_derived *d, struct gt_findings *out)
{
	const struct gt_sample *s = &d->cur;
	if (d->heap_max_share_of_limit.valid && d->heap_max_share_of_limit.value > GT_FINDING_HEAP_OVER_LIMIT) {
		struct gt_finding *f = add(out, "heap-over-limit", GT_SEVERITY_WARNING,
					   "the heap may grow to %.0f%% of the container limit",
					   d->heap_max_share_of_limit.value * 100.0);
		evidence(f, "heap_max_bytes", GT_EVIDENCE_BYTES, (double)s->heap_max_bytes.value);
		evidence(f, "cgroup_limit_bytes", GT_EVIDENCE_BYTES, (double)s->cgroup_limit_bytes.value);
	}
	if (info && strcmp(info->gc_name, "Server") == 0 && !strstr(info->gc_mode, "DATAS") &&
	    s->gc_heap_count.valid && s->gc_heap_count.value == GT_FINDING_SERVER_ONE_HEAP) {
		struct gt_finding *f = add(out, "server-gc-one-heap", GT_SEVERITY_WARNING,
					   "Server GC runs with a single heap (one core)");
		evidence(f, "gc_heaps", GT_EVIDENCE_COUNT, (double)s->gc_heap_count.value);
	}
}

/* live-set-growth: thresholds and their sources in model/findings_live.c */
static void rule_live_set(const struct gt_derived *d, struct gt_findings *out)
{
	const struct gt_live_set *l = &d->live_set;
	enum gt_severity sev = gt_findings_live_verdict(l);
	if (sev == GT_SEVERITY_NONE)
		return;
	struct gt_finding *f = add(out, "live-set-growth", sev, "the live set grows steadily, %.1f MiB a minute over %.0f min",
				   l->growth_bps.value * 60 / GT_MIB, l->span_s.value / 60);
	evidence(f, "points", GT_EVIDENCE_COUNT, l->points);
	evidence(f, "span_s", GT_EVIDENCE_SECONDS, l->span_s.value);
	evidence(f, "live_set_bytes", GT_EVIDENCE_BYTES, (double)l->bytes);
	evidence(f, "growth_per_min_bytes", GT_EVIDENCE_BYTES, l->growth_bps.value * 60);
	if (l->exhaustion_s.valid) {
		evidence(f, "exhaustion_s", GT_EVIDENCE_SECONDS, l->exhaustion_s.value);
		evidence(f, "limit_bytes", GT_EVIDENCE_BYTES, (double)l->limit_bytes.value);
	}
}

/* The findings whose step is more room (a larger heap, a younger
 * generation with more space, a higher limit): while the live set grows
 * toward its limit, more room only delays the end. */
static const char *const more_room_ids[] = { "pause-share", "long-pause", "g1-full-gc", "heap-near-limit",
					     "memory-near-limit", "oom-kills" };

/* Puts text before what buf holds, cutting its end if it no longer fits. */
static void prepend(char *buf, size_t size, const char *text)
{
	size_t n = strlen(text), had = strlen(buf);
	if (n >= size)
		n = size - 1;
	if (had > size - 1 - n)
		had = size - 1 - n;
	memmove(buf + n, buf, had);
	memcpy(buf, text, n);
	buf[n + had] = '\0';
}

/* With live-set-growth among the findings, each that asks for more room
 * names the leak first, so the last advice before a death is not "raise
 * -Xmx" alone. */
static void leak_first(struct gt_findings *out)
{
	bool leak = false;
	for (unsigned i = 0; i < out->count; i++)
		leak = leak || strcmp(out->items[i].id, "live-set-growth") == 0;
	for (unsigned i = 0; leak && i < out->count; i++) {
		struct gt_finding *f = &out->items[i];
		for (size_t k = 0; k < sizeof(more_room_ids) / sizeof(more_room_ids[0]); k++) {
			if (strcmp(f->id, more_room_ids[k]) != 0)
				continue;
			static const char first[] = "the live set grows (live-set-growth): more room only delays the end, "
						    "find what holds it first; then ";
			prepend(f->advice, sizeof(f->advice), first);
			prepend(f->advice_keys, sizeof(f->advice_keys), first);
		}
	}
}

static int by_severity(const void *a, const void *b)
{
	const struct gt_finding *x = a, *y = b;
	return (int)y->severity - (int)x->severity;
}

void gt_findings_compute(const struct gt_target_info *info, const struct gt_derived *d, const struct gt_history *h,
			 struct gt_findings *out)
{
	memset(out, 0, sizeof(*out));
	if (!d)
		return;
	out->runtime = info ? info->runtime : NULL;
	struct history_sums sums;
	sum_history(h, g1_full_generation(info, &d->cur), &sums);
	rule_pause_share(h, out);
	rule_long_pause(&sums, &d->cur, out);
	rule_g1_full(&sums, out);
	rule_induced(info, &sums, out);
	rule_alloc_large(&sums, out);
	rule_alloc_per_op(&d->cur, h, out);
	if (info) {
		rule_humongous(info, &d->cur, &sums, out);
		rule_region_waste(info, d, &sums, out);
	}
	rule_container(d, out);
	rule_config(info, d, out);
	rule_live_set(d, out);
	leak_first(out);
	/* stable: the rules' order within a severity */
	for (unsigned i = 1; i < out->count; i++)
		for (unsigned j = i; j > 0 && by_severity(&out->items[j - 1], &out->items[j]) > 0; j--) {
			struct gt_finding t = out->items[j];
			out->items[j] = out->items[j - 1];
			out->items[j - 1] = t;
		}
}

/* "4m", "4M", "4194304", "1g", "512k" */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K': return v << 10;
	case 'm': case 'M': return v << 20;
	case 'g': case 'G': return v << 30;
	default: return v;
	}
}

uint64_t gt_findings_region_bytes(const struct gt_runtime_traits *rt, const char *heap_flags, struct gt_u64 heap_max)
{
	const struct gt_heap_regions *r = rt ? &rt->regions : NULL;
	if (!r || r->target_count == 0 || r->min_bytes == 0)
		return 0;
	const char *p = heap_flags && r->size_flag ? strstr(heap_flags, r->size_flag) : NULL;
	if (p) {
		uint64_t v = parse_size(p + strlen(r->size_flag));
		if (v)
			return v;
	}
	if (!heap_max.valid || heap_max.value == 0)
		return 0;
	uint64_t want = heap_max.value / r->target_count, region = r->min_bytes;
	while (region * 2 <= want && region < r->max_bytes)
		region *= 2;
	return region;
}
