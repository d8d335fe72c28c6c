/* gctop -l / --list: every process gctop can watch, once, as text or
 * JSON lines. */
#ifndef GCTOP_FRONTENDS_LIST_MODE_H
#define GCTOP_FRONTENDS_LIST_MODE_H

#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"

/* Writes the list to out (the "none" sentence to stderr); returns
 * GT_EXIT_OK, or GT_EXIT_FAILURE when out could not be written. */
int gt_list_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

#endif
