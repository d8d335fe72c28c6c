/* gt_screen_run: the interactive main loop.
 *
 * One thread draws and answers keys, with one wait (session/driver.h): it
 * sleeps on the terminal and the target's event descriptor until the next sample
 * deadline (CLOCK_MONOTONIC, next += interval), the collector's next poll
 * tick, a key, a signal, or the end of a session's job (the slow steps run
 * on a worker: tui/app_session.c, session/job.h). Signal handlers only set
 * flags; everything else happens here. What a key does is
 * tui/keys_*.c's, what is drawn tui/draw.c's, a replay's moves
 * tui/app_replay.c's. */
#include <ncurses.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "session/driver.h"
#include "tui/app.h"
#include "tui/app_census.h"
#include "tui/app_keys.h"
#include "tui/app_replay.h"
#include "tui/app_session.h"
#include "tui/draw.h"
#include "session/session_census.h"
#include "session/job.h"
#include "tui/term.h"
#include "tui/theme.h"
#include "tui/screen.h"

/* Collector descriptors the loop waits on (the picker's rows beyond this
 * are drained on the poll tick alone). */
#define LOOP_MAX_WAIT_FDS 64
/* While a job runs (session/job.h) its line counts the seconds, so the
 * screen is seen to be alive. */
#define LOOP_BUSY_TICK_NS 1000000000ull
/* Between two slices of a replay's move (tui/app_replay.c) the loop
 * looks at the keys this long (a poll ends at once on a key). */
#define LOOP_REPLAY_KEYS_NS 1000000ull
/* Keys read in one wake at most: a terminal that pours input (or a getch
 * that never says ERR) must still let the loop look at the quit flag. */
#define LOOP_MAX_KEYS 512

/* Samples and polls what is due; true when there is something new to draw. */
static bool tick(struct gt_app *a, uint64_t now)
{
	if (a->replay)
		return gt_app_replay_tick(a, now);
	if (gt_app_in_dashboard(a)) {
		if (gt_session_busy(&a->session))
			return gt_app_collect_job(a);
		struct gt_error err = { 0 };
		/* Gone: the last figures stay, and the loop waits for keys only. */
		enum gt_session_step step = gt_session_tick(&a->session, now, &err);
		if (step == GT_SESSION_SAMPLED && a->recorder && gt_recorder_write(a->recorder, &a->session, a->err) != 0) {
			/* A recording with holes would compare wrongly: stop, say why. */
			a->status = GT_EXIT_FAILURE;
			a->quit = true;
		}
		return step != GT_SESSION_IDLE;
	}
	return a->picker_mode && gt_picker_tick(&a->picker, now);
}

static uint64_t next_deadline(struct gt_app *a)
{
	if (a->replay && a->replay->moving)
		return gt_mono_ns() + LOOP_REPLAY_KEYS_NS;
	if (a->replay)
		return a->replay->playing ? a->replay->next_ns : GT_DEADLINE_NEVER;
	if (gt_app_in_dashboard(a))
		return gt_session_deadline(&a->session);
	return a->picker_mode ? gt_picker_deadline(&a->picker) : GT_DEADLINE_NEVER;
}

/* The collectors' descriptors to wait on: up to max; returns how many. */
static size_t wait_fds(const struct gt_app *a, int *fds, size_t max)
{
	if (gt_app_in_dashboard(a)) {
		int fd = gt_session_wait_fd(&a->session);
		if (fd < 0 || max == 0)
			return 0;
		fds[0] = fd;
		return 1;
	}
	return a->picker_mode ? gt_picker_wait_fds(&a->picker, fds, max) : 0;
}

/* A collector's descriptor became readable: polled holds the n of
 * wait_fds after the poll. True when there is something new to draw (the
 * picker's listing came). */
static bool events(struct gt_app *a, const struct pollfd *polled, size_t n, uint64_t now)
{
	if (gt_app_in_dashboard(a))
		gt_session_events(&a->session, now);
	else if (a->picker_mode)
		return gt_picker_events(&a->picker, polled, n, now);
	return false;
}

/* ---- the loop ---- */

/* Before the wait: a resize, what is due (tick), the one-off message's
 * end, then the drawing. False ends the loop (q, or a job's end that ends
 * gctop: a -p target that could not be opened). */
