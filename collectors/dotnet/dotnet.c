/* The .NET collector: one EventPipe session per watched process over the
 * diagnostics IPC socket, carrying the GC events (DotNETRuntime, GC keyword,
 * Informational) and the runtime's counters, parsed as they stream in.
 *
 * Collections per generation count each GC once, by its condemned (oldest
 * collected) generation, as dotnet-counters and OpenTelemetry do, and so do
 * the per-collector entries ("gen0", "gen1", "gen2"); the generations'
 * collections_inclusive count like GC.CollectionCount: a gen2 GC counts
 * for gen0 and gen1 too. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/backend.h"
#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/dotnet/ipc/diag_ipc.h"
#include "model/allocators.h"
#include "collectors/dotnet/dotnet_alloc.h"
#include "collectors/dotnet/dotnet_info.h"
#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/dotnet_sampler.h"
#include "collectors/dotnet/proc/dotnet_proc.h"
#include "collectors/dotnet/nettrace/nettrace.h"

#define IPC_TIMEOUT_MS 2000
#define SESSION_BUFFER_MB 16
/* The EventCounters interval (seconds, as text for the provider arguments:
 * the same as dotnet-counters', since sessions share the shortest one). */
#define COUNTER_INTERVAL "1"
#define COUNTER_INTERVAL_NS 1000000000ull
/* How late the runtime's first counter poll may come after
 * COUNTER_INTERVAL_NS (its first use's work, 20-300 ms, and a loaded
 * machine's delays) before the first sample stops waiting for it. */
#define FIRST_POLL_SLACK_NS 700000000ull
#define READ_BUDGET (4u << 20)
/* StopTracing when gctop ends or restarts its session; the stream's close
 * ends the session anyway, so it is not worth waiting long for. */
#define STOP_TIMEOUT_MS 500

struct gt_backend {
	pid_t pid;
	char socket_path[GT_DIAG_PATH_MAX];
	int fd;
	uint64_t session_id;
	struct gt_nettrace *parser;
	bool ended;              /* the runtime closed the stream */
	bool failed;
	enum gt_exit fail_code;
	char fail_msg[300];
	bool have_offset;
	int64_t clock_offset;    /* monotonic ns minus event timestamp */
	bool same_clock;         /* same time namespace: the offset is 0, not learned */
	struct gt_u64 hard_limit;   /* the GC heap hard limit, configured or by default */
	struct gt_dn_gc gc;
	struct gt_dn_counters counters;
	/* gctop's clock when the runtime answered the request for the session
	 * whose enable reset its allocation counter: where the first poll's
	 * increment starts (counters.first_counts). */
	uint64_t enable_ns;
	uint64_t dropped_before;  /* lost in sessions this one replaced */
	int runtime_major;
	struct gt_dn_alloc *alloc;           /* allocation sampling, when on */
	struct gt_alloc_snapshot *alloc_snap;
	struct gt_alloc_stacks *alloc_stacks;  /* the stacks behind alloc_snap's sites */
	struct gt_dn_sampler *sampler;       /* .NET 10: AllocationSampled in a session of its own */
	/* The stream is read into this, one backend's own: gctop may read two
	 * targets' streams on two threads (session/job.h). Allocated apart and
	 * not cleared: a read touches only the pages it fills (a few KiB a
	 * second for an idle runtime), where a buffer inside the calloc'd
	 * backend was cleared whole, 64 KiB of each .NET process resident in
	 * gctop --serve. */
	uint8_t *read_buf;
};

#define READ_BUF_SIZE 65536

static const char RUNTIME_PROVIDER[] = GT_DN_RUNTIME_PROVIDER;

static void on_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	struct gt_backend *c = ctx;
	c->gc.qpc_freq = t->qpc_freq;
	c->counters.qpc_freq = t->qpc_freq;
	c->gc.pointer_size = t->pointer_size;
	if (c->alloc)
		gt_dn_alloc_set_pointer_size(c->alloc, t->pointer_size);
}

/* Stacks of this session's stream; with a sampler the samples and their
 * stacks come in its stream instead, numbered there. */
static void on_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
	struct gt_backend *c = ctx;
	if (c->alloc && !c->sampler)
		gt_dn_alloc_stack(c->alloc, id, ips, size);
}

static void on_sequence_point(void *ctx)
{
	struct gt_backend *c = ctx;
	if (c->alloc && !c->sampler)
		gt_dn_alloc_sequence_point(c->alloc);
}

