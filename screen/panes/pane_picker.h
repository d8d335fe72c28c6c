/* The picker's screen (screen/picker.h holds its state). */
#ifndef GCTOP_SCREEN_PANES_PANE_PICKER_H
#define GCTOP_SCREEN_PANES_PANE_PICKER_H

#include "screen/picker.h"
#include "screen/panes/pane.h"

/* Draws into the whole of w; moves p->top so the selection is visible. */
void gt_picker_draw(WINDOW *w, struct gt_picker *p, const struct gt_theme *t);

#endif