static bool loop_tick(void *ctx, uint64_t now)
{
	struct gt_app *a = ctx;
	if (a->quit)
		return false;
	/* Hung up without SIGHUP (the shell above survived it) and without a
	 * wake on the terminal (a poll ended by a collector first). */
	if (gt_term_gone()) {
		a->status = GT_EXIT_TERMINAL_GONE;
		return false;
	}
	if (gt_term_resized) {
		gt_term_resized = 0;
		gt_term_apply_resize();
		if (gt_app_in_dashboard(a))
			gt_dashboard_forget_windows(&a->db);
		a->dirty = true;
	}
	if (tick(a, now))
		a->dirty = true;
	if (a->quit)
		return false;
	/* A job's or a census's line counts its seconds. */
	if (gt_app_in_dashboard(a) && (gt_session_busy(&a->session) || gt_session_census_running(&a->session)))
		a->dirty = true;
	if (a->note[0] && now >= a->note_until) {
		a->note[0] = '\0';
		a->dirty = true;
	}
	if (a->dirty) {
		gt_draw_screen(a);
		a->dirty = false;
	}
	return true;
}

/* The next sample or step, a job's next second, the message's end. */
static uint64_t loop_deadline(void *ctx, uint64_t now)
{
	struct gt_app *a = ctx;
	uint64_t deadline = next_deadline(a);
	if (gt_app_in_dashboard(a) && gt_session_busy(&a->session)) {
		uint64_t busy_tick = a->busy_since + ((now - a->busy_since) / LOOP_BUSY_TICK_NS + 1) * LOOP_BUSY_TICK_NS;
		if (busy_tick < deadline)
			deadline = busy_tick;
	}
	/* so does a census's */
	if (gt_app_in_dashboard(a) && gt_session_census_running(&a->session)) {
		uint64_t tick = a->census_since + ((now - a->census_since) / LOOP_BUSY_TICK_NS + 1) * LOOP_BUSY_TICK_NS;
		if (tick < deadline)
			deadline = tick;
	}
	if (a->note[0] && a->note_until < deadline)
		deadline = a->note_until;
	return deadline;
}

static size_t loop_terminal_fd(void *ctx, int *fds, size_t max, bool lagging_too)
{
	(void)ctx;
	(void)max;
	(void)lagging_too;
	fds[0] = STDIN_FILENO;
	return 1;
}

/* The keys typed. False ends the loop: the terminal went away (ssh
 * dropped), or it was readable with no key (the end of its input; a
 * hung-up terminal's getch says ERR at once, forever). */
static bool loop_keys(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct gt_app *a = ctx;
	(void)n;
	(void)now;
	if (polled[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
		a->status = GT_EXIT_TERMINAL_GONE;
		return false;
	}
	if (polled[0].revents & POLLIN) {
		int keys = 0, ch;
		while (keys < LOOP_MAX_KEYS && (ch = getch()) != ERR) {
			keys++;
			gt_keys_handle(a, ch);
		}
		if (keys == 0) {
			a->status = GT_EXIT_TERMINAL_GONE;
			return false;
		}
		a->dirty = true;
	}
	return true;
}

static size_t loop_collector_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	(void)lagging_too;
	return wait_fds(ctx, fds, max);
}

/* The census's worker (session/session_census.h): readable once it has ended. */
static size_t loop_census_fd(void *ctx, int *fds, size_t max, bool lagging_too)
{
	const struct gt_app *a = ctx;
	(void)lagging_too;
	int fd = gt_app_in_dashboard(a) ? gt_session_census_fd(&a->session) : -1;
	if (fd < 0 || max == 0)
		return 0;
	fds[0] = fd;
	return 1;
}

static bool loop_census(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct gt_app *a = ctx;
	(void)polled;
	(void)n;
	(void)now;
	if (gt_app_collect_census(a))
		a->dirty = true;
	return true;
}

static bool loop_events(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct gt_app *a = ctx;
	if (events(a, polled, n, now))
		a->dirty = true;
	return true;
}

/* One thread, one wait (session/driver.h) on the terminal and the
 * collectors' descriptors; the keys are read first. */
