/* A fleet's listing on a worker thread (session/job.h's gt_worker_start),
 * so that neither the screen nor --serve's sampler waits for it: listing
 * asks every .NET runtime for its ProcessInfo, each within its own
 * deadline, and a runtime that accepts and never answers holds the
 * listing for that long (four such were 1.2 s a listing, longer than a
 * round). The holder asks for a listing, goes on with its rounds, and
 * takes the entries when the worker says it is done (gt_fleet_list_fd
 * readable).
 *
 * One worker serves every listing of the fleet, started at the first and
 * ended with the fleet: libproc2 keeps 256 KiB of buffers per thread that
 * reads /proc and frees them never (tests/lsan.supp), so a thread per
 * listing, one a second in the picker, grew gctop by 256 KiB a second.
 *
 * The worker sees nothing of the fleet: which pids it leaves out is a
 * copy made when the listing is asked for. */
#ifndef GCTOP_SESSION_FLEET_LIST_H
#define GCTOP_SESSION_FLEET_LIST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/list.h"

struct gt_fleet_list {
	bool started;              /* the worker exists */
	bool running;              /* a listing was asked for and not yet taken */
	pthread_t thread;
	int done_fd;               /* readable once a listing has finished */
	pthread_mutex_t lock;      /* asked, ending: between the holder and the worker */
	pthread_cond_t wake;
	bool asked;                /* a listing is to start */
	bool ending;               /* the worker is to end */
	atomic_bool stop;          /* ends the worker's waits (base/wait.h) */
	atomic_bool finished;      /* the listing asked for is done */
	/* in (the worker's own copies, set before it is asked): */
	pid_t *skip;               /* sorted: pids left out (open sessions) */
	size_t n_skip;
	pid_t *only;               /* sorted: the pids wanted; n_only 0: every one */
	size_t n_only;
	/* out: */
	struct gt_list list;
};

/* A fleet's listing before its first request (no worker yet). */
void gt_fleet_list_init(struct gt_fleet_list *l);

/* Asks for a listing of every process but those of skip, and only those
 * of only when n_only is not 0 (both copied); the worker starts with the
 * first. Returns 0, or -1 while one runs or when none could be started
 * (out of memory, no thread): the holder tries again on a later round. */
int gt_fleet_list_start(struct gt_fleet_list *l, const pid_t *skip, size_t n_skip, const pid_t *only, size_t n_only);

/* Whether pid was left out of the last listing (it had an open session
 * when the listing was asked for). */
bool gt_fleet_list_skipped(const struct gt_fleet_list *l, pid_t pid);

/* When the listing has finished: its entries move to *out (the caller
 * frees them with gt_list_free) and true; false while it runs or when
 * none was asked for. Never blocks. */
bool gt_fleet_list_take(struct gt_fleet_list *l, struct gt_list *out);

/* The descriptor to wait on while a listing runs, else -1. */
static inline int gt_fleet_list_fd(const struct gt_fleet_list *l)
{
	return l->running ? l->done_fd : -1;
}

/* Ends the worker: a listing under way stops at its next wait (every wait
 * is sliced to look at the stop: base/wait.h) and its entries are
 * dropped. */
void gt_fleet_list_free(struct gt_fleet_list *l);

#endif
