/* gctop --serve: /metrics over HTTP for Prometheus, until interrupted. */
#ifndef GCTOP_FRONTENDS_SERVE_MODE_H
#define GCTOP_FRONTENDS_SERVE_MODE_H

#include "base/error.h"
#include "frontends/options.h"

/* Returns an exit status; err says why when it is not GT_EXIT_OK. */
int gt_serve_run(const struct gt_options *opt, struct gt_error *err);

#endif
