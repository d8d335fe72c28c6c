#include "model/plausible.h"

#include "model/derive.h"

/* The rules, each a sentence after GT_IMPLAUSIBLE (man page,
 * "Plausibility", has the table). */
#define RULE(s) GT_IMPLAUSIBLE ": " s
static const char RULE_IN_USE[] = RULE("more memory in use than the host has (MemTotal)");
static const char RULE_RESERVED[] = RULE("a size larger than a process's address space (2^57 bytes)");
static const char RULE_USED_OVER_COMMITTED[] = RULE("more in use than committed");
static const char RULE_OVER_MAX[] = RULE("more in use or committed than its maximum");
static const char RULE_TOTAL_BYTES[] = RULE("more bytes than memory could take since the host started (4 TiB/s)");
static const char RULE_TOTAL_TIME[] = RULE("more time than has passed since the host started");
static const char RULE_TOTAL_GC[] = RULE("more collections than one a microsecond since the host started");
static const char RULE_GC_CPU[] = RULE("more GC CPU time than the kernel counts for the whole process");
static const char RULE_RATE_BYTES[] = RULE("a rate faster than memory can be written (4 TiB/s)");
static const char RULE_RATE_GC[] = RULE("more than one collection a microsecond");
static const char RULE_RATE_OPCOUNT[] = RULE("more operations than 8-byte counter writes at 4 TiB/s");

static void note(struct gt_implausible *why, const char *figure, const char *rule)
{
	if (!why)
		return;
	if (why->n == GT_IMPLAUSIBLE_MAX) {
		why->dropped++;
		return;
	}
	why->e[why->n++] = (struct gt_implausible_entry){ figure, rule };
}

static void drop_u64(struct gt_u64 *f, struct gt_implausible *why, const char *figure, const char *rule)
{
	f->valid = false;
	note(why, figure, rule);
}

static void drop_f64(struct gt_f64 *f, struct gt_implausible *why, const char *figure, const char *rule)
{
	f->valid = false;
	note(why, figure, rule);
}

/* Rule "in use": memory a process uses now is memory the host has. */
static void in_use(const struct gt_sample *s, struct gt_u64 *f, struct gt_implausible *why, const char *figure)
{
	if (f->valid && s->host_mem_total_bytes.valid && f->value > s->host_mem_total_bytes.value)
		drop_u64(f, why, figure, RULE_IN_USE);
}

/* Rule "reserved": a committed or maximum size fits the address space. */
static void reserved(struct gt_u64 *f, struct gt_implausible *why, const char *figure)
{
	if (f->valid && f->value > GT_PLAUSIBLE_ADDRESS_SPACE)
		drop_u64(f, why, figure, RULE_RESERVED);
}

/* Rules "inversion": used <= committed (committed may be NULL: no such
 * rule for the figure) and used, committed <= max. Which of the two is
 * wrong cannot be told, so both go. */
static void inversion(struct gt_u64 *used, struct gt_u64 *committed, struct gt_u64 *max,
		      struct gt_implausible *why, const char *figure)
{
	if (committed && used->valid && committed->valid && used->value > committed->value) {
		drop_u64(used, why, figure, RULE_USED_OVER_COMMITTED);
		committed->valid = false;
	}
	struct gt_u64 *below[] = { used, committed };
	for (int i = 0; i < 2; i++)
		if (below[i] && below[i]->valid && max->valid && below[i]->value > max->value) {
			drop_u64(below[i], why, figure, RULE_OVER_MAX);
			max->valid = false;
		}
}

/* One size triple: in use, reserved, inversions. */
static void sizes(const struct gt_sample *s, struct gt_u64 *used, struct gt_u64 *committed, struct gt_u64 *max,
		  bool used_within_committed, struct gt_implausible *why, const char *figure)
{
	in_use(s, used, why, figure);
	reserved(committed, why, figure);
	reserved(max, why, figure);
	inversion(used, used_within_committed ? committed : NULL, max, why, figure);
}

static double uptime_s(const struct gt_sample *s)
{
	return (double)s->mono_ns / 1e9;
}

static void total_bytes(const struct gt_sample *s, struct gt_u64 *f, struct gt_implausible *why, const char *figure)
{
	if (f->valid && (double)f->value > GT_PLAUSIBLE_BANDWIDTH_BPS * uptime_s(s))
		drop_u64(f, why, figure, RULE_TOTAL_BYTES);
}

