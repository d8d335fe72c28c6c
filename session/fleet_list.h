/* A fleet's listing on a worker thread (session/job.h's gt_worker_start),
 * so that neither the screen nor --serve's sampler waits for it: listing
 * asks every .NET runtime for its ProcessInfo, each within its own
 * deadline, and a runtime that accepts and never answers holds the
 * listing for that long (four such were 1.2 s a listing, longer than a
 * round). The holder starts one, goes on with its rounds, and takes the
 * entries when the worker says it is done (gt_fleet_list_fd readable).
 *
 * The worker sees nothing of the fleet: which pids it leaves out is a
 * copy made at the start. */
#ifndef GCTOP_SESSION_FLEET_LIST_H
#define GCTOP_SESSION_FLEET_LIST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/list.h"

struct gt_fleet_list {
	bool running;              /* a worker was started and not yet taken or stopped */
	pthread_t thread;
	int done_fd;               /* readable once the worker has finished; -1 when none runs */
	atomic_bool stop;          /* ends the worker's waits (base/wait.h) */
	atomic_bool finished;
	/* in (the worker's own copies): */
	pid_t *skip;               /* sorted: pids left out (open sessions) */
	size_t n_skip;
	pid_t *only;               /* sorted: the pids wanted; n_only 0: every one */
	size_t n_only;
	/* out: */
	struct gt_list list;
};

/* Starts a listing of every process but those of skip, and only those of
 * only when n_only is not 0 (both copied). Returns 0, or -1 when no worker
 * could be started (out of memory, no thread): the holder tries again on
 * a later round. */
int gt_fleet_list_start(struct gt_fleet_list *l, const pid_t *skip, size_t n_skip, const pid_t *only, size_t n_only);

/* Whether pid was left out of the listing (it had an open session when
 * it began). */
bool gt_fleet_list_skipped(const struct gt_fleet_list *l, pid_t pid);

/* When the worker has finished: its entries move to *out (the caller
 * frees them with gt_list_free) and true; false while it runs or when
 * none was started. Never blocks. */
bool gt_fleet_list_take(struct gt_fleet_list *l, struct gt_list *out);

/* The descriptor to wait on while a listing runs, else -1. */
static inline int gt_fleet_list_fd(const struct gt_fleet_list *l)
{
	return l->running ? l->done_fd : -1;
}

/* Stops a running worker at its next wait (every wait is sliced to look
 * at the stop: base/wait.h) and joins it; its entries are dropped. */
void gt_fleet_list_stop(struct gt_fleet_list *l);

#endif
