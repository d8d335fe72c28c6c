/* Each sample of a .NET process filled from what its session's stream said
 * (collectors/dotnet/dotnet_internal.h).
 *
 * Collections per generation count each GC once, by its condemned (oldest
 * collected) generation, as dotnet-counters and OpenTelemetry do, and so do
 * the per-collector entries ("gen0", "gen1", "gen2"); the generations'
 * collections_inclusive count like GC.CollectionCount: a gen2 GC counts
 * for gen0 and gen1 too. */
#include "collectors/dotnet/dotnet_internal.h"
#include "collectors/dotnet/dotnet_pause_total.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"

static void set_generation(struct gt_sample *out, unsigned i, const char *name)
{
	snprintf(out->generations[i].name, sizeof(out->generations[i].name), "%s", name);
}

/* a + b, held at the int64 range: the target's timestamps are hostile. */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* How far apart two counter groups' polls of one tick can be written (they
 * share the runtime's polling thread). */
#define SAME_TICK_NS 100000000LL

/* Why a sample has no allocation figure yet: the runtime sends its counter
 * once per COUNTER_INTERVAL, the first about that long after the session
 * started; where its first increment does not count (first_counts), the
 * figure needs a second. */
static const char ALLOC_NOT_YET[] =
	"the runtime has not sent its allocated-bytes counter yet (it sends it once a second)";
static const char ALLOC_FIRST_STARTS[] =
	"the runtime's first allocated-bytes counter only starts the count on this version (.NET 8 sends "
	"every byte since the process started first); the figure comes with its second, a second later";

/* The runtime's total as of its poll `age` places before the newest, and
 * the poll before that one; with no poll before it, where the first
 * increment counts (first_counts), 0 bytes at its start (*first:
 * first_increment_start says when). false, with the reason in *why: no
 * such figure yet. */
static bool alloc_poll_pair(const struct gt_backend *c, unsigned age, int64_t *ts, uint64_t *total, int64_t *prev_ts,
			    uint64_t *prev_total, bool *first, const char **why)
{
	const struct gt_dn_counters *k = &c->counters;
	*first = false;
	if (!gt_dn_series_nth(&k->alloc_polls, age, ts, total))
		return false;
	if (gt_dn_series_nth(&k->alloc_polls, age + 1, prev_ts, prev_total))
		return true;
	if (!k->alloc_first_counted) {
		*why = ALLOC_FIRST_STARTS;
		return false;
	}
	*prev_ts = *ts;
	*prev_total = 0;
	*first = true;
	return true;
}

/* Where the first poll's increment starts, on gctop's clock: the session's
 * enable, or IntervalSec before the poll where that is earlier (the
 * runtime's counter group was polling already: dotnet_counters.c). */
static int64_t first_increment_start(const struct gt_backend *c, int64_t poll_at)
{
	int64_t start = c->enable_ns < INT64_MAX ? (int64_t)c->enable_ns : INT64_MAX;
	uint64_t interval = c->counters.alloc_first_interval_ns;
	if (interval && interval < INT64_MAX) {
		int64_t by_interval = sat_add(poll_at, -(int64_t)interval);
		if (by_interval < start)
			start = by_interval;
	}
	return start;
}

/* Allocation: the runtime's cumulative counter as of one of its polls, with
 * the poll before, so that rates divide by the runtime's own intervals.
 * Requests come from another counter group, polled on the same tick but
 * written separately: both are read as of the last poll the requests have
 * reached, so that bytes per request divide figures of one window. */