static void run(struct gt_app *a)
{
	struct gt_driver_source sources[] = {
		{ .ctx = a, .tick = loop_tick, .deadline = loop_deadline,
		  .fds = loop_terminal_fd, .max_fds = 1, .read = loop_keys },
		{ .ctx = a, .fds = loop_collector_fds, .max_fds = LOOP_MAX_WAIT_FDS, .read = loop_events },
		{ .ctx = a, .fds = loop_census_fd, .max_fds = 1, .read = loop_census },
	};
	struct gt_driver d;
	if (gt_driver_init(&d, sources, sizeof(sources) / sizeof(sources[0]), a->err) != 0) {
		a->status = GT_EXIT_FAILURE;
		return;
	}
	/* a failed wait ends the view rather than spin */
	d.error_ends = true;
	gt_driver_run(&d);
	gt_driver_free(&d);
}

/* Leaves the dashboard's session and the picker's rows closed. */
static void app_free(struct gt_app *a)
{
	if (gt_app_in_dashboard(a)) {
		gt_dashboard_close(&a->db);
		gt_session_close(&a->session);
	}
	gt_picker_free(&a->picker);
	gt_recorder_close(a->recorder);
	if (a->replay) {
		gt_replay_close(a->replay);
		free(a->replay);
	}
	free(a);
}

int gt_screen_run(const struct gt_screen_start *opt, struct gt_error *err)
{
	/* On the heap: it holds a session (samples, derived figures), too big
	 * for the stack of a small thread. */
	struct gt_app *a = calloc(1, sizeof(*a));
	if (!a)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory"), GT_EXIT_FAILURE;
	a->interval_ns = opt->interval_ns ? opt->interval_ns : 1000000000ull;
	a->allocators_at_open = opt->allocators;
	a->allocator_packages = opt->allocator_packages;
	a->allocator_source = opt->allocator_source;
	a->opcount_counter = opt->opcount_counter;
	gt_picker_init(&a->picker);
	/* Before the target is opened: an interrupt while it answers slowly
	 * ends gctop at once (and with status 0, as documented). */
	gt_quit_install();
	a->err = err;
	enum gt_job_result opened = GT_JOB_NONE;
	if (opt->replay_path) {
		if (gt_app_replay_start(a, opt->replay_path, err) != 0) {
			app_free(a);
			/* A quit signal while the first interval was read: status 0. */
			return gt_quit_requested() ? GT_EXIT_OK : err->code ? (int)err->code : GT_EXIT_FAILURE;
		}
	} else if (opt->pid) {
		opened = gt_app_open_before_screen(a, opt->pid, err);
		if (opened != GT_JOB_DONE && opened != GT_JOB_RUNNING) {
			app_free(a);
			if (gt_quit_signal == SIGHUP)
				return GT_EXIT_TERMINAL_GONE;
			if (opened == GT_JOB_CANCELLED || gt_quit_requested())
				return GT_EXIT_OK;
			return err->code ? (int)err->code : GT_EXIT_FAILURE;
		}
	} else {
		a->picker_mode = true;
	}
	if (opt->record_path && !(a->recorder = gt_recorder_open(opt->record_path, err))) {
		app_free(a);
		return err->code;
	}
	if (gt_term_open() != 0) {
		app_free(a);
		gt_fail(err, GT_EXIT_FAILURE, "cannot use this terminal (TERM=%s); try -b",
			getenv("TERM") ? getenv("TERM") : "unset");
		return GT_EXIT_FAILURE;
	}
	gt_theme_init(&a->theme, opt->no_color);
	if (opened == GT_JOB_DONE)
		gt_app_dashboard_ready(a);
	else if (!gt_app_in_dashboard(a))
		gt_picker_start(&a->picker, a->interval_ns, gt_mono_ns());
	a->dirty = true;

	run(a);
	/* SIGHUP: the terminal went away; the session is closed all the same. */
	if (gt_quit_signal == SIGHUP)
		a->status = GT_EXIT_TERMINAL_GONE;
	/* Leaving: the teardown's exchanges (StopTracing) do not wait for answers. */
	gt_quit_by_key();

	if (a->body)
		delwin(a->body);
	int status = a->status;
	app_free(a);
	gt_term_close();
	return status;
}
