/* A watched process: its runtime collector plus its process and cgroup facts,
 * producing one complete sample per call. */
#ifndef GCTOP_COLLECTORS_TARGET_H
#define GCTOP_COLLECTORS_TARGET_H

#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "base/error.h"
#include "model/sample.h"
#include "collectors/backend.h"

struct gt_target;

/* Finds the runtime of pid and opens it. */
struct gt_target *gt_target_open(pid_t pid, struct gt_error *err);
/* The same among backends (NULL-terminated) instead of the registry's: for
 * a backend's tests (collectors/skeleton/). */
struct gt_target *gt_target_open_from(const struct gt_backend_ops *const *backends, pid_t pid, struct gt_error *err);

const struct gt_target_info *gt_target_info(const struct gt_target *t);

/* Work between samples; see struct gt_backend_ops. */
int gt_target_wait_fd(const struct gt_target *t);
/* See struct gt_backend_ops' wait_may_lag. */
bool gt_target_wait_may_lag(const struct gt_target *t);
uint64_t gt_target_poll_interval_ns(const struct gt_target *t);
void gt_target_poll(struct gt_target *t, uint64_t now_ns);
/* See struct gt_backend_ops' settle. */
void gt_target_settle(struct gt_target *t, uint64_t deadline_ns);

/* Fills out completely. Returns 0, or -1 with err; GT_EXIT_TARGET_EXITED when
 * the process has gone (out then holds the last figures with state EXITED). */
int gt_target_sample(struct gt_target *t, struct gt_sample *out, struct gt_error *err);

/* Bytes per operation from the counter NAME (--ops; name must outlive t):
 * on a JVM a perf-data counter the application publishes, read from then
 * on with every sample. Returns 0, or -1 with one sentence in err
 * (GT_EXIT_USAGE) where the runtime takes no such counter (.NET). */
int gt_target_set_opcount(struct gt_target *t, const char *name, struct gt_error *err);

/* --ops-agent: loads gctop's agent for the counter set above when it lives
 * inside the target (--ops jmx:), for that counter alone: no allocation
 * sampling. 0 when it needs no agent; -1 with err when loading failed
 * (the samples then say the agent is not read). Blocks for an attach. */
int gt_target_enable_opcount_agent(struct gt_target *t, struct gt_error *err);

/* Allocation sampling (--allocators, the screen's `a` key after the user
 * confirms): loads gctop's agent into the JVM (or finds one already there)
 * and from then on each gt_target_sample also reads its segment: the exact
 * allocation total and the agent-timed pauses go into the sample, the
 * per-site figures into gt_target_allocators(). On .NET it restarts the
 * EventPipe session with stacks and the allocation events instead (see
 * collectors/dotnet/dotnet_session.c); nothing is loaded. Returns 0, or -1 with one
 * sentence in err; the target stays usable without sampling. */
int gt_target_enable_allocators(struct gt_target *t, const char *packages, const char *source,
				struct gt_error *err);
/* Stops reading; the agent stops sampling by itself a few seconds later. */
void gt_target_disable_allocators(struct gt_target *t);
/* The newest reading of the sampler, refreshed by gt_target_sample; NULL
 * while sampling is off. Stays valid until the next sample or disable. */
const struct gt_alloc_snapshot *gt_target_allocators(const struct gt_target *t);
/* The stacks behind those sites (model/alloc_stacks.h), refreshed and valid
 * as gt_target_allocators; NULL where the sampler takes none. */
const struct gt_alloc_stacks *gt_target_alloc_stacks(const struct gt_target *t);

/* The runtime's census hook (collectors/backend.h census), or NULL: the
 * runtime has none. It reads only a copy of gt_target_info(t), so it may
 * run on a worker while t goes on being sampled. */
typedef int (*gt_census_fn)(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
			    struct gt_error *err);
gt_census_fn gt_target_census_fn(const struct gt_target *t);

void gt_target_close(struct gt_target *t);

/* Every process of every runtime the user can see, with process facts. */
void gt_target_list_all(struct gt_list *out);

#endif
