/* gt_screen_run: the interactive main loop.
 *
 * One thread draws and answers keys, with one poll(): it sleeps on the
 * terminal and the target's event descriptor until the next sample
 * deadline (CLOCK_MONOTONIC, next += interval), the collector's next poll
 * tick, a key, a signal, or the end of a session's job (the slow steps run
 * on a worker: screen/app_session.c, session/job.h). Signal handlers only set
 * flags; everything else happens here. */
#include <errno.h>
#include <ncurses.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "screen/panes/pane_help.h"
#include "screen/panes/pane_picker.h"
#include "screen/keys.h"
#include "session/driver.h"
#include "session/job.h"
#include "screen/app.h"
#include "base/interval.h"
#include "screen/term.h"
#include "screen/theme.h"
#include "screen/screen.h"
#include "screen/wrap.h"

/* Collector descriptors the loop waits on (the picker's rows beyond this
 * are drained on the poll tick alone). */
#define LOOP_MAX_WAIT_FDS 64
/* A status line longer than the screen is wide wraps onto this many rows. */
#define LOOP_FOOTER_LINES 3
/* A one-off message stays this long, then the key hints come back (htop's
 * messages time out too); a key replaces it sooner. */
#define LOOP_NOTE_SHOW_NS 5000000000ull
/* While a job runs (session/job.h) its line counts the seconds, so the
 * screen is seen to be alive. */
#define LOOP_BUSY_TICK_NS 1000000000ull
/* A replay's move reads this long at a time, then the loop looks at the
 * keys for LOOP_REPLAY_KEYS_NS (a poll ends at once on a key): q is
 * answered within some 20 ms of reading, and the move costs a few % more. */
#define LOOP_REPLAY_SLICE_NS 20000000ull
#define LOOP_REPLAY_KEYS_NS 1000000ull
/* A move's progress on the footer is drawn this often. */
#define LOOP_REPLAY_DRAW_NS 250000000ull

/* Sets the footer's one-off message; it goes after LOOP_NOTE_SHOW_NS. */
void gt_app_note(struct gt_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->note, sizeof(a->note), fmt, ap);
	va_end(ap);
	a->note_until = gt_mono_ns() + LOOP_NOTE_SHOW_NS;
}

/* The steps of + and -, in seconds. */
static const double interval_steps[] = { 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600 };
#define N_STEPS (sizeof(interval_steps) / sizeof(interval_steps[0]))

/* What is sampled now: the dashboard's session, or the picker's rows. */
static struct gt_schedule *schedule(struct gt_app *a)
{
	return a->in_dashboard ? &a->session.schedule : &a->picker.schedule;
}

static void set_interval(struct gt_app *a, uint64_t ns)
{
	a->interval_ns = ns;
	/* The next sample comes one new interval after now, not after the
	 * old deadline, so a shorter interval takes effect at once. */
	gt_schedule_set_interval(schedule(a), ns, gt_mono_ns());
	gt_app_note(a, "interval %gs", (double)ns / 1e9);
}

static void step_interval(struct gt_app *a, int dir)
{
	double cur = (double)a->interval_ns / 1e9;
	double pick = cur;
	if (dir > 0) {
		for (size_t i = 0; i < N_STEPS; i++)
			if (interval_steps[i] > cur + 1e-9) {
				pick = interval_steps[i];
				break;
			}
	} else {
		for (size_t i = N_STEPS; i-- > 0;)
			if (interval_steps[i] < cur - 1e-9) {
				pick = interval_steps[i];
				break;
			}
	}
	set_interval(a, (uint64_t)(pick * 1e9 + 0.5));
}

/* Says where the replay stands, on the footer. */
static void replay_note(struct gt_app *a)
{
	char when[32] = "";
	time_t t = (time_t)(a->session.prev.wall_ms / 1000);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	gt_app_note(a, "replay: sample %llu%s, %s%s", (unsigned long long)a->replay->pos,
		    a->replay->at_end ? " (the last)" : "", when, a->replay->playing ? ", playing" : "");
}

