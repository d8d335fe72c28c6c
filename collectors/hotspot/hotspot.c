/* The HotSpot collector: a JVM's hsperfdata, mapped read-only. */
#include "collectors/hotspot/hotspot_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/backend.h"
#include "collectors/hotspot/attach/hotspot_attach.h"
#include "collectors/hotspot/attach/hotspot_sampler.h"
#include "collectors/hotspot/jfr/jfr_available.h"
#include "collectors/hotspot/jfr/jfr_recording.h"
#include "collectors/hotspot/jfr/jfr_sampler.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "collectors/host/proc.h"

/* jvmstat waits the same for a starting JVM, polling every 20 ms. */
#define HOTSPOT_WAIT_MS 5000
#define HOTSPOT_WAIT_STEP_MS 20
/* A process younger than this may not have created its file yet. */
#define HOTSPOT_YOUNG_PROCESS_MS 10000

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

static void hotspot_close(struct gt_backend *c)
{
	if (!c)
		return;
	gt_hotspot_sampler_close(c->sampler);
	gt_hotspot_jfr_close(c->jfr, true);
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
	jfr_available_sources(pid, c->counters.jdk_major, info->alloc_sources, sizeof(info->alloc_sources));
	if (c->counters.jdk_major >= JFR_MIN_JDK && strncmp(info->alloc_sources, "jfr", 3) == 0) {
		/* --allocators' default here (hotspot_alloc_source) */
		snprintf(info->alloc_question, sizeof(info->alloc_question),
			 "start a flight recording of allocation samples in PID %d (JFR: nothing loaded, under 1%% of "
			 "its CPU by the JDK's account; stopped when gctop exits)?", (int)pid);
		snprintf(info->alloc_stopped, sizeof(info->alloc_stopped), "gctop's flight recording is stopped");
	}
	if (gt_proc_nspid(pid, &info->nspid) != 0)
		info->nspid = pid;
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_counters_fill_sample(&c->perf, &c->counters, &s);
	if (s.heap_max_bytes.valid)
		info->heap_max_bytes = s.heap_max_bytes;

	hotspot_alloc_estimate_init(&c->alloc, hotspot_alloc_model_for(c->counters.gc), c->counters.gc == HOTSPOT_GC_G1);
	hotspot_live_init(&c->live, c->counters.gc, c->counters.shenandoah_generational);
	hotspot_note_pauses(c, false); /* pauses before we attached are not this interval's */
	hotspot_poll(c, gt_mono_ns());
	return c;
fail:
	hotspot_close(c);
	return NULL;
}

static int hotspot_set_opcount(struct gt_backend *c, const char *name, struct gt_error *err)
{
	hotspot_opcount_init(&c->opcount, name);
	hotspot_opcount_resolve(&c->opcount, &c->perf);
	hotspot_watch(c);
	/* With the agent already read (key a before), it is asked at once. */
	if (c->opcount.jmx && c->sampler)
		return gt_hotspot_sampler_set_opcount(c->sampler, name, err);
	return 0;
}

/* --ops-agent: the agent for --ops jmx: alone (an agent already read,
 * for --allocators, answers it as it is). */
static int hotspot_enable_opcount_agent(struct gt_backend *c, struct gt_error *err)
{
	if (!c->opcount.jmx || c->sampler)
		return 0;
	c->sampler = gt_hotspot_sampler_start_ops(c->pid, err);
	return c->sampler ? gt_hotspot_sampler_set_opcount(c->sampler, c->opcount.name, err) : -1;
}

static void hotspot_disable_allocators(struct gt_backend *c);

/* --allocators=SOURCE on a JVM: the agent, or the flight recorder. */
#define HOTSPOT_SOURCE_AGENT "agent"
#define HOTSPOT_SOURCE_JFR "jfr"

/* Which source --allocators uses: the one asked for, else the flight
 * recorder from JDK 17 on (nothing loaded into the JVM; JDK 16 has the
 * events but not JFR.start's per-event settings, so it would need a .jfc
 * file written into the JVM's file system), else the agent. --ops jmx:
 * needs the agent anyway, which then samples too. */
static int hotspot_alloc_source(const struct gt_backend *c, const char *source, bool *jfr, struct gt_error *err)
{
	*jfr = false;
	if (source && strcmp(source, HOTSPOT_SOURCE_AGENT) == 0)
		return 0;
	if (source && strcmp(source, HOTSPOT_SOURCE_JFR) != 0)
		return gt_fail(err, GT_EXIT_USAGE, "--allocators takes agent or jfr on a JVM, not %s", source);
	bool recent = c->counters.jdk_major >= JFR_MIN_JDK;
	if (source && !recent)
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d runs JDK %u; gctop reads allocation samples from its flight "
			       "recorder from JDK %d on: use --allocators=agent", (int)c->pid, c->counters.jdk_major,
			       JFR_MIN_JDK);
	*jfr = recent && !(c->opcount.jmx && !source);
	return 0;
}

static int hotspot_enable_allocators(struct gt_backend *c, const char *packages, const char *source,
				     struct gt_error *err)
{
	if (c->sampler || c->jfr)
		return 0;
	bool jfr;
	if (hotspot_alloc_source(c, source, &jfr, err) != 0)
		return -1;
	if (jfr) {
		struct gt_attach_status st;
		if (gt_attach_read_status(c->pid, &st, err) != 0)
			return -1;
		c->jfr = gt_hotspot_jfr_start(c->pid, st.euid, packages, err);
		return c->jfr ? 0 : -1;
	}
	c->sampler = gt_hotspot_sampler_start(c->pid, packages, err);
	if (c->sampler && c->opcount.jmx && gt_hotspot_sampler_set_opcount(c->sampler, c->opcount.name, err) != 0) {
		hotspot_disable_allocators(c);
		return -1;
	}
	return c->sampler ? 0 : -1;
}

static void hotspot_disable_allocators(struct gt_backend *c)
{
	gt_hotspot_sampler_close(c->sampler);
	c->sampler = NULL;
	/* the screen's key a: its loop does not wait for JFR.stop */
	gt_hotspot_jfr_close(c->jfr, false);
	c->jfr = NULL;
	/* the perf data's pauses again; a recording started later joins anew */
	c->jfr_pauses.joined = false;
}

static const struct gt_alloc_snapshot *hotspot_allocators(const struct gt_backend *c)
{
	if (c->jfr)
		return gt_hotspot_jfr_snapshot(c->jfr);
	return c->sampler ? gt_hotspot_sampler_snapshot(c->sampler) : NULL;
}

static const struct gt_alloc_stacks *hotspot_alloc_stacks(const struct gt_backend *c)
{
	if (c->jfr)
		return gt_hotspot_jfr_stacks(c->jfr);
	return c->sampler ? gt_hotspot_sampler_stacks(c->sampler) : NULL;
}

const struct gt_backend_ops gt_hotspot_ops = {
	.name = "hotspot",
	.traits = &gt_hotspot_runtime,
	.discovery = &gt_hotspot_discovery,
	.probe = hotspot_probe,
	.open = hotspot_open,
	.poll_interval_ns = hotspot_poll_interval,
	.wait_fd = NULL,
	.poll = hotspot_poll,
	.sample = hotspot_sample,
	.close = hotspot_close,
	.list = hotspot_list,
	.set_opcount = hotspot_set_opcount,
	.enable_opcount_agent = hotspot_enable_opcount_agent,
	.enable_allocators = hotspot_enable_allocators,
	.disable_allocators = hotspot_disable_allocators,
	.allocators = hotspot_allocators,
	.alloc_stacks = hotspot_alloc_stacks,
	.census = hotspot_census,
};
