/* Every family gctop --serve writes, in the order written, and what each
 * writes for one target. OpenTelemetry names first (runtime by runtime),
 * then gctop's own. A figure that is n/a writes nothing. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "views/metrics_emit.h"

/* Whether the family is in OpenTelemetry's namespace for t's runtime
 * (jvm_..., dotnet_...): the runtime's traits name it. */
static bool in_namespace(const struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const char *ns = t->info->runtime ? t->info->runtime->metrics_namespace : NULL;
	size_t len = ns ? strlen(ns) : 0;
	return len && strncmp(e->fam->name, ns, len) == 0 && e->fam->name[len] == '_';
}

/* ---- JVM: jvm.memory.*, jvm.gc.duration ---- */

enum jvm_memory_figure { JVM_USED, JVM_COMMITTED, JVM_LIMIT, JVM_USED_AFTER_GC };

static struct gt_u64 pool_figure(const struct gt_memory_pool *p, enum jvm_memory_figure f)
{
	switch (f) {
	case JVM_USED: return p->used_bytes;
	case JVM_COMMITTED: return p->committed_bytes;
	case JVM_LIMIT: return p->max_bytes;
	case JVM_USED_AFTER_GC: break;
	}
	return p->used_after_gc_bytes;
}

/* One point per memory pool, under the name the runtime's own monitoring
 * gives it (the collector names them, model/sample.h). */
static void jvm_memory(struct gt_metrics_emit *e, const struct gt_metrics_target *t, enum jvm_memory_figure f)
{
	if (!in_namespace(e, t))
		return;
	const struct gt_sample *s = t->sample;
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; i < s->n_memory_pools && i < GT_MAX_MEMORY_POOLS; i++) {
		const struct gt_memory_pool *p = &s->memory_pools[i];
		gt_metrics_label(extra, sizeof(extra), "jvm_memory_pool_name", p->name);
		gt_metrics_label_add(extra, sizeof(extra), "jvm_memory_type", p->heap ? "heap" : "non_heap");
		gt_metrics_gauge(e, extra, pool_figure(p, f));
	}
}

static void jvm_memory_used(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	jvm_memory(e, t, JVM_USED);
}

static void jvm_memory_committed(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	jvm_memory(e, t, JVM_COMMITTED);
}

static void jvm_memory_limit(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	jvm_memory(e, t, JVM_LIMIT);
}

static void jvm_memory_used_after_gc(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	jvm_memory(e, t, JVM_USED_AFTER_GC);
}

/* A collector's pauses since gctop began watching, one histogram series
 * set under the labels in extra: cumulative buckets at the chosen bounds
 * (OpenTelemetry's by default), as %g writes them. */
static void duration_hist(struct gt_metrics_emit *e, const struct gt_metrics_target *t, const char *extra,
			  const struct gt_duration_hist *h)
{
	char bucket[GT_METRICS_EXTRA_LEN], le[GT_METRICS_VALUE_LEN];
	const struct gt_duration_bounds *b = e->durations;
	for (unsigned k = 0; k <= b->n; k++) {
		if (k < b->n)
			snprintf(le, sizeof(le), "%g", gt_pause_hist_bounds_s[b->at[k]]);
		memcpy(bucket, extra, sizeof(bucket));
		gt_metrics_label_add(bucket, sizeof(bucket), "le", k < b->n ? le : "+Inf");
		gt_metrics_point_u64(e, "_bucket", bucket, gt_duration_hist_upto(h, b, k));
	}
	gt_metrics_point_u64(e, "_count", extra, h->count);
	gt_metrics_point_f64(e, "_sum", extra, (double)h->sum_ns / 1e9);
	gt_metrics_created(e, extra, t->watch_start_s);
}

/* The labels of a collector's duration histogram: the runtime's names
 * for it, or gctop's (the perf data's) where it has none. */
