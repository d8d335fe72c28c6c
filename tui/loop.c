/* gt_tui_run: the interactive main loop.
 *
 * One thread, one poll(): it sleeps on the terminal and the target's event
 * descriptor until the next sample deadline (CLOCK_MONOTONIC, next +=
 * interval), the collector's next poll tick, a key or a signal. Signal
 * handlers only set flags; everything else happens here. */
#include <errno.h>
#include <ncurses.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "views/pane_help.h"
#include "views/pane_picker.h"
#include "tui/dashboard.h"
#include "tui/deadline.h"
#include "views/keys.h"
#include "tui/picker.h"
#include "tui/term.h"
#include "tui/theme.h"
#include "tui/tui.h"
#include "tui/wrap.h"

#define NEVER UINT64_MAX
/* Collector descriptors the loop waits on (the picker's rows beyond this
 * are drained on the poll tick alone). */
#define LOOP_MAX_WAIT_FDS 64
/* A status line longer than the screen is wide wraps onto this many rows. */
#define LOOP_FOOTER_LINES 3
/* A one-off message stays this long, then the key hints come back (htop's
 * messages time out too); a key replaces it sooner. */
#define LOOP_NOTE_SHOW_NS 5000000000ull

struct app;
static void draw(struct app *a);
static void start_allocators(struct app *a);

struct app {
	struct gt_theme theme;
	uint64_t interval_ns;
	uint64_t next_sample, next_poll;

	bool picker_mode;          /* started without -p */
	struct gt_picker picker;
	bool in_dashboard;
	struct gt_dashboard db;

	bool help;
	int help_first;
	bool prompt;
	char prompt_buf[16];
	/* A y/N question on the footer; any other key than y is no. */
	enum { CONFIRM_NONE, CONFIRM_ALLOC_START, CONFIRM_ALLOC_STOP } confirm;
	bool allocators_at_open;   /* --allocators: the user agreed on the command line */
	const char *allocator_packages;
	char note[640];            /* a one-off message for the footer: room for a prefix and an error sentence */
	uint64_t note_until;       /* when the note goes (CLOCK_MONOTONIC) */

	WINDOW *body;              /* the screen above the footer, for picker and help */
	bool quit;
	bool dirty;
};

/* Only a JVM gets gctop's agent loaded; .NET samples through a second
 * EventPipe session and loads nothing. */
static bool is_jvm(const struct app *a)
{
	return a->db.info.runtime == GT_RUNTIME_HOTSPOT;
}

/* Sets the footer's one-off message; it goes after LOOP_NOTE_SHOW_NS. */
__attribute__((format(printf, 2, 3)))
static void set_note(struct app *a, const char *fmt, ...)
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

static void set_interval(struct app *a, uint64_t ns)
{
	uint64_t now = gt_mono_ns();
	a->interval_ns = ns;
	/* The next sample comes one new interval after now, not after the
	 * old deadline, so a shorter interval takes effect at once. */
	if (a->next_sample != NEVER)
		a->next_sample = now + ns;
	set_note(a, "interval %gs", (double)ns / 1e9);
}

static void step_interval(struct app *a, int dir)
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

/* The collectors' tick: the dashboard's target, or the picker's rows. */
static uint64_t poll_interval(const struct app *a)
{
	if (a->in_dashboard)
		return a->db.exited ? 0 : gt_target_poll_interval_ns(a->db.target);
	return a->picker_mode ? gt_picker_poll_interval_ns(&a->picker) : 0;
}

static void do_poll(struct app *a, uint64_t now)
{
	if (a->in_dashboard)
		gt_target_poll(a->db.target, now);
	else if (a->picker_mode)
		gt_picker_poll(&a->picker, now);
}

static void reset_poll_deadline(struct app *a, uint64_t now)
{
	uint64_t p = poll_interval(a);
	a->next_poll = p ? now + p : NEVER;
}

static void open_dashboard(struct app *a, pid_t pid)
{
	struct gt_error err = { 0 };
	/* The rows are not polled while the dashboard shows: close their
	 * sessions rather than leave them unread (picker.h says why). */
	gt_picker_close_sessions(&a->picker);
	if (gt_dashboard_open(&a->db, pid, &err) != 0) {
		set_note(a, "%s", err.msg);
		return;
	}
	a->in_dashboard = true;
	uint64_t now = gt_mono_ns();
	a->next_sample = now;
	reset_poll_deadline(a, now);
	/* The fresh screen is made of new windows; repaint it whole once. */
	clearok(curscr, TRUE);
	if (a->allocators_at_open)
		start_allocators(a);
}

static void close_dashboard(struct app *a)
{
	gt_dashboard_close(&a->db);
	a->in_dashboard = false;
	/* The rows' targets were closed when the dashboard opened; this
	 * refresh opens them again. */
	a->next_sample = gt_mono_ns();
	reset_poll_deadline(a, a->next_sample);
	clearok(curscr, TRUE);
}

