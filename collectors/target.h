/* A watched process: its runtime collector plus its process and cgroup facts,
 * producing one complete sample per call. */
#ifndef GCTOP_COLLECTORS_TARGET_H
#define GCTOP_COLLECTORS_TARGET_H

#include "../model/error.h"
#include "../model/sample.h"
#include "collector.h"

struct gt_target;

/* Finds the runtime of pid and opens it. */
struct gt_target *gt_target_open(pid_t pid, struct gt_error *err);

const struct gt_target_info *gt_target_info(const struct gt_target *t);

/* Work between samples; see struct gt_collector_ops. */
int gt_target_wait_fd(const struct gt_target *t);
uint64_t gt_target_poll_interval_ns(const struct gt_target *t);
void gt_target_poll(struct gt_target *t, uint64_t now_ns);

/* Fills out completely. Returns 0, or -1 with err; GT_EXIT_TARGET_EXITED when
 * the process has gone (out then holds the last figures with state EXITED). */
int gt_target_sample(struct gt_target *t, struct gt_sample *out, struct gt_error *err);

void gt_target_close(struct gt_target *t);

/* Every process of every runtime the user can see, with process facts. */
void gt_target_list_all(struct gt_list *out);

#endif