static void duration_labels(char *extra, size_t size, const struct gt_collector_stat *c)
{
	if (c->mx_name && c->mx_action) {
		gt_metrics_label(extra, size, "jvm_gc_name", c->mx_name);
		gt_metrics_label_add(extra, size, "jvm_gc_action", c->mx_action);
	} else {
		gt_metrics_label(extra, size, "collector", c->name);
	}
}

/* The collectors the runtime's monitoring names, as its beans name them.
 * Where their pauses are seen (model/sample.h), since gctop began watching
 * with real buckets; else the runtime's own count and time from its start
 * in the +Inf bucket only (no bucket is claimed that gctop cannot fill). */
static void jvm_gc_duration(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (!in_namespace(e, t))
		return;
	const struct gt_sample *s = t->sample;
	for (unsigned i = 0; i < s->n_collectors && i < GT_MAX_COLLECTORS; i++) {
		const struct gt_collector_stat *c = &s->collectors[i];
		if (!c->mx_name || !c->mx_action)
			continue;
		char extra[GT_METRICS_EXTRA_LEN], bucket[GT_METRICS_EXTRA_LEN];
		duration_labels(extra, sizeof(extra), c);
		if (c->durations.valid) {
			duration_hist(e, t, extra, &c->durations);
			continue;
		}
		if (!c->invocations.valid || !c->time_ns.valid)
			continue;
		memcpy(bucket, extra, sizeof(bucket));
		gt_metrics_label_add(bucket, sizeof(bucket), "le", "+Inf");
		gt_metrics_point_u64(e, "_bucket", bucket, c->invocations.value);
		gt_metrics_point_u64(e, "_count", extra, c->invocations.value);
		gt_metrics_point_f64(e, "_sum", extra, (double)c->time_ns.value / 1e9);
		gt_metrics_created(e, extra, gt_metrics_since_s(t, GT_ALLOC_SINCE_PROCESS_START));
	}
}

/* ---- .NET: dotnet.gc.* ---- */

/* Collection counters, one per generation label: the runtime's collectors
 * or the generations, each collection counted once (model/sample.h): on
 * .NET both by the oldest generation collected, the same figures. */
static void collection_counters(struct gt_metrics_emit *e, const struct gt_metrics_target *t, const char *label,
				bool by_collector)
{
	const struct gt_sample *s = t->sample;
	double since = gt_metrics_since_s(t, s->collections_since);
	unsigned n = by_collector ? s->n_collectors : s->n_generations;
	unsigned max = by_collector ? GT_MAX_COLLECTORS : GT_MAX_GENERATIONS;
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; i < n && i < max; i++) {
		gt_metrics_label(extra, sizeof(extra), label, by_collector ? s->collectors[i].name : s->generations[i].name);
		gt_metrics_counter(e, extra, by_collector ? s->collectors[i].invocations : s->generations[i].collections, since);
	}
}

/* Exclusive counts per generation (a gen1 collection is not also a gen0
 * one), as GC.CollectionCount differences give them; counted since gctop
 * opened its EventPipe session. */
static void dotnet_gc_collections(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (in_namespace(e, t))
		collection_counters(e, t, "dotnet_gc_heap_generation", true);
}

static void dotnet_gc_total_allocated(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (in_namespace(e, t))
		gt_metrics_counter(e, NULL, t->sample->alloc_bytes_total, gt_metrics_since_s(t, t->sample->alloc_since));
}

static void dotnet_gc_pause_time(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (in_namespace(e, t))
		gt_metrics_counter_ns(e, NULL, t->sample->pause_total_ns, gt_metrics_since_s(t, t->sample->collections_since));
}

static void dotnet_generations(struct gt_metrics_emit *e, const struct gt_metrics_target *t, bool fragmentation)
{
	if (!in_namespace(e, t))
		return;
	const struct gt_sample *s = t->sample;
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; i < s->n_generations && i < GT_MAX_GENERATIONS; i++) {
		gt_metrics_label(extra, sizeof(extra), "dotnet_gc_heap_generation", s->generations[i].name);
		gt_metrics_gauge(e, extra, fragmentation ? s->generations[i].fragmented_bytes : s->generations[i].used_bytes);
	}
}

