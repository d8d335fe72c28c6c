/* The memory cgroup of a process (v1, v2 or hybrid) through libcgroup. */
#ifndef GCTOP_COLLECTORS_CGROUP_H
#define GCTOP_COLLECTORS_CGROUP_H

#include <stdint.h>
#include <sys/types.h>

#include "model/sample.h"

struct gt_cgroup;

/* Never fails for a missing cgroup: its figures simply stay invalid.
 * Fills cgroup_path, cgroup_version and cgroup_limit_bytes of info, and
 * container_id and k8s_pod_uid where the group's path names them. */
struct gt_cgroup *gt_cgroup_open(pid_t pid, struct gt_target_info *info);

/* Fills cgroup_limit/usage/working_set, oom_kills and memory pressure. */
void gt_cgroup_sample(struct gt_cgroup *cg, struct gt_sample *out);

void gt_cgroup_close(struct gt_cgroup *cg);

/* Between begin and end on one thread, the samples of processes in the
 * same group share one reading of its files (a fleet's round: many
 * processes often share a group, and its cgroup.procs grows with them).
 * Outside a round every sample reads them. */
void gt_cgroup_round_begin(void);
void gt_cgroup_round_end(void);
/* A round keeps what the next one reuses (the count of a group's
 * processes, read every 10 s: collectors/host/cgroup.c); this frees it,
 * when the thread's rounds are over. */
void gt_cgroup_rounds_free(void);

#endif
