/* The census on the screen (key c): started after the user's yes on the
 * session's census worker (session/session_census.h), so the dashboard goes on
 * sampling; the loop collects it and opens the census overlay. */
#ifndef GCTOP_TUI_APP_CENSUS_H
#define GCTOP_TUI_APP_CENSUS_H

#include <stdbool.h>

#include "tui/app.h"

/* After the y/N: starts it, or says in one sentence why not. */
void gt_app_start_census(struct gt_app *a);
/* The census, if it has ended: shown, or its failure said. True when
 * there is something new to draw. */
bool gt_app_collect_census(struct gt_app *a);

#endif