static void total_time(const struct gt_sample *s, struct gt_u64 *ns, struct gt_implausible *why, const char *figure)
{
	if (ns->valid && ns->value > s->mono_ns)
		drop_u64(ns, why, figure, RULE_TOTAL_TIME);
}

static void total_gc(const struct gt_sample *s, struct gt_u64 *n, struct gt_implausible *why, const char *figure)
{
	if (n->valid && (double)n->value > GT_PLAUSIBLE_GC_PER_S * uptime_s(s))
		drop_u64(n, why, figure, RULE_TOTAL_GC);
}

/* The heap, its generations, the old generation, metaspace, the pools.
 * Heap used <= committed is no rule: .NET's heap used sums the
 * generations as the last GC left them, its committed is polled apart. */
static void plausible_heap(struct gt_sample *s, struct gt_implausible *why)
{
	sizes(s, &s->heap_used_bytes, &s->heap_committed_bytes, &s->heap_max_bytes, false, why, "memory.heap");
	reserved(&s->gc_hard_limit_bytes, why, "memory.gc_hard_limit_bytes");
	for (unsigned i = 0; i < s->n_generations && i < GT_MAX_GENERATIONS; i++) {
		struct gt_generation *g = &s->generations[i];
		sizes(s, &g->used_bytes, &g->committed_bytes, &g->max_bytes, true, why, "generations[].bytes");
		in_use(s, &g->fragmented_bytes, why, "generations[].fragmented_bytes");
	}
	sizes(s, &s->old_used_bytes, &s->old_committed_bytes, &s->old_max_bytes, true, why, "live_set.old");
	struct gt_u64 no_max = { 0, false };
	sizes(s, &s->metaspace_used_bytes, &s->metaspace_committed_bytes, &no_max, true, why, "memory.metaspace");
	for (unsigned i = 0; i < s->n_memory_pools && i < GT_MAX_MEMORY_POOLS; i++) {
		struct gt_memory_pool *p = &s->memory_pools[i];
		sizes(s, &p->used_bytes, &p->committed_bytes, &p->max_bytes, true, why, "memory pools (--serve)");
		in_use(s, &p->used_after_gc_bytes, why, "memory pools (--serve)");
	}
}

static void plausible_memory(struct gt_sample *s, struct gt_implausible *why)
{
	in_use(s, &s->large_bytes, why, "large_objects.bytes");
	in_use(s, &s->pinned_bytes, why, "large_objects.pinned_bytes");
	in_use(s, &s->rss_bytes, why, "memory.working_set_bytes");
	in_use(s, &s->rss_anon_bytes, why, "memory.rss_anon_bytes");
	in_use(s, &s->rss_file_bytes, why, "memory.rss_file_bytes");
}

static void plausible_totals(struct gt_sample *s, struct gt_implausible *why)
{
	total_bytes(s, &s->alloc_bytes_total, why, "alloc.bytes_total");
	total_bytes(s, &s->large_alloc_bytes_total, why, "large_objects.alloc_bytes_total");
	total_bytes(s, &s->large_alloc_of_total, why, "large_objects.alloc_share");
	total_bytes(s, &s->large_waste_max_bytes_total, why, "large_objects.waste_max_bytes_total");
	total_bytes(s, &s->large_waste_bytes_total, why, "large_objects.waste_bytes_total");
	total_bytes(s, &s->alloc_excess_max_bytes_total, why, "alloc.excess_max_bps");
	total_bytes(s, &s->opcount_alloc_total, why, "ops.bytes_per_op");
	total_time(s, &s->pause_total_ns, why, "pause.total_s");
	total_time(s, &s->safepoint_ns, why, "pause.safepoint_share");
	total_time(s, &s->agent_pause_total_ns, why, "pause.agent.total_s");
	for (unsigned i = 0; i < s->n_generations && i < GT_MAX_GENERATIONS; i++) {
		total_gc(s, &s->generations[i].collections, why, "generations[].collections");
		total_gc(s, &s->generations[i].collections_inclusive, why, "generations[].collections_inclusive");
	}
	for (unsigned i = 0; i < s->n_collectors && i < GT_MAX_COLLECTORS; i++) {
		total_gc(s, &s->collectors[i].invocations, why, "collectors[].collections");
		total_time(s, &s->collectors[i].time_ns, why, "collectors[].time_s");
	}
	/* GC threads are the process's threads: their CPU is in the kernel's
	 * count of the process's */
	if (s->gc_cpu_ns.valid && s->cpu_ticks.valid && s->cpu_hz.valid && s->cpu_hz.value > 0 &&
	    (double)s->gc_cpu_ns.value / 1e9 >
		    (double)s->cpu_ticks.value / (double)s->cpu_hz.value + GT_PLAUSIBLE_CPU_SLACK_S)
		drop_u64(&s->gc_cpu_ns, why, "pause.gc_cpu_share", RULE_GC_CPU);
}

