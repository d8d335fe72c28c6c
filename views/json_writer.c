#include "views/json_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sanitize.h"
#include "model/format.h"
#include "base/json_text.h"

/* json-c writes NaN and Infinity as bare words, which is not JSON: every
 * double goes through here, and so does every "n/a". */
static struct json_object *jdouble(struct gt_f64 v)
{
	if (!v.valid || !isfinite(v.value))
		return NULL;
	return json_object_new_double(v.value);
}

static struct json_object *ju64(struct gt_u64 v)
{
	return v.valid ? json_object_new_uint64(v.value) : NULL;
}

/* A string from the target, cleaned (base/json_text.h); "" is n/a. */
static struct json_object *jstr(const char *s)
{
	return s && *s ? gt_json_text(s) : NULL;
}

static struct json_object *jseconds(struct gt_u64 ns)
{
	struct gt_f64 s = { (double)ns.value / 1e9, ns.valid };
	return jdouble(s);
}

static struct json_object *jmillis(struct gt_u64 ns)
{
	struct gt_f64 ms = { (double)ns.value / 1e6, ns.valid };
	return jdouble(ms);
}

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

static struct json_object *iso_time(int64_t wall_ms)
{
	char buf[40];
	time_t secs = (time_t)(wall_ms / 1000);
	struct tm tm;
	if (!gmtime_r(&secs, &tm))
		return NULL;
	size_t n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%03dZ", (int)(wall_ms % 1000));
	return json_object_new_string(buf);
}

static struct json_object *alloc_object(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	if (s->alloc_source == GT_ALLOC_SOURCE_NONE)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "bytes_total", ju64(s->alloc_bytes_total));
	add(o, "rate_bps", jdouble(d->alloc_rate_bps));
	add(o, "source", json_object_new_string(gt_alloc_source_name(s->alloc_source)));
	add(o, "since", json_object_new_string(gt_alloc_since_name(s->alloc_since)));
	add(o, "new_series", json_object_new_boolean(d->alloc_new_series));
	/* how long before the sample the total was counted (.NET: the
	 * runtime's last counter poll); null where it is the sample's moment */
	struct gt_f64 age = { 0, false };
	if (s->alloc_at.valid)   /* a poll read during the sample is "now" */
		gt_f64_set(&age, s->mono_ns > s->alloc_at.ns ? (double)(s->mono_ns - s->alloc_at.ns) / 1e9 : 0);
	add(o, "age_s", jdouble(age));
	/* The estimate missed collection intervals: the rate is at least this. */
	add(o, "lower_bound", json_object_new_boolean(d->alloc_lower_bound));
	add(o, "bound_reason", d->alloc_lower_bound && s->alloc_bound_reason ? jstr(s->alloc_bound_reason) : NULL);
	add(o, "rate_span_s", jdouble(d->alloc_span_s));
	/* G1 humongous objects counted in whole regions: at most this, over by
	 * at most excess_max_bps (null when not an upper bound). */
	add(o, "upper_bound", json_object_new_boolean(d->alloc_upper_bound));
	add(o, "excess_max_bps", d->alloc_upper_bound ? jdouble(d->alloc_excess_max_bps) : NULL);
	return o;
}

