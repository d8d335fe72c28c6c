/* gctop --census -p PID: one census of the live objects, as a text table or
 * (--json) one object, on the user's explicit request: it stops or
 * collects in the target (the runtime's census_cost says how). */
#ifndef GCTOP_FRONTENDS_CENSUS_MODE_H
#define GCTOP_FRONTENDS_CENSUS_MODE_H

#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"

/* Takes the census and writes it. GT_EXIT_OK, or an exit status with err:
 * the process cannot be opened (3-9), its runtime has no census (4), the
 * runtime refused or the exchange failed (1), no answer within
 * GT_CENSUS_DEADLINE_MS (9). */
int gt_census_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

#endif
