/* The HotSpot collector's reading (collectors/hotspot/hotspot_internal.h): each
 * poll copies the perf data and feeds the allocation estimate, the pause
 * log, the causes and the tick; each sample fills struct gt_sample from the
 * copy (hotspot_counters.c reads the counters). hotspot.c opens and closes. */
#include "collectors/hotspot/hotspot_internal.h"

#include <errno.h>
#include <signal.h>

#include "base/clock.h"
#include "collectors/hotspot/attach/hotspot_sampler.h"
#include "collectors/hotspot/jfr/jfr_sampler.h"

/* The estimator must see eden between every two collections, so while they
 * come the tick follows them (hotspot_tick.c: two to four polls per
 * interval, from 100 ms down to 1 ms; 64 times an interval while G1
 * allocates humongous objects). A JVM that has not collected for a
 * while is polled less, and an idle one once a second, which is what makes
 * a picker of many idle JVMs cheap. */
#define HOTSPOT_POLL_STEADY_NS 250000000ull
#define HOTSPOT_POLL_IDLE_NS 1000000000ull
#define HOTSPOT_RECENT_GC_NS 3000000000ull

void hotspot_note_pauses(struct gt_backend *c, bool count)
{
	hotspot_durations_note(&c->durations, &c->counters, count);
	if (c->counters.gc == HOTSPOT_GC_SHENANDOAH)
		return;
	int64_t exit_ticks;
	uint64_t last_ns;
	if (hotspot_counters_last_pause(&c->counters, &exit_ticks, &last_ns) == 0 && exit_ticks >= c->last_pause_exit) {
		c->last_pause_exit = exit_ticks;
		gt_u64_set(&c->last_pause_ns, last_ns);
	}
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		const struct hotspot_collector_counters *k = &c->counters.collector[i];
		if (!k->last_entry || !k->last_exit)
			continue;
		int64_t exit = hsperf_load(k->last_exit);
		if (exit == c->last_exit_seen[i])
			continue;
		c->last_exit_seen[i] = exit;
		int64_t entry = hsperf_load(k->last_entry);
		/* A newer pause already started: its length is read when it ends.
		 * Negative ticks are no real ones (and could overflow exit - entry). */
		if (!count || entry > exit || entry < 0)
			continue;
		/* joined to the flight recording: its pauses, not these */
		if (c->jfr_pauses.joined)
			continue;
		uint64_t ns = hotspot_ticks_to_ns(&c->counters, exit - entry);
		hotspot_pause_log_note(&c->pauses, entry, exit, ns);
		if (ns > c->pause_max_ns)
			c->pause_max_ns = ns;
	}
}

/* The time between collections, from the collectors' own entry stamps
 * (the span between the last entry seen and the newest, over the
 * collections in between); when none was seen before, from the time since
 * the previous poll. While none comes it is at least the time since the
 * last one, so the tick slows down as collections stop. */
static void hotspot_track_period(struct gt_backend *c, uint64_t collections, uint64_t now_ns)
{
	uint64_t best = 0;
	for (int i = 0; i < 3; i++) {
		const struct hotspot_collector_counters *k = &c->counters.collector[i];
		int64_t inv = k->invocations ? hsperf_load(k->invocations) : 0;
		int64_t entry = k->last_entry ? hsperf_load(k->last_entry) : 0;
		if (inv > c->seen_invocations[i] && c->seen_entry[i] > 0 && entry > c->seen_entry[i]) {
			uint64_t per = hotspot_ticks_to_ns(&c->counters, entry - c->seen_entry[i]) /
				       (uint64_t)(inv - c->seen_invocations[i]);
			if (!best || per < best)
				best = per;
		}
		c->seen_invocations[i] = inv;
		c->seen_entry[i] = entry;
	}
	if (!best && collections > c->seen_collections && c->prev_poll_ns && now_ns > c->prev_poll_ns)
		best = (now_ns - c->prev_poll_ns) / (collections - c->seen_collections);
	if (best)
		c->gc_period_ns = c->gc_period_ns ? (c->gc_period_ns + best) / 2 : best;
	else if (c->gc_period_ns && now_ns - c->last_gc_ns > c->gc_period_ns)
		c->gc_period_ns = now_ns - c->last_gc_ns;
	c->prev_poll_ns = now_ns;
}

