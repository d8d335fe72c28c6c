/* A census of the live objects of a session's target (model/census.h), on
 * the user's request, on a worker thread of its own: unlike the session's
 * jobs (session/job.h) it leaves the target to the session, which goes on
 * sampling, since the runtime's census hook reads only a copy of the
 * target's info. One census at a time; the session keeps the newest and
 * the one before, and the change between them. */
#ifndef GCTOP_SESSION_SESSION_CENSUS_H
#define GCTOP_SESSION_SESSION_CENSUS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "collectors/target.h"
#include "model/census.h"
#include "model/census_cost.h"

struct gt_session;
struct gt_census_job;
struct gt_target;

/* How long a census may take before gctop gives up waiting for it (the
 * runtime finishes it anyway): a full collection and a heap walk take
 * seconds per GiB on a busy machine. */
#define GT_CENSUS_DEADLINE_MS 120000u

/* What a session knows of its censuses. */
struct gt_session_census {
	struct gt_census cur, prev;      /* the newest; the one before */
	bool have_cur, have_prev;
	struct gt_census_diff diff;      /* prev to cur, while have_prev */
	unsigned taken;                  /* censuses taken so far */
};

/* Takes one census of the process info names through its runtime's hook
 * census (gt_target_census_fn), by deadline_ns (the quit flag ends it
 * too): --census's whole work. The hook needs only the info, so the
 * target may be closed first, as --census does: a .NET watch session
 * left open would fill, unread, for the seconds the census takes. NULL
 * hook: the runtime has none (GT_EXIT_NOT_RUNTIME). A census that fails
 * because the target died says so (GT_EXIT_CENSUS_DIED), with the
 * kernel's OOM kill where the target's memory cgroup counts one; the
 * screen's censuses are watched alike. 0, or -1 with err. */
int gt_census_take(const struct gt_target_info *info, gt_census_fn census, struct gt_census *out,
		   uint64_t deadline_ns, struct gt_error *err);
/* Whether a census fits the target's headroom (model/census_cost.h), from
 * its sample s (heap in use, resident set, container figures), the host's
 * available memory and its runtime's measured cost. */
void gt_census_fit_of(const struct gt_target_info *info, const struct gt_sample *s, struct gt_census_fit *out);

/* What gt_census_take needs of s's open target: a copy of its info into
 * *info, and its runtime's hook (NULL: none), both good after the session
 * is closed. */
gt_census_fn gt_session_census_hook(const struct gt_session *s, struct gt_target_info *info);

/* Starts a census of s's open target on a worker. 0, or -1 with err: one
 * is already running (GT_EXIT_USAGE), the runtime has none, no thread. */
int gt_session_census_start(struct gt_session *s, struct gt_error *err);
bool gt_session_census_running(const struct gt_session *s);
/* Readable once the census has finished; -1 without one running. */
int gt_session_census_fd(const struct gt_session *s);
/* Collects a finished census into s->census (the newest becomes the
 * previous one). 1 taken, 0 still running or none, -1 failed with err. */
int gt_session_census_finish(struct gt_session *s, struct gt_error *err);
/* Stops a running census at its next wait, waits for the worker, and
 * frees every census s holds. gt_session_close calls it. */
void gt_session_census_close(struct gt_session *s);

#endif
