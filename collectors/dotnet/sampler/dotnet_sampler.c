/* The duty-cycled AllocationSampled session (dotnet_sampler.h).
 *
 * A cycle is a second. Always on while the events stay within the budget;
 * past it (by a margin, so that a rate near the budget does not flap), the
 * session is stopped and from then on started for share = budget / rate of
 * each cycle, at a random offset within it, wrapping at its end
 * (dotnet_duty.h). A stopped session's stream is
 * read to its end before the next one starts: stack ids are per stream,
 * and the samples of a session weigh 1/share of that session. The rate is
 * measured again from every session (its samples over its time on).
 *
 * A window is share x 1 s of the target's clock, not of gctop's requests:
 * the runtime enables a session before it answers the start and disables
 * it only when it reads the stop, so a session is on longer than gctop
 * asked by both round trips and by a poll that came late. Its samples would
 * then stand for more time than the window (on a busy machine, +5% at a
 * share of a third, +6% at a sixth: dotnet_duty_cycle). The events carry
 * CLOCK_MONOTONIC timestamps (the runtime's QueryPerformanceCounter on
 * Linux, in ns), so in the same time namespace only the samples stamped
 * within [the start's answer, that + share x 1 s] count, a window the
 * session surely covered; in another time namespace, whose clock gctop
 * cannot compare, all count, from the start's answer to the stop. */
#include "collectors/dotnet/sampler/dotnet_sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/dotnet/sampler/dotnet_alloc_events.h"
#include "collectors/dotnet/ipc/diag_ipc.h"
#include "collectors/dotnet/nettrace/nettrace.h"

/* The session's buffer: a second of samples at the budget is ~1 MB. */
#define SAMPLER_BUFFER_MB 4
/* settle_runtime's session writes nothing but its header. */
#define SETTLE_BUFFER_MB 1
#define IPC_TIMEOUT_MS 2000
#define STOP_TIMEOUT_MS 500
/* A stopped stream that has not ended by then is closed (its samples lost). */
#define DRAIN_NS 2000000000ull
/* While always on, how often the stream is read and the rate checked. */
#define ON_READ_NS 100000000ull
#define STOPPING_READ_NS 10000000ull
/* The least time between two rundowns that name code compiled while the
 * session was off: each enumerates every method of the process. */
#define RUNDOWN_GAP_NS 10000000000ull
/* StopTracing of a session with a rundown: the runtime answers only once
 * the rundown is written into the stream, which is read after the call;
 * the answer does not matter, and the screen's loop must not wait. */
#define RUNDOWN_STOP_TIMEOUT_MS 20
#define READ_SIZE 65536
/* Event timestamps in ns: the runtime's QueryPerformanceCounter on Linux. */
#define NS_PER_S 1000000000

enum sampler_state { SAMPLER_OFF, SAMPLER_ON, SAMPLER_STOPPING };

struct gt_dn_sampler {
	pid_t pid;
	char socket_path[GT_DIAG_PATH_MAX];
	struct gt_dn_alloc *alloc;
	enum sampler_state state;
	int fd;
	uint64_t session_id;
	struct gt_nettrace *parser;
	struct gt_dn_duty duty;  /* the share of each second, its windows */
	uint64_t started_ns, stopped_ns;
	bool same_clock;         /* the target's CLOCK_MONOTONIC is gctop's */
	bool timed;              /* this stream's timestamps are that clock, in ns */
	uint64_t window_from, window_to;  /* the samples that count, by timestamp */
	uint64_t events;         /* of the current session, in its window */
	uint64_t check_ns, check_events;  /* always on: the last rate check */
	uint64_t dropped;
	bool rundown;            /* the current session ends with a rundown */
	uint64_t rundown_ns;     /* when the last one was asked for */
	uint8_t *buf;
};

static void on_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	struct gt_dn_sampler *s = ctx;
	gt_dn_alloc_set_pointer_size(s->alloc, t->pointer_size);
	s->timed = s->same_clock && t->qpc_freq == NS_PER_S;
}