/* From the next poll on, the perf data's copy takes only what the counters
 * read, until the JVM adds entries (then every byte again, until this is
 * called once more). Not while an entry is still being filled in: its
 * bytes must come with every copy until it is parsed. */
void hotspot_watch(struct gt_backend *c)
{
	if (c->perf.complete)
		hsperf_map_watch(&c->map, c->watch,
				 hotspot_watch_ranges(&c->perf, &c->counters, &c->opcount, c->watch, HOTSPOT_WATCH_MAX));
}

/* Copies the perf data and loads from the copy only, at the tick (hotspot_poll_interval); with
 * sampling on, also gctop's heartbeat to the agent, so that it never stops
 * between two samples of a long interval. */
void hotspot_poll(struct gt_backend *c, uint64_t now_ns)
{
	if (c->read_failed)
		return;
	if (hsperf_map_update(&c->map, &c->read_err) != 0) {
		c->read_failed = true;
		return;
	}
	if (hsperf_refresh(&c->perf) > 0) {
		hotspot_counters_resolve(&c->counters, &c->perf);
		hotspot_opcount_resolve(&c->opcount, &c->perf);
	}
	if (!c->map.watched)
		hotspot_watch(c);
	struct hotspot_alloc_reading r;
	hotspot_counters_alloc_reading(&c->perf, &c->counters, &r);
	r.mono_ns = now_ns;
	hotspot_alloc_estimate_step(&c->alloc, &r);
	/* The total is as of the last poll it counted (one in a pause is not). */
	if (c->alloc.have_prev)
		hotspot_alloc_ring_push(&c->alloc_polls, c->alloc.prev.mono_ns, c->alloc.total_bytes);
	hotspot_note_pauses(c, true);
	hotspot_causes_note(&c->causes, &r);
	struct hotspot_live_reading lr;
	hotspot_counters_live_reading(&c->perf, &c->counters, &r, &lr);
	hotspot_live_note(&c->live, &lr);
	uint64_t collections = r.young_gcs + r.full_gcs + r.other_pauses;
	hotspot_track_period(c, collections, now_ns);
	hotspot_tick_note(&c->tick, &r, c->gc_period_ns);
	if (collections != c->seen_collections)
		c->last_gc_ns = now_ns;
	if (collections != c->seen_collections || r.eden_used != c->seen_eden_used)
		c->last_change_ns = now_ns;
	c->seen_collections = collections;
	c->seen_eden_used = r.eden_used;
	if (c->sampler)
		gt_hotspot_sampler_beat(c->sampler, now_ns);
}

/* The end of the newest young or full collection on our clock, 0 unknown. */
static uint64_t hotspot_last_exit_mono(const struct gt_backend *c)
{
	if (!c->alloc.have_offset)
		return 0;
	int64_t newest = 0;
	for (int i = 0; i < 2; i++) {
		const struct hotspot_collector_counters *k = &c->counters.collector[i];
		int64_t exit = k->last_exit ? hsperf_load(k->last_exit) : 0;
		if (exit > newest)
			newest = exit;
	}
	int64_t mono = (int64_t)hotspot_ticks_to_ns(&c->counters, newest) + c->alloc.clock_offset_ns;
	return newest > 0 && mono > 0 ? (uint64_t)mono : 0;
}

uint64_t hotspot_poll_interval(const struct gt_backend *c)
{
	uint64_t now = gt_mono_ns();
	if (now - c->last_gc_ns < HOTSPOT_RECENT_GC_NS)
		return hotspot_tick_ns(now, hotspot_last_exit_mono(c), c->gc_period_ns,
				       hotspot_tick_per_interval(c->gc_period_ns, c->tick.shortest_ns),
				       c->alloc.track_humongous && (c->alloc.epoch.old_bytes || c->alloc.last_epoch.old_bytes));
	if (now - c->last_change_ns < HOTSPOT_RECENT_GC_NS)
		return HOTSPOT_POLL_STEADY_NS;
	return HOTSPOT_POLL_IDLE_NS;
}