static void dotnet_heap_size(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	dotnet_generations(e, t, false);
}

static void dotnet_fragmentation(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	dotnet_generations(e, t, true);
}

static void dotnet_committed(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (in_namespace(e, t))
		gt_metrics_gauge(e, NULL, t->sample->heap_committed_bytes);
}

/* ---- process.* (both runtimes, from /proc) ---- */

static void process_cpu_time(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const struct gt_sample *s = t->sample;
	if (!s->cpu_ticks.valid || !s->cpu_hz.valid || s->cpu_hz.value == 0)
		return;
	gt_metrics_point_f64(e, "_total", NULL, (double)s->cpu_ticks.value / (double)s->cpu_hz.value);
	gt_metrics_created(e, NULL, gt_metrics_since_s(t, GT_ALLOC_SINCE_PROCESS_START));
}

/* ---- gctop_: what the conventions lack ---- */

/* The facts that change rarely, as labels of an info series: the collector,
 * the runtime's version and where the allocation figure comes from. */
static void gctop_target(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	char extra[GT_METRICS_EXTRA_LEN];
	gt_metrics_label(extra, sizeof(extra), "gc", t->info->gc_name);
	gt_metrics_label_add(extra, sizeof(extra), "runtime_version", t->info->runtime_version);
	gt_metrics_label_add(extra, sizeof(extra), "allocation_source", gt_alloc_source_name(t->sample->alloc_source));
	gt_metrics_point_u64(e, "_info", extra, 1);
}

/* What gctop --doctor would report, by the same rules and thresholds
 * (session/fleet_findings.c applies them over the last intervals): 1 while
 * a finding holds, no series while it does not. */
static void gctop_finding(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; t->findings && i < t->n_findings; i++) {
		gt_metrics_label(extra, sizeof(extra), "id", t->findings[i].id);
		gt_metrics_label_add(extra, sizeof(extra), "severity", gt_severity_name(t->findings[i].severity));
		gt_metrics_point_u64(e, "", extra, 1);
	}
}

/* When the figures were read: a scrape returns the last round's sample,
 * up to one interval old, and this says which moment it describes. */
static void gctop_sample_timestamp(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (t->sample->wall_ms > 0)
		gt_metrics_point_f64(e, "", NULL, (double)t->sample->wall_ms / 1000.0);
}

static void gctop_allocated(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->alloc_bytes_total, gt_metrics_since_s(t, t->sample->alloc_since));
}

static void gctop_alloc_blind(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->alloc_blind_collections, t->watch_start_s);
}

static void gctop_collections(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	collection_counters(e, t, "generation", false);
}

/* Stop-the-world time: HotSpot's collector time from the JVM's start
 * (Shenandoah: time at safepoints), .NET's suspensions since gctop began
 * watching; both count from the same origin as the collections. */
static void gctop_pause_time(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter_ns(e, NULL, t->sample->pause_total_ns, gt_metrics_since_s(t, t->sample->collections_since));
}

/* Single pauses since gctop began watching, cumulative per bucket. */
/* The bucket labels of gt_pause_hist_bounds_s as %g writes them (a unit
 * test holds the two together), written once here rather than formatted
 * for every process at every round. */
const char *const gt_metrics_pause_le[GT_PAUSE_HIST_BOUNDS + 1] = {
	"le=\"0.0001\"", "le=\"0.00025\"", "le=\"0.0005\"", "le=\"0.001\"", "le=\"0.0025\"", "le=\"0.005\"",
	"le=\"0.01\"", "le=\"0.025\"", "le=\"0.05\"", "le=\"0.1\"", "le=\"0.25\"", "le=\"0.5\"",
	"le=\"1\"", "le=\"2.5\"", "le=\"5\"", "le=\"10\"", "le=\"+Inf\"",
};