/* Whether a sample stamped ts falls in the window (always, untimed). */
static bool in_window(const struct gt_dn_sampler *s, int64_t ts)
{
	if (!s->timed)
		return true;
	/* a hostile timestamp is outside, never a wrapped-around inside */
	return ts >= 0 && (uint64_t)ts >= s->window_from && (uint64_t)ts <= s->window_to;
}

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	struct gt_dn_sampler *s = ctx;
	if (gt_dn_is_method_name_event(e->meta->provider, e->meta->event_id)) {
		gt_dn_alloc_method(s->alloc, e->payload, e->payload_len);
		return;
	}
	if (e->meta->event_id != GT_DN_EV_ALLOCATION_SAMPLED || strcmp(e->meta->provider, GT_DN_RUNTIME_PROVIDER) != 0)
		return;
	if (!in_window(s, e->timestamp))
		return;
	s->events++;
	gt_dn_alloc_event(s->alloc, e->meta->event_id, e->stack_id, e->payload, e->payload_len);
}

static void on_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
	struct gt_dn_sampler *s = ctx;
	gt_dn_alloc_stack(s->alloc, id, ips, size);
}

static void on_sequence_point(void *ctx)
{
	struct gt_dn_sampler *s = ctx;
	gt_dn_alloc_sequence_point(s->alloc);
}

/* A window's session ends with a rundown when its stacks held code no
 * method named (compiled while the session was off), at most every
 * RUNDOWN_GAP_NS. Always on, the session's own loads name everything
 * compiled since it started. */
static bool want_rundown(const struct gt_dn_sampler *s, uint64_t now)
{
	return s->duty.share < 1 && gt_dn_alloc_names_wanted(s->alloc) &&
	       (s->rundown_ns == 0 || now - s->rundown_ns >= RUNDOWN_GAP_NS);
}

static int start(struct gt_dn_sampler *s, struct gt_error *err)
{
	uint64_t asked = gt_mono_ns();
	bool rundown = want_rundown(s, asked);
	struct gt_diag_session_opts opts = { rundown ? GT_DIAG_RUNDOWN_DEFAULT : 0, true };
	struct gt_diag_provider p = { GT_DN_RUNTIME_PROVIDER, GT_DN_KEYWORD_ALLOCATION_SAMPLING | GT_DN_KEYWORD_JIT,
				      GT_EP_LEVEL_VERBOSE, NULL, NULL, 0 };
	struct gt_nettrace_callbacks cb = { s, on_trace, on_event };
	s->parser = gt_nettrace_new(&cb);
	if (!s->parser)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	s->fd = gt_diag_collect_tracing(s->pid, s->socket_path, IPC_TIMEOUT_MS, SAMPLER_BUFFER_MB, &opts, &p, 1,
					&s->session_id, err);
	if (s->fd < 0) {
		gt_nettrace_free(s->parser);
		s->parser = NULL;
		return -1;
	}
	fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_NONBLOCK);
	gt_nettrace_set_stack_callbacks(s->parser, on_stack, on_sequence_point);
	s->rundown = rundown;
	if (rundown)
		s->rundown_ns = asked;
	/* a new stream numbers its stacks from the start */
	gt_dn_alloc_sequence_point(s->alloc);
	gt_dn_alloc_set_scale(s->alloc, 1.0 / s->duty.share);
	s->state = SAMPLER_ON;
	/* The window's length counts from when the session is known to be on:
	 * the start's round trip, and a poll that came late, would otherwise
	 * come out of the window, and the samples then stand for more time
	 * than was sampled (on a busy machine, 6% fewer than the share). */
	uint64_t on = gt_mono_ns();
	if (s->duty.share < 1 && s->duty.off_at > s->duty.on_at && on > s->duty.on_at)
		s->duty.off_at = on + (s->duty.off_at - s->duty.on_at);
	s->timed = false;   /* until the stream's header says its clock */
	s->window_from = s->duty.share < 1 ? on : 0;
	s->window_to = s->duty.share < 1 ? s->duty.off_at : UINT64_MAX;
	s->started_ns = s->check_ns = on;
	s->events = s->check_events = 0;
	return 0;
}

