#include "views/text_writer.h"

#include <string.h>
#include <time.h>

#include "base/sanitize.h"
#include "views/findings_writer.h"
#include "views/format_ceiling.h"
#include "model/format.h"
#include "views/format_live.h"

/* Each figure gets its own buffer: printf arguments are evaluated in no
 * fixed order, so a shared rotating buffer would be undefined. */
struct text_fig {
	char s[48];
};

static const char *fig_bytes(struct text_fig *f, struct gt_u64 v) { return gt_format_bytes(f->s, sizeof(f->s), v); }
static const char *fig_rate(struct text_fig *f, struct gt_f64 v) { return gt_format_rate(f->s, sizeof(f->s), v); }
static const char *fig_share(struct text_fig *f, struct gt_f64 v) { return gt_format_share(f->s, sizeof(f->s), v); }
static const char *fig_dur(struct text_fig *f, struct gt_u64 v) { return gt_format_duration_ns(f->s, sizeof(f->s), v); }
static const char *fig_count(struct text_fig *f, struct gt_u64 v) { return gt_format_count(f->s, sizeof(f->s), v); }

/* A string from the target, cleaned of escapes and broken UTF-8
 * (base/sanitize.h); one buffer per argument, as for figures. */
struct text_str {
	char s[1024];
};

/* At most max bytes of s (0: as many as fit), never a cut character, so a
 * fixed-width column cannot split one either. */
static const char *clean_n(struct text_str *b, size_t max, const char *s)
{
	size_t size = max && max < sizeof(b->s) ? max + 1 : sizeof(b->s);
	return gt_sanitize(b->s, size, s, gt_sanitize_terminal_mode());
}

static const char *clean(struct text_str *b, const char *s)
{
	return clean_n(b, 0, s);
}

/* The header's last word: where the figures come from, a live target
 * ("live", "EXITED") or a recording (replay_path, -r FILE). */
static const char *header_source(struct text_str *b, const char *replay_path, const struct gt_sample *s)
{
	const char *state = s->state == GT_TARGET_EXITED ? "EXITED" : "live";
	if (!replay_path)
		return state;
	struct text_str path;
	snprintf(b->s, sizeof(b->s), "replay %s%s", clean(&path, replay_path),
		 s->state == GT_TARGET_EXITED ? " (EXITED)" : "");
	return b->s;
}

