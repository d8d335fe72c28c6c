/* The picker's screen (tui/picker.h holds its state). */
#ifndef GCTOP_TUI_PANES_PANE_PICKER_H
#define GCTOP_TUI_PANES_PANE_PICKER_H

#include "tui/picker.h"
#include "tui/panes/pane.h"

/* Draws into the whole of w; moves p->top so the selection is visible. */
void gt_picker_draw(WINDOW *w, struct gt_picker *p, const struct gt_theme *t);

#endif
