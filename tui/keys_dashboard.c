/* The keys of one process's dashboard, and of a replay's (the steps
 * themselves are tui/app_replay.c's). */
#include <ncurses.h>

#include "tui/app_keys.h"
#include "tui/app_replay.h"
#include "base/clock.h"
#include "tui/app_census.h"
#include "tui/app_session.h"
#include "session/session_census.h"

/* a: on or off, after a y/N question. Only a JVM gets an agent loaded;
 * for the rest the target says in one sentence what it can do. */
static void allocators_key(struct gt_app *a)
{
	struct gt_session *s = &a->session;
	if (s->exited) {
		gt_app_note(a, "process %d has exited", (int)s->info.pid);
	} else if (gt_session_allocators_on(s)) {
		gt_app_mode(a, GT_MODE_ASK_STOP);
	} else if (gt_app_loads_code(a) || gt_app_source_question(a)) {
		gt_app_mode(a, GT_MODE_ASK_START);
	} else {
		gt_app_start_allocators(a);
	}
}

/* c: a census after a y/N that states its cost; the one taken and not
 * seen yet (a question was open when it came) first; one at a time. */
static void census_key(struct gt_app *a)
{
	struct gt_session *s = &a->session;
	const char *cost = s->info.runtime ? s->info.runtime->census_cost : NULL;
	if (a->replay)
		gt_app_note(a, "a recording holds no census: take one of a live process");
	else if (gt_session_census_running(s))
		gt_app_note(a, "a census of PID %d is under way (%llu s so far)", (int)s->info.pid,
			    (unsigned long long)((gt_mono_ns() - a->census_since) / 1000000000ull));
	else if (a->census_unseen)
		gt_app_mode(a, GT_MODE_CENSUS);
	else if (s->exited)
		gt_app_note(a, "process %d has exited", (int)s->info.pid);
	else if (!cost)
		gt_app_note(a, "gctop cannot take a census of the live objects of this process");
	else
		gt_app_mode(a, GT_MODE_ASK_CENSUS);
}

static bool replay_action(enum gt_action act)
{
	return act == GT_ACT_STEP_NEXT || act == GT_ACT_STEP_BACK || act == GT_ACT_REWIND || act == GT_ACT_BRANCH ||
	       act == GT_ACT_REFRESH;
}

/* q leaves gctop, or goes back to the picker it was opened from; so does
 * Esc, which alone does nothing with -p. */
static void leave_key(struct gt_app *a, enum gt_action act)
{
	if (a->picker_mode)
		gt_app_close_dashboard(a);
	else if (act == GT_ACT_QUIT)
		a->quit = true;
}

/* The keys that move within the panes, and pick a site's stacks. */
static void pane_key(struct gt_app *a, const struct gt_key_binding *b, int ch)
{
	struct gt_dashboard *db = &a->db;
	switch (b->action) {
	case GT_ACT_UP: case GT_ACT_DOWN: {
		int delta = b->action == GT_ACT_UP ? -1 : +1;
		if (gt_dashboard_allocators_focused(db))
			gt_dashboard_select(db, delta);
		else
			gt_dashboard_scroll(db, delta);
		break;
	}
	case GT_ACT_STACKS:
		if (gt_dashboard_open_stacks(db))
			gt_app_mode(a, GT_MODE_STACKS);
		else
			gt_app_note(a, "Enter shows a site's stacks: Tab to the top-allocators pane while sampling (a)");
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
	default: break;
	}
}

void gt_keys_dashboard(struct gt_app *a, const struct gt_key_binding *b, int ch)
{
	if (gt_session_busy(&a->session) && gt_app_busy_key(a, b->action))
		return;
	if (a->replay && replay_action(b->action)) {
		gt_app_replay_key(a, b->action);
		return;
	}
	switch (b->action) {
	case GT_ACT_STEP_NEXT: case GT_ACT_STEP_BACK: case GT_ACT_REWIND: case GT_ACT_BRANCH:
		gt_app_note(a, "t, T, r and b step through a recording: gctop -r FILE");
		break;
	case GT_ACT_QUIT: case GT_ACT_BACK: leave_key(a, b->action); break;
	case GT_ACT_FREEZE: gt_session_toggle_freeze(&a->session); break;
	case GT_ACT_UP: case GT_ACT_DOWN: case GT_ACT_STACKS: case GT_ACT_PAGE_UP: case GT_ACT_PAGE_DOWN:
	case GT_ACT_FOCUS_NEXT: case GT_ACT_TOGGLE_PANE:
		pane_key(a, b, ch);
		break;
	case GT_ACT_ALLOCATORS:
		if (a->replay)
			gt_app_note(a, "a recording: its allocator tables show when it was made with sampling on");
		else
			allocators_key(a);
		break;
	case GT_ACT_FINDINGS: gt_app_mode(a, GT_MODE_FINDINGS); break;
	case GT_ACT_CENSUS: census_key(a); break;
	default: gt_keys_common(a, b->action); break;
	}
}
