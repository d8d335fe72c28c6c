/* The census overlay (key c): the newest census of the live objects, its
 * top types by bytes and, from the second census on, what grew since the
 * one before (sorted by bytes grown), with when each was taken; over the
 * whole screen like the help. */
#ifndef GCTOP_TUI_PANES_PANE_CENSUS_H
#define GCTOP_TUI_PANES_PANE_CENSUS_H

#include "tui/panes/pane.h"
#include "session/session_census.h"

/* Rows of each table. */
#define GT_CENSUS_PANE_ROWS 20

/* How many lines the overlay has at width (k NULL: none taken yet). */
int gt_census_overlay_lines(const struct gt_session_census *k, const struct gt_target_info *info,
			    const struct gt_theme *t, int width);

/* Draws it from line `first` into the whole of w. */
void gt_census_overlay_draw(WINDOW *w, int first, const struct gt_session_census *k,
			    const struct gt_target_info *info, const struct gt_theme *t);

#endif
