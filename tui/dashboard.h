/* The view of one target on the screen: the panes of its session. */
#ifndef GCTOP_TUI_DASHBOARD_H
#define GCTOP_TUI_DASHBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include <ncurses.h>

#include "session/session.h"
#include "tui/panes/pane.h"
#include "tui/layout.h"

/* The screen of one session: its windows, focus and scroll. The figures,
 * the freeze and the allocation window are the session's (session/). */
struct gt_dashboard {
	struct gt_session *session;
	bool visible[GT_LAYOUT_MAX_PANES];
	int focus;                       /* index into gt_panes */
	int scroll[GT_LAYOUT_MAX_PANES];
	int max_scroll[GT_LAYOUT_MAX_PANES];     /* from the last draw: what the pane holds beyond its rows */
	WINDOW *win[GT_LAYOUT_MAX_PANES];
	struct gt_rect win_rect[GT_LAYOUT_MAX_PANES];
	struct gt_layout layout;
	int alloc_sel;                   /* the top-allocators row Enter opens (index into by_frame) */
	char stacks_site[GT_ALLOC_SITE_NAME_LEN];  /* the site whose stacks the overlay shows */
};

/* Shows session s: every pane visible, the focus on the second. */
void gt_dashboard_init(struct gt_dashboard *db, struct gt_session *s);
/* Drops the windows; the session stays its owner's. */
void gt_dashboard_close(struct gt_dashboard *db);

/* The line worth showing about the session (a failed sample, the exit),
 * or "". */
const char *gt_dashboard_message(const struct gt_dashboard *db);

/* What each pane of gt_panes asks of the layout with the figures of ctx;
 * visible[i]: the user has not toggled pane i off; widths[i]: the width
 * pane i has (NULL or 0: not known yet). */
void gt_dashboard_layout_req(const struct gt_view_ctx *ctx, const bool *visible, const int *widths,
			     struct gt_layout_req *req);
/* The layout of a body rows x cols: the panes' requests at the widths the
 * layout then gives them (a wrapped reason takes rows by its width). */
void gt_dashboard_lay_out(const struct gt_view_ctx *ctx, const bool *visible, int rows, int cols,
			  struct gt_layout_req *req, struct gt_layout *out);

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

/* The findings overlay (key f) of the figures shown: its length at width
 * columns, and its lines from `first` on drawn into w. */
int gt_dashboard_findings_lines(const struct gt_dashboard *db, const struct gt_theme *theme, int width);
void gt_dashboard_draw_findings(const struct gt_dashboard *db, WINDOW *w, int first, const struct gt_theme *theme);

/* Up/Down while the top-allocators pane has the focus: the selected site
 * moves, and the pane scrolls to keep it in view. */
bool gt_dashboard_allocators_focused(const struct gt_dashboard *db);
void gt_dashboard_select(struct gt_dashboard *db, int delta);
/* Enter: the selected site becomes the overlay's; false when there is none
 * (the pane not focused, sampling off, no table yet). */
bool gt_dashboard_open_stacks(struct gt_dashboard *db);
/* The stacks overlay of that site: its length at width columns, and its
 * lines from `first`. */
int gt_dashboard_stacks_lines(const struct gt_dashboard *db, const struct gt_theme *theme, int width);
void gt_dashboard_draw_stacks(const struct gt_dashboard *db, WINDOW *w, int first, const struct gt_theme *theme);

#endif
