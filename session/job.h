/* The slow steps of a session on a worker thread, so the screen never
 * blocks: opening a target (a runtime still starting is waited for, up to
 * seconds) and turning allocation sampling on (loading gctop's agent into
 * a JVM, a .NET rundown). One job per session at a time; while it runs the
 * session's target belongs to the worker, and the session neither samples
 * nor polls it (its last figures stay). The job says it has finished
 * through a descriptor the caller's loop waits on. */
#ifndef GCTOP_SESSION_JOB_H
#define GCTOP_SESSION_JOB_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "base/error.h"
#include "session/session.h"

/* A worker thread for such a step, the one way gctop makes one (the
 * session's jobs here, the fleet's worker: session/fleet_worker.h): fn(arg)
 * runs with the asynchronous signals blocked, and *done_fd is an eventfd
 * (non-blocking) for gt_worker_done. Returns 0, or -1 with err (no
 * thread, no descriptor). */
int gt_worker_start(pthread_t *thread, void *(*fn)(void *), void *arg, int *done_fd, struct gt_error *err);
/* The worker's last act: done_fd becomes readable. */
void gt_worker_done(int done_fd);

enum gt_job_kind {
	GT_JOB_OPEN,          /* gt_session_open_async */
	GT_JOB_ALLOCATORS,    /* gt_session_enable_allocators_async */
};

enum gt_job_result {
	GT_JOB_NONE = 0,      /* no job */
	GT_JOB_RUNNING,
	GT_JOB_DONE,          /* it worked: the target is open, or sampling is on */
	GT_JOB_FAILED,        /* err says why */
	GT_JOB_CANCELLED,
};

/* Initialises s for pid (info.pid is set) and opens it on the worker.
 * Returns 0, or -1 with err (nothing started, s closed). */
int gt_session_open_async(struct gt_session *s, pid_t pid, struct gt_error *err);
/* The open job itself, for an initialised session (gt_session_open_async's
 * work, in session/session.c). Returns 0, or -1 with err (nothing started). */
int gt_session_job_open(struct gt_session *s, pid_t pid, struct gt_error *err);
/* Turns allocation sampling on on the worker (gt_session_enable_allocators'
 * work). Returns 0, or -1 with err (nothing started). */
int gt_session_enable_allocators_async(struct gt_session *s, const char *packages, const char *source,
				       struct gt_error *err);

static inline bool gt_session_busy(const struct gt_session *s)
{
	return s->job != NULL;
}
enum gt_job_kind gt_session_job_kind(const struct gt_session *s);
/* Readable once the job has finished; -1 without a job. */
int gt_session_job_fd(const struct gt_session *s);

/* Collects a finished job: an open target is adopted (the caller starts
 * the schedule), the allocation window kept or dropped. GT_JOB_RUNNING
 * while it runs (never blocks), GT_JOB_NONE without a job. */
enum gt_job_result gt_session_job_finish(struct gt_session *s, struct gt_error *err);

/* The user withdraws the job: an open stops at its next wait and ends
 * GT_JOB_CANCELLED. Allocation sampling is not broken off half-way (a
 * .NET session cut in its restart would be lost): it finishes, and is then
 * turned off again, ending GT_JOB_CANCELLED. */
void gt_session_job_cancel(struct gt_session *s);

/* Stops the job at its next wait and waits for the worker (the waits have
 * deadlines); its result is dropped. gt_session_close calls it. */
void gt_session_job_stop(struct gt_session *s);

#endif