static void gctop_pause_hist(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const struct gt_pause_hist *h = t->pauses;
	if (!h || !h->valid)
		return;
	uint64_t cum = 0;
	for (unsigned b = 0; b <= GT_PAUSE_HIST_BOUNDS; b++) {
		cum += h->buckets[b];
		gt_metrics_point_u64(e, "_bucket", gt_metrics_pause_le[b], cum);
	}
	gt_metrics_point_u64(e, "_count", NULL, h->count);
	gt_metrics_point_f64(e, "_sum", NULL, (double)h->sum_ns / 1e9);
	gt_metrics_created(e, NULL, t->watch_start_s);
}

/* Of the pauses in those histograms, the ones counted at their mean. */
static void gctop_duration_merged(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const struct gt_sample *s = t->sample;
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; i < s->n_collectors && i < GT_MAX_COLLECTORS; i++) {
		const struct gt_collector_stat *c = &s->collectors[i];
		if (!c->durations.valid)
			continue;
		duration_labels(extra, sizeof(extra), c);
		gt_metrics_counter(e, extra, (struct gt_u64){ c->durations.merged, true }, t->watch_start_s);
	}
}

/* The pauses of collectors the runtime's monitoring has no name for (JDK
 * 17's G1 remark and cleanup pauses), under gctop's own name for them. */
static void gctop_collector_duration(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const struct gt_sample *s = t->sample;
	char extra[GT_METRICS_EXTRA_LEN];
	for (unsigned i = 0; i < s->n_collectors && i < GT_MAX_COLLECTORS; i++) {
		const struct gt_collector_stat *c = &s->collectors[i];
		if (c->mx_name || !c->durations.valid)
			continue;
		duration_labels(extra, sizeof(extra), c);
		duration_hist(e, t, extra, &c->durations);
	}
}

static void gctop_pauses_missed(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (t->pauses && t->pauses->valid)
		gt_metrics_counter(e, NULL, (struct gt_u64){ t->pauses->missed, true }, t->watch_start_s);
}

static void gctop_heap_max(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	struct gt_u64 max = t->sample->heap_max_bytes;
	gt_metrics_gauge(e, NULL, max.valid ? max : t->sample->gc_hard_limit_bytes);
}

static void gctop_large_allocated(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->large_alloc_bytes_total, t->watch_start_s);
}

static void gctop_large_waste_max(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->large_waste_max_bytes_total, t->watch_start_s);
}

static void gctop_alloc_eden_waste_max(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->alloc_excess_max_bytes_total, t->watch_start_s);
}

static void gctop_large_waste(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->large_waste_bytes_total, t->watch_start_s);
}

static void gctop_requests(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->opcount_total, t->watch_start_s);
}

/* A ratio of the last interval's two rates, not a count: a gauge. */
static void gctop_bytes_per_request(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (t->derived && t->derived->bytes_per_op.valid)
		gt_metrics_point_f64(e, "", NULL, t->derived->bytes_per_op.value);
}

/* Why a process watched with --ops has no gctop_requests_total: the
 * counter and the sample's reason (a counter not published, or --ops jmx:
 * without --ops-agent, ...), as -b and --json say it. */
static void gctop_requests_unavailable(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	const struct gt_sample *s = t->sample;
	if (s->opcount_total.valid || !s->opcount_unavailable)
		return;
	char extra[GT_METRICS_EXTRA_LEN];
	gt_metrics_label(extra, sizeof(extra), "counter", s->opcount_counter ? s->opcount_counter : "");
	gt_metrics_label_add(extra, sizeof(extra), "reason", s->opcount_unavailable);
	gt_metrics_point_u64(e, "_info", extra, 1);
}

/* The cgroup's own count, from its creation (a time gctop does not know). */
static void gctop_oom_kills(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	gt_metrics_counter(e, NULL, t->sample->oom_kills, 0);
}

#define FIELD(name) offsetof(struct gt_sample, name)
#define GAUGE GT_METRICS_GAUGE
#define COUNTER GT_METRICS_COUNTER
#define HISTOGRAM GT_METRICS_HISTOGRAM
#define INFO GT_METRICS_INFO

