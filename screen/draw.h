/* The whole screen from the app's state (screen/draw.c): the footer, and
 * above it the overlay, the wait for a target, the dashboard or the
 * picker. */
#ifndef GCTOP_SCREEN_DRAW_H
#define GCTOP_SCREEN_DRAW_H

#include "screen/app.h"

/* Draws and shows the screen; keeps a->body the size of the space above
 * the footer. */
void gt_draw_screen(struct gt_app *a);

#endif
