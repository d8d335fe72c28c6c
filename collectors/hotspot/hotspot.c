/* The HotSpot collector: a JVM's hsperfdata, mapped read-only. */
#include "collectors/hotspot/hotspot.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/backend.h"
#include "collectors/hotspot/attach/hotspot_attach_sampler.h"
#include "collectors/host/proc.h"

/* jvmstat waits the same for a starting JVM, polling every 20 ms. */
#define HOTSPOT_WAIT_MS 5000
#define HOTSPOT_WAIT_STEP_MS 20
/* A process younger than this may not have created its file yet. */
#define HOTSPOT_YOUNG_PROCESS_MS 10000

struct gt_backend {
	pid_t pid;
	struct hsperf_map map;     /* its path (cut at 255 bytes) names the file in messages */
	struct hsperf perf;
	struct hotspot_counters counters;
	struct hotspot_alloc alloc;
	struct gt_u64 start_time_ms;
	int64_t last_exit_seen[HOTSPOT_COLLECTOR_SLOTS];
	uint64_t pause_max_ns;     /* since the previous sample */
	bool sampled;              /* a previous sample exists, so pause_max_ns covers a whole interval */
	/* The latest completed pause, kept because the counters hide it while
	 * the next pause of the same collector is under way. */
	int64_t last_pause_exit;
	struct gt_u64 last_pause_ns;
	struct gt_sampler *sampler; /* the JVMTI agent's segment, once sampling is on */
	/* The perf-data file shrank under the mapping (its owner truncated
	 * it): why, reported by the next sample. */
	bool read_failed;
	struct gt_error read_err;
	struct hotspot_pause_log pauses;
	/* The adaptive poll tick: what the last poll saw, when a collection or a
	 * change of eden was last seen, and the time between collections lately. */
	uint64_t seen_collections, seen_eden_used;
	uint64_t last_gc_ns, last_change_ns;
	uint64_t gc_period_ns;     /* 0 until known */
	uint64_t prev_poll_ns;
	int64_t seen_invocations[3], seen_entry[3]; /* collectors 0-2 at the last poll */
	struct hotspot_tick_state tick; /* the intervals, for the polls an interval */
	struct hotspot_causes causes;
	struct hotspot_ops ops;
	struct hsperf_range watch[HOTSPOT_WATCH_MAX]; /* what a poll copies (hotspot_watch.c) */
};

/* The estimator must see eden between every two collections, so while they
 * come the tick follows them (hotspot_tick.c: two to four polls per
 * interval, from 100 ms down to 1 ms; 64 times an interval while G1
 * allocates humongous objects). A JVM that has not collected for a
 * while is polled less, and an idle one once a second, which is what makes
 * a picker of many idle JVMs cheap. */
#define HOTSPOT_POLL_STEADY_NS 250000000ull
#define HOTSPOT_POLL_IDLE_NS 1000000000ull
#define HOTSPOT_RECENT_GC_NS 3000000000ull

/* Finds pid's file, waiting a little for a JVM that has only just started.
 * Returns 0 with path, or -1 with err. */
static int hotspot_locate(pid_t pid, char *path, size_t path_len, struct gt_error *err)
{
	uint64_t start_ms = 0;
	bool young = gt_proc_start_time_ms(pid, &start_ms) == 0 &&
		     (uint64_t)gt_wall_ms() < start_ms + HOTSPOT_YOUNG_PROCESS_MS;
	const char *flag = hotspot_find_disabled_flag(pid);
	struct gt_retry retry;
	gt_retry_start(&retry, young && !flag ? HOTSPOT_WAIT_MS : 0, HOTSPOT_WAIT_STEP_MS);
	for (;;) {
		int rc = hotspot_find_perfdata(pid, path, path_len, err);
		if (rc < 0)
			return -1;
		if (rc == 1)
			return 0;
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			break;
	}
	if (flag)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "process %d is a JVM started with %s, so it publishes no perf data; "
			       "restart it without that option to watch it with gctop", (int)pid, flag);
	return gt_fail(err, GT_EXIT_NO_DATA,
		       "process %d is a JVM without a perf-data file (/tmp/hsperfdata_USER/%d); it was probably started "
		       "with -XX:-UsePerfData or -XX:+PerfDisableSharedMem (perhaps through JAVA_TOOL_OPTIONS), or its "
		       "/tmp/hsperfdata_USER directory is not secure; restart it without those options",
		       (int)pid, (int)pid);
}