static void do_sample(struct app *a, uint64_t now)
{
	if (a->in_dashboard) {
		if (gt_dashboard_sample(&a->db)) {
			/* Gone: keep its last figures and wait for keys only. */
			a->next_sample = NEVER;
			a->next_poll = NEVER;
			return;
		}
	} else if (a->picker_mode) {
		gt_picker_refresh(&a->picker);
		/* Rows come and go: the tick follows the rows now open. */
		if (a->next_poll == NEVER || !poll_interval(a))
			reset_poll_deadline(a, now);
	}
	a->next_sample = gt_deadline_next(a->next_sample, a->interval_ns, now);
}

/* ---- drawing ---- */

/* The status line's text and attribute: a prompt, a question, a one-off
 * message, or the key hints. */
static const char *footer_text(const struct app *a, char *buf, size_t len, attr_t *attr)
{
	const struct gt_theme *t = &a->theme;
	*attr = t->title | A_BOLD;
	if (a->prompt) {
		snprintf(buf, len, "interval in seconds (0.1 to 3600, Enter/Esc): %s", a->prompt_buf);
		return buf;
	}
	if (a->confirm == CONFIRM_ALLOC_START) {
		snprintf(buf, len, "load gctop's sampling agent into PID %d? it stays loaded (dormant) after gctop exits; y/N",
			 (int)a->db.info.pid);
		return buf;
	}
	if (a->confirm == CONFIRM_ALLOC_STOP) {
		snprintf(buf, len, "stop allocation sampling in PID %d? %s; y/N", (int)a->db.info.pid,
			 is_jvm(a) ? "the agent goes dormant within seconds" : "its EventPipe session is closed");
		return buf;
	}
	const char *msg = a->note[0] ? a->note : (a->in_dashboard ? a->db.message : a->picker.message);
	if (msg && msg[0]) {
		*attr = t->warn;
		return msg;
	}
	*attr = t->label;
	return a->help ? "q/Esc/h close help"
	       : a->in_dashboard ? (a->picker_mode ? "q back  h help  p freeze  d/+/- interval  Tab focus  1-7 panes  a allocators"
						   : "q quit  h help  p freeze  d/+/- interval  Tab focus  1-7 panes  a allocators")
	       : "Enter open  s sort  Up/Down select  d/+/- interval  h help  q quit";
}

/* Draws the status line at the bottom, wrapped onto up to LOOP_FOOTER_LINES
 * rows when it is longer than the screen is wide (never more than half the
 * screen); returns the rows it took. */
static int draw_footer(const struct app *a, int rows, int cols)
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

static void draw(struct app *a)
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
		int max_first = gt_help_lines(cols) - (body_rows - 1);
		if (a->help_first > max_first)
			a->help_first = max_first > 0 ? max_first : 0;
		gt_help_draw(a->body, a->help_first, &a->theme);
		wnoutrefresh(a->body);
	} else if (a->in_dashboard) {
		gt_dashboard_draw(&a->db, body_rows, cols, &a->theme, (double)a->interval_ns / 1e9, gt_wall_ms());
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

static void prompt_key(struct app *a, int ch)
{
	size_t len = strlen(a->prompt_buf);
	if (ch == 27) {
		a->prompt = false;
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		a->prompt = false;
		char *end;
		double s = strtod(a->prompt_buf, &end);
		if (end == a->prompt_buf || *end || !(s >= 0.1 && s <= 3600))
			set_note(a, "interval \"%s\" ignored: give seconds from 0.1 to 3600",
				 a->prompt_buf);
		else
			set_interval(a, (uint64_t)(s * 1e9 + 0.5));
	} else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
		a->prompt_buf[len - 1] = '\0';
	} else if (ch >= ' ' && ch < 127 && len + 1 < sizeof(a->prompt_buf)) {
		/* Any printable key is kept, so a wrong entry is shown back in the
		 * message that refuses it, not dropped unseen. */
		a->prompt_buf[len] = (char)ch;
		a->prompt_buf[len + 1] = '\0';
	}
}

/* After the user said yes (the y/N question, or --allocators). A failure
 * is one sentence on the footer: the GC figures are still worth seeing. */
