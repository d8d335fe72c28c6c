#include "session/fleet_worker.h"

#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/target.h"
#include "session/job.h"
#include "session/session.h"

/* The longest a holder waits for the count of a step it saw finished: the
 * worker writes it right after the flag, so this bounds only a worker
 * descheduled in between on a loaded machine. */
#define WORKER_COUNT_WAIT_MS 1000
/* An open step starts no open after it has run this long, so that a
 * listing waits behind it at most this and one open's deadlines (a hung
 * .NET runtime: ProcessInfo's and CollectTracing's, 2 s each), not those
 * of every process asked for. */
#define WORKER_OPEN_BUDGET_NS 1000000000ull

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

static bool holds(const pid_t *set, size_t n, pid_t pid)
{
	return n && bsearch(&pid, set, n, sizeof(*set), pid_cmp);
}

/* A sorted copy of n pids into *dst (NULL when n is 0); -1 when out of memory. */
static int copy_sorted(pid_t **dst, const pid_t *src, size_t n)
{
	*dst = NULL;
	if (!n)
		return 0;
	*dst = malloc(n * sizeof(*src));
	if (!*dst)
		return -1;
	memcpy(*dst, src, n * sizeof(*src));
	qsort(*dst, n, sizeof(**dst), pid_cmp);
	return 0;
}

/* The listing's skip (model/list.h), on the worker: its own copies only. */
static bool list_skips(void *ctx, pid_t pid)
{
	const struct gt_fleet_worker *w = ctx;
	return holds(w->skip, w->n_skip, pid) || (w->n_only && !holds(w->only, w->n_only, pid));
}

/* Waits for the next step; false when the worker is to end. */
static bool worker_wait_asked(struct gt_fleet_worker *w)
{
	pthread_mutex_lock(&w->lock);
	while (!w->asked && !w->ending)
		pthread_cond_wait(&w->wake, &w->lock);
	bool go = !w->ending;
	w->asked = false;
	pthread_mutex_unlock(&w->lock);
	return go;
}

/* Closes every target opened (a withdrawn or dropped step). */
static void close_opened(struct gt_fleet_worker *w)
{
	for (size_t i = 0; i < w->n_opened; i++) {
		if (w->opened[i].target)
			gt_target_close(w->opened[i].target);
		w->opened[i].target = NULL;
	}
}

/* Whether an opened target is handed over before the next open starts:
 * one with a descriptor to read (a .NET session: a runtime whose stream
 * nobody reads blocks on it). A target read on the holder's clock alone
 * (a JVM's perf data) loses nothing by waiting for the step's next open. */
static bool hand_over_at_once(const struct gt_target *t)
{
	return gt_target_wait_fd(t) >= 0;
}

/* The fleet's operations counter for a target just opened (a runtime
 * that counts its own, .NET's requests, takes none): a counter it does
 * not publish, or an agent that did not load, is no failure of the open:
 * its samples say why there is no figure. */
static void worker_opcount(const struct gt_fleet_worker *w, struct gt_target *t)
{
	const struct gt_target_info *info = gt_target_info(t);
	struct gt_error err = { 0 };
	if (!w->opcount || !info->runtime || info->runtime->own_opcount)
		return;
	if (gt_target_set_opcount(t, w->opcount, &err) == 0 && w->opcount_agent &&
	    gt_fleet_agent_chosen(w->opcount_agent_match, info))
		(void)gt_target_enable_opcount_agent(t, &err);
}

bool gt_fleet_agent_chosen(const char *pattern, const struct gt_target_info *info)
{
	if (!pattern)
		return true;
	/* The strings are the target's own: fnmatch only compares them. */
	return fnmatch(pattern, info->main_class, 0) == 0 || fnmatch(pattern, info->command_line, 0) == 0;
}

/* Opens the pids one after the other, and ends the step at the first
 * that must be read from now on (hand_over), not wait for the opens after
 * it, each of which may take its deadlines (a hung runtime). The holder
 * asks for the rest at once (gt_fleet_events). Failures hold nothing, and
 * the step goes on past them until its budget is spent. A pid not tried
 * is reported as withdrawn. */
static void worker_open_all(struct gt_fleet_worker *w)
{
	uint64_t end = gt_mono_ns() + w->open_budget_ns;
	for (size_t i = 0; i < w->n_opened; i++) {
		struct gt_fleet_opened *o = &w->opened[i];
		if (gt_wait_stop_requested()) {
			gt_wait_interrupted(&o->err);
			continue;
		}
		o->target = w->open_target(o->pid, &o->err);
		if (o->target)
			worker_opcount(w, o->target);
		if ((o->target && w->hand_over(o->target)) || gt_mono_ns() >= end)
			break;
	}
	if (gt_wait_stop_requested())
		close_opened(w);
}

