/* The memory cgroup of a process (v1, v2 or hybrid) through libcgroup. */
#ifndef GCTOP_COLLECTORS_CGROUP_H
#define GCTOP_COLLECTORS_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "model/sample.h"

struct gt_cgroup;

/* Never fails for a missing cgroup: its figures simply stay invalid.
 * Fills cgroup_path, cgroup_version and cgroup_limit_bytes of info. */
struct gt_cgroup *gt_cgroup_open(pid_t pid, struct gt_target_info *info);

/* Fills cgroup_limit/usage/working_set, oom_kills and memory pressure. */
void gt_cgroup_sample(struct gt_cgroup *cg, struct gt_sample *out);

void gt_cgroup_close(struct gt_cgroup *cg);

#endif