static enum gt_probe hotspot_probe(pid_t pid, struct gt_error *err)
{
	if (!hotspot_find_is_java(pid))
		return GT_PROBE_NO;
	char path[4096];
	if (hotspot_locate(pid, path, sizeof(path), err) != 0)
		return GT_PROBE_ERROR;
	return GT_PROBE_YES;
}

/* The VM has been created: HotSpot sets sun.rt.createVmBeginTime then
 * (a file without the counter is not waited for). */
static bool hotspot_vm_created(const struct hsperf *p)
{
	int64_t v;
	return hsperf_read_long(p, "sun.rt.createVmBeginTime", &v) != 0 || v != 0;
}

/* Waits until the JVM has made its file accessible and finished creating
 * the VM, taking a fresh copy of the file each time. */
static int hotspot_wait_accessible(struct gt_backend *c, const char *path, struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, HOTSPOT_WAIT_MS, HOTSPOT_WAIT_STEP_MS);
	for (;;) {
		if (hsperf_map_update(&c->map, err) != 0)
			return -1;
		if (hsperf_refresh(&c->perf) < 0)
			return gt_fail(err, GT_EXIT_FAILURE, "out of memory while reading %s", path);
		if (hsperf_accessible(&c->perf) && hotspot_vm_created(&c->perf))
			return 0;
		if (!hotspot_find_alive(c->pid))
			return gt_fail(err, GT_EXIT_TARGET_EXITED, "the JVM (process %d) exited while starting", (int)c->pid);
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			return gt_fail(err, GT_EXIT_TIMEOUT,
				       "the JVM (process %d) did not finish starting within %d s; try again once it runs",
				       (int)c->pid, HOTSPOT_WAIT_MS / 1000);
	}
}