/* Method names for the sampler: loads in the live session (on 8 and 9),
 * and the rundown session's end enumeration. */
static bool alloc_method_event(struct gt_backend *c, const struct gt_nettrace_event *e)
{
	if (!c->alloc || !gt_dn_is_method_name_event(e->meta->provider, e->meta->event_id))
		return false;
	gt_dn_alloc_method(c->alloc, e->payload, e->payload_len);
	return true;
}

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	struct gt_backend *c = ctx;
	if (c->gc.qpc_freq == 1000000000 && !c->same_clock) {
		/* Timestamps are CLOCK_MONOTONIC on Linux, but the clock of a time
		 * namespace may be offset: learn the offset from arrival times. */
		int64_t off;
		/* a hostile timestamp must not overflow the difference */
		if (__builtin_sub_overflow((int64_t)gt_mono_ns(), e->timestamp, &off))
			off = INT64_MAX;
		if (!c->have_offset || off < c->clock_offset) {
			c->clock_offset = off;
			c->have_offset = true;
		}
	}
	if (alloc_method_event(c, e))
		return;
	if (c->alloc && strcmp(e->meta->provider, RUNTIME_PROVIDER) == 0)
		gt_dn_alloc_event(c->alloc, e->meta->event_id, e->stack_id, e->payload, e->payload_len);
	if (strcmp(e->meta->provider, RUNTIME_PROVIDER) == 0)
		gt_dn_gc_event(&c->gc, e->meta->event_id, e->thread_id, e->timestamp, e->payload, e->payload_len);
	else
		gt_dn_counters_event(&c->counters, e);
}

/* ---- probe ---- */

static bool diagnostics_disabled(pid_t pid)
{
	char v[16];
	return (gt_dotnet_proc_getenv(pid, "DOTNET_EnableDiagnostics", v, sizeof(v)) == 0 && strcmp(v, "0") == 0) ||
	       (gt_dotnet_proc_getenv(pid, "COMPlus_EnableDiagnostics", v, sizeof(v)) == 0 && strcmp(v, "0") == 0) ||
	       (gt_dotnet_proc_getenv(pid, "DOTNET_EnableDiagnostics_IPC", v, sizeof(v)) == 0 && strcmp(v, "0") == 0);
}

static enum gt_probe dotnet_probe(pid_t pid, struct gt_error *err)
{
	char path[GT_DIAG_PATH_MAX];
	struct gt_error ferr = { 0 };
	int found = gt_diag_find_socket(pid, path, sizeof(path), &ferr);
	if (found == 0)
		return GT_PROBE_YES;
	if (gt_dotnet_proc_maps_coreclr(pid) != 1) {
		if (found < 0) {
			if (err)
				*err = ferr;
			return GT_PROBE_ERROR;
		}
		return GT_PROBE_NO;
	}
	if (found < 0) {
		if (err)
			*err = ferr;
		return GT_PROBE_ERROR;
	}
	if (diagnostics_disabled(pid)) {
		gt_fail(err, GT_EXIT_NO_DATA,
			".NET process %d runs with DOTNET_EnableDiagnostics=0, so it has no diagnostics socket; "
			"restart it without that setting to watch it", (int)pid);
		return GT_PROBE_ERROR;
	}
	/* A runtime still starting has not made its socket yet: open waits. */
	return GT_PROBE_YES;
}

/* ---- open ---- */

/* How long a runtime that is still starting has to make its socket. */
#define SOCKET_WAIT_MS 3000
#define SOCKET_WAIT_STEP_MS 100

static int wait_for_socket(pid_t pid, char *path, size_t size, struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, SOCKET_WAIT_MS, SOCKET_WAIT_STEP_MS);
	for (;;) {
		int rc = gt_diag_find_socket(pid, path, size, err);
		if (rc <= 0)
			return rc;
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d exited before gctop could attach", (int)pid);
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			break;
	}
	if (diagnostics_disabled(pid))
		return gt_fail(err, GT_EXIT_NO_DATA,
			       ".NET process %d runs with DOTNET_EnableDiagnostics=0, so it has no diagnostics socket; "
			       "restart it without that setting to watch it", (int)pid);
	return gt_fail(err, GT_EXIT_TIMEOUT,
		       ".NET process %d has no diagnostics socket in its TMPDIR after %d seconds; "
		       "if it runs in a container, run gctop as root on the host", (int)pid, SOCKET_WAIT_MS / 1000);
}

