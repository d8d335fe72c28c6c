/* The stacks overlay (Enter in the top-allocators pane): the top stacks
 * behind one allocation site, each with its share of the site's sampled
 * bytes and its frames, innermost first, over the whole screen like the
 * help. */
#ifndef GCTOP_TUI_PANES_PANE_STACKS_H
#define GCTOP_TUI_PANES_PANE_STACKS_H

#include "tui/panes/pane.h"

/* How many lines the overlay of site has. */
int gt_stacks_overlay_lines(const struct gt_view_ctx *ctx, const char *site, int width);

/* Draws the overlay of site from line `first` into the whole of w. */
void gt_stacks_overlay_draw(WINDOW *w, int first, const struct gt_view_ctx *ctx, const char *site);

#endif