static void fill_alloc(struct gt_backend *c, struct gt_sample *out)
{
	const struct gt_dn_counters *k = &c->counters;
	out->alloc_unavailable = ALLOC_NOT_YET;
	if (!c->have_offset || !k->have_alloc || k->qpc_freq != 1000000000)
		return;
	int64_t req_ts, ts, prev_ts;
	uint64_t req, total, prev_total;
	bool have_req = gt_dn_series_nth(&k->requests, 0, &req_ts, &req);
	unsigned age = 0;
	while (have_req && gt_dn_series_nth(&k->alloc_polls, age + 2, &ts, &total) &&
	       gt_dn_series_nth(&k->alloc_polls, age, &ts, &total) && ts > sat_add(req_ts, SAME_TICK_NS))
		age++;
	bool first;
	if (!alloc_poll_pair(c, age, &ts, &total, &prev_ts, &prev_total, &first, &out->alloc_unavailable))
		return;
	out->alloc_unavailable = NULL;
	uint64_t held;
	int64_t held_ts;
	gt_u64_set(&out->alloc_bytes_total, total);
	if (gt_dn_series_nth(&k->alloc_held, age, &held_ts, &held))
		gt_u64_set(&out->alloc_blind_collections, held);
	out->alloc_bound_reason = "DATAS took GC heaps away: the runtime's allocated-bytes total leaves out "
				  "their bytes until they return (dotnet/runtime#131069)";
	out->alloc_source = GT_ALLOC_SOURCE_EXACT;
	out->alloc_since = GT_ALLOC_SINCE_ATTACH;
	/* hostile timestamps: no signed overflow, and a time before the
	 * clock's start is no time */
	int64_t at = sat_add(ts, c->clock_offset), prev_at = sat_add(prev_ts, c->clock_offset);
	if (first)
		prev_at = first_increment_start(c, at);
	out->alloc_at.valid = at >= 0 && prev_at >= 0;
	out->alloc_at.ns = (uint64_t)at;
	out->alloc_at.prev_ns = (uint64_t)prev_at;
	out->alloc_at.prev_total = prev_total;
	if (have_req && gt_dn_series_at(&k->requests, ts, &req)) {
		gt_u64_set(&out->opcount_total, req);
		out->opcount_name = "requests";
		out->opcount_counter = "Microsoft.AspNetCore.Hosting/total-requests";
	}
}

_Static_assert(sizeof(((struct gt_dn_gc *)0)->pause_log) == sizeof(((struct gt_sample *)0)->pause_log.ns),
	       "the collector's pause log is copied whole into the sample's");

static const char PAUSE_NOT_YET[] =
	"the runtime has not sent its pause-time counter (total-pause-time-by-gc) yet (it sends it once a "
	"second)";

/* Pause time and share: the runtime's own total (dotnet_pause_total.h) as
 * of GT_DN_PAUSE_AGE_NS before the sample, or its first poll where that is
 * newer (the total starts there); on runtimes without that counter (before
 * .NET 7) the pauses timed from the events, as of the sample. Both by the
 * runtime's clock, where its timestamps are gctop's CLOCK_MONOTONIC (plus
 * a learned offset). */
static void fill_pause_time(struct gt_backend *c, struct gt_sample *out)
{
	struct gt_dn_gc *g = &c->gc;
	const struct gt_dn_series *polls = &c->counters.pause_polls;
	if (!c->have_offset || g->qpc_freq != 1000000000)
		return;
	int64_t now = sat_add((int64_t)out->mono_ns, -c->clock_offset);
	if (c->runtime_major > 0 && c->runtime_major < GT_DN_PAUSE_COUNTER_MAJOR) {
		gt_dn_gc_fill_pause_at(g, out->mono_ns, now, out);
		return;
	}
	out->pause_unavailable = PAUSE_NOT_YET;
	out->pause_total_ns.valid = false;
	int64_t first_ts, at = sat_add(now, -GT_DN_PAUSE_AGE_NS);
	uint64_t known;
	if (!gt_dn_series_nth(polls, polls->count - 1, &first_ts, &known))
		return;
	/* from the first poll on (the figures start there, with a shorter
	 * age) */
	if (at < first_ts)
		at = first_ts;
	/* the moment never goes back (a clock gone wrong) */
	if (g->have_pause_at && at < g->pause_at)
		at = g->pause_at;
	if (!gt_dn_pause_total_at(polls, g, at, &known))
		return;
	out->pause_unavailable = NULL;
	gt_dn_gc_credit_pause(g, out->mono_ns, at, known, out);
	gt_u64_set(&out->pause_total_ns, g->pause_credited);
	int64_t at_mono = sat_add(at, c->clock_offset);
	/* 0 is "the sample's moment": a time before the clock's start is none */
	out->pause_at.ns = at_mono > 0 ? (uint64_t)at_mono : 1;
}

