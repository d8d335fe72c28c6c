/* The whole screen from the app's state: what shows above the footer
 * follows the screen mode (tui/mode.h). */
#include <ncurses.h>

#include "base/clock.h"
#include "tui/app_session.h"
#include "tui/draw.h"
#include "tui/footer.h"
#include "tui/panes/pane_census.h"
#include "tui/panes/pane_help.h"
#include "tui/panes/pane_picker.h"

/* The help, the findings, the stacks or the census, from line help_first on (kept
 * within what the overlay holds). */
static void draw_overlay(struct gt_app *a, int body_rows, int cols)
{
	enum gt_screen_mode screen = a->modes.screen;
	werase(a->body);
	const struct gt_session *s = &a->session;
	int lines = screen == GT_SCREEN_FINDINGS ? gt_dashboard_findings_lines(&a->db, &a->theme, cols)
		    : screen == GT_SCREEN_STACKS ? gt_dashboard_stacks_lines(&a->db, &a->theme, cols)
		    : screen == GT_SCREEN_CENSUS ? gt_census_overlay_lines(s->census, &s->info, &a->theme, cols)
		    : gt_help_lines(cols);
	int max_first = lines - (body_rows - 1);
	if (a->help_first > max_first)
		a->help_first = max_first > 0 ? max_first : 0;
	if (screen == GT_SCREEN_FINDINGS)
		gt_dashboard_draw_findings(&a->db, a->body, a->help_first, &a->theme);
	else if (screen == GT_SCREEN_STACKS)
		gt_dashboard_draw_stacks(&a->db, a->body, a->help_first, &a->theme);
	else if (screen == GT_SCREEN_CENSUS)
		gt_census_overlay_draw(a->body, a->help_first, s->census, &s->info, &a->theme);
	else
		gt_help_draw(a->body, a->help_first, &a->theme);
	wnoutrefresh(a->body);
}

/* While the target opens: its PID and what is waited for. */
static void draw_opening(struct gt_app *a)
{
	char buf[256];
	werase(a->body);
	gt_pane_print(a->body, 0, 0, a->theme.title | A_BOLD, "gctop  PID %d", (int)a->session.info.pid);
	gt_pane_print(a->body, 2, 0, a->theme.label, "%s", gt_app_busy_text(a, buf, sizeof(buf)));
	wnoutrefresh(a->body);
}

static void draw_dashboard(struct gt_app *a, int body_rows, int cols)
{
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
}

void gt_draw_screen(struct gt_app *a)
{
	int rows = LINES, cols = COLS;

	werase(stdscr);
	if (rows < 2) {
		gt_pane_print(stdscr, 0, 0, A_BOLD, "too small");
		wnoutrefresh(stdscr);
		doupdate();
		return;
	}
	int body_rows = rows - gt_footer_draw(a, rows, cols);
	wnoutrefresh(stdscr);

	if (!a->body || getmaxy(a->body) != body_rows || getmaxx(a->body) != cols) {
		if (a->body)
			delwin(a->body);
		a->body = newwin(body_rows, cols, 0, 0);
	}
	if (gt_mode_overlay(a->modes.screen) && a->body) {
		draw_overlay(a, body_rows, cols);
	} else if (gt_app_opening(a) && a->body) {
		draw_opening(a);
	} else if (gt_app_in_dashboard(a)) {
		draw_dashboard(a, body_rows, cols);
	} else if (a->body) {
		werase(a->body);
		gt_picker_draw(a->body, &a->picker, &a->theme);
		wnoutrefresh(a->body);
	}
	doupdate();
}
