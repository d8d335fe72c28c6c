/* A fleet's slow steps on a worker thread (session/job.h's
 * gt_worker_start), so that neither the screen nor --serve's sampler waits
 * for them: listing the processes, which asks every .NET runtime for its
 * ProcessInfo, each within its own deadline (a runtime that accepts and
 * never answers holds the listing for that long: four such were 1.2 s a
 * listing, longer than a round), and opening new ones (a .NET session is
 * ProcessInfo and CollectTracing, 2 s each at worst). The holder asks for
 * one step, goes on with its rounds, and takes the result when the worker
 * says it is done (gt_fleet_worker_fd readable).
 *
 * One worker serves every step of the fleet, started at the first and
 * ended with the fleet: libproc2 keeps 256 KiB of buffers per thread that
 * reads /proc and frees them never (tests/lsan.supp), so a thread per
 * listing, one a second in the picker, grew gctop by 256 KiB a second.
 *
 * The worker sees nothing of the fleet: what it is given is a copy made
 * when the step is asked for. */
#ifndef GCTOP_SESSION_FLEET_WORKER_H
#define GCTOP_SESSION_FLEET_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/list.h"

struct gt_target;

enum gt_fleet_step {
	GT_FLEET_LIST = 0,   /* gt_fleet_worker_list */
	GT_FLEET_OPEN,       /* gt_fleet_worker_open */
};

/* One process the worker opened, or tried to. */
struct gt_fleet_opened {
	pid_t pid;
	struct gt_target *target;  /* NULL: err says why (code GT_EXIT_OK: withdrawn or not tried) */
	struct gt_error err;
};

/* --ops-agent-match: whether the agent goes into this JVM, by the shell
 * pattern (fnmatch) against its main class or its whole command line;
 * NULL chooses every target (-p named them). */
bool gt_fleet_agent_chosen(const char *pattern, const struct gt_target_info *info);

struct gt_fleet_worker {
	bool started;              /* the thread exists */
	bool running;              /* a step was asked for and not yet taken */
	enum gt_fleet_step step;
	pthread_t thread;
	int done_fd;               /* readable once a step has finished */
	pthread_mutex_t lock;      /* asked, ending: between the holder and the worker */
	pthread_cond_t wake;
	bool asked;                /* a step is to start */
	bool ending;               /* the worker is to end */
	atomic_bool stop;          /* ends the worker's waits (base/wait.h) */
	atomic_bool finished;      /* the step asked for is done */
	/* in (the worker's own copies, set before it is asked): */
	pid_t *skip;               /* LIST, sorted: pids left out (open sessions) */
	size_t n_skip;
	pid_t *only;               /* LIST, sorted: the pids wanted; n_only 0: every one */
	size_t n_only;
	/* out: */
	struct gt_list list;              /* LIST */
	struct gt_fleet_opened *opened;   /* OPEN: one per pid asked for */
	size_t n_opened;
	/* how a pid is opened (gt_target_open) and how long an open step
	 * starts opens: set by gt_fleet_worker_init, changed by tests only */
	struct gt_target *(*open_target)(pid_t pid, struct gt_error *err);
	uint64_t open_budget_ns;
	/* the operations counter each opened target counts (the fleet's
	 * policy), and whether the agent is loaded for it: done here, since
	 * the agent's load and first answer take seconds */
	const char *opcount;
	bool opcount_agent;
	const char *opcount_agent_match; /* NULL: every target opened (the -p list) */
	/* whether an opened target ends the step, to be read at once */
	bool (*hand_over)(const struct gt_target *t);
};

/* A fleet's worker before its first step (no thread yet). */
void gt_fleet_worker_init(struct gt_fleet_worker *w);

/* Asks for a listing of every process but those of skip, and only those
 * of only when n_only is not 0 (both copied). Returns 0, or -1 while a
 * step runs or when none could be started (out of memory, no thread): the
 * holder tries again on a later round. The thread starts with the first
 * step. */
int gt_fleet_worker_list(struct gt_fleet_worker *w, const pid_t *skip, size_t n_skip, const pid_t *only,
			 size_t n_only);
/* Asks for the n processes of pids to be opened (gt_target_open, one
 * after the other). The step ends at the first that opens, or once it has
 * run its budget (a second): those it did not try are reported withdrawn
 * (target NULL, err code GT_EXIT_OK), to be asked for again. 0, or -1 as
 * above. */
int gt_fleet_worker_open(struct gt_fleet_worker *w, const pid_t *pids, size_t n);

/* Whether pid was left out of the last listing (it had an open session
 * when the listing was asked for). */
bool gt_fleet_worker_skipped(const struct gt_fleet_worker *w, pid_t pid);

/* When the step has finished: true, and its result is in w (list, or
 * opened: the holder takes the targets, setting each to NULL) until the
 * next step. False while it runs or when none was asked for. Never
 * blocks. */
bool gt_fleet_worker_take(struct gt_fleet_worker *w);

/* The descriptor to wait on while a step runs, else -1. */
static inline int gt_fleet_worker_fd(const struct gt_fleet_worker *w)
{
	return w->running ? w->done_fd : -1;
}

/* Withdraws a running open: it stops at its next wait, and the worker
 * closes what it opened (nobody would read a .NET session meanwhile, and
 * an unread one fills its socket until the runtime blocks on it). The
 * step still ends as usual, with every target NULL. */
void gt_fleet_worker_cancel(struct gt_fleet_worker *w);

/* Ends the worker: a step under way stops at its next wait (every wait is
 * sliced to look at the stop: base/wait.h) and its result is dropped. */
void gt_fleet_worker_free(struct gt_fleet_worker *w);

#endif
