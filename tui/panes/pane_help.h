/* The help screen, printed from the key table (tui/keys.h). */
#ifndef GCTOP_TUI_PANES_PANE_HELP_H
#define GCTOP_TUI_PANES_PANE_HELP_H

#include "tui/panes/pane.h"

/* How many lines the help text has on a screen `width` columns wide (for
 * scrolling): long lines wrap. */
int gt_help_lines(int width);

/* Draws the help from line `first` into the whole of w. */
void gt_help_draw(WINDOW *w, int first, const struct gt_theme *t);

#endif
