/* The whole screen from the app's state (tui/draw.c): the footer, and
 * above it the overlay, the wait for a target, the dashboard or the
 * picker. */
#ifndef GCTOP_TUI_DRAW_H
#define GCTOP_TUI_DRAW_H

#include "tui/app.h"

/* Draws and shows the screen; keeps a->body the size of the space above
 * the footer. */
void gt_draw_screen(struct gt_app *a);

#endif