const struct gt_metrics_family gt_metrics_families[] = {
	{ "jvm_memory_used_bytes", GAUGE, "bytes", "Measure of memory used, by pool.", jvm_memory_used, 0 },
	{ "jvm_memory_committed_bytes", GAUGE, "bytes", "Measure of memory committed, by pool.", jvm_memory_committed, 0 },
	{ "jvm_memory_limit_bytes", GAUGE, "bytes", "Measure of max obtainable memory, by pool.", jvm_memory_limit, 0 },
	{ "jvm_memory_used_after_last_gc_bytes", GAUGE, "bytes",
	  "Measure of memory used, as measured after the most recent garbage collection event on this pool.",
	  jvm_memory_used_after_gc, 0 },
	{ "jvm_gc_duration_seconds", HISTOGRAM, "seconds",
	  "Duration of JVM garbage collection actions since gctop began watching.", jvm_gc_duration, 0 },
	{ "dotnet_gc_collections", COUNTER, "", "Garbage collections by the oldest generation collected, since gctop began watching.",
	  dotnet_gc_collections, 0 },
	{ "dotnet_gc_heap_total_allocated_bytes", COUNTER, "bytes", "Bytes allocated on the managed GC heap.",
	  dotnet_gc_total_allocated, 0 },
	{ "dotnet_gc_pause_time_seconds", COUNTER, "seconds", "Time paused in GC since gctop began watching.",
	  dotnet_gc_pause_time, 0 },
	{ "dotnet_gc_last_collection_heap_size_bytes", GAUGE, "bytes", "Managed heap size by generation at the last GC.",
	  dotnet_heap_size, 0 },
	{ "dotnet_gc_last_collection_heap_fragmentation_size_bytes", GAUGE, "bytes",
	  "Free space inside each generation at the last GC.", dotnet_fragmentation, 0 },
	{ "dotnet_gc_last_collection_memory_committed_size_bytes", GAUGE, "bytes",
	  "Memory committed by the GC at the last GC.", dotnet_committed, 0 },
	{ "process_memory_usage_bytes", GAUGE, "bytes", "Resident set size of the process.", NULL, FIELD(rss_bytes) },
	{ "process_cpu_time_seconds", COUNTER, "seconds", "CPU time used by the process (user and system).", process_cpu_time, 0 },
	/* OpenTelemetry's process.thread.count would map to process_thread_count,
	 * which Prometheus' own lint refuses (a _count suffix outside a
	 * histogram): Prometheus' process collector's name instead. */
	{ "process_threads", GAUGE, "", "Threads of the process.", NULL, FIELD(threads) },
	{ "gctop_target", INFO, "", "A watched process: its collector, runtime version and allocation source.", gctop_target, 0 },
	{ "gctop_finding", GAUGE, "",
	  "A finding of --doctor's rules that holds over the last 64 intervals, by id and severity (info, warning, critical).",
	  gctop_finding, 0 },
	{ "gctop_sample_timestamp_seconds", GAUGE, "seconds", "When gctop read these figures, seconds since the epoch.",
	  gctop_sample_timestamp, 0 },
	{ "gctop_allocated_bytes", COUNTER, "bytes",
	  "Bytes allocated, exact or estimated from heap counters (gctop_target_info's allocation_source).", gctop_allocated, 0 },
	{ "gctop_allocation_blind_collections", COUNTER, "",
	  "Collections (HotSpot) or the runtime's polls (.NET, DATAS) at which allocation was not seen: it is a lower bound while this grows.",
	  gctop_alloc_blind, 0 },
	{ "gctop_allocation_eden_waste_max_bytes", COUNTER, "bytes",
	  "G1: the most of an estimated gctop_allocated_bytes that can be eden regions' unused tails, left where objects too large for a TLAB did not fit.",
	  gctop_alloc_eden_waste_max, 0 },
	{ "gctop_gc_collections", COUNTER, "",
	  "Collections, each counted once: .NET by the oldest generation collected (as dotnet_gc_collections), HotSpot per collector.",
	  gctop_collections, 0 },
	{ "gctop_gc_pause_time_seconds", COUNTER, "seconds", "Stop-the-world time.", gctop_pause_time, 0 },
	{ "gctop_gc_pause_seconds", HISTOGRAM, "seconds", "Single stop-the-world pauses since gctop began watching.",
	  gctop_pause_hist, 0 },
	{ "gctop_gc_collector_duration_seconds", HISTOGRAM, "seconds",
	  "Pauses of collectors the runtime's monitoring does not name, since gctop began watching.",
	  gctop_collector_duration, 0 },
	{ "gctop_gc_duration_merged", COUNTER, "",
	  "Pauses of jvm_gc_duration_seconds and gctop_gc_collector_duration_seconds that came several between two polls, counted at their mean length.",
	  gctop_duration_merged, 0 },
	{ "gctop_gc_pauses_missed", COUNTER, "",
	  "Pauses too many between two samples to be timed one by one (left out of gctop_gc_pause_seconds).", gctop_pauses_missed, 0 },
	{ "gctop_heap_used_bytes", GAUGE, "bytes", "Heap in use.", NULL, FIELD(heap_used_bytes) },
	{ "gctop_heap_committed_bytes", GAUGE, "bytes", "Heap committed.", NULL, FIELD(heap_committed_bytes) },
	{ "gctop_heap_max_bytes", GAUGE, "bytes", "The most the heap may grow to (.NET: the GC's hard limit).", gctop_heap_max, 0 },
	{ "gctop_large_object_bytes", GAUGE, "bytes", "Large objects in the heap (.NET LOH; G1 humongous estimate).", NULL, FIELD(large_bytes) },
	{ "gctop_large_object_allocated_bytes", COUNTER, "bytes", "Bytes allocated as large objects.", gctop_large_allocated, 0 },
	{ "gctop_large_object_region_waste_max_bytes", COUNTER, "bytes",
	  "G1: the most of gctop_large_object_allocated_bytes (and an estimated gctop_allocated_bytes) that can be humongous objects' unused region tails.",
	  gctop_large_waste_max, 0 },
	{ "gctop_large_object_region_waste_bytes", COUNTER, "bytes",
	  "G1 with --allocators: humongous objects' unused region tails, as the agent's samples measure them.",
	  gctop_large_waste, 0 },
	{ "gctop_requests", COUNTER, "", "Requests served (ASP.NET Core), or a JVM's operations (--ops).", gctop_requests, 0 },
	/* a ratio: OpenMetrics wants a unit's name as the name's suffix */
	{ "gctop_bytes_per_request", GAUGE, "", "Bytes allocated per request over the last interval.",
	  gctop_bytes_per_request, 0 },
	{ "gctop_requests_unavailable", INFO, "", "Why a process watched with --ops has no gctop_requests_total: the counter and the reason.",
	  gctop_requests_unavailable, 0 },
	{ "gctop_container_memory_limit_bytes", GAUGE, "bytes", "The memory limit of the process's cgroup.",
	  NULL, FIELD(cgroup_limit_bytes) },
	{ "gctop_container_memory_usage_bytes", GAUGE, "bytes", "The memory use of the process's cgroup.", NULL, FIELD(cgroup_usage_bytes) },
	{ "gctop_container_oom_kills", COUNTER, "", "Processes the cgroup's OOM killer ended.", gctop_oom_kills, 0 },
	{ "gctop_live_set_bytes", GAUGE, "bytes", "The heap that survived the newest collection that reached the old generation.",
	  gt_metrics_live_set_bytes, 0 },
	{ "gctop_live_set_growth_bytes_per_second", GAUGE, "bytes_per_second",
	  "The live set's growth over the last 30 minutes (Theil-Sen slope).", gt_metrics_live_set_growth, 0 },
	{ "gctop_live_set_exhaustion_seconds", GAUGE, "seconds",
	  "Projected time until the live set fills its limit (label limit: heap-max or container).",
	  gt_metrics_live_set_exhaustion, 0 },
};

const size_t gt_metrics_family_count = sizeof(gt_metrics_families) / sizeof(gt_metrics_families[0]);