/* A recording that turned unreadable ends gctop with its sentence; a
 * quit signal while it was read, with status 0. */
static void replay_failed(struct gt_app *a)
{
	a->status = gt_quit_requested() ? GT_EXIT_OK : a->err->code ? (int)a->err->code : GT_EXIT_FAILURE;
	a->quit = true;
}

/* One slice of the replay's move (record/replay.h); true when it is done. */
static bool replay_slice(struct gt_app *a)
{
	int rc = gt_replay_work(a->replay, &a->session, gt_mono_ns() + LOOP_REPLAY_SLICE_NS, a->err);
	if (rc < 0) {
		replay_failed(a);
		return true;
	}
	if (rc == 0)
		return false;
	if (a->replay->at_end)
		a->replay->playing = false;
	replay_note(a);
	return true;
}

/* Moves the replay to sample pos (next: one on from where it is going),
 * in slices of the loop: keys are answered while it reads. */
static void replay_move(struct gt_app *a, uint64_t pos, bool next)
{
	struct gt_replay *r = a->replay;
	uint64_t from = r->moving ? r->target : r->pos;
	gt_replay_go(r, next ? from + 1 : pos);
	r->drawn_ns = gt_mono_ns();
	replay_slice(a);
}

static bool replay_tick(struct gt_app *a, uint64_t now)
{
	struct gt_replay *r = a->replay;
	if (r->moving) {
		if (replay_slice(a))
			return true;
		/* The footer counts the samples read, a few times a second. */
		if (now - r->drawn_ns < LOOP_REPLAY_DRAW_NS)
			return false;
		r->drawn_ns = now;
		return true;
	}
	if (!r->playing || now < r->next_ns)
		return false;
	r->next_ns = now + a->interval_ns;
	replay_move(a, 0, true);
	return true;
}

/* b's answer: the sample to show. */
static void replay_branch(struct gt_app *a)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(a->prompt_buf, &end, 10);
	if (errno || end == a->prompt_buf || *end || n < 2 || a->prompt_buf[0] == '-')
		gt_app_note(a, "sample \"%s\" ignored: give a sample number, 2 or more", a->prompt_buf);
	else
		replay_move(a, (uint64_t)n, false);
}

static void replay_key(struct gt_app *a, enum gt_action act)
{
	struct gt_replay *r = a->replay;
	switch (act) {
	case GT_ACT_BRANCH:
		a->prompt = a->prompt_sample = true;
		a->prompt_filter = false;
		a->prompt_buf[0] = '\0';
		break;
	case GT_ACT_STEP_NEXT: replay_move(a, 0, true); break;
	case GT_ACT_STEP_BACK: replay_move(a, (r->moving ? r->target : r->pos) - 1, false); break;
	case GT_ACT_REWIND: replay_move(a, 2, false); break;
	case GT_ACT_REFRESH:
		r->playing = !r->playing && !r->at_end;
		r->next_ns = gt_mono_ns() + a->interval_ns;
		replay_note(a);
		break;
	default: break;
	}
}