/* Why there is no allocation figure, or NULL when there is one. */
static const char *hotspot_alloc_unavailable(enum hotspot_gc gc)
{
	switch (gc) {
	case HOTSPOT_GC_Z_GENERATIONAL:
		return "generational ZGC publishes no eden fill or TLAB total that tracks allocation "
		       "(tried: within 40 % at best); --allocators gives the exact figure";
	case HOTSPOT_GC_Z:
		return "ZGC publishes only the TLAB bytes of each finished cycle, without large arrays "
		       "(tried: -44 % with half the bytes in large arrays); --allocators gives the exact figure";
	default:
		return NULL;
	}
}

int hotspot_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err)
{
	/* Only the cheap check: a zombie or a reused PID is caught by the
	 * process facts read beside every sample (collectors/host/proc.c). */
	if (kill(c->pid, 0) != 0 && errno == ESRCH)
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "the JVM (process %d) has exited", (int)c->pid);
	hotspot_poll(c, gt_mono_ns());
	if (c->read_failed) {
		if (err)
			*err = c->read_err;
		return -1;
	}

	hotspot_counters_fill_sample(&c->perf, &c->counters, out);
	hotspot_mx_fill(&c->counters, out);
	hotspot_durations_fill(&c->durations, &c->counters, out);
	out->alloc_unavailable = hotspot_alloc_unavailable(c->counters.gc);
	if (!out->alloc_unavailable) {
		gt_u64_set(&out->alloc_bytes_total, c->alloc.total_bytes);
		gt_u64_set(&out->alloc_blind_collections, c->alloc.blind_collections);
		out->alloc_bound_reason = hotspot_alloc_estimate_bound_reason(c->alloc.model);
		out->alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
		out->alloc_since = GT_ALLOC_SINCE_ATTACH;
	}
	if (c->counters.gc == HOTSPOT_GC_G1) {
		gt_u64_set(&out->large_bytes, c->alloc.large_live_bytes);
		gt_u64_set(&out->large_alloc_bytes_total, c->alloc.large_total_bytes);
		gt_u64_set(&out->large_waste_max_bytes_total, hotspot_alloc_estimate_humongous_waste_max(&c->alloc));
		gt_u64_set(&out->alloc_excess_max_bytes_total, hotspot_alloc_estimate_tails_max(&c->alloc));
	}
	if (c->counters.gc != HOTSPOT_GC_SHENANDOAH && c->sampled)
		gt_u64_set(&out->pause_max_ns, c->pause_max_ns);
	if (c->counters.gc != HOTSPOT_GC_SHENANDOAH)
		hotspot_pause_log_fill(&c->pauses, out);
	hotspot_causes_fill(&c->causes, c->counters.gc == HOTSPOT_GC_G1, out);
	hotspot_counters_fill_old(&c->counters, out);
	hotspot_live_fill(&c->live, out);
	hotspot_opcount_fill(&c->opcount, out);
	c->sampled = true;
	if (c->last_pause_ns.valid)
		out->last_pause_ns = c->last_pause_ns;
	c->pause_max_ns = 0;
	/* The agent's exact figures replace the estimates while it runs. */
	if (c->sampler)
		gt_hotspot_sampler_sample(c->sampler, out, out->alloc_unavailable ? NULL : &c->alloc_polls);
	if (c->jfr) {
		gt_hotspot_jfr_sample(c->jfr, gt_mono_ns());
		gt_hotspot_jfr_fill(c->jfr, out);
		gt_hotspot_jfr_fill_live(c->jfr, out);
	}
	hotspot_jfr_pauses_fill(c, out);
	if (out->alloc_source == GT_ALLOC_SOURCE_EXACT) {
		out->alloc_blind_collections.valid = false; /* every byte is counted */
		out->alloc_excess_max_bytes_total.valid = false;
		out->alloc_bound_reason = NULL;
	}
	return 0;
}