/* On 8 and 9 allocations are sampled in gctop's own session (AllocationTick,
 * GC keyword at Verbose); on 10 in the sampler's (dotnet_sampler.h), and
 * gctop's session stays as it was. */
static bool main_session_samples(const struct gt_backend *c)
{
	return c->alloc && c->runtime_major < 10;
}

/* gctop's session: the GC events and counters, at Informational. On 8 and
 * 9, while sampling, also AllocationTick with stacks and the method loads
 * that name their frames, at Verbose. Not on 10: the runtime raises the GC
 * to the highest level any session asks of its provider, and at Verbose
 * it prepares events gctop does not read (AllocationTick names a type per
 * ~100 KB, GCJoin at every join of every heap, some inside the pause): on a
 * Server GC service 3-10% of its throughput (bench/README.md, 2d). */
static int start_session(struct gt_backend *c, struct gt_error *err)
{
	uint64_t keywords = GT_DN_WATCH_KEYWORDS;
	uint32_t level = GT_DN_WATCH_LEVEL;
	struct gt_diag_session_opts opts = { 0, false };
	if (main_session_samples(c)) {
		/* MethodLoadVerbose, with the names, and AllocationTick need Verbose */
		keywords |= GT_DN_KEYWORD_JIT;
		level = GT_EP_LEVEL_VERBOSE;
		opts.stacks = true;
	}
	struct gt_diag_provider providers[] = {
		{ RUNTIME_PROVIDER, keywords, level, NULL, NULL, 0 },
		{ "System.Runtime", 0, GT_EP_LEVEL_INFORMATIONAL, "EventCounterIntervalSec=" COUNTER_INTERVAL, NULL, 0 },
		{ "Microsoft.AspNetCore.Hosting", 0, GT_EP_LEVEL_INFORMATIONAL, "EventCounterIntervalSec=" COUNTER_INTERVAL, NULL, 0 },
	};
	size_t n = sizeof(providers) / sizeof(providers[0]);
	c->fd = gt_diag_collect_tracing(c->pid, c->socket_path, IPC_TIMEOUT_MS, SESSION_BUFFER_MB, &opts,
					     providers, n, &c->session_id, err);
	if (c->fd < 0)
		return -1;
	/* The runtime resets its counter while it enables the session, just
	 * before it answers (measured on .NET 10, fresh processes: the first
	 * increment matched GC.GetTotalAllocatedBytes over the time since the
	 * answer within 1%, where the time since the request, 20-60 ms
	 * earlier, was up to 6% too long). */
	if (!c->counters.have_alloc)
		c->enable_ns = gt_mono_ns();
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	struct gt_nettrace_callbacks cb = { c, on_trace, on_event };
	c->parser = gt_nettrace_new(&cb);
	if (!c->parser) {
		close(c->fd);
		c->fd = -1;
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	gt_nettrace_set_stack_callbacks(c->parser, on_stack, on_sequence_point);
	c->ended = false;
	return 0;
}

static void stop_session(struct gt_backend *c)
{
	/* StopTracing goes on a new connection (the runtime ignores commands on
	 * the streaming one); closing the stream alone also ends the session,
	 * which is what happens when gctop is killed. */
	if (c->fd >= 0) {
		if (!c->ended)
			gt_diag_stop_tracing(c->socket_path, STOP_TIMEOUT_MS, c->session_id);
		close(c->fd);
		c->fd = -1;
	}
	c->dropped_before += gt_nettrace_end(&c->parser);
	/* A pause cut in half by the restart is not measured. */
	gt_dn_gc_forget_suspensions(&c->gc);
}

/* The target's CLOCK_MONOTONIC is gctop's when both are in one time
 * namespace (the kernel's handle for it is the same inode). */
static bool same_time_namespace(pid_t pid)
{
	char path[64];
	struct stat self, target;
	snprintf(path, sizeof(path), "/proc/%d/ns/time", (int)pid);
	return stat("/proc/self/ns/time", &self) == 0 && stat(path, &target) == 0 &&
	       self.st_ino == target.st_ino && self.st_dev == target.st_dev;
}

static struct gt_backend *dotnet_open(pid_t pid, struct gt_target_info *info, struct gt_error *err)
{
	struct gt_backend *c = gt_calloc(sizeof(*c), err);
	if (!c)
		return NULL;
	c->pid = pid;
	c->fd = -1;
	c->read_buf = malloc(READ_BUF_SIZE);
	if (!c->read_buf) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		goto fail;
	}
	if (wait_for_socket(pid, c->socket_path, sizeof(c->socket_path), err) != 0)
		goto fail;
	struct gt_diag_process_info pi;
	if (gt_diag_process_info(pid, c->socket_path, IPC_TIMEOUT_MS, &pi, err) != 0)
		goto fail;
	gt_dn_fill_info(pid, &pi, info);
	c->hard_limit = info->heap_max_bytes;

	c->runtime_major = gt_diag_runtime_major(pi.runtime_version);

	gt_dn_gc_init(&c->gc, 1000000000);
	gt_dn_counters_init(&c->counters);
	c->counters.first_counts = c->runtime_major >= GT_DN_FIRST_INCREMENT_MAJOR;
	/* seen on 8.0: a first alloc-rate increment of everything since start */
	c->same_clock = same_time_namespace(pid);
	c->have_offset = c->same_clock;
	if (start_session(c, err) != 0)
		goto fail;
	return c;
fail:
	if (c->fd >= 0)
		close(c->fd);
	free(c->read_buf);
	free(c);
	return NULL;
}