/* Pauses, timed one by one from the suspension events. */
static void fill_pauses(struct gt_dn_gc *g, struct gt_sample *out)
{
	gt_u64_set(&out->pause_total_ns, g->pause_total_ns);
	if (g->have_pause)
		gt_u64_set(&out->last_pause_ns, g->last_pause_ns);
	gt_u64_set(&out->pause_max_ns, gt_dn_gc_take_window_max(g));
	out->pause_log.valid = true;
	out->pause_log.count = g->pause_count;
	memcpy(out->pause_log.ns, g->pause_log, sizeof(out->pause_log.ns));
}

/* Generations, youngest first, and a collector per condemned generation. */
static void fill_generations(const struct gt_backend *c, struct gt_sample *out)
{
	static const char *const names[GT_DN_GENS] = {
		[GT_DN_GEN0] = "gen0", [GT_DN_GEN1] = "gen1", [GT_DN_GEN2] = "gen2",
		[GT_DN_LOH] = "loh", [GT_DN_POH] = "poh",
	};
	const struct gt_dn_gc *g = &c->gc;
	const struct gt_dn_counters *k = &c->counters;
	out->n_generations = GT_DN_GENS;
	const uint64_t *by_depth = g->by_depth;
	uint64_t fragmented[GT_DN_GENS];
	bool have_fragmented = gt_dn_frag_latest(&g->frag, fragmented);
	for (unsigned i = 0; i < GT_DN_GENS; i++) {
		set_generation(out, i, names[i]);
		if (i < GT_DN_COLLECTED) {
			uint64_t n = 0;
			for (int d = (int)i; d < GT_DN_COLLECTED; d++)
				n += by_depth[d];
			gt_u64_set(&out->generations[i].collections, by_depth[i]);
			gt_u64_set(&out->generations[i].collections_inclusive, n);
		}
		/* The counters' sizes stand in until the first GC event arrives. */
		if (g->have_heap && (i != GT_DN_POH || g->heap.has_poh))
			gt_u64_set(&out->generations[i].used_bytes, g->heap.gen_size[i]);
		else if (k->size_valid[i])
			gt_u64_set(&out->generations[i].used_bytes, k->size[i]);
		if (have_fragmented)
			gt_u64_set(&out->generations[i].fragmented_bytes, fragmented[i]);
	}
	out->n_collectors = GT_DN_COLLECTED;
	for (unsigned d = 0; d < GT_DN_COLLECTED; d++) {
		snprintf(out->collectors[d].name, sizeof(out->collectors[d].name), "%s", names[d]);
		gt_u64_set(&out->collectors[d].invocations, by_depth[d]);
	}
}

/* Large and pinned objects, and the heap, from the generations filled. */
static void fill_heap(const struct gt_backend *c, struct gt_sample *out)
{
	const struct gt_dn_gc *g = &c->gc;
	const struct gt_dn_counters *k = &c->counters;
	if (out->generations[GT_DN_LOH].used_bytes.valid) {
		out->large_bytes = out->generations[GT_DN_LOH].used_bytes;
		out->large_source = "loh";
		if (g->have_loh_alloc) {
			gt_u64_set(&out->large_alloc_bytes_total, g->loh_alloc_total);
			gt_u64_set(&out->large_alloc_of_total, g->gc_alloc_total);
		}
	} else {
		out->large_unavailable = "the runtime has not reported its heap yet";
	}
	out->pinned_bytes = out->generations[GT_DN_POH].used_bytes;
	uint64_t used = 0;
	bool used_valid = true;
	for (unsigned i = 0; i < GT_DN_GENS; i++) {
		used += out->generations[i].used_bytes.value;
		used_valid = used_valid && out->generations[i].used_bytes.valid;
	}
	if (used_valid)
		gt_u64_set(&out->heap_used_bytes, used);
	if (g->have_committed)
		gt_u64_set(&out->heap_committed_bytes, g->committed);
	else if (k->have_committed)
		gt_u64_set(&out->heap_committed_bytes, k->committed);
}

_Static_assert(sizeof(((struct gt_dn_gc *)0)->live) / sizeof(((struct gt_dn_gc *)0)->live[0]) ==
		       sizeof(((struct gt_sample *)0)->live_log.points) / sizeof(((struct gt_sample *)0)->live_log.points[0]),
	       "the collector's live-set ring is the sample's");

