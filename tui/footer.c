/* The status line at the bottom: a prompt, a question, a one-off message,
 * or the key hints of the screen that shows. */
#include <stdio.h>

#include "base/clock.h"
#include "tui/app_session.h"
#include "session/session_census.h"
#include "tui/footer.h"
#include "tui/panes/pane.h"
#include "tui/wrap.h"

/* A status line longer than the screen is wide wraps onto this many rows:
 * the census's question (its pause, its cost to the target's memory and
 * the headroom) takes 5 at 80 columns. */
#define FOOTER_LINES 6

/* The census's y/N: its pause, and its cost to the target's memory
 * against the headroom (model/census_cost.h), as --census refuses it. */
static const char *census_question(const struct gt_app *a, char *buf, size_t len)
{
	const struct gt_session *s = &a->session;
	const struct gt_runtime_traits *rt = s->info.runtime;
	char figures[256] = "";
	if (s->have_prev) {
		struct gt_census_fit fit;
		gt_census_fit_of(&s->info, &s->prev, &fit);
		gt_census_fit_figures(&fit, figures, sizeof(figures));
	}
	snprintf(buf, len, "take a census of the live objects of PID %d? it %s%s%s; y/N", (int)s->info.pid,
		 rt && rt->census_cost ? rt->census_cost : "costs the target", figures[0] ? "; " : "", figures);
	return buf;
}

/* The prompt or the y/N question of the input mode, or NULL. */
static const char *asking_text(const struct gt_app *a, char *buf, size_t len)
{
	switch (a->modes.input) {
	case GT_INPUT_FILTER:
		snprintf(buf, len, "filter (PID, user, program or command line, runtime, collector; Enter keeps, Esc clears): %s",
			 a->prompt_buf);
		return buf;
	case GT_INPUT_SAMPLE:
		snprintf(buf, len, "jump to sample (2 or more, Enter/Esc): %s", a->prompt_buf);
		return buf;
	case GT_INPUT_INTERVAL:
		snprintf(buf, len, "interval in seconds, or 5m, 0.5h (0.1 s to 1 h; Enter/Esc): %s", a->prompt_buf);
		return buf;
	case GT_INPUT_CONFIRM_START:
		if (gt_app_source_question(a)) {
			snprintf(buf, len, "%s y/N", gt_app_source_question(a));
			return buf;
		}
		snprintf(buf, len, "load gctop's sampling agent into PID %d? it stays loaded (dormant) after gctop exits; y/N",
			 (int)a->session.info.pid);
		return buf;
	case GT_INPUT_CONFIRM_CENSUS:
		return census_question(a, buf, len);
	case GT_INPUT_CONFIRM_STOP: {
		const char *stop = gt_app_allocators_stop(a);
		snprintf(buf, len, "stop allocation sampling in PID %d? %s; y/N", (int)a->session.info.pid,
			 stop ? stop : "it stops");
		return buf;
	}
	default:
		return NULL;
	}
}

/* A screen's key hints, most needed first: where the line would be wider
 * than the screen less one column, the hints from the end of `keep` on are
 * left out, last first, so every hint shown is whole on one row. */
struct hint_set {
	const char *const *hints;
	int n, keep;    /* the first `keep` are always shown */
};

static const char *fit_hints(const struct hint_set *set, int cols, char *buf, size_t len)
{
	int shown = set->n;
	for (;;) {
		size_t at = 0;
		buf[0] = '\0';
		for (int i = 0; i < shown && at < len; i++)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "  " : "", set->hints[i]);
		if (shown <= set->keep || (int)at <= cols - 1)
			return buf;
		shown--;
	}
}

/* The dashboard's: Tab moves the focus, 1-8 show or hide a pane (the
 * interval keys, in the help, give way first on a narrow screen). */
