/* The full-screen view's start: what of the command line it uses, and
 * what gctop does on no full terminal. */
#ifndef GCTOP_FRONTENDS_SCREEN_START_H
#define GCTOP_FRONTENDS_SCREEN_START_H

#include <stdbool.h>

#include "base/error.h"
#include "frontends/options.h"

/* stdin and stdout are a terminal, and TERM names one that is not "dumb". */
bool gt_screen_start_terminal_usable(void);
/* The full-screen view (the picker without -p). Returns an exit status. */
int gt_screen_start_run(struct gt_options *opt, struct gt_error *err);
/* No full terminal: -p's target (or -r's recording) printed as text, as
 * with -b, after a sentence on stderr; GT_EXIT_USAGE with err when there
 * is no target to print, since the picker needs the screen. */
int gt_screen_start_as_text(struct gt_options *opt, struct gt_error *err);

#endif
