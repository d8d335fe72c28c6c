/* The -b and --json loop: sample on a monotonic deadline, derive, write. */
#ifndef GCTOP_FRONTENDS_BATCH_MODE_H
#define GCTOP_FRONTENDS_BATCH_MODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "frontends/options.h"
#include "session/session.h"

/* Returns an exit status (enum gt_exit); err holds the sentence when it is not 0. */
int gt_batch_run(const struct gt_options *opt, FILE *out, struct gt_error *err);

/* What the batch loop and the doctor (frontends/doctor_mode.c) share: the quit
 * signals (and a closed pipe seen as EPIPE, not a signal); -p's target
 * opened with its --ops counter (0, or -1 with err and s closed); the
 * loop (session/driver.h) that calls tick, then waits for s's deadline,
 * its descriptor or quit and reads its events, until tick returns false or
 * quit (0, or -1 with err: out of memory). */
void gt_batch_install_signals(void);
int gt_batch_open(const struct gt_options *opt, struct gt_session *s, struct gt_error *err);
int gt_batch_drive(struct gt_session *s, bool (*tick)(void *ctx, uint64_t now), void *ctx, struct gt_error *err);

#endif
