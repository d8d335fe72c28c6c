/* The full-screen interactive view (ncurses): panes for one target, or the
 * picker when no -p was given. Only tui/ and views/ call ncurses. */
#ifndef GCTOP_TUI_TUI_H
#define GCTOP_TUI_TUI_H

#include "base/error.h"
#include "tui/options.h"

/* Runs until the user quits or the terminal goes away. Returns an exit status
 * (enum gt_exit); on failure before the screen opened, err holds the sentence. */
int gt_tui_run(const struct gt_options *opt, struct gt_error *err);

#endif