static struct json_object *generations_array(const struct gt_target_info *info, const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	const char *counting = gt_format_collections_counting(info->runtime);
	struct json_object *a = json_object_new_array_ext((int)s->n_generations);
	for (unsigned i = 0; i < s->n_generations; i++) {
		const struct gt_generation *g = &s->generations[i];
		struct json_object *o = json_object_new_object();
		add(o, "name", gt_json_text(g->name));
		add(o, "collections", ju64(g->collections));
		add(o, "collections_counting", counting ? json_object_new_string(counting) : NULL);
		add(o, "collections_inclusive", ju64(g->collections_inclusive));
		add(o, "collections_since", json_object_new_string(gt_alloc_since_name(s->collections_since)));
		add(o, "collections_delta", ju64(d->generations[i].collections));
		add(o, "collections_per_min", jdouble(d->generations[i].per_minute));
		add(o, "used_bytes", ju64(g->used_bytes));
		add(o, "fragmented_bytes", ju64(g->fragmented_bytes));
		add(o, "committed_bytes", ju64(g->committed_bytes));
		add(o, "max_bytes", ju64(g->max_bytes));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *collectors_array(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct json_object *a = json_object_new_array_ext((int)s->n_collectors);
	for (unsigned i = 0; i < s->n_collectors; i++) {
		const struct gt_collector_stat *c = &s->collectors[i];
		struct json_object *o = json_object_new_object();
		add(o, "name", gt_json_text(c->name));
		add(o, "collections", ju64(c->invocations));
		add(o, "collections_delta", ju64(d->collectors[i].invocations));
		add(o, "time_s", jseconds(c->time_ns));
		add(o, "time_share", jdouble(d->collectors[i].time_share));
		json_object_array_add(a, o);
	}
	return a;
}

/* Pauses the in-process agent timed one by one: exact percentiles. */
static struct json_object *agent_pauses_object(const struct gt_sample *s)
{
	if (!s->agent_pauses.valid)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "count", ju64(s->agent_pauses));
	add(o, "total_s", jseconds(s->agent_pause_total_ns));
	add(o, "window", json_object_new_int((int)s->agent_pause_window));
	add(o, "p50_ms", jmillis(s->agent_pause_p50_ns));
	add(o, "p99_ms", jmillis(s->agent_pause_p99_ns));
	add(o, "max_ms", jmillis(s->agent_pause_max_ns));
	return o;
}

/* The interval's longest pause: the distribution's where the collector
 * logs single pauses (none in an interval without a pause, like its p50),
 * else the collector's own maximum since the previous sample, where 0 is
 * the longest of no pauses: n/a too, never 0. */
static struct gt_u64 interval_max_pause(const struct gt_derived *d)
{
	if (d->pause_count.valid)
		return d->pause_max_ns;
	struct gt_u64 m = d->cur.pause_max_ns;
	m.valid = m.valid && m.value > 0;
	return m;
}

static struct json_object *pause_object(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct json_object *o = json_object_new_object();
	add(o, "total_s", jseconds(s->pause_total_ns));
	add(o, "share", jdouble(d->pause_share));
	/* how long before the sample the pause time and share are counted up
	 * to (.NET: the runtime's pause counter); null where it is the sample */
	struct gt_f64 age = { 0, false };
	if (s->pause_at.valid && s->pause_at.ns)
		gt_f64_set(&age, s->mono_ns > s->pause_at.ns ? (double)(s->mono_ns - s->pause_at.ns) / 1e9 : 0);
	add(o, "age_s", jdouble(age));
	add(o, "unavailable", jstr(s->pause_unavailable));
	/* "jfr": every pause as the JVM's flight recorder timed it */
	add(o, "source", jstr(s->pause_source));
	add(o, "last_ms", jmillis(s->last_pause_ns));
	/* the distribution of this interval's pauses; null where the collector
	 * times no single pause */
	add(o, "count", ju64(d->pause_count));
	add(o, "p50_ms", jmillis(d->pause_p50_ns));
	add(o, "p99_ms", jmillis(d->pause_p99_ns));
	add(o, "max_ms", jmillis(interval_max_pause(d)));
	add(o, "partial", d->pause_count.valid ? json_object_new_boolean(d->pause_dist_partial) : NULL);
	add(o, "safepoints", ju64(s->safepoints));
	add(o, "safepoint_share", jdouble(d->safepoint_share));
	add(o, "gc_cpu_share", jdouble(d->gc_cpu_share));
	add(o, "agent", agent_pauses_object(s));
	return o;
}

static struct json_object *large_object(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	if (!s->large_source)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "bytes", ju64(s->large_bytes));
	add(o, "alloc_bytes_total", ju64(s->large_alloc_bytes_total));
	add(o, "alloc_rate_bps", jdouble(d->large_alloc_rate_bps));
	add(o, "alloc_share", jdouble(d->large_alloc_share));
	add(o, "alloc_share_min", jdouble(d->large_alloc_share_min));
	add(o, "waste_max_bytes_total", ju64(s->large_waste_max_bytes_total));
	add(o, "waste_max_rate_bps", jdouble(d->large_waste_max_rate_bps));
	add(o, "waste_bytes_total", ju64(s->large_waste_bytes_total));
	add(o, "waste_rate_bps", jdouble(d->large_waste_rate_bps));
	add(o, "pinned_bytes", ju64(s->pinned_bytes));
	add(o, "source", json_object_new_string(s->large_source));
	return o;
}

