/* gctop --doctor: one process watched for a while, then its findings. */
#ifndef GCTOP_FRONTENDS_DOCTOR_MODE_H
#define GCTOP_FRONTENDS_DOCTOR_MODE_H

#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"

/* Watches opt->pid for opt->doctor_ns, writes the findings and returns
 * GT_EXIT_OK (none) or GT_EXIT_FINDING_* by the worst; an exit status of
 * 1-9 (with err) when the target could not be watched. */
int gt_doctor_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

#endif
