/* Where each pane goes for a terminal of a given size. Pure: no ncurses.
 *
 * Full-width panes stack at the top; the others flow, in order, into one to
 * three equal columns below them. Each pane says the rows it needs and the
 * rows its content fills (a list: one per entry). A column gives its rows
 * to its panes' content first, most important first, and what is left to
 * its graphs; where the plain flow would cut a pane's content, the panes
 * are split among the columns (still in order) so that the least content
 * is cut, rather than rows standing blank in one column while a list is cut
 * in another. When the screen is short, the pane of the largest priority
 * number is dropped first, until the rest fit. */
#ifndef GCTOP_TUI_LAYOUT_H
#define GCTOP_TUI_LAYOUT_H

#include <stdbool.h>

#define GT_LAYOUT_MAX_PANES 16
#define GT_LAYOUT_MAX_COLUMNS 3
/* Narrower columns than this are not worth splitting the screen for. Two
 * columns on the 80 of a default terminal (39 + 1 + 40) are: one column of
 * 80 cannot hold every pane's essential rows in 24 lines. */
#define GT_LAYOUT_SPLIT_COLS 39

struct gt_rect {
	int y, x, rows, cols;
};

struct gt_layout_req {
	bool visible;       /* the user has not toggled it off */
	bool full_width;
	int min_rows, min_cols;
	int want_rows;      /* the rows its content fills: grows up to this when there is room */
	int priority;       /* smaller is more important */
	bool stretch;       /* uses rows past its wish (a graph): takes what is left over */
	int max_rows;       /* a stretching pane grows to this at most; 0: no cap. What no pane
			     * takes stays blank below the column's panes, never inside one. */
};

struct gt_layout {
	bool usable;        /* false: show the one-line "too small" message instead */
	int need_rows, need_cols;        /* the smallest usable size for these panes */
	int columns;                     /* columns the body was split into */
	bool shown[GT_LAYOUT_MAX_PANES];
	struct gt_rect rects[GT_LAYOUT_MAX_PANES]; /* valid where shown */
};

/* n <= GT_LAYOUT_MAX_PANES. Usable when the two most important visible panes
 * (or the only one) fit; otherwise nothing is shown. With no visible pane
 * the layout is usable and empty. */
void gt_layout_compute(int rows, int cols, const struct gt_layout_req *req, int n, struct gt_layout *out);

#endif
