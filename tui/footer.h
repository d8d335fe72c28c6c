/* The status line at the bottom of the screen (tui/footer.c): a prompt,
 * a question, a one-off message, or the key hints. */
#ifndef GCTOP_TUI_FOOTER_H
#define GCTOP_TUI_FOOTER_H

#include "tui/app.h"

/* Draws the footer into the last rows of rows x cols on stdscr, wrapped
 * when it is longer than the screen is wide; returns the rows it took. */
int gt_footer_draw(const struct gt_app *a, int rows, int cols);

#endif