/* Samples and polls what is due; true when there is something new to draw. */
static bool tick(struct gt_app *a, uint64_t now)
{
	if (a->replay)
		return replay_tick(a, now);
	if (a->in_dashboard) {
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
	if (a->in_dashboard)
		return gt_session_deadline(&a->session);
	return a->picker_mode ? gt_picker_deadline(&a->picker) : GT_DEADLINE_NEVER;
}

/* The collectors' descriptors to wait on: up to max; returns how many. */
static size_t wait_fds(const struct gt_app *a, int *fds, size_t max)
{
	if (a->in_dashboard) {
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
	if (a->in_dashboard)
		gt_session_events(&a->session, now);
	else if (a->picker_mode)
		return gt_picker_events(&a->picker, polled, n, now);
	return false;
}

/* ---- drawing ---- */

/* The status line's text and attribute: a prompt, a question, a one-off
 * message, or the key hints. */
static const char *footer_text(const struct gt_app *a, char *buf, size_t len, attr_t *attr)
{
	const struct gt_theme *t = &a->theme;
	*attr = t->title | A_BOLD;
	if (a->prompt && a->prompt_filter) {
		snprintf(buf, len, "filter (PID, user, program, runtime or collector; Enter keeps, Esc clears): %s",
			 a->prompt_buf);
		return buf;
	}
	if (a->prompt && a->prompt_sample) {
		snprintf(buf, len, "jump to sample (2 or more, Enter/Esc): %s", a->prompt_buf);
		return buf;
	}
	if (a->prompt) {
		snprintf(buf, len, "interval in seconds, or 5m, 0.5h (0.1 s to 1 h; Enter/Esc): %s", a->prompt_buf);
		return buf;
	}
	if (a->confirm == CONFIRM_ALLOC_START) {
		snprintf(buf, len, "load gctop's sampling agent into PID %d? it stays loaded (dormant) after gctop exits; y/N",
			 (int)a->session.info.pid);
		return buf;
	}
	if (a->confirm == CONFIRM_ALLOC_STOP) {
		const char *stop = gt_app_allocators_stop(a);
		snprintf(buf, len, "stop allocation sampling in PID %d? %s; y/N", (int)a->session.info.pid,
			 stop ? stop : "it stops");
		return buf;
	}
	if (!a->note[0] && a->in_dashboard && gt_session_busy(&a->session))
		return gt_app_busy_text(a, buf, len);
	if (!a->note[0] && !a->help && a->replay && a->replay->moving) {
		snprintf(buf, len, "replay: reading to sample %llu, at %llu (q quits, any step key changes where to)",
			 (unsigned long long)a->replay->target, (unsigned long long)a->replay->pos);
		return buf;
	}
	const char *msg = a->note[0] ? a->note : (a->in_dashboard ? gt_dashboard_message(&a->db) : a->picker.message);
	if (msg && msg[0]) {
		*attr = t->warn;
		return msg;
	}
	*attr = t->label;
	return a->help ? (a->findings ? "q/Esc/f close findings" : a->stacks ? "q/Esc close stacks  Up/Down scroll"
						 : "q/Esc/h close help")
	       : gt_app_opening(a) ? "q/Esc cancel  h help"
	       : a->replay ? "q quit  h help  t/T next/previous  r start  b jump  space play/pause  +/- pace  1-8 panes"
	       : a->in_dashboard ? (a->picker_mode ? "q back  h help  p freeze  d/+/- interval  Tab focus  1-8 panes  a allocators"
						   : "q quit  h help  p freeze  d/+/- interval  Tab focus  1-8 panes  a allocators")
	       : "Enter open  s sort  Up/Down select  d/+/- interval  h help  q quit";
}

/* Draws the status line at the bottom, wrapped onto up to LOOP_FOOTER_LINES
 * rows when it is longer than the screen is wide (never more than half the
 * screen); returns the rows it took. */
static int draw_footer(const struct gt_app *a, int rows, int cols)
{
	char buf[256];
	attr_t attr;
	const char *text = footer_text(a, buf, sizeof(buf), &attr);
	struct gt_wrap_line lines[LOOP_FOOTER_LINES];
	int max = rows / 2 < LOOP_FOOTER_LINES ? rows / 2 : LOOP_FOOTER_LINES;
	int n = gt_wrap(text, cols, max, lines);
	for (int i = 0; i < n; i++)
		gt_pane_print(stdscr, rows - n + i, 0, attr, "%.*s", (int)lines[i].len, text + lines[i].start);
	return n;
}

static void draw(struct gt_app *a)
{
	int rows = LINES, cols = COLS;

	werase(stdscr);
	if (rows < 2) {
		gt_pane_print(stdscr, 0, 0, A_BOLD, "too small");
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	int body_rows = rows - draw_footer(a, rows, cols);
	wnoutrefresh(stdscr);

	if (!a->body || getmaxy(a->body) != body_rows || getmaxx(a->body) != cols) {
		if (a->body)
			delwin(a->body);
		a->body = newwin(body_rows, cols, 0, 0);
	}
	if (a->help && a->body) {
		werase(a->body);
		int lines = a->findings ? gt_dashboard_findings_lines(&a->db, &a->theme, cols)
			    : a->stacks ? gt_dashboard_stacks_lines(&a->db, &a->theme, cols)
			    : gt_help_lines(cols);
		int max_first = lines - (body_rows - 1);
		if (a->help_first > max_first)
			a->help_first = max_first > 0 ? max_first : 0;
		if (a->findings)
			gt_dashboard_draw_findings(&a->db, a->body, a->help_first, &a->theme);
		else if (a->stacks)
			gt_dashboard_draw_stacks(&a->db, a->body, a->help_first, &a->theme);
		else
			gt_help_draw(a->body, a->help_first, &a->theme);
		wnoutrefresh(a->body);
	} else if (gt_app_opening(a) && a->body) {
		char buf[256];
		werase(a->body);
		gt_pane_print(a->body, 0, 0, a->theme.title | A_BOLD, "gctop  PID %d", (int)a->session.info.pid);
		gt_pane_print(a->body, 2, 0, a->theme.label, "%s", gt_app_busy_text(a, buf, sizeof(buf)));
		wnoutrefresh(a->body);
	} else if (a->in_dashboard) {
		/* A replay's "now" is the sample shown. */
		int64_t now_ms = a->replay ? a->session.prev.wall_ms : gt_wall_ms();
		gt_dashboard_draw(&a->db, body_rows, cols, &a->theme, (double)a->interval_ns / 1e9, now_ms);
		if (!a->db.layout.usable) {
			/* One line, not garbage; the panes come back when it grows. */
			werase(stdscr);
			gt_pane_print(stdscr, 0, 0, A_BOLD, "too small: need %dx%d", a->db.layout.need_cols,
				      a->db.layout.need_rows + 1);
			wnoutrefresh(stdscr);
		}
	} else if (a->body) {
		werase(a->body);
		gt_picker_draw(a->body, &a->picker, &a->theme);
		wnoutrefresh(a->body);
	}
	doupdate();
}

/* ---- keys ---- */

/* The picker's filter applies as it is typed, as htop's does. */
static void filter_prompt_key(struct gt_app *a, int ch)
{
	size_t len = strlen(a->prompt_buf);
	if (ch == 27) {
		a->prompt = false;
		a->prompt_buf[0] = '\0';
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		a->prompt = false;
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
		a->prompt_buf[len - 1] = '\0';
	} else if (ch >= ' ' && ch < 127 && len + 1 < sizeof(a->prompt_buf)) {
		a->prompt_buf[len] = (char)ch;
		a->prompt_buf[len + 1] = '\0';
	}
	gt_picker_set_filter(&a->picker, a->prompt_buf);
}

static void prompt_key(struct gt_app *a, int ch)
{
	size_t len = strlen(a->prompt_buf);
	if (a->prompt_filter) {
		filter_prompt_key(a, ch);
		return;
	}
	if (ch == 27) {
		a->prompt = false;
	} else if ((ch == '\n' || ch == '\r' || ch == KEY_ENTER) && a->prompt_sample) {
		a->prompt = false;
		replay_branch(a);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		a->prompt = false;
		uint64_t ns;
		if (gt_interval_parse(a->prompt_buf, &ns) != GT_INTERVAL_OK)
			gt_app_note(a, "interval \"%s\" ignored: give " GT_INTERVAL_WANTS, a->prompt_buf);
		else
			set_interval(a, ns);
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
		a->prompt_buf[len - 1] = '\0';
	} else if (ch >= ' ' && ch < 127 && len + 1 < sizeof(a->prompt_buf)) {
		/* Any printable key is kept, so a wrong entry is shown back in the
		 * message that refuses it, not dropped unseen. */
		a->prompt_buf[len] = (char)ch;
		a->prompt_buf[len + 1] = '\0';
	}
}

static void confirm_key(struct gt_app *a, int ch)
{
	bool yes = ch == 'y' || ch == 'Y';
	int what = a->confirm;
	a->confirm = CONFIRM_NONE;
	if (!a->in_dashboard)
		return;
	if (what == CONFIRM_ALLOC_START) {
		if (yes)
			gt_app_start_allocators(a);
		else
			gt_app_note(a, "nothing loaded into PID %d", (int)a->session.info.pid);
	} else if (what == CONFIRM_ALLOC_STOP) {
		if (yes) {
			gt_session_disable_allocators(&a->session);
			gt_app_note(a, "allocation sampling stopped%s",
				 gt_app_loads_code(a) ? "; the agent goes dormant within seconds" : "");
		} else {
			gt_app_note(a, "allocation sampling goes on");
		}
	}
}

/* a: on or off, after a y/N question. Only a JVM gets an agent loaded;
 * for the rest the target says in one sentence what it can do. */
static void allocators_key(struct gt_app *a)
{
	struct gt_session *s = &a->session;
	if (s->exited) {
		gt_app_note(a, "process %d has exited", (int)s->info.pid);
	} else if (gt_session_allocators_on(s)) {
		a->confirm = CONFIRM_ALLOC_STOP;
	} else if (gt_app_loads_code(a)) {
		a->confirm = CONFIRM_ALLOC_START;
	} else {
		gt_app_start_allocators(a);
	}
}

static void help_key(struct gt_app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_QUIT: case GT_ACT_BACK: case GT_ACT_HELP:
		a->help = false;
		a->findings = false;
		a->stacks = false;
		break;
	case GT_ACT_FINDINGS:
		/* from the help to the findings (in a process view), or closed */
		a->stacks = false;
		a->findings = !a->findings && a->in_dashboard;
		a->help = a->findings;
		a->help_first = 0;
		break;
	case GT_ACT_UP: a->help_first = a->help_first > 0 ? a->help_first - 1 : 0; break;
	case GT_ACT_DOWN: a->help_first++; break;
	case GT_ACT_PAGE_UP: a->help_first = a->help_first > 10 ? a->help_first - 10 : 0; break;
	case GT_ACT_PAGE_DOWN: a->help_first += 10; break;
	case GT_ACT_HOME: a->help_first = 0; break;
	case GT_ACT_END: a->help_first = gt_help_lines(COLS); break;
	default: break;
	}
}

static void common_key(struct gt_app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_HELP: a->help = true; a->help_first = 0; break;
	case GT_ACT_REFRESH: gt_schedule_sample_now(schedule(a), gt_mono_ns()); break;
	case GT_ACT_INTERVAL:
		a->prompt = true;
		a->prompt_sample = a->prompt_filter = false;
		a->prompt_buf[0] = '\0';
		break;
	case GT_ACT_SLOWER: step_interval(a, +1); break;
	case GT_ACT_FASTER: step_interval(a, -1); break;
	case GT_ACT_REDRAW: clearok(curscr, TRUE); break;
	default: break;
	}
}

static void dashboard_key(struct gt_app *a, const struct gt_key_binding *b, int ch)
{
	struct gt_dashboard *db = &a->db;
	if (gt_session_busy(&a->session) && gt_app_busy_key(a, b->action))
		return;
	if (a->replay && (b->action == GT_ACT_STEP_NEXT || b->action == GT_ACT_STEP_BACK || b->action == GT_ACT_REWIND ||
			  b->action == GT_ACT_BRANCH || b->action == GT_ACT_REFRESH)) {
		replay_key(a, b->action);
		return;
	}
	switch (b->action) {
	case GT_ACT_STEP_NEXT: case GT_ACT_STEP_BACK: case GT_ACT_REWIND: case GT_ACT_BRANCH:
		gt_app_note(a, "t, T, r and b step through a recording: gctop -r FILE");
		break;
	case GT_ACT_QUIT:
		if (a->picker_mode)
			gt_app_close_dashboard(a);
		else
			a->quit = true;
		break;
	case GT_ACT_BACK:
		if (a->picker_mode)
			gt_app_close_dashboard(a);
		break;
	case GT_ACT_FREEZE: gt_session_toggle_freeze(&a->session); break;
	case GT_ACT_UP: case GT_ACT_DOWN: {
		int delta = b->action == GT_ACT_UP ? -1 : +1;
		if (gt_dashboard_allocators_focused(db))
			gt_dashboard_select(db, delta);
		else
			gt_dashboard_scroll(db, delta);
		break;
	}
	case GT_ACT_STACKS:
		if (gt_dashboard_open_stacks(db)) {
			a->help = a->stacks = true;
			a->help_first = 0;
		} else {
			gt_app_note(a, "Enter shows a site's stacks: Tab to the top-allocators pane while sampling (a)");
		}
		break;
	case GT_ACT_PAGE_UP: gt_dashboard_scroll(db, -5); break;
	case GT_ACT_PAGE_DOWN: gt_dashboard_scroll(db, +5); break;
	case GT_ACT_FOCUS_NEXT: gt_dashboard_focus_next(db); break;
	case GT_ACT_TOGGLE_PANE: {
		size_t i = (size_t)(ch - '1');
		if (i < gt_pane_count)
			db->visible[i] = !db->visible[i];
		else
			gt_app_note(a, "there is no pane %c (1-%zu)", ch, gt_pane_count);
		break;
	}
	case GT_ACT_ALLOCATORS:
		if (a->replay)
			gt_app_note(a, "a recording: its allocator tables show when it was made with sampling on");
		else
			allocators_key(a);
		break;
	case GT_ACT_FINDINGS: a->help = a->findings = true; a->stacks = false; a->help_first = 0; break;
	default: common_key(a, b->action); break;
	}
}

static void picker_key(struct gt_app *a, const struct gt_key_binding *b)
{
	struct gt_picker *p = &a->picker;
	long page = LINES > 4 ? LINES - 4 : 1;
	switch (b->action) {
	case GT_ACT_QUIT: a->quit = true; break;
	case GT_ACT_UP: gt_picker_move(p, -1); break;
	case GT_ACT_DOWN: gt_picker_move(p, +1); break;
	case GT_ACT_PAGE_UP: gt_picker_move(p, -page); break;
	case GT_ACT_PAGE_DOWN: gt_picker_move(p, +page); break;
	case GT_ACT_HOME: gt_picker_move(p, -(long)p->count); break;
	case GT_ACT_END: gt_picker_move(p, (long)p->count); break;
	case GT_ACT_SORT: {
		pid_t keep = gt_picker_selected_pid(p);
		p->sort = (enum gt_picker_sort)((p->sort + 1) % GT_SORT_COUNT);
		gt_picker_sort_rows(p->slots, p->count, p->sort);
		for (size_t i = 0; i < p->count; i++)
			if (p->slots[i].row.pid == keep)
				p->selected = i;
		gt_app_note(a, "sorted by %s", gt_picker_sort_name(p->sort));
		break;
	}
	case GT_ACT_FILTER:
		a->prompt = a->prompt_filter = true;
		a->prompt_sample = false;
		snprintf(a->prompt_buf, sizeof(a->prompt_buf), "%s", p->filter);
		break;
	case GT_ACT_OPEN:
		if (gt_picker_selected_pid(p))
			gt_app_open_dashboard(a, gt_picker_selected_pid(p));
		break;
	default: common_key(a, b->action); break;
	}
}

static void handle_key(struct gt_app *a, int ch)
{
	if (ch == KEY_RESIZE) {
		gt_term_resized = 1;
		return;
	}
	/* A new key replaces the last one-off message. */
	a->note[0] = '\0';
	if (a->prompt) {
		prompt_key(a, ch);
		return;
	}
	if (a->confirm != CONFIRM_NONE) {
		confirm_key(a, ch);
		return;
	}
	unsigned where = a->help ? GT_KEYS_HELP : a->in_dashboard ? GT_KEYS_DASHBOARD : GT_KEYS_PICKER;
	const struct gt_key_binding *b = gt_keys_lookup(ch, where);
	if (!b)
		return;
	if (a->help)
		help_key(a, b->action);
	else if (a->in_dashboard)
		dashboard_key(a, b, ch);
	else
		picker_key(a, b);
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
	if (gt_term_resized) {
		gt_term_resized = 0;
		gt_term_apply_resize();
		if (a->in_dashboard)
			gt_dashboard_forget_windows(&a->db);
		a->dirty = true;
	}
	if (tick(a, now))
		a->dirty = true;
	if (a->quit)
		return false;
	/* A job's line counts its seconds. */
	if (a->in_dashboard && gt_session_busy(&a->session))
		a->dirty = true;
	if (a->note[0] && now >= a->note_until) {
		a->note[0] = '\0';
		a->dirty = true;
	}
	if (a->dirty) {
		draw(a);
		a->dirty = false;
	}
	return true;
}

/* The next sample or step, a job's next second, the message's end. */
static uint64_t loop_deadline(void *ctx, uint64_t now)
{
	struct gt_app *a = ctx;
	uint64_t deadline = next_deadline(a);
	if (a->in_dashboard && gt_session_busy(&a->session)) {
		uint64_t busy_tick = a->busy_since + ((now - a->busy_since) / LOOP_BUSY_TICK_NS + 1) * LOOP_BUSY_TICK_NS;
		if (busy_tick < deadline)
			deadline = busy_tick;
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
 * dropped), or it was readable with no key (the end of its input). */
static bool loop_keys(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct gt_app *a = ctx;
	(void)n;
	(void)now;
	if (polled[0].revents & (POLLHUP | POLLERR | POLLNVAL))
		return false;
	if (polled[0].revents & POLLIN) {
		int keys = 0, ch;
		while ((ch = getch()) != ERR) {
			keys++;
			handle_key(a, ch);
		}
		if (keys == 0)
			return false;
		a->dirty = true;
	}
	return true;
}

static size_t loop_collector_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	(void)lagging_too;
	return wait_fds(ctx, fds, max);
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
	};
	struct gt_driver d;
	if (gt_driver_init(&d, sources, 2, a->err) != 0) {
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
	if (a->in_dashboard) {
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

/* -r: the recording's first interval on the dashboard, paused. */
static int replay_start(struct gt_app *a, const char *path, struct gt_error *err)
{
	a->replay = calloc(1, sizeof(*a->replay));
	if (!a->replay)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	if (gt_replay_open(a->replay, &a->session, path, err) != 0) {
		gt_session_close(&a->session);
		return -1;
	}
	gt_dashboard_init(&a->db, &a->session);
	a->in_dashboard = true;
	replay_note(a);
	return 0;
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
	a->ops_counter = opt->ops_counter;
	gt_picker_init(&a->picker);
	/* Before the target is opened: an interrupt while it answers slowly
	 * ends gctop at once (and with status 0, as documented). */
	gt_quit_install();
	a->err = err;
	enum gt_job_result opened = GT_JOB_NONE;
	if (opt->replay_path) {
		if (replay_start(a, opt->replay_path, err) != 0) {
			app_free(a);
			/* A quit signal while the first interval was read: status 0. */
			return gt_quit_requested() ? GT_EXIT_OK : err->code ? (int)err->code : GT_EXIT_FAILURE;
		}
	} else if (opt->pid) {
		opened = gt_app_open_before_screen(a, opt->pid, err);
		if (opened != GT_JOB_DONE && opened != GT_JOB_RUNNING) {
			app_free(a);
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
	else if (!a->in_dashboard)
		gt_picker_start(&a->picker, a->interval_ns, gt_mono_ns());
	a->dirty = true;

	run(a);
	/* Leaving: the teardown's exchanges (StopTracing) do not wait for answers. */
	gt_quit_by_key();

	if (a->body)
		delwin(a->body);
	int status = a->status;
	app_free(a);
	gt_term_close();
	return status;
}