static void stop(struct gt_dn_sampler *s, uint64_t now)
{
	gt_diag_stop_tracing(s->socket_path, s->rundown ? RUNDOWN_STOP_TIMEOUT_MS : STOP_TIMEOUT_MS, s->session_id);
	s->state = SAMPLER_STOPPING;
	s->stopped_ns = now;
}

/* How long the session's counted samples cover: its window when timed
 * (cut short if the runtime ended the session first), else from the
 * start's answer to the stop. */
static uint64_t time_on(const struct gt_dn_sampler *s)
{
	if (!s->timed || s->window_to == UINT64_MAX)
		return s->stopped_ns - s->started_ns;
	uint64_t end = s->stopped_ns < s->window_to ? s->stopped_ns : s->window_to;
	return end > s->window_from ? end - s->window_from : 0;
}

/* Hands the runtime back the keywords and level of the sessions that are
 * still on. EventPipe tells the runtime which keywords and level its
 * provider has (what gates the runtime's own work: allocation sampling
 * with its type names, the GC's event level) from all sessions, and on a
 * stop it counts the stopping session still (ep.c, disable_holding_lock:
 * config_enable_disable before the session leaves the array). So after a
 * window the runtime went on sampling allocations and ran its GC at
 * Verbose for no session, until the next session started: on the bench's
 * Service the sampling's log() ran all second long, not in the windows
 * alone, and --allocators cost as much at 500 events a second as at 1,000.
 * A session asking only what gctop's own asks, started and stopped at
 * once, is that next start; its stop leaves behind only what gctop's own
 * session has. Called once the stopped stream has ended: the runtime's
 * diagnostics server has then finished the stop (it serves one command at
 * a time), so neither round trip waits on a rundown. */
void gt_dn_settle_runtime(pid_t pid, const char *socket_path)
{
	struct gt_diag_session_opts opts = { 0, false };
	struct gt_diag_provider p = { GT_DN_RUNTIME_PROVIDER, GT_DN_WATCH_KEYWORDS, GT_DN_WATCH_LEVEL, NULL, NULL, 0 };
	struct gt_error err = { 0 };
	uint64_t id;
	int fd = gt_diag_collect_tracing(pid, socket_path, IPC_TIMEOUT_MS, SETTLE_BUFFER_MB, &opts, &p, 1, &id, &err);
	if (fd < 0)
		return;
	gt_diag_stop_tracing(socket_path, STOP_TIMEOUT_MS, id);
	close(fd);
}

static void settle_runtime(const struct gt_dn_sampler *s)
{
	gt_dn_settle_runtime(s->pid, s->socket_path);
}

/* The stopped stream has ended (or is given up: ended false): the rate it
 * saw sets the share of the cycles to come, and its rundown, read to the
 * end, has named what it could. */
static void finished(struct gt_dn_sampler *s, uint64_t now, bool ended)
{
	if (s->rundown && ended)
		gt_dn_alloc_names_settled(s->alloc);
	s->rundown = false;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	settle_runtime(s);
	s->dropped += gt_nettrace_end(&s->parser);
	s->state = SAMPLER_OFF;
	gt_dn_duty_session_done(&s->duty, s->events, time_on(s), now);
}

