/* The view of one target: its samples, their history, and the panes. */
#ifndef GCTOP_TUI_DASHBOARD_H
#define GCTOP_TUI_DASHBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include <ncurses.h>

#include "../collectors/target.h"
#include "../model/derive.h"
#include "../model/history.h"
#include "../views/pane.h"
#include "layout.h"

struct gt_dashboard {
	struct gt_target *target;
	struct gt_target_info info;
	struct gt_sample prev;
	bool have_prev;
	struct gt_derived derived;
	bool have_derived;
	struct gt_history *history;
	bool exited;

	/* p: the picture stays as it was while sampling goes on. */
	bool frozen;
	struct gt_derived frozen_derived;
	bool frozen_have_derived;
	struct gt_history *frozen_history;

	bool visible[GT_LAYOUT_MAX_PANES];
	int focus;                       /* index into gt_panes */
	int scroll[GT_LAYOUT_MAX_PANES];
	WINDOW *win[GT_LAYOUT_MAX_PANES];
	struct gt_rect win_rect[GT_LAYOUT_MAX_PANES];
	struct gt_layout layout;
	char message[512];               /* the last problem worth a line */
};

/* Opens pid. Returns 0, or -1 with err. */
int gt_dashboard_open(struct gt_dashboard *db, pid_t pid, struct gt_error *err);
void gt_dashboard_close(struct gt_dashboard *db);

/* Takes one sample and derives it against the previous one. Returns true
 * when the target has just been found gone. */
bool gt_dashboard_sample(struct gt_dashboard *db);

void gt_dashboard_toggle_freeze(struct gt_dashboard *db);

/* Draws the panes into rows x cols at the top of the screen (the caller
 * owns the rest) and queues them with wnoutrefresh. */
void gt_dashboard_draw(struct gt_dashboard *db, int rows, int cols, const struct gt_theme *theme,
		       double interval_s, int64_t now_wall_ms);

/* Drops every pane window (after a resize ncurses may have shrunk them). */
void gt_dashboard_forget_windows(struct gt_dashboard *db);

/* Tab: the next shown pane after the focused one. */
void gt_dashboard_focus_next(struct gt_dashboard *db);
/* Scrolls the focused pane's list by delta lines. */
void gt_dashboard_scroll(struct gt_dashboard *db, int delta);

#endif