static struct json_object *memory_object(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct json_object *o = json_object_new_object();
	add(o, "heap_used_bytes", ju64(s->heap_used_bytes));
	add(o, "heap_committed_bytes", ju64(s->heap_committed_bytes));
	add(o, "heap_max_bytes", ju64(s->heap_max_bytes));
	add(o, "metaspace_used_bytes", ju64(s->metaspace_used_bytes));
	add(o, "metaspace_committed_bytes", ju64(s->metaspace_committed_bytes));
	add(o, "gc_hard_limit_bytes", ju64(s->gc_hard_limit_bytes));
	add(o, "working_set_bytes", ju64(s->rss_bytes));
	add(o, "rss_anon_bytes", ju64(s->rss_anon_bytes));
	add(o, "rss_file_bytes", ju64(s->rss_file_bytes));
	add(o, "swap_bytes", ju64(s->swap_bytes));
	add(o, "cgroup_limit_bytes", ju64(s->cgroup_limit_bytes));
	add(o, "cgroup_usage_bytes", ju64(s->cgroup_usage_bytes));
	add(o, "cgroup_working_set_bytes", ju64(s->cgroup_working_set_bytes));
	add(o, "cgroup_processes", ju64(s->cgroup_processes));
	add(o, "heap_max_share_of_limit", jdouble(d->heap_max_share_of_limit));
	add(o, "oom_kills", ju64(s->oom_kills));
	add(o, "pressure_some_avg10", jdouble(s->memory_pressure_avg10));
	add(o, "pressure_scope", s->memory_pressure_avg10.valid
		? json_object_new_string(s->memory_pressure_system_wide ? "system" : "cgroup") : NULL);
	return o;
}

/* Old-generation occupancy as jstat's O, OC and OGCMX: O is used over committed. */
static struct json_object *old_object(const struct gt_sample *s)
{
	struct json_object *o = json_object_new_object();
	struct gt_f64 share = gt_old_used_share(s);
	add(o, "used_bytes", ju64(s->old_used_bytes));
	add(o, "committed_bytes", ju64(s->old_committed_bytes));
	add(o, "max_bytes", ju64(s->old_max_bytes));
	add(o, "used_share", jdouble(share));
	return o;
}

static struct json_object *live_set_object(const struct gt_derived *d)
{
	const struct gt_live_set *l = &d->live_set;
	struct json_object *o = json_object_new_object();
	struct gt_u64 bytes = { l->bytes, l->valid };
	add(o, "bytes", ju64(bytes));
	add(o, "kind", l->valid ? jstr(l->kind) : NULL);
	add(o, "points", json_object_new_uint64(l->points));
	add(o, "missed", json_object_new_uint64(l->missed));
	add(o, "span_s", jdouble(l->span_s));
	add(o, "growth_bps", jdouble(l->growth_bps));
	add(o, "growth_low_bps", jdouble(l->growth_low_bps));
	add(o, "growth_high_bps", jdouble(l->growth_high_bps));
	add(o, "confidence", json_object_new_double(GT_TREND_CONFIDENCE));
	add(o, "exhaustion_s", jdouble(l->exhaustion_s));
	add(o, "limit_bytes", ju64(l->limit_bytes));
	add(o, "limit", l->limit_kind ? json_object_new_string(gt_live_limit_name(l->limit_kind)) : NULL);
	const char *why = !l->valid ? l->why : l->exhaustion_s.valid ? NULL : l->exhaustion_why;
	add(o, "why", jstr(why));
	add(o, "old", old_object(&d->cur));
	return o;
}

static struct json_object *opcount_object(const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	if (!s->opcount_total.valid)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "name", jstr(s->opcount_name));
	add(o, "counter", jstr(s->opcount_counter));
	add(o, "total", ju64(s->opcount_total));
	add(o, "rate_per_s", jdouble(d->opcount_rate));
	add(o, "bytes_per_op", jdouble(d->bytes_per_op));
	return o;
}

/* Why there are no operations though a counter was asked for: the
 * counter's name, then the reason. */
static struct json_object *opcount_unavailable(const struct gt_sample *s)
{
	if (s->opcount_total.valid || !s->opcount_unavailable)
		return NULL;
	struct json_object *o = json_object_new_object();
	add(o, "counter", jstr(s->opcount_counter));
	add(o, "reason", jstr(s->opcount_unavailable));
	return o;
}