/* ---- streaming ---- */

static int dotnet_wait_fd(const struct gt_backend *c)
{
	return c->ended || c->failed ? -1 : c->fd;
}

/* The stream's events are timed by their own timestamps, and a sample
 * reads whatever is pending; only the arrival times that learn the clock
 * offset of another time namespace (on_event) and the sampler's own tick
 * want the stream read at once. */
static bool dotnet_wait_may_lag(const struct gt_backend *c)
{
	return c->same_clock && !c->sampler && !c->alloc;
}

static void dotnet_poll(struct gt_backend *c, uint64_t now_ns)
{
	if (c->ended || c->failed)
		return;
	uint8_t *buf = c->read_buf;
	size_t total = 0;
	/* A budget per call keeps the main loop responsive under a flood. */
	while (total < READ_BUDGET) {
		ssize_t n = read(c->fd, buf, READ_BUF_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break; /* EAGAIN: drained */
		if (n == 0) {
			c->ended = true;
			break;
		}
		total += (size_t)n;
		int rc = gt_nettrace_feed(c->parser, buf, (size_t)n);
		if (rc < 0) {
			c->failed = true;
			c->fail_code = GT_EXIT_BAD_DATA;
			snprintf(c->fail_msg, sizeof(c->fail_msg), "the EventPipe stream of process %d is unreadable: %s",
				 (int)c->pid, gt_nettrace_error(c->parser));
			break;
		}
		if (rc == 1) {
			c->ended = true;
			break;
		}
	}
	if (c->sampler && !c->ended && !c->failed)
		gt_dn_sampler_poll(c->sampler, now_ns ? now_ns : gt_mono_ns());
}

/* Whether a sample now would have the allocation figure: a poll of the
 * runtime's counter that counts (first_counts). */
static bool alloc_ready(const struct gt_backend *c)
{
	return c->have_offset && c->counters.alloc_polls.count >= 1;
}

/* Waits for the figure until it should have come: the first poll, a
 * counter interval after the session's start. Not on .NET 8, whose first
 * poll only starts the count: the figure would need a second one, so the
 * first output would come two seconds late; it says why instead
 * (ALLOC_FIRST_STARTS). */
static void dotnet_settle(struct gt_backend *c, uint64_t deadline_ns)
{
	if (!c->counters.first_counts)
		return;
	uint64_t expected = c->enable_ns + COUNTER_INTERVAL_NS + FIRST_POLL_SLACK_NS;
	if (expected < deadline_ns)
		deadline_ns = expected;
	while (!alloc_ready(c) && !c->ended && !c->failed) {
		/* the sampler's tick still runs on time (dotnet_poll runs it) */
		uint64_t now = gt_mono_ns(), wake = deadline_ns;
		uint64_t tick = c->sampler ? gt_dn_sampler_next_ns(c->sampler, now) : 0;
		if (tick && now + tick < wake)
			wake = now + tick;
		enum gt_wait_result r = gt_wait_fd(c->fd, POLLIN, wake);
		if (r == GT_WAIT_QUIT || r == GT_WAIT_ERROR || (r == GT_WAIT_TIMEOUT && wake == deadline_ns))
			return;
		dotnet_poll(c, 0);
	}
}

static uint64_t dotnet_poll_interval(const struct gt_backend *c)
{
	return c->sampler ? gt_dn_sampler_next_ns(c->sampler, gt_mono_ns()) : 0;
}

/* ---- sample ---- */

static void set_generation(struct gt_sample *out, unsigned i, const char *name)
{
	snprintf(out->generations[i].name, sizeof(out->generations[i].name), "%s", name);
}

/* How far apart two counter groups' polls of one tick can be written (they
 * share the runtime's polling thread). */
/* a + b, held at the int64 range: the target's timestamps are hostile. */
static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

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
		gt_u64_set(&out->ops_total, req);
		out->ops_name = "requests";
		out->ops_counter = "Microsoft.AspNetCore.Hosting/total-requests";
	}
}