static void write_header(FILE *out, const char *replay_path, const struct gt_target_info *info,
			 const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	char when[32], interval[32];
	time_t secs = (time_t)(s->wall_ms / 1000);
	struct tm tm;

	gmtime_r(&secs, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (d->interval_s.valid)
		snprintf(interval, sizeof(interval), "%.2fs", d->interval_s.value);
	else
		snprintf(interval, sizeof(interval), "n/a");
	struct text_str version, gc, mode, cmd, source;
	fprintf(out, "gctop - %s  pid %d  %s %s  %s%s%s  interval %s  %s\n", when, (int)s->pid,
		gt_runtime_name(info->runtime), info->runtime_version[0] ? clean(&version, info->runtime_version) : "n/a",
		info->gc_name[0] ? clean(&gc, info->gc_name) : "n/a", info->gc_mode[0] ? " " : "",
		clean(&mode, info->gc_mode), interval, header_source(&source, replay_path, s));
	fprintf(out, "Command: %s\n", clean(&cmd, info->main_class[0] ? info->main_class : info->command_line));
	if (info->heap_flags[0])
		fprintf(out, "Flags:   %s\n", clean(&cmd, info->heap_flags));
	/* hex and '-' only (collectors/host/container_ids.c): nothing to clean */
	if (info->container_id[0] || info->k8s_pod_uid[0])
		fprintf(out, "Container: %s%s%s\n", info->container_id[0] ? info->container_id : "n/a",
			info->k8s_pod_uid[0] ? "  pod " : "", info->k8s_pod_uid);
}

static void write_alloc(FILE *out, const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct text_fig rate, total, per_op, excess;

	/* Both marks: missed intervals and whole regions pull opposite ways. */
	const char *bound = d->alloc_lower_bound == d->alloc_upper_bound ? ""
			  : d->alloc_lower_bound ? "at least " : "at most ";
	fprintf(out, "Alloc:   %s%s (%s)   total %s since %s", bound,
		fig_rate(&rate, d->alloc_rate_bps), gt_alloc_source_name(s->alloc_source),
		fig_bytes(&total, s->alloc_bytes_total),
		s->alloc_since == GT_ALLOC_SINCE_PROCESS_START ? "start" : "attach");
	if (d->alloc_new_series)
		fprintf(out, "   [new series: %s]", gt_alloc_source_name(s->alloc_source));
	if (d->alloc_lower_bound && s->alloc_bound_reason)
		fprintf(out, "   (a lower bound: %s)", s->alloc_bound_reason);
	if (d->alloc_upper_bound)
		fprintf(out, "   (an upper bound: G1 humongous objects counted in whole regions, over by at most %s)",
			fig_rate(&excess, d->alloc_excess_max_bps));
	if (s->opcount_total.valid) {
		const char *what = s->opcount_name ? s->opcount_name : "operations";
		struct gt_u64 bpo = { (uint64_t)d->bytes_per_op.value, d->bytes_per_op.valid };
		fprintf(out, "   %s/s ", what);
		if (d->opcount_rate.valid)
			fprintf(out, "%.1f", d->opcount_rate.value);
		else
			fprintf(out, "n/a");
		fprintf(out, ", %s per op", fig_bytes(&per_op, bpo));
	} else if (s->opcount_unavailable) {
		struct text_str name;
		fprintf(out, "   operations n/a (%s: %s)", clean(&name, s->opcount_counter ? s->opcount_counter : "?"),
			s->opcount_unavailable);
	}
	fprintf(out, "\n");
}

static void write_generations(FILE *out, const struct gt_target_info *info, const struct gt_derived *d)
{
	const char *counting = gt_format_collections_counting(info->runtime);
	const struct gt_sample *s = &d->cur;
	struct text_fig a, b, c;
	struct text_str name;

	fprintf(out, "GC:     ");
	for (unsigned i = 0; i < s->n_generations; i++) {
		const struct gt_generation *g = &s->generations[i];
		struct gt_u64 delta = d->generations[i].collections;
		fprintf(out, "%s %s %s", i ? "," : "", clean(&name, g->name), fig_count(&a, g->collections));
		if (delta.valid)
			fprintf(out, " (+%llu)", (unsigned long long)delta.value);
	}
	if (s->n_generations && s->collections_since == GT_ALLOC_SINCE_ATTACH)
		fprintf(out, " since attach");
	if (s->n_generations && counting)
		fprintf(out, " [%s]", counting);
	if (s->last_gc_cause[0])
		fprintf(out, "   last cause: %s", clean(&name, s->last_gc_cause));
	fprintf(out, "%s\n", s->gc_in_progress ? "   [collecting]" : "");

	for (unsigned i = 0; i < s->n_generations; i++) {
		const struct gt_generation *g = &s->generations[i];
		fprintf(out, "  %-8s used %s / committed %s / max %s\n", clean(&name, g->name), fig_bytes(&a, g->used_bytes),
			fig_bytes(&b, g->committed_bytes), fig_bytes(&c, g->max_bytes));
	}
}

static void write_pauses(FILE *out, const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct text_fig share, last, longest, total, extra;

	/* The longest of this interval's pauses, the same figure as JSON's
	 * max_ms; "none" when the interval had none (the last pause is older). */
	struct gt_u64 max_ns = d->pause_max_ns.valid ? d->pause_max_ns : s->pause_max_ns;
	bool none = (d->pause_count.valid && d->pause_count.value == 0) || (d->pause_ns.valid && d->pause_ns.value == 0);
	fprintf(out, "Pause:   %s of interval, last %s, longest in interval %s, total %s", fig_share(&share, d->pause_share),
		fig_dur(&last, s->last_pause_ns), none ? "none" : fig_dur(&longest, max_ns), fig_dur(&total, s->pause_total_ns));
	if (d->safepoint_share.valid)
		fprintf(out, ", safepoints %s", fig_share(&extra, d->safepoint_share));
	if (d->gc_cpu_share.valid)
		fprintf(out, ", GC CPU %s of a core", fig_share(&extra, d->gc_cpu_share));
	fprintf(out, "\n");
	if (!d->pause_count.valid)
		return;
	struct text_fig p50, p99, max;
	fprintf(out, "Pauses:  %llu in interval, p50 %s, p99 %s, max %s", (unsigned long long)d->pause_count.value,
		fig_dur(&p50, d->pause_p50_ns), fig_dur(&p99, d->pause_p99_ns), fig_dur(&max, d->pause_max_ns));
	if (d->pause_dist_partial)
		fprintf(out, " (of the last %d only)", GT_PAUSE_RING);
	fprintf(out, "\n");
}

static void write_memory(FILE *out, const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct text_fig a, b, c, e, f;

	if (s->large_source && d->large_waste_max_rate_bps.valid)
		/* whole regions: the objects' share lies between the two */
		fprintf(out, "Large:   %s now, %s allocated in whole regions (%s to %s of alloc), unused region tails "
			"at most %s  [%s]\n", fig_bytes(&a, s->large_bytes), fig_rate(&b, d->large_alloc_rate_bps),
			fig_share(&e, d->large_alloc_share_min), fig_share(&c, d->large_alloc_share),
			fig_rate(&f, d->large_waste_max_rate_bps), s->large_source);
	else if (s->large_source && d->large_waste_rate_bps.valid)
		fprintf(out, "Large:   %s now, %s allocated (%s of alloc), unused region tails %s  [%s]\n",
			fig_bytes(&a, s->large_bytes), fig_rate(&b, d->large_alloc_rate_bps),
			fig_share(&c, d->large_alloc_share), fig_rate(&f, d->large_waste_rate_bps), s->large_source);
	else if (s->large_source)
		fprintf(out, "Large:   %s now, %s allocated (%s of alloc)  [%s]\n", fig_bytes(&a, s->large_bytes),
			fig_rate(&b, d->large_alloc_rate_bps), fig_share(&c, d->large_alloc_share), s->large_source);
	else
		fprintf(out, "Large:   n/a (%s)\n", s->large_unavailable ? s->large_unavailable : "not given by the runtime");

	fprintf(out, "Heap:    used %s / committed %s / max %s   metaspace %s\n", fig_bytes(&a, s->heap_used_bytes),
		fig_bytes(&b, s->heap_committed_bytes), fig_bytes(&c, s->heap_max_bytes),
		fig_bytes(&e, s->metaspace_used_bytes));
	fprintf(out, "Memory:  working set %s   cgroup usage %s / limit %s", fig_bytes(&a, s->rss_bytes),
		fig_bytes(&b, s->cgroup_usage_bytes), s->cgroup_limit_bytes.valid ? fig_bytes(&c, s->cgroup_limit_bytes) : "none");
	if (s->cgroup_processes.valid && s->cgroup_processes.value > 1)
		fprintf(out, " (group of %llu processes)", (unsigned long long)s->cgroup_processes.value);
	if (d->heap_max_share_of_limit.valid)
		fprintf(out, " (max heap %s of limit)", fig_share(&e, d->heap_max_share_of_limit));
	fprintf(out, "   OOM kills %s", fig_count(&a, s->oom_kills));
	if (s->memory_pressure_avg10.valid)
		fprintf(out, "   pressure %.2f%%%s", s->memory_pressure_avg10.value,
			s->memory_pressure_system_wide ? " (system)" : "");
	fprintf(out, "\n");
	fprintf(out, "Process: CPU %s of a core   threads %s\n", fig_share(&a, d->cpu_share), fig_count(&b, s->threads));
}

/* The live set, its trend and deadline (each n/a with why), and the old
 * generation's occupancy as jstat shows it. */
void gt_text_write_live_set(FILE *out, const struct gt_derived *d)
{
	const struct gt_live_set *l = &d->live_set;
	struct text_str why, kind;
	struct text_fig a, b, c;
	char line[160];
	if (!l->valid) {
		fprintf(out, "Live:    n/a (%s)\n", clean(&why, l->why ? l->why : "not tracked"));
	} else {
		fprintf(out, "Live:    %s after %s, %u point%s over %s", fig_bytes(&a, (struct gt_u64){ l->bytes, true }),
			clean(&kind, l->kind ? l->kind : "a collection"), l->points, l->points == 1 ? "" : "s",
			gt_format_long_seconds(b.s, sizeof(b.s), l->span_s.value));
		if (l->missed)
			fprintf(out, " (%llu missed)", (unsigned long long)l->missed);
		if (!l->growth_bps.valid)
			fprintf(out, "   growth n/a (%s)\n", clean(&why, l->growth_why));
		else if (!l->exhaustion_s.valid)
			fprintf(out, "   growth %s   exhaustion n/a (%s)\n", gt_format_live_growth(line, sizeof(line), l),
				clean(&why, l->exhaustion_why));
		else
			fprintf(out, "   growth %s   exhaustion in %s (%s)\n", gt_format_live_growth(line, sizeof(line), l),
				gt_format_live_exhaustion(a.s, sizeof(a.s), l), fig_bytes(&c, l->limit_bytes));
	}
	fprintf(out, "Old:     %s\n", gt_format_old(line, sizeof(line), &d->cur));
}

/* Top allocators: sampled shares, with the sample count so a thin
 * sample is never taken for a fact. */
static void write_allocators(FILE *out, const struct gt_alloc_derived *a)
{
	struct text_fig rate, share;
	struct text_str src, name;

	if (!a->valid) {
		fprintf(out, "Allocators: %s %s, no interval yet\n", a->source[0] ? clean(&src, a->source) : "sampling",
			gt_sampler_state_name(a->state));
		return;
	}
	fprintf(out, "Allocators: %s, %llu samples over %.1fs", clean(&src, a->source), (unsigned long long)a->samples,
		a->window_s);
	if (a->sampled_share.valid && a->sampled_share.value < 1)
		fprintf(out, ", sampled %.0f%% of each second (bytes scaled up)", a->sampled_share.value * 100);
	fprintf(out, "%s\n", a->state == GT_SAMPLER_RUNNING ? "" : " (sampling stopped)");
	for (unsigned i = 0; i < a->n_frames && i < GT_TEXT_ALLOCATORS_MAX; i++)
		fprintf(out, "  frame %10s %7s  %s\n", fig_rate(&rate, a->by_frame[i].bytes_per_s),
			fig_share(&share, a->by_frame[i].share), clean(&name, a->by_frame[i].name));
	for (unsigned i = 0; i < a->n_types && i < GT_TEXT_ALLOCATORS_MAX; i++) {
		const char *heap = gt_alloc_heap_name(a->by_type[i].heap);
		fprintf(out, "  type  %10s %7s  %s%s%s\n", fig_rate(&rate, a->by_type[i].bytes_per_s),
			fig_share(&share, a->by_type[i].share), clean(&name, a->by_type[i].name), heap ? " @" : "",
			heap ? heap : "");
	}
}

/* Beside the allocators: bytes rank the sites, the GC's share of the time
 * bounds what allocating less can win (model/gc_ceiling.h). */
static void write_ceiling(FILE *out, const struct gt_derived *d)
{
	struct gt_gc_ceiling c;
	char line[320];
	gt_gc_ceiling_of(d->pause_share, d->gc_cpu_share, d->cpu_share, &c);
	fprintf(out, "Ceiling:  %s\n", gt_format_gc_ceiling(line, sizeof(line), &c));
}

/* The top stack behind each of the top few sites of the window. */
static void write_alloc_stacks(FILE *out, const struct gt_alloc_derived *a, const struct gt_alloc_stacks *st)
{
	struct text_fig share;
	struct text_str name;

	for (unsigned i = 0; a->valid && i < a->n_frames && i < GT_TEXT_STACK_SITES; i++) {
		const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, a->by_frame[i].name);
		if (!s || s->n == 0)
			continue;
		const struct gt_alloc_stack *k = &s->stacks[0];
		fprintf(out, "  top stack of %s: %s of its bytes since sampling started (%llu stacks",
			clean(&name, a->by_frame[i].name), fig_share(&share, gt_alloc_stack_share(s, k)),
			(unsigned long long)s->distinct);
		if (s->dropped)
			fprintf(out, ", %llu samples in stacks not kept", (unsigned long long)s->dropped);
		fprintf(out, ")\n");
		for (unsigned f = 0; f < k->n_frames && f < GT_ALLOC_STACK_FRAMES; f++)
			fprintf(out, "    %s\n", clean(&name, gt_alloc_stacks_name(st, k->frames[f])));
	}
}