void gt_plausible_sample(struct gt_sample *s, struct gt_implausible *why)
{
	plausible_heap(s, why);
	plausible_memory(s, why);
	plausible_totals(s, why);
}

/* Rule for bytes per operation: the bytes allocated over the operations'
 * span no more than memory could take in it. */
void gt_plausible_bytes_per_op(struct gt_derived *out, double span_s)
{
	if (out->bytes_per_op.valid && out->opcount_alloc_bytes.valid &&
	    (double)out->opcount_alloc_bytes.value > GT_PLAUSIBLE_BANDWIDTH_BPS * span_s) {
		drop_f64(&out->bytes_per_op, &out->implausible, "ops.bytes_per_op", RULE_RATE_BYTES);
		out->opcount_alloc_bytes.valid = false;
	}
}

static void rate_bytes(struct gt_f64 *r, struct gt_implausible *why, const char *figure)
{
	if (r->valid && r->value > GT_PLAUSIBLE_BANDWIDTH_BPS)
		drop_f64(r, why, figure, RULE_RATE_BYTES);
}

/* The allocation rate and what is divided by it. */
static void plausible_alloc(struct gt_derived *out)
{
	struct gt_implausible *why = &out->implausible;
	rate_bytes(&out->alloc_rate_bps, why, "alloc.rate_bps");
	rate_bytes(&out->large_alloc_rate_bps, why, "large_objects.alloc_rate_bps");
	rate_bytes(&out->large_waste_max_rate_bps, why, "large_objects.waste_max_rate_bps");
	rate_bytes(&out->large_waste_rate_bps, why, "large_objects.waste_rate_bps");
	if (!out->alloc_rate_bps.valid) {
		out->alloc_span_s.valid = false;
		out->alloc_lower_bound = out->alloc_upper_bound = false;
		out->alloc_excess_max_bps.valid = false;
	}
	if (!out->alloc_rate_bps.valid || !out->large_alloc_rate_bps.valid)
		out->large_alloc_share.valid = out->large_alloc_share_min.valid = false;
}

void gt_plausible_rates(struct gt_derived *out)
{
	struct gt_implausible *why = &out->implausible;
	plausible_alloc(out);
	double dt = out->interval_s.valid ? out->interval_s.value : 0;
	for (unsigned i = 0; i < out->cur.n_generations && i < GT_MAX_GENERATIONS; i++) {
		struct gt_generation_delta *g = &out->generations[i];
		if (g->collections.valid && (double)g->collections.value > GT_PLAUSIBLE_GC_PER_S * dt) {
			drop_u64(&g->collections, why, "generations[].collections_per_min", RULE_RATE_GC);
			g->per_minute.valid = false;
		}
	}
	for (unsigned i = 0; i < out->cur.n_collectors && i < GT_MAX_COLLECTORS; i++) {
		struct gt_collector_delta *c = &out->collectors[i];
		if (c->invocations.valid && (double)c->invocations.value > GT_PLAUSIBLE_GC_PER_S * dt)
			drop_u64(&c->invocations, why, "collectors[].collections_delta", RULE_RATE_GC);
	}
	if (out->opcount_rate.valid && out->opcount_rate.value > GT_PLAUSIBLE_OPCOUNT_PER_S) {
		drop_f64(&out->opcount_rate, why, "ops.rate_per_s", RULE_RATE_OPCOUNT);
		out->opcount.valid = false;
		out->bytes_per_op.valid = false;
	}
}