static void *worker_main(void *arg)
{
	struct gt_fleet_worker *w = arg;
	gt_wait_set_cancel(&w->stop);
	while (worker_wait_asked(w)) {
		if (w->step == GT_FLEET_LIST)
			gt_session_list_all(&w->list);
		else
			worker_open_all(w);
		/* the flag before the count: a holder woken by the count
		 * finds the step finished (gt_fleet_worker_take) */
		atomic_store(&w->finished, true);
		gt_worker_done(w->done_fd);
	}
	return NULL;
}

void gt_fleet_worker_init(struct gt_fleet_worker *w)
{
	memset(w, 0, sizeof(*w));
	w->done_fd = -1;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	atomic_init(&w->stop, false);
	atomic_init(&w->finished, false);
	w->open_target = gt_target_open;
	w->open_budget_ns = WORKER_OPEN_BUDGET_NS;
	w->hand_over = hand_over_at_once;
}

/* Frees what the last step was given and what it gave (the worker idle). */
static void worker_clear(struct gt_fleet_worker *w)
{
	close_opened(w);
	free(w->opened);
	free(w->skip);
	free(w->only);
	gt_list_free(&w->list);
	w->opened = NULL;
	w->skip = w->only = NULL;
	w->n_opened = w->n_skip = w->n_only = 0;
}

/* Whether a step may be asked for: none runs, and the thread is there
 * (started now if need be). The last step's result is freed. */
static bool worker_ready(struct gt_fleet_worker *w)
{
	struct gt_error err = { 0 };
	if (w->running)
		return false;
	worker_clear(w);
	if (!w->started && gt_worker_start(&w->thread, worker_main, w, &w->done_fd, &err) != 0)
		return false;
	w->started = true;
	return true;
}

static void worker_ask(struct gt_fleet_worker *w, enum gt_fleet_step step)
{
	w->step = step;
	atomic_store(&w->stop, false);
	atomic_store(&w->finished, false);
	pthread_mutex_lock(&w->lock);
	w->asked = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	w->running = true;
}

int gt_fleet_worker_list(struct gt_fleet_worker *w, const pid_t *skip, size_t n_skip, const pid_t *only,
			 size_t n_only)
{
	if (!worker_ready(w))
		return -1;
	if (copy_sorted(&w->skip, skip, n_skip) != 0 || copy_sorted(&w->only, only, n_only) != 0) {
		worker_clear(w);
		return -1;
	}
	w->n_skip = n_skip;
	w->n_only = n_only;
	memset(&w->list, 0, sizeof(w->list));
	w->list.skip = list_skips;
	w->list.skip_ctx = w;
	worker_ask(w, GT_FLEET_LIST);
	return 0;
}

int gt_fleet_worker_open(struct gt_fleet_worker *w, const pid_t *pids, size_t n)
{
	if (!n || !worker_ready(w))
		return -1;
	w->opened = calloc(n, sizeof(*w->opened));
	if (!w->opened)
		return -1;
	for (size_t i = 0; i < n; i++)
		w->opened[i].pid = pids[i];
	w->n_opened = n;
	worker_ask(w, GT_FLEET_OPEN);
	return 0;
}

bool gt_fleet_worker_skipped(const struct gt_fleet_worker *w, pid_t pid)
{
	return holds(w->skip, w->n_skip, pid);
}

bool gt_fleet_worker_take(struct gt_fleet_worker *w)
{
	if (!w->running || !atomic_load(&w->finished))
		return false;
	/* withdrawn after the worker's last look at it */
	if (w->step == GT_FLEET_OPEN && atomic_load(&w->stop))
		close_opened(w);
	/* The descriptor is the worker's for every step: read back to
	 * unreadable for the next. A holder that saw the flag without a poll
	 * can come between the worker's flag and its count: it waits that
	 * moment for the count, so that none is left over to make the next
	 * step's descriptor readable from its start (the loops would spin). */
	uint64_t n;
	for (int tries = 0; tries < 2; tries++) {
		ssize_t got;
		while ((got = read(w->done_fd, &n, sizeof(n))) < 0 && errno == EINTR)
			;
		if (got >= 0 || errno != EAGAIN)
			break;
		struct pollfd p = { .fd = w->done_fd, .events = POLLIN };
		(void)poll(&p, 1, WORKER_COUNT_WAIT_MS);
	}
	w->running = false;
	return true;
}

void gt_fleet_worker_cancel(struct gt_fleet_worker *w)
{
	if (w->running && w->step == GT_FLEET_OPEN)
		atomic_store(&w->stop, true);
}

void gt_fleet_worker_free(struct gt_fleet_worker *w)
{
	if (w->started) {
		atomic_store(&w->stop, true);
		pthread_mutex_lock(&w->lock);
		w->ending = true;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
		close(w->done_fd);
	}
	worker_clear(w);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	memset(w, 0, sizeof(*w));
	w->done_fd = -1;
}