/* The live set after each gen2 GC, placed on gctop's clock, and the old
 * generation (gen2, LOH, POH) as the last GC left it. Committed memory
 * stays n/a: the runtime reports it for the whole GC heap only
 * (CommittedUsage), not by generation. */
static void fill_live(const struct gt_backend *c, struct gt_sample *out)
{
	const struct gt_dn_gc *g = &c->gc;
	if (g->qpc_freq != 1000000000) {
		out->live_unavailable = "the runtime's event clock is not gctop's: its gen2 collections cannot be placed in time";
	} else {
		out->live_log.valid = true;
		/* the offset comes with the first event: none yet, no point yet */
		out->live_log.count = c->have_offset ? g->live_count : 0;
		for (unsigned i = 0; i < GT_LIVE_RING; i++) {
			int64_t at = sat_add(g->live[i].ts, c->clock_offset);
			out->live_log.points[i].bytes = g->live[i].bytes;
			out->live_log.points[i].at_ns = at > 0 ? (uint64_t)at : 0;
			out->live_log.points[i].kind = g->live[i].background ? "background gen2" : "gen2";
		}
	}
	if (g->have_heap && g->heap.has_poh)
		gt_u64_set(&out->old_used_bytes,
			   g->heap.gen_size[GT_DN_GEN2] + g->heap.gen_size[GT_DN_LOH] + g->heap.gen_size[GT_DN_POH]);
	/* the GC's own bound: the hard limit, set or by default (75% of the
	 * container's limit) */
	if (c->hard_limit.valid)
		out->old_max_bytes = c->hard_limit;
}

/* The figures say when they come from a share of the time only. */
static void sampled_share_message(struct gt_backend *c)
{
	double share = c->sampler ? gt_dn_sampler_share(c->sampler) : 1;
	gt_f64_set(&c->alloc_snap->sampled_share, share);
	if (share < 1)
		snprintf(c->alloc_snap->message, sizeof(c->alloc_snap->message),
			 "sampled %.0f%% of each second (%.0f events/s at full rate), bytes scaled up",
			 share * 100, gt_dn_sampler_rate(c->sampler));
}

int dotnet_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err)
{
	dotnet_poll(c, 0);
	if (c->failed)
		return gt_fail(err, c->fail_code, "%s", c->fail_msg);
	if (c->ended) {
		if (kill(c->pid, 0) != 0 && errno == ESRCH)
			return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d has exited", (int)c->pid);
		return gt_fail(err, GT_EXIT_NO_DATA, "process %d ended gctop's EventPipe session (is the runtime shutting down?)",
			       (int)c->pid);
	}
	struct gt_dn_gc *g = &c->gc;

	fill_alloc(c, out);
	/* collections over the span the operations are read as of */
	if (out->opcount_total.valid && out->alloc_at.valid)
		gt_u64_set(&out->opcount_collections_total,
			   gt_dn_gc_collections_until(g, sat_add((int64_t)out->alloc_at.ns, -c->clock_offset)));
	fill_generations(c, out);
	if (g->have_reason)
		snprintf(out->last_gc_cause, sizeof(out->last_gc_cause), "%s", gt_dn_gc_reason_name(g->last_reason));
	gt_dn_gc_fill_causes(g, out);
	gt_u64_set(&out->causes.inspection, c->inspection.count);
	out->gc_in_progress = gt_dn_gc_suspended(g) || g->background_running;
	if (g->have_history && g->history.num_heaps > 0)
		gt_u64_set(&out->gc_heap_count, (uint64_t)g->history.num_heaps);
	fill_pauses(g, out);
	fill_pause_time(c, out);
	fill_heap(c, out);
	fill_live(c, out);

	if (c->hard_limit.valid) {
		out->gc_hard_limit_bytes = c->hard_limit;
		out->heap_max_bytes = c->hard_limit;
	}
	gt_u64_set(&out->dropped_events, c->dropped_before + gt_nettrace_stats(c->parser)->dropped +
					     (c->sampler ? gt_dn_sampler_dropped(c->sampler) : 0));
	if (c->alloc && c->alloc_snap) {
		gt_dn_alloc_snapshot(c->alloc, out->mono_ns ? out->mono_ns : gt_mono_ns(), c->alloc_snap);
		gt_dn_alloc_stacks(c->alloc, c->alloc_stacks);
		sampled_share_message(c);
	}
	return 0;
}
