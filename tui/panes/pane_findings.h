/* The findings overlay (key f): every finding with its evidence and next
 * step, over the whole screen like the help. The one-line findings pane is
 * gt_pane_findings (tui/panes/pane.h). */
#ifndef GCTOP_TUI_PANES_PANE_FINDINGS_H
#define GCTOP_TUI_PANES_PANE_FINDINGS_H

#include "tui/panes/pane.h"

/* How many lines the overlay has on a screen `width` columns wide. */
int gt_findings_overlay_lines(const struct gt_view_ctx *ctx, int width);

/* Draws the overlay from line `first` into the whole of w. */
void gt_findings_overlay_draw(WINDOW *w, int first, const struct gt_view_ctx *ctx);

#endif
