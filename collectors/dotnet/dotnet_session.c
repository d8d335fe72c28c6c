/* gctop's EventPipe session with one .NET process (collectors/dotnet/
 * dotnet_internal.h): started over the diagnostics socket with the GC
 * events and the runtime's counters, read as it streams in, settled until
 * the first allocation figure, stopped; and allocation sampling's sessions
 * (a rundown that names the methods, then on 8 and 9 gctop's session
 * restarted with stacks, on 10 the sampler's own). */
#include "collectors/dotnet/dotnet_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"

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
	if (strcmp(e->meta->provider, RUNTIME_PROVIDER) == 0) {
		gt_dn_gc_event(&c->gc, e->meta->event_id, e->thread_id, e->timestamp, e->payload, e->payload_len);
		gt_dn_inspection_event(&c->inspection, c->pid, e);
	} else
		gt_dn_counters_event(&c->counters, e);
}

/* On 8 and 9 allocations are sampled in gctop's own session (AllocationTick,
 * GC keyword at Verbose); on 10 in the sampler's (sampler/dotnet_sampler.h), and
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
int dotnet_session_start(struct gt_backend *c, struct gt_error *err)
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
	c->fd = gt_diag_collect_tracing(c->pid, c->socket_path, DOTNET_IPC_TIMEOUT_MS, SESSION_BUFFER_MB, &opts,
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

void dotnet_session_stop(struct gt_backend *c)
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

void dotnet_poll(struct gt_backend *c, uint64_t now_ns)
{
	if (c->ended || c->failed)
		return;
	uint8_t *buf = c->read_buf;
	size_t total = 0;
	/* A budget per call keeps the main loop responsive under a flood. */
	while (total < READ_BUDGET) {
		ssize_t n = read(c->fd, buf, DOTNET_READ_BUF_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		/* EAGAIN: drained. ECONNRESET (the runtime closed with bytes of
		 * ours unread): Linux reports it once, and the next read, at the
		 * next wake (at once: the socket stays readable), returns the
		 * end, so dotnet_settle ends there and does not wait out its
		 * deadline (tests/integration/security_stream_reset.sh). */
		if (n < 0)
			break;
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
void dotnet_settle(struct gt_backend *c, uint64_t deadline_ns)
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
	int fd = gt_diag_collect_tracing(c->pid, c->socket_path, DOTNET_IPC_TIMEOUT_MS, 1, &opts, &p, 1, &id, &err);
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
			ssize_t n = read(fd, buf, DOTNET_READ_BUF_SIZE);
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
void dotnet_session_free_sampling(struct gt_backend *c)
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
void dotnet_session_stop_sampling(struct gt_backend *c)
{
	bool restart = main_session_samples(c);
	if (restart)
		dotnet_session_stop(c);
	dotnet_session_free_sampling(c);
	struct gt_error err = { 0 };
	if (restart && dotnet_session_start(c, &err) != 0) {
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
int dotnet_session_start_sampling(struct gt_backend *c, struct gt_error *err)
{
	if (c->runtime_major >= 10) {
		c->sampler = gt_dn_sampler_new(c->pid, c->socket_path, c->same_clock, c->alloc, err);
		if (!c->sampler)
			return -1;
	} else {
		dotnet_session_stop(c);
		if (dotnet_session_start(c, err) != 0)
			return -1;
	}
	harvest_rundown(c);
	return 0;
}