_Static_assert(sizeof(((struct gt_dn_gc *)0)->pause_log) == sizeof(((struct gt_sample *)0)->pause_log.ns),
	       "the collector's pause log is copied whole into the sample's");

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

static int dotnet_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err)
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
	if (out->ops_total.valid && out->alloc_at.valid)
		gt_u64_set(&out->ops_collections_total,
			   gt_dn_gc_collections_until(g, sat_add((int64_t)out->alloc_at.ns, -c->clock_offset)));
	fill_generations(c, out);
	if (g->have_reason)
		snprintf(out->last_gc_cause, sizeof(out->last_gc_cause), "%s", gt_dn_gc_reason_name(g->last_reason));
	gt_dn_gc_fill_causes(g, out);
	out->gc_in_progress = gt_dn_gc_suspended(g) || g->background_running;
	if (g->have_history && g->history.num_heaps > 0)
		gt_u64_set(&out->gc_heap_count, (uint64_t)g->history.num_heaps);
	fill_pauses(g, out);
	/* the sample's moment by the runtime's clock, where its timestamps are
	 * gctop's CLOCK_MONOTONIC (plus a learned offset) */
	if (c->have_offset && g->qpc_freq == 1000000000)
		gt_dn_gc_fill_pause_at(g, out->mono_ns, sat_add((int64_t)out->mono_ns, -c->clock_offset), out);
	fill_heap(c, out);

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

/* ---- close ---- */

static void dotnet_close(struct gt_backend *c)
{
	if (!c)
		return;
	gt_dn_sampler_free(c->sampler);
	stop_session(c);
	gt_dn_alloc_free(c->alloc);
	free(c->alloc_snap);
	free(c->alloc_stacks);
	free(c->read_buf);
	free(c);
}

/* ---- allocation sampling ---- */

/* The rundown stream's end, however long the runtime takes to write it. */
#define RUNDOWN_TIMEOUT_MS 5000
/* StopTracing of the rundown session: short, its answer does not matter. */
#define RUNDOWN_STOP_TIMEOUT_MS 200

/* Names the methods compiled before sampling starts: EventPipe enumerates
 * them only when a session with rundown ends, so a session with nothing but
 * rundown is opened and stopped at once, and its stream read to the end. */
static void harvest_rundown(struct gt_backend *c)
{
	struct gt_diag_session_opts opts = { GT_DIAG_RUNDOWN_DEFAULT, false };
	/* A provider is required; the JIT keyword at Informational adds only
	 * the few unnamed MethodLoad events of the moment. */
	struct gt_diag_provider p = { RUNTIME_PROVIDER, GT_DN_KEYWORD_JIT, GT_EP_LEVEL_INFORMATIONAL, NULL, NULL, 0 };
	uint64_t id;
	struct gt_error err = { 0 };
	int fd = gt_diag_collect_tracing(c->pid, c->socket_path, IPC_TIMEOUT_MS, 1, &opts, &p, 1, &id, &err);
	if (fd < 0)
		return;
	struct gt_nettrace_callbacks cb = { c, on_trace, on_event };
	struct gt_nettrace *parser = gt_nettrace_new(&cb);
	/* The runtime may answer StopTracing only once the rundown is written
	 * into a stream nobody reads yet: the answer does not matter, the
	 * stream's end does. */
	if (parser) {
		gt_diag_stop_tracing(c->socket_path, RUNDOWN_STOP_TIMEOUT_MS, id);
		uint8_t *buf = c->read_buf;
		uint64_t deadline = gt_wait_deadline_in_ms(RUNDOWN_TIMEOUT_MS);
		for (;;) {
			if (gt_wait_fd(fd, POLLIN, deadline) != GT_WAIT_READY)
				break;
			ssize_t n = read(fd, buf, READ_BUF_SIZE);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0 || gt_nettrace_feed(parser, buf, (size_t)n) != 0)
				break;
		}
	}
	gt_nettrace_free(parser);
	close(fd);
}