static void start_allocators(struct app *a)
{
	struct gt_error err = { 0 };
	pid_t pid = a->db.info.pid;
	/* Attaching takes up to a few seconds: say so before the screen stops. */
	if (is_jvm(a))
		set_note(a, "loading gctop's sampling agent into PID %d ...", (int)pid);
	else
		set_note(a, "starting allocation sampling in PID %d ...", (int)pid);
	draw(a);
	if (gt_dashboard_enable_allocators(&a->db, a->allocator_packages, &err) != 0) {
		set_note(a, "allocation sampling: %s", err.msg);
		return;
	}
	set_note(a, "allocation sampling on in PID %d; shares fill in over %llu s",
		 (int)pid, (unsigned long long)(GT_ALLOC_WINDOW_NS / 1000000000ull));
	/* The first reading now, so the pane does not wait a whole interval. */
	if (a->next_sample != NEVER)
		a->next_sample = gt_mono_ns();
}

static void confirm_key(struct app *a, int ch)
{
	bool yes = ch == 'y' || ch == 'Y';
	int what = a->confirm;
	a->confirm = CONFIRM_NONE;
	if (!a->in_dashboard)
		return;
	if (what == CONFIRM_ALLOC_START) {
		if (yes)
			start_allocators(a);
		else
			set_note(a, "nothing loaded into PID %d", (int)a->db.info.pid);
	} else if (what == CONFIRM_ALLOC_STOP) {
		if (yes) {
			gt_dashboard_disable_allocators(&a->db);
			set_note(a, "allocation sampling stopped%s",
				 is_jvm(a) ? "; the agent goes dormant within seconds" : "");
		} else {
			set_note(a, "allocation sampling goes on");
		}
	}
}

/* a: on or off, after a y/N question. Only a JVM gets an agent loaded;
 * for the rest the target says in one sentence what it can do. */
static void allocators_key(struct app *a)
{
	struct gt_dashboard *db = &a->db;
	if (db->exited) {
		set_note(a, "process %d has exited", (int)db->info.pid);
	} else if (gt_dashboard_allocators_on(db)) {
		a->confirm = CONFIRM_ALLOC_STOP;
	} else if (is_jvm(a)) {
		a->confirm = CONFIRM_ALLOC_START;
	} else {
		struct gt_error err = { 0 };
		if (gt_dashboard_enable_allocators(db, a->allocator_packages, &err) != 0)
			set_note(a, "allocation sampling: %s", err.msg);
	}
}

static void help_key(struct app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_QUIT: case GT_ACT_BACK: case GT_ACT_HELP:
		a->help = false;
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

static void common_key(struct app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_HELP: a->help = true; a->help_first = 0; break;
	case GT_ACT_REFRESH:
		if (a->next_sample != NEVER)
			a->next_sample = gt_mono_ns();
		break;
	case GT_ACT_INTERVAL: a->prompt = true; a->prompt_buf[0] = '\0'; break;
	case GT_ACT_SLOWER: step_interval(a, +1); break;
	case GT_ACT_FASTER: step_interval(a, -1); break;
	case GT_ACT_REDRAW: clearok(curscr, TRUE); break;
	default: break;
	}
}

static void dashboard_key(struct app *a, const struct gt_key_binding *b, int ch)
{
	struct gt_dashboard *db = &a->db;
	switch (b->action) {
	case GT_ACT_QUIT:
		if (a->picker_mode)
			close_dashboard(a);
		else
			a->quit = true;
		break;
	case GT_ACT_BACK:
		if (a->picker_mode)
			close_dashboard(a);
		break;
	case GT_ACT_FREEZE: gt_dashboard_toggle_freeze(db); break;
	case GT_ACT_UP: gt_dashboard_scroll(db, -1); break;
	case GT_ACT_DOWN: gt_dashboard_scroll(db, +1); break;
	case GT_ACT_PAGE_UP: gt_dashboard_scroll(db, -5); break;
	case GT_ACT_PAGE_DOWN: gt_dashboard_scroll(db, +5); break;
	case GT_ACT_FOCUS_NEXT: gt_dashboard_focus_next(db); break;
	case GT_ACT_TOGGLE_PANE: {
		size_t i = (size_t)(ch - '1');
		if (i < gt_pane_count)
			db->visible[i] = !db->visible[i];
		else
			set_note(a, "there is no pane %c (1-%zu)", ch, gt_pane_count);
		break;
	}
	case GT_ACT_ALLOCATORS: allocators_key(a); break;
	default: common_key(a, b->action); break;
	}
}

static void picker_key(struct app *a, const struct gt_key_binding *b)
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
		set_note(a, "sorted by %s", gt_picker_sort_name(p->sort));
		break;
	}
	case GT_ACT_OPEN:
		if (gt_picker_selected_pid(p))
			open_dashboard(a, gt_picker_selected_pid(p));
		break;
	default: common_key(a, b->action); break;
	}
}

static void handle_key(struct app *a, int ch)
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

