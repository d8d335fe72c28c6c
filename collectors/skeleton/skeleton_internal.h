/* What the skeleton runtime's files share (collectors/skeleton/): the
 * backend's state for one target and the hooks skeleton_sample.c gives the
 * interface table in skeleton.c. A runtime keeps one such header. */
#ifndef GCTOP_COLLECTORS_SKELETON_SKELETON_INTERNAL_H
#define GCTOP_COLLECTORS_SKELETON_SKELETON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "collectors/skeleton/skeleton_runtime.h"

/* The operations counter it counts its polls in, for --ops. */
#define GT_SKELETON_OPCOUNT_COUNTER "polls"

/* What a process of the skeleton runtime publishes, as a JVM publishes its
 * perf data: a regular file of its own user, /tmp/gctop-skeleton-<pid>.
 * No program makes one; only a test arranges it
 * (tests/unit/test_skeleton.c), so that a build that registers the
 * skeleton (tests/static/third_runtime.sh) lists and opens no real
 * process. */
#define GT_SKELETON_DIR "/tmp"
#define GT_SKELETON_PREFIX "gctop-skeleton-"

/* A real backend polls as often as its runtime's figures change (HotSpot:
 * every eden fill it must see) or not at all (0) when it is told by a
 * descriptor (.NET's event stream). */
#define SKELETON_POLL_NS 100000000ull

/* Everything the backend keeps for one target: its transport (a mapped
 * file, a socket), its decoders' state, its allocation sampler. */
struct gt_backend {
	pid_t pid;
	uint64_t polls;          /* the skeleton's stand-in for a runtime's counters */
	const char *opcount_counter; /* --ops NAME, or NULL */
};

/* skeleton_sample.c */
uint64_t skeleton_poll_interval(const struct gt_backend *b);
int skeleton_wait_fd(const struct gt_backend *b);
bool skeleton_wait_may_lag(const struct gt_backend *b);
void skeleton_poll(struct gt_backend *b, uint64_t now_ns);
void skeleton_settle(struct gt_backend *b, uint64_t deadline_ns);
int skeleton_sample(struct gt_backend *b, struct gt_sample *out, struct gt_error *err);

#endif
