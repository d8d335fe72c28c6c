/* The lines of a whole-screen overlay (the findings, a site's stacks):
 * walked once to count them at a width and once to draw those from a
 * first line on, so that the count and the drawing always agree. */
#ifndef GCTOP_TUI_PANES_PANE_OVERLAY_H
#define GCTOP_TUI_PANES_PANE_OVERLAY_H

#include <ncurses.h>

#include "tui/panes/pane.h"

/* Narrower than this, an overlay's lines are cut rather than wrapped. */
#define GT_OVERLAY_MIN_WRAP 16

struct gt_overlay {
	WINDOW *w;            /* NULL: count lines only */
	const struct gt_theme *t;
	int width, first, line;
};

/* One line: n bytes of text from column x (row 0 is the overlay's title). */
void gt_overlay_line(struct gt_overlay *o, int x, attr_t attr, const char *text, int n);

/* text from column x, broken at spaces to the width, so a sentence is
 * read whole at 80 columns rather than cut at the edge. */
void gt_overlay_text(struct gt_overlay *o, int x, attr_t attr, const char *text);

#endif