static void run(struct app *a)
{
	while (!a->quit && !gt_quit_requested()) {
		if (gt_term_resized) {
			gt_term_resized = 0;
			gt_term_apply_resize();
			if (a->in_dashboard)
				gt_dashboard_forget_windows(&a->db);
			a->dirty = true;
		}
		uint64_t now = gt_mono_ns();
		if (now >= a->next_sample) {
			do_sample(a, now);
			a->dirty = true;
		}
		if (now >= a->next_poll) {
			do_poll(a, now);
			uint64_t p = poll_interval(a);
			a->next_poll = p ? gt_deadline_next(a->next_poll, p, now) : NEVER;
		}
		a->next_poll = gt_deadline_skip_poll_near_sample(a->next_poll, a->next_sample, poll_interval(a));
		if (a->note[0] && now >= a->note_until) {
			a->note[0] = '\0';
			a->dirty = true;
		}
		if (a->dirty) {
			draw(a);
			a->dirty = false;
		}

		uint64_t deadline = a->next_sample < a->next_poll ? a->next_sample : a->next_poll;
		if (a->note[0] && a->note_until < deadline)
			deadline = a->note_until;
		struct pollfd fds[1 + LOOP_MAX_WAIT_FDS] = { { .fd = STDIN_FILENO, .events = POLLIN } };
		int wfds[LOOP_MAX_WAIT_FDS];
		size_t nw = 0;
		if (a->in_dashboard) {
			int wfd = gt_target_wait_fd(a->db.target);
			if (wfd >= 0)
				wfds[nw++] = wfd;
		} else if (a->picker_mode) {
			nw = gt_picker_wait_fds(&a->picker, wfds, LOOP_MAX_WAIT_FDS);
		}
		for (size_t i = 0; i < nw; i++)
			fds[1 + i] = (struct pollfd){ .fd = wfds[i], .events = POLLIN };
		nfds_t nfds = (nfds_t)(1 + nw);
		/* Race-free against a quit signal landing just before the wait. */
		int r = gt_wait_poll(fds, nfds, deadline == NEVER ? GT_WAIT_NEVER : deadline);
		if (r == GT_WAIT_TIMEOUT || r == GT_WAIT_SIGNAL || r == GT_WAIT_QUIT)
			continue;
		if (r < 0)
			break;
		/* The terminal went away (ssh dropped): leave at once. */
		if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			break;
		if (fds[0].revents & POLLIN) {
			int keys = 0, ch;
			while ((ch = getch()) != ERR) {
				keys++;
				handle_key(a, ch);
			}
			/* Readable yet no key: end of input, not a key to wait for. */
			if (keys == 0)
				break;
			a->dirty = true;
		}
		bool ready = false;
		for (nfds_t i = 1; i < nfds; i++)
			ready = ready || (fds[i].revents & (POLLIN | POLLHUP | POLLERR));
		if (ready)
			do_poll(a, gt_mono_ns());
	}
}

int gt_tui_run(const struct gt_options *opt, struct gt_error *err)
{
	static struct app app; /* holds the dashboard; too big for the stack of a small thread */
	struct app *a = &app;

	memset(a, 0, sizeof(*a));
	a->interval_ns = opt->interval_ns ? opt->interval_ns : 1000000000ull;
	a->next_poll = NEVER;
	a->allocators_at_open = opt->allocators;
	a->allocator_packages = opt->allocator_packages;
	gt_picker_init(&a->picker);
	/* Open the target before the screen: a bad PID is one sentence on a
	 * normal terminal, not a flash of the alternate screen. */
	/* Before the target is opened: an interrupt while it answers slowly
	 * ends gctop at once (and with status 0, as documented). */
	gt_quit_install();
	if (opt->pid) {
		if (gt_dashboard_open(&a->db, opt->pid, err) != 0) {
			if (gt_quit_requested())
				return GT_EXIT_OK;
			return err->code ? (int)err->code : GT_EXIT_FAILURE;
		}
		a->in_dashboard = true;
	} else {
		a->picker_mode = true;
	}
	if (gt_term_open() != 0) {
		if (a->in_dashboard)
			gt_dashboard_close(&a->db);
		gt_fail(err, GT_EXIT_FAILURE, "cannot use this terminal (TERM=%s); try -b",
			getenv("TERM") ? getenv("TERM") : "unset");
		return GT_EXIT_FAILURE;
	}
	gt_theme_init(&a->theme, opt->no_color);
	uint64_t now = gt_mono_ns();
	a->next_sample = now;
	reset_poll_deadline(a, now);
	a->dirty = true;
	if (a->in_dashboard && a->allocators_at_open)
		start_allocators(a);

	run(a);
	/* Leaving: the teardown's exchanges (StopTracing) do not wait for answers. */
	gt_quit_by_key();

	if (a->body)
		delwin(a->body);
	if (a->in_dashboard)
		gt_dashboard_close(&a->db);
	gt_picker_free(&a->picker);
	gt_term_close();
	return GT_EXIT_OK;
}