static void write_agent_pauses(FILE *out, const struct gt_sample *s)
{
	struct text_fig p50, p99, max;

	if (!s->agent_pauses.valid || !s->agent_pause_window)
		return;
	fprintf(out, "Pauses timed by the agent: last %u: p50 %s, p99 %s, max %s\n", s->agent_pause_window,
		fig_dur(&p50, s->agent_pause_p50_ns), fig_dur(&p99, s->agent_pause_p99_ns),
		fig_dur(&max, s->agent_pause_max_ns));
}

int gt_text_write_sample(FILE *out, const struct gt_target_info *info, const struct gt_derived *d)
{
	return gt_text_write_sample_allocators(out, info, d, NULL);
}

int gt_text_write_sample_allocators(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
				    const struct gt_alloc_derived *a)
{
	return gt_text_write_block(out, info, d, a, NULL);
}

int gt_text_write_block(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
			const struct gt_alloc_derived *a, const struct gt_findings *f)
{
	return gt_text_write_block_stacks(out, info, d, a, NULL, f);
}

int gt_text_write_block_stacks(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
			       const struct gt_alloc_derived *a, const struct gt_alloc_stacks *st,
			       const struct gt_findings *f)
{
	return gt_text_write_block_from(out, NULL, info, d, a, st, f);
}