static struct json_object *target_object(const struct gt_target_info *info)
{
	struct json_object *o = json_object_new_object();
	add(o, "main_class", jstr(info->main_class));
	add(o, "command_line", jstr(info->command_line));
	add(o, "user", jstr(info->user));
	add(o, "gc_mode", jstr(info->gc_mode));
	add(o, "heap_flags", jstr(info->heap_flags));
	add(o, "start_time", info->start_time_ms.valid ? iso_time((int64_t)info->start_time_ms.value) : NULL);
	add(o, "source", jstr(info->source));
	add(o, "cgroup_path", jstr(info->cgroup_path));
	add(o, "cgroup_version", info->cgroup_version ? json_object_new_int(info->cgroup_version) : NULL);
	add(o, "container_id", jstr(info->container_id));
	add(o, "k8s_pod_uid", jstr(info->k8s_pod_uid));
	return o;
}

/* The figures the plausibility rules set n/a, each with the rule it broke
 * (model/plausible.h); NULL when none did. */
static struct json_object *implausible_array(const struct gt_implausible *why)
{
	if (why->n == 0)
		return NULL;
	struct json_object *a = json_object_new_array();
	for (unsigned i = 0; i < why->n; i++) {
		struct json_object *o = json_object_new_object();
		add(o, "figure", json_object_new_string(why->e[i].figure));
		add(o, "why", json_object_new_string(why->e[i].rule));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *gt_json_sample(const struct gt_target_info *info, const struct gt_derived *d)
{
	const struct gt_sample *s = &d->cur;
	struct json_object *o = json_object_new_object();
	struct gt_f64 cpu = d->cpu_share;

	add(o, "time", iso_time(s->wall_ms));
	add(o, "pid", json_object_new_int64(s->pid));
	add(o, "state", json_object_new_string(s->state == GT_TARGET_EXITED ? "exited" : "live"));
	add(o, "runtime", json_object_new_string(gt_runtime_name(info->runtime)));
	add(o, "runtime_version", jstr(info->runtime_version));
	add(o, "gc", jstr(info->gc_name));
	add(o, "interval_s", jdouble(d->interval_s));
	add(o, "alloc", alloc_object(d));
	add(o, "alloc_unavailable",
	    s->alloc_source == GT_ALLOC_SOURCE_NONE && s->alloc_unavailable ? jstr(s->alloc_unavailable) : NULL);
	add(o, "generations", generations_array(info, d));
	add(o, "collectors", collectors_array(d));
	add(o, "last_gc_cause", jstr(s->last_gc_cause));
	add(o, "gc_in_progress", json_object_new_boolean(s->gc_in_progress));
	add(o, "gc_heap_count", ju64(s->gc_heap_count));
	add(o, "pause", pause_object(d));
	add(o, "large_objects", large_object(d));
	add(o, "large_objects_unavailable", s->large_source ? NULL : jstr(s->large_unavailable));
	add(o, "memory", memory_object(d));
	add(o, "live_set", live_set_object(d));
	add(o, "process_cpu_share", jdouble(cpu));
	add(o, "threads", ju64(s->threads));
	add(o, "ops", opcount_object(d));
	add(o, "ops_unavailable", opcount_unavailable(s));
	add(o, "dropped_events", ju64(s->dropped_events));
	add(o, "implausible", implausible_array(&d->implausible));
	add(o, "target", target_object(info));
	return o;
}

struct json_object *gt_json_list_entry(const struct gt_list_entry *e, int64_t now_ms)
{
	const struct gt_target_info *info = &e->info;
	struct json_object *o = json_object_new_object();
	struct gt_f64 uptime = { 0, false };
	if (info->start_time_ms.valid && now_ms >= (int64_t)info->start_time_ms.value)
		gt_f64_set(&uptime, (double)(now_ms - (int64_t)info->start_time_ms.value) / 1000.0);

	add(o, "pid", json_object_new_int64(info->pid));
	add(o, "user", jstr(info->user));
	add(o, "runtime", json_object_new_string(gt_runtime_name(info->runtime)));
	add(o, "runtime_version", jstr(info->runtime_version));
	add(o, "gc", jstr(info->gc_name));
	add(o, "main_class", jstr(info->main_class));
	add(o, "heap_used_bytes", ju64(e->sample.heap_used_bytes));
	add(o, "heap_max_bytes", ju64(e->sample.heap_max_bytes));
	add(o, "working_set_bytes", ju64(e->sample.rss_bytes));
	add(o, "uptime_s", jdouble(uptime));
	/* the words --allocators=SOURCE takes, the default first; null unknown */
	struct json_object *src = NULL;
	if (info->alloc_sources[0]) {
		src = json_object_new_array();
		for (const char *p = info->alloc_sources; *p;) {
			size_t n = strcspn(p, ",");
			json_object_array_add(src, json_object_new_string_len(p, (int)n));
			p += n + (p[n] == ',');
		}
	}
	add(o, "allocator_sources", src);
	return o;
}

int gt_json_write_line(FILE *out, struct json_object *obj)
{
	size_t len;
	const char *text = json_object_to_json_string_length(obj,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	if (fwrite(text, 1, len, out) != len || fputc('\n', out) == EOF || fflush(out) != 0)
		return -1;
	return 0;
}

/* The stacks behind one site: null when the sampler takes none or the
 * site is not among those it kept stacks for. */
static struct json_object *site_stacks(const struct gt_alloc_stacks *st, const char *site, struct json_object *row)
{
	const struct gt_alloc_site_stacks *s = st ? gt_alloc_stacks_find(st, site) : NULL;
	if (!s)
		return NULL;
	struct json_object *a = json_object_new_array_ext((int)s->n);
	for (unsigned i = 0; i < s->n && i < GT_ALLOC_STACKS_TOP; i++) {
		const struct gt_alloc_stack *k = &s->stacks[i];
		struct json_object *frames = json_object_new_array_ext((int)k->n_frames);
		for (unsigned f = 0; f < k->n_frames && f < GT_ALLOC_STACK_FRAMES; f++)
			json_object_array_add(frames, gt_json_text(gt_alloc_stacks_name(st, k->frames[f])));
		struct json_object *o = json_object_new_object();
		add(o, "frames", frames);
		add(o, "share", jdouble(gt_alloc_stack_share(s, k)));
		add(o, "samples", json_object_new_uint64(k->count));
		json_object_array_add(a, o);
	}
	add(row, "stacks_distinct", json_object_new_uint64(s->distinct));
	add(row, "stacks_dropped", json_object_new_uint64(s->dropped));
	return a;
}

/* st: the stacks to put under each site, NULL for none (by type). */
static struct json_object *allocator_sites(const struct gt_alloc_rate *r, unsigned n, const char *name_key, bool heap,
					   bool stacks, const struct gt_alloc_stacks *st)
{
	unsigned shown = n < GT_JSON_ALLOCATORS_MAX ? n : GT_JSON_ALLOCATORS_MAX;
	struct json_object *a = json_object_new_array_ext((int)shown);
	for (unsigned i = 0; i < shown; i++) {
		struct json_object *o = json_object_new_object();
		add(o, name_key, gt_json_text(r[i].name));
		if (heap)
			add(o, "heap", jstr(gt_alloc_heap_name(r[i].heap)));
		add(o, "bytes_per_s", jdouble(r[i].bytes_per_s));
		add(o, "share", jdouble(r[i].share));
		if (stacks)
			add(o, "stacks", site_stacks(st, r[i].name, o));
		json_object_array_add(a, o);
	}
	return a;
}

void gt_json_add_allocators(struct json_object *sample, const struct gt_alloc_derived *a)
{
	gt_json_add_allocators_stacks(sample, a, NULL);
}

void gt_json_add_allocators_stacks(struct json_object *sample, const struct gt_alloc_derived *a,
				   const struct gt_alloc_stacks *st)
{
	if (!a) {
		add(sample, "top_allocators", NULL);
		return;
	}
	struct json_object *o = json_object_new_object();
	add(o, "source", jstr(a->source));
	add(o, "state", json_object_new_string(gt_sampler_state_name(a->state)));
	add(o, "samples", a->valid ? json_object_new_uint64(a->samples) : NULL);
	add(o, "window_s", jdouble((struct gt_f64){ a->window_s, a->valid }));
	add(o, "sampled_share", jdouble(a->sampled_share));
	add(o, "by_frame", allocator_sites(a->by_frame, a->valid ? a->n_frames : 0, "frame", false, true, st));
	add(o, "by_type", allocator_sites(a->by_type, a->valid ? a->n_types : 0, "type", true, false, NULL));
	add(sample, "top_allocators", o);
}