static const char *const dashboard_hints[] = {
	"q quit", "h help", "p freeze", "Tab focus", "1-8 show/hide", "a allocators", "c census", "d/+/- interval",
};
static const char *const picked_hints[] = {
	"q back", "h help", "p freeze", "Tab focus", "1-8 show/hide", "a allocators", "c census", "d/+/- interval",
};
static const char *const replay_hints[] = {
	"q quit", "h help", "t/T next/previous", "space play/pause", "1-8 show/hide", "r start", "b jump", "+/- pace",
};

#define HINTS(a, keep) { (a), (int)(sizeof(a) / sizeof((a)[0])), (keep) }

/* The keys worth knowing on the screen that shows. */
static const char *hints(const struct gt_app *a, int cols, char *buf, size_t len)
{
	static const struct hint_set dashboard = HINTS(dashboard_hints, 7);
	static const struct hint_set picked = HINTS(picked_hints, 7);
	static const struct hint_set replay = HINTS(replay_hints, 5);
	switch (a->modes.screen) {
	case GT_SCREEN_FINDINGS: return "q/Esc/f close findings";
	case GT_SCREEN_STACKS: return "q/Esc close stacks  Up/Down scroll";
	case GT_SCREEN_CENSUS: return "q/Esc/c close census  Up/Down scroll";
	case GT_SCREEN_PICKER_HELP: case GT_SCREEN_DASHBOARD_HELP: return "q/Esc/h close help";
	default: break;
	}
	if (gt_app_opening(a))
		return "q/Esc cancel  h help";
	if (a->replay)
		return fit_hints(&replay, cols, buf, len);
	if (gt_app_in_dashboard(a))
		return fit_hints(a->picker_mode ? &picked : &dashboard, cols, buf, len);
	return "Enter open  s sort  Up/Down select  d/+/- interval  h help  q quit";
}

/* The status line's text and attribute. */
static const char *footer_text(const struct gt_app *a, int cols, char *buf, size_t len, attr_t *attr)
{
	const struct gt_theme *t = &a->theme;
	*attr = t->title | A_BOLD;
	const char *asking = asking_text(a, buf, len);
	if (asking)
		return asking;
	bool in_dashboard = gt_app_in_dashboard(a);
	if (!a->note[0] && in_dashboard && gt_session_busy(&a->session))
		return gt_app_busy_text(a, buf, len);
	if (!a->note[0] && in_dashboard && gt_session_census_running(&a->session)) {
		snprintf(buf, len, "taking a census of PID %d ... %llus", (int)a->session.info.pid,
			 (unsigned long long)((gt_mono_ns() - a->census_since) / 1000000000ull));
		return buf;
	}
	if (!a->note[0] && !gt_mode_overlay(a->modes.screen) && a->replay && a->replay->moving) {
		snprintf(buf, len, "replay: reading to sample %llu, at %llu (q quits, any step key changes where to)",
			 (unsigned long long)a->replay->target, (unsigned long long)a->replay->pos);
		return buf;
	}
	const char *msg = a->note[0] ? a->note : (in_dashboard ? gt_dashboard_message(&a->db) : a->picker.message);
	if (msg && msg[0]) {
		*attr = t->warn;
		return msg;
	}
	*attr = t->label;
	return hints(a, cols, buf, len);
}

/* Wrapped onto up to FOOTER_LINES rows, never more than half the screen. */
int gt_footer_draw(const struct gt_app *a, int rows, int cols)
{
	char buf[768];
	attr_t attr;
	const char *text = footer_text(a, cols, buf, sizeof(buf), &attr);
	struct gt_wrap_line lines[FOOTER_LINES];
	int max = rows / 2 < FOOTER_LINES ? rows / 2 : FOOTER_LINES;
	int n = gt_wrap(text, cols, max, lines);
	for (int i = 0; i < n; i++)
		gt_pane_print(stdscr, rows - n + i, 0, attr, "%.*s", (int)lines[i].len, text + lines[i].start);
	return n;
}