/* The figures above that the plausibility rules set n/a, and why. */
static void write_implausible(FILE *out, const struct gt_derived *d)
{
	for (unsigned i = 0; i < d->implausible.n; i++)
		fprintf(out, "N/a:     %s (%s)\n", d->implausible.e[i].figure, d->implausible.e[i].rule);
}

int gt_text_write_block_from(FILE *out, const char *replay_path, const struct gt_target_info *info,
			     const struct gt_derived *d, const struct gt_alloc_derived *a,
			     const struct gt_alloc_stacks *st, const struct gt_findings *f)
{
	write_header(out, replay_path, info, d);
	write_alloc(out, d);
	write_generations(out, info, d);
	write_pauses(out, d);
	write_agent_pauses(out, &d->cur);
	write_memory(out, d);
	gt_text_write_live_set(out, d);
	write_implausible(out, d);
	if (a) {
		write_allocators(out, a);
		write_ceiling(out, d);
	}
	if (a && st)
		write_alloc_stacks(out, a, st);
	if (f)
		gt_text_write_findings(out, f);
	fprintf(out, "\n");
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* Bytes in at most five characters for the list's narrow columns:
 * 512K, 159M, 1.5G. */
/* A figure in the unit of 1024^u bytes, three digits as gt_format_bytes. */
static int in_unit(char *buf, size_t len, uint64_t v, int u)
{
	double x = (double)v;
	for (int i = 0; i < u; i++)
		x /= 1024.0;
	return snprintf(buf, len, x < 10 ? "%.2f" : x < 100 ? "%.1f" : "%.0f", x);
}

/* Heap used and its maximum in the picker's units, both in the larger
 * one: "52.0/128 MiB", "0.50/1.00 GiB"; n/a for one unknown. */
static const char *heap_pair(char *buf, size_t len, struct gt_u64 used, struct gt_u64 max)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	char u[32], m[32];
	if (!used.valid || !max.valid) {
		snprintf(buf, len, "%s/%s", gt_format_bytes(u, sizeof(u), used), gt_format_bytes(m, sizeof(m), max));
		return buf;
	}
	uint64_t top = used.value > max.value ? used.value : max.value;
	int k = 0;
	for (double x = (double)top; x >= 1000.0 && k + 1 < (int)(sizeof(units) / sizeof(units[0])); x /= 1024.0)
		k++;
	in_unit(u, sizeof(u), used.value, k);
	in_unit(m, sizeof(m), max.value, k);
	snprintf(buf, len, "%s/%s %s", u, m, units[k]);
	return buf;
}