/* Sampling's state freed. */
static void free_sampling(struct gt_backend *c)
{
	gt_dn_sampler_free(c->sampler);
	c->sampler = NULL;
	gt_dn_alloc_free(c->alloc);
	c->alloc = NULL;
	free(c->alloc_snap);
	c->alloc_snap = NULL;
	free(c->alloc_stacks);
	c->alloc_stacks = NULL;
}

/* Sampling off, and on 8 and 9 the session without it started again (the
 * one before has ended). When even that fails, the collector fails: the
 * next sample says why. */
static void stop_sampling(struct gt_backend *c)
{
	bool restart = main_session_samples(c);
	if (restart)
		stop_session(c);
	free_sampling(c);
	struct gt_error err = { 0 };
	if (restart && start_session(c, &err) != 0) {
		c->failed = true;
		c->fail_code = err.code;
		snprintf(c->fail_msg, sizeof(c->fail_msg), "%.290s", err.msg);
	}
}

/* The method names come after the loads have started, in the sampling
 * session's stream (or, on 8 and 9, gctop's own): a method compiled between a
 * rundown and the start of the loads would be named by neither, and its
 * frames would read [native] (seen: every frame of a serializer tiering up
 * then). The sampling session's events wait in its buffer meanwhile. */
static int start_sampling(struct gt_backend *c, struct gt_error *err)
{
	if (c->runtime_major >= 10) {
		c->sampler = gt_dn_sampler_new(c->pid, c->socket_path, c->same_clock, c->alloc, err);
		if (!c->sampler)
			return -1;
	} else {
		stop_session(c);
		if (start_session(c, err) != 0)
			return -1;
	}
	harvest_rundown(c);
	return 0;
}

/* Starts allocation sampling, after a short rundown session that names the
 * methods already compiled: on 10, AllocationSampled and the method loads
 * in a session of their own (dotnet_sampler.h); on 8 and 9, gctop's session
 * restarted with stacks, the method loads and AllocationTick. Nothing is
 * loaded into the process. On failure the collector keeps (or gets back)
 * its session without sampling. */
static int dotnet_enable_allocators(struct gt_backend *c, const char *packages, struct gt_error *err)
{
	if (c->alloc)
		return 0;
	if (c->ended || c->failed)
		return gt_fail(err, GT_EXIT_NO_DATA, "gctop's EventPipe session of process %d has ended", (int)c->pid);
	c->alloc = gt_dn_alloc_new(c->runtime_major >= 10, packages, err);
	if (!c->alloc)
		return -1;
	c->alloc_snap = gt_calloc(sizeof(*c->alloc_snap), err);
	c->alloc_stacks = c->alloc_snap ? gt_calloc(sizeof(*c->alloc_stacks), err) : NULL;
	if (!c->alloc_stacks) {
		free_sampling(c);
		return -1;
	}
	gt_dn_alloc_set_pointer_size(c->alloc, c->gc.pointer_size);
	if (start_sampling(c, err) != 0) {
		stop_sampling(c);
		return -1;
	}
	gt_dn_alloc_snapshot(c->alloc, gt_mono_ns(), c->alloc_snap);
	gt_dn_alloc_stacks(c->alloc, c->alloc_stacks);
	return 0;
}

/* Back to the session without stacks and allocation events. */
static void dotnet_disable_allocators(struct gt_backend *c)
{
	if (c->alloc)
		stop_sampling(c);
}

static const struct gt_alloc_snapshot *dotnet_allocators(const struct gt_backend *c)
{
	return c->alloc ? c->alloc_snap : NULL;
}

static const struct gt_alloc_stacks *dotnet_alloc_stacks(const struct gt_backend *c)
{
	return c->alloc ? c->alloc_stacks : NULL;
}

const struct gt_backend_ops gt_dotnet_ops = {
	.name = "dotnet",
	.traits = &gt_dotnet_runtime,
	.discovery = &gt_dotnet_discovery,
	.probe = dotnet_probe,
	.open = dotnet_open,
	.wait_fd = dotnet_wait_fd,
	.wait_may_lag = dotnet_wait_may_lag,
	.poll = dotnet_poll,
	.poll_interval_ns = dotnet_poll_interval,
	.settle = dotnet_settle,
	.sample = dotnet_sample,
	.close = dotnet_close,
	.list = gt_dn_list,
	.enable_allocators = dotnet_enable_allocators,
	.disable_allocators = dotnet_disable_allocators,
	.allocators = dotnet_allocators,
	.alloc_stacks = dotnet_alloc_stacks,
};