/* Reads what the stream holds; false when it ended or failed. */
static bool drain(struct gt_dn_sampler *s)
{
	for (;;) {
		ssize_t n = read(s->fd, s->buf, READ_SIZE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK;
		if (n == 0 || gt_nettrace_feed(s->parser, s->buf, (size_t)n) != 0)
			return false;
	}
}

/* Always on: past the budget, the session stops and cycling begins. */
static void check_rate(struct gt_dn_sampler *s, uint64_t now)
{
	if (now - s->check_ns < GT_DN_DUTY_CYCLE_NS)
		return;
	bool over = gt_dn_duty_check(&s->duty, s->events - s->check_events, now - s->check_ns, now);
	s->check_ns = now;
	s->check_events = s->events;
	if (over)
		stop(s, now);
}

void gt_dn_sampler_poll(struct gt_dn_sampler *s, uint64_t now)
{
	struct gt_error err = { 0 };
	switch (s->state) {
	case SAMPLER_ON:
		if (!drain(s)) {
			/* ended by the runtime: no rundown came */
			s->stopped_ns = now;
			finished(s, now, false);
		} else if (s->duty.share >= 1) {
			check_rate(s, now);
		} else if (now >= s->duty.off_at) {
			stop(s, now);
		}
		break;
	case SAMPLER_STOPPING:
		if (!drain(s))
			finished(s, now, true);
		else if (now - s->stopped_ns >= DRAIN_NS)
			finished(s, now, false);
		break;
	case SAMPLER_OFF:
		/* a start that fails is tried again at the next window */
		if (now >= s->duty.on_at && start(s, &err) != 0)
			gt_dn_duty_next_window(&s->duty, now);
		break;
	}
}

uint64_t gt_dn_sampler_next_ns(const struct gt_dn_sampler *s, uint64_t now)
{
	uint64_t at;
	switch (s->state) {
	case SAMPLER_ON:
		at = s->duty.share >= 1 ? now + ON_READ_NS : s->duty.off_at;
		break;
	case SAMPLER_STOPPING:
		at = now + STOPPING_READ_NS;
		break;
	default:
		at = s->duty.on_at;
		break;
	}
	/* never 0, which means no tick at all */
	return at > now ? at - now : 1000000;
}

struct gt_dn_sampler *gt_dn_sampler_new(pid_t pid, const char *socket_path, bool same_clock,
					struct gt_dn_alloc *alloc, struct gt_error *err)
{
	struct gt_dn_sampler *s = gt_calloc(sizeof(*s), err);
	if (!s)
		return NULL;
	s->buf = gt_calloc(READ_SIZE, err);
	if (!s->buf) {
		free(s);
		return NULL;
	}
	s->pid = pid;
	memcpy(s->socket_path, socket_path, sizeof(s->socket_path));
	s->socket_path[sizeof(s->socket_path) - 1] = '\0';
	s->alloc = alloc;
	s->same_clock = same_clock;
	s->fd = -1;
	uint64_t now = gt_mono_ns();
	gt_dn_duty_init(&s->duty, now, now | 1);
	if (start(s, err) != 0) {
		free(s->buf);
		free(s);
		return NULL;
	}
	return s;
}

void gt_dn_sampler_free(struct gt_dn_sampler *s)
{
	if (!s)
		return;
	if (s->state == SAMPLER_ON)
		gt_diag_stop_tracing(s->socket_path, s->rundown ? RUNDOWN_STOP_TIMEOUT_MS : STOP_TIMEOUT_MS,
				     s->session_id);
	if (s->fd >= 0)
		close(s->fd);
	/* Sampling off while gctop watches on: the runtime's sampling stops
	 * too (not after a rundown, which the server may still be writing:
	 * that start would wait for it, and gctop's loop with it). */
	if (s->state != SAMPLER_OFF && !s->rundown)
		settle_runtime(s);
	gt_nettrace_free(s->parser);
	free(s->buf);
	free(s);
}

double gt_dn_sampler_share(const struct gt_dn_sampler *s)
{
	return s->duty.share;
}

double gt_dn_sampler_rate(const struct gt_dn_sampler *s)
{
	return s->duty.rate;
}

uint64_t gt_dn_sampler_dropped(const struct gt_dn_sampler *s)
{
	return s->dropped + (s->parser ? gt_nettrace_stats(s->parser)->dropped : 0);
}
