/* The -b and --json loop: sample on a monotonic deadline, derive, write. */
#ifndef GCTOP_FRONTENDS_BATCH_H
#define GCTOP_FRONTENDS_BATCH_H

#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"

/* Returns an exit status (enum gt_exit); err holds the sentence when it is not 0. */
int gt_batch_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

/* --doctor: watches opt->pid for opt->doctor_ns, writes the findings and
 * returns GT_EXIT_OK (none) or GT_EXIT_FINDING_* by the worst; an exit
 * status of 1-9 (with err) when the target could not be watched. */
int gt_doctor_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

#endif