static void hotspot_note_pauses(struct gt_backend *c, bool count)
{
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
static void hotspot_watch(struct gt_backend *c)
{
	if (c->perf.complete)
		hsperf_map_watch(&c->map, c->watch,
				 hotspot_watch_ranges(&c->perf, &c->counters, &c->ops, c->watch, HOTSPOT_WATCH_MAX));
}

/* Copies the perf data and loads from the copy only, at the tick (hotspot_poll_interval); with
 * sampling on, also gctop's heartbeat to the agent, so that it never stops
 * between two samples of a long interval. */
static void hotspot_poll(struct gt_backend *c, uint64_t now_ns)
{
	if (c->read_failed)
		return;
	if (hsperf_map_update(&c->map, &c->read_err) != 0) {
		c->read_failed = true;
		return;
	}
	if (hsperf_refresh(&c->perf) > 0) {
		hotspot_counters_resolve(&c->counters, &c->perf);
		hotspot_ops_resolve(&c->ops, &c->perf);
	}
	if (!c->map.watched)
		hotspot_watch(c);
	struct hotspot_alloc_reading r;
	hotspot_counters_alloc_reading(&c->perf, &c->counters, &r);
	r.mono_ns = now_ns;
	hotspot_alloc_step(&c->alloc, &r);
	hotspot_note_pauses(c, true);
	hotspot_causes_note(&c->causes, &r);
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
		gt_sampler_beat(c->sampler, now_ns);
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

static uint64_t hotspot_poll_interval(const struct gt_backend *c)
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

static void hotspot_close(struct gt_backend *c)
{
	if (!c)
		return;
	gt_sampler_close(c->sampler);
	hsperf_free(&c->perf);
	hsperf_map_close(&c->map);
	free(c);
}

/* Measured against ThreadMXBean on small-object workloads: eden deltas are
 * within 2 % for G1, Parallel and Serial; single-generation ZGC publishes a
 * TLAB total per cycle (within 2 %); Shenandoah's heap growth undercounts by
 * about a fifth. Generational ZGC gave neither within 40 %. With half the
 * bytes in large arrays the TLAB total misses them (-44 %), and an interval
 * without the end of a cycle shows nothing: single-generation ZGC gets no
 * figure either rather than a wrong one. Shenandoah's is marked a lower
 * bound wherever a cycle ran. */
static enum hotspot_alloc_model hotspot_alloc_model_for(enum hotspot_gc gc)
{
	switch (gc) {
	case HOTSPOT_GC_Z: return HOTSPOT_ALLOC_TLAB_EPOCHS;
	case HOTSPOT_GC_SHENANDOAH: return HOTSPOT_ALLOC_HEAP_GROWTH;
	default: return HOTSPOT_ALLOC_EDEN;
	}
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

/* Maps pid's perf-data file and checks that it is this process's. Returns
 * 0, or -1 with err; *stale says the file is an earlier process's, or one
 * the JVM is still creating (not yet sized), which a young JVM replaces or
 * finishes within moments. */
static int hotspot_open_file(struct gt_backend *c, pid_t pid, uid_t owner, bool *stale, struct gt_error *err)
{
	/* only while opening: 4 KiB a JVM kept for nothing in a fleet of hundreds */
	char path[4096];
	*stale = false;
	if (hotspot_locate(pid, path, sizeof(path), err) != 0)
		return -1;
	if (hsperf_map_open(path, owner, &c->map, err) != 0) {
		*stale = err && err->code == GT_EXIT_BAD_DATA;
		return -1;
	}
	if (hsperf_init(&c->perf, c->map.base, c->map.size, path, err) != 0)
		return -1;
	if (hotspot_wait_accessible(c, path, err) != 0)
		return -1;
	hotspot_counters_resolve(&c->counters, &c->perf);
	if (hotspot_find_same_process(pid, &c->counters, path, &c->start_time_ms, err) != 0) {
		*stale = true;
		return -1;
	}
	return 0;
}

/* With PIDs reused (pid_max is 32768 on many hosts), a JVM that was killed
 * leaves its file for a later process of the same PID to find. A JVM that
 * has only just started replaces it within moments: until then the file is
 * the earlier one's, so a young process is given the time to do so. */
static int hotspot_open_fresh_file(struct gt_backend *c, pid_t pid, uid_t owner, struct gt_error *err)
{
	uint64_t start_ms = 0;
	/* A JVM started with -XX:-UsePerfData never writes a file of its own. */
	bool young = gt_proc_start_time_ms(pid, &start_ms) == 0 &&
		     (uint64_t)gt_wall_ms() < start_ms + HOTSPOT_YOUNG_PROCESS_MS && !hotspot_find_disabled_flag(pid);
	struct gt_retry retry;
	gt_retry_start(&retry, young ? HOTSPOT_WAIT_MS : 0, HOTSPOT_WAIT_STEP_MS);
	for (;;) {
		bool stale;
		if (hotspot_open_file(c, pid, owner, &stale, err) == 0)
			return 0;
		/* the deadline passed: err still says the file is stale */
		if (!stale || !hotspot_find_alive(pid) || gt_retry_again(&retry, err) <= 0)
			return -1;
		hsperf_free(&c->perf);
		hsperf_map_close(&c->map);
		memset(&c->counters, 0, sizeof(c->counters));
	}
}

static struct gt_backend *hotspot_open(pid_t pid, struct gt_target_info *info, struct gt_error *err)
{
	struct gt_backend *c = gt_calloc(sizeof(*c), err);
	if (!c)
		return NULL;
	c->pid = pid;
	uid_t owner;
	if (gt_proc_euid(pid, &owner) != 0) {
		gt_fail(err, GT_EXIT_NO_PROCESS, "there is no process %d; run gctop --list to see the JVMs gctop can watch",
			(int)pid);
		goto fail;
	}
	if (hotspot_open_fresh_file(c, pid, owner, err) != 0)
		goto fail;

	hotspot_info_fill(&c->perf, c->counters.gc, info);
	if (gt_proc_nspid(pid, &info->nspid) != 0)
		info->nspid = pid;
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_counters_fill_sample(&c->perf, &c->counters, &s);
	if (s.heap_max_bytes.valid)
		info->heap_max_bytes = s.heap_max_bytes;

	hotspot_alloc_init(&c->alloc, hotspot_alloc_model_for(c->counters.gc), c->counters.gc == HOTSPOT_GC_G1);
	hotspot_note_pauses(c, false); /* pauses before we attached are not this interval's */
	hotspot_poll(c, gt_mono_ns());
	return c;
fail:
	hotspot_close(c);
	return NULL;
}

static int hotspot_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err)
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
	out->alloc_unavailable = hotspot_alloc_unavailable(c->counters.gc);
	if (!out->alloc_unavailable) {
		gt_u64_set(&out->alloc_bytes_total, c->alloc.total_bytes);
		gt_u64_set(&out->alloc_blind_collections, c->alloc.blind_collections);
		out->alloc_bound_reason = hotspot_alloc_bound_reason(c->alloc.model);
		out->alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
		out->alloc_since = GT_ALLOC_SINCE_ATTACH;
	}
	if (c->counters.gc == HOTSPOT_GC_G1) {
		gt_u64_set(&out->large_bytes, c->alloc.large_live_bytes);
		gt_u64_set(&out->large_alloc_bytes_total, c->alloc.large_total_bytes);
		gt_u64_set(&out->large_waste_max_bytes_total, hotspot_alloc_humongous_waste_max(&c->alloc));
	}
	if (c->counters.gc != HOTSPOT_GC_SHENANDOAH && c->sampled)
		gt_u64_set(&out->pause_max_ns, c->pause_max_ns);
	if (c->counters.gc != HOTSPOT_GC_SHENANDOAH)
		hotspot_pause_log_fill(&c->pauses, out);
	hotspot_causes_fill(&c->causes, c->counters.gc == HOTSPOT_GC_G1, out);
	hotspot_ops_fill(&c->ops, out);
	c->sampled = true;
	if (c->last_pause_ns.valid)
		out->last_pause_ns = c->last_pause_ns;
	c->pause_max_ns = 0;
	/* The agent's exact figures replace the estimates while it runs. */
	if (c->sampler)
		gt_sampler_sample(c->sampler, out);
	if (out->alloc_source == GT_ALLOC_SOURCE_EXACT) {
		out->alloc_blind_collections.valid = false; /* every byte is counted */
		out->alloc_bound_reason = NULL;
	}
	return 0;
}

static int hotspot_set_ops(struct gt_backend *c, const char *name, struct gt_error *err)
{
	hotspot_ops_init(&c->ops, name);
	hotspot_ops_resolve(&c->ops, &c->perf);
	hotspot_watch(c);
	/* With the agent already read (key a before), it is asked at once. */
	if (c->ops.jmx && c->sampler)
		return gt_sampler_set_ops(c->sampler, name, err);
	return 0;
}

static void hotspot_disable_allocators(struct gt_backend *c);

static int hotspot_enable_allocators(struct gt_backend *c, const char *packages, struct gt_error *err)
{
	if (c->sampler)
		return 0;
	c->sampler = gt_sampler_start(c->pid, packages, err);
	if (c->sampler && c->ops.jmx && gt_sampler_set_ops(c->sampler, c->ops.name, err) != 0) {
		hotspot_disable_allocators(c);
		return -1;
	}
	return c->sampler ? 0 : -1;
}

static void hotspot_disable_allocators(struct gt_backend *c)
{
	gt_sampler_close(c->sampler);
	c->sampler = NULL;
}

static const struct gt_alloc_snapshot *hotspot_allocators(const struct gt_backend *c)
{
	return c->sampler ? gt_sampler_snapshot(c->sampler) : NULL;
}

static const struct gt_alloc_stacks *hotspot_alloc_stacks(const struct gt_backend *c)
{
	return c->sampler ? gt_sampler_stacks(c->sampler) : NULL;
}

const struct gt_backend_ops gt_hotspot_ops = {
	.name = "hotspot",
	.probe = hotspot_probe,
	.open = hotspot_open,
	.poll_interval_ns = hotspot_poll_interval,
	.wait_fd = NULL,
	.poll = hotspot_poll,
	.sample = hotspot_sample,
	.close = hotspot_close,
	.list = hotspot_list,
	.set_ops = hotspot_set_ops,
	.enable_allocators = hotspot_enable_allocators,
	.disable_allocators = hotspot_disable_allocators,
	.allocators = hotspot_allocators,
	.alloc_stacks = hotspot_alloc_stacks,
};
