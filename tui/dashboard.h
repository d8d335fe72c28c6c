/* The view of one target: its samples, their history, and the panes. */
#ifndef GCTOP_TUI_DASHBOARD_H
#define GCTOP_TUI_DASHBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include <ncurses.h>

#include "collectors/target.h"
#include "model/derive.h"
#include "model/history.h"
#include "views/pane.h"
#include "tui/layout.h"

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

	/* Allocation sampling (--allocators, key a): both NULL while it is off.
	 * Kept out of the struct: a window of readings is a few hundred KiB. */
	struct gt_alloc_window *alloc_window;
	struct gt_alloc_derived *alloc;          /* over GT_ALLOC_WINDOW_NS */
	char alloc_message[GT_ALLOC_MESSAGE_LEN];                 /* the sampler's sentence, "" when none */
	struct gt_alloc_derived *frozen_alloc;   /* p: NULL when sampling was off */
	char frozen_alloc_message[GT_ALLOC_MESSAGE_LEN];

	bool visible[GT_LAYOUT_MAX_PANES];
	int focus;                       /* index into gt_panes */
	int scroll[GT_LAYOUT_MAX_PANES];
	int max_scroll[GT_LAYOUT_MAX_PANES];     /* from the last draw: what the pane holds beyond its rows */
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

/* Allocation sampling (tui/dashboard_alloc.c). Enable loads gctop's agent
 * into the JVM (the caller has asked the user); returns 0, or -1 with one
 * sentence in err and the dashboard as it was. */
int gt_dashboard_enable_allocators(struct gt_dashboard *db, const char *packages, struct gt_error *err);
void gt_dashboard_disable_allocators(struct gt_dashboard *db);
static inline bool gt_dashboard_allocators_on(const struct gt_dashboard *db)
{
	return db->alloc != NULL;
}
/* After a sample: the sampler's newest reading into the window and the derive. */
void gt_dashboard_update_allocators(struct gt_dashboard *db);
/* p: keeps the table as it is (or forgets it when sampling is off). */
void gt_dashboard_freeze_allocators(struct gt_dashboard *db);
void gt_dashboard_free_allocators(struct gt_dashboard *db);

/* Tab: the next shown pane after the focused one. */
void gt_dashboard_focus_next(struct gt_dashboard *db);
/* Scrolls the focused pane's list by delta lines. */
void gt_dashboard_scroll(struct gt_dashboard *db, int delta);

#endif