/* The default of --allocators' SOURCE words ("jfr" of "jfr,agent"), or
 * "-" where gctop cannot tell without touching the process: whether a JVM
 * offers its flight recorder, a word users read (--json has them all). */
static const char *default_sampler(char *buf, size_t len, const char *sources)
{
	size_t n = strcspn(sources, ",");
	snprintf(buf, len, "%.*s", n ? (int)n : 1, n ? sources : "-");
	return buf;
}

/* One line per process, like ps: the columns take 86 and MAIN the rest,
 * so at 88 columns every figure shows and nothing is cut unmarked. The
 * runtime by its display name and release, the bytes in MiB, as the
 * picker says them. */
int gt_text_write_list(FILE *out, const struct gt_list *list, int64_t now_ms)
{
	char up[32], heap[80], rss[32], runtime[160], rt_cut[24], gc_cut[24], sampler[sizeof(list->entries->info.alloc_sources)];
	struct text_str user, gc, cmd;

	fprintf(out, "%7s %-8s %-12s %-11s %-7s %13s %8s %9s  %s\n", "PID", "USER", "RUNTIME", "GC", "SAMPLER",
		"HEAP USED/MAX", "RSS", "UPTIME", "MAIN");
	for (size_t i = 0; i < list->count; i++) {
		const struct gt_list_entry *e = &list->entries[i];
		const struct gt_target_info *info = &e->info;
		if (info->start_time_ms.valid && now_ms >= (int64_t)info->start_time_ms.value)
			gt_format_uptime(up, sizeof(up), (double)(now_ms - (int64_t)info->start_time_ms.value) / 1000.0);
		else
			snprintf(up, sizeof(up), "n/a");
		/* the release alone ("17.0.15" of "17.0.15+6-Debian-1deb12u1") */
		size_t rel = strspn(info->runtime_version, "0123456789.");
		snprintf(runtime, sizeof(runtime), "%s %.*s", info->runtime ? info->runtime->display : "?",
			 rel ? (int)rel : 3, rel ? info->runtime_version : "n/a");
		if (e->sample.heap_used_bytes.valid || e->sample.heap_max_bytes.valid)
			heap_pair(heap, sizeof(heap), e->sample.heap_used_bytes, e->sample.heap_max_bytes);
		else
			snprintf(heap, sizeof(heap), "n/a");
		fprintf(out, "%7d %-8s %-12s %-11s %-7.7s %13s %8s %9s  %s\n", (int)info->pid,
			info->user[0] ? clean_n(&user, 8, info->user) : "?", gt_format_cut(rt_cut, sizeof(rt_cut), runtime, 12),
			gt_format_cut(gc_cut, sizeof(gc_cut), info->gc_name[0] ? clean(&gc, info->gc_name) : "n/a", 11),
			default_sampler(sampler, sizeof(sampler), info->alloc_sources), heap,
			gt_format_bytes(rss, sizeof(rss), e->sample.rss_bytes), up,
			clean(&cmd, info->main_class[0] ? info->main_class : info->command_line));
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
