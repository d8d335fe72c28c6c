/* Colours and glyphs, chosen once after the screen is open. */
#ifndef GCTOP_TUI_THEME_H
#define GCTOP_TUI_THEME_H

#include <stdbool.h>

#include "tui/panes/pane.h"

/* Colour only when the terminal has it and neither --no-color nor NO_COLOR
 * asks otherwise; 256-colour terminals get softer shades. UTF-8 glyphs only
 * when the locale's codeset is UTF-8. */
void gt_theme_init(struct gt_theme *t, bool no_color);

/* The attributes without colour: also what unit tests draw with. */
void gt_theme_mono(struct gt_theme *t, bool utf8);

#endif
