/* gctop --compare FILE FILE... [--json] [--fail-if EXPR]. */
#ifndef GCTOP_FRONTENDS_COMPARE_MODE_H
#define GCTOP_FRONTENDS_COMPARE_MODE_H

#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"

/* Returns the exit status: 0, GT_EXIT_REGRESSION when --fail-if holds, or
 * another with err. */
int gt_compare_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

#endif
