#include "session/fleet_list.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wait.h"
#include "session/job.h"
#include "session/session.h"

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
	const struct gt_fleet_list *l = ctx;
	return holds(l->skip, l->n_skip, pid) || (l->n_only && !holds(l->only, l->n_only, pid));
}

/* Waits for the next request; false when the worker is to end. */
static bool list_wait_asked(struct gt_fleet_list *l)
{
	pthread_mutex_lock(&l->lock);
	while (!l->asked && !l->ending)
		pthread_cond_wait(&l->wake, &l->lock);
	bool go = !l->ending;
	l->asked = false;
	pthread_mutex_unlock(&l->lock);
	return go;
}

static void *list_main(void *arg)
{
	struct gt_fleet_list *l = arg;
	gt_wait_set_cancel(&l->stop);
	while (list_wait_asked(l)) {
		gt_session_list_all(&l->list);
		atomic_store(&l->finished, true);
		gt_worker_done(l->done_fd);
	}
	return NULL;
}

void gt_fleet_list_init(struct gt_fleet_list *l)
{
	memset(l, 0, sizeof(*l));
	l->done_fd = -1;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->wake, NULL);
	atomic_init(&l->stop, false);
	atomic_init(&l->finished, false);
}

/* Frees what a listing was given and what it found (the worker idle). */
static void list_clear(struct gt_fleet_list *l)
{
	free(l->skip);
	free(l->only);
	gt_list_free(&l->list);
	l->skip = l->only = NULL;
	l->n_skip = l->n_only = 0;
}

static int list_start_worker(struct gt_fleet_list *l)
{
	struct gt_error err = { 0 };
	if (l->started)
		return 0;
	if (gt_worker_start(&l->thread, list_main, l, &l->done_fd, &err) != 0)
		return -1;
	l->started = true;
	return 0;
}

int gt_fleet_list_start(struct gt_fleet_list *l, const pid_t *skip, size_t n_skip, const pid_t *only, size_t n_only)
{
	if (l->running)
		return -1;
	/* The worker is idle: what it was given and found is the holder's. */
	list_clear(l);
	if (copy_sorted(&l->skip, skip, n_skip) != 0 || copy_sorted(&l->only, only, n_only) != 0 ||
	    list_start_worker(l) != 0) {
		list_clear(l);
		return -1;
	}
	l->n_skip = n_skip;
	l->n_only = n_only;
	memset(&l->list, 0, sizeof(l->list));
	l->list.skip = list_skips;
	l->list.skip_ctx = l;
	atomic_store(&l->finished, false);
	pthread_mutex_lock(&l->lock);
	l->asked = true;
	pthread_cond_signal(&l->wake);
	pthread_mutex_unlock(&l->lock);
	l->running = true;
	return 0;
}

bool gt_fleet_list_skipped(const struct gt_fleet_list *l, pid_t pid)
{
	return holds(l->skip, l->n_skip, pid);
}

bool gt_fleet_list_take(struct gt_fleet_list *l, struct gt_list *out)
{
	if (!l->running || !atomic_load(&l->finished))
		return false;
	/* The descriptor is the worker's for every listing: read back to
	 * unreadable for the next. */
	uint64_t n;
	while (read(l->done_fd, &n, sizeof(n)) < 0 && errno == EINTR)
		;
	l->running = false;
	*out = l->list;
	out->skip = NULL;
	out->skip_ctx = NULL;
	memset(&l->list, 0, sizeof(l->list));
	return true;
}

void gt_fleet_list_free(struct gt_fleet_list *l)
{
	if (l->started) {
		atomic_store(&l->stop, true);
		pthread_mutex_lock(&l->lock);
		l->ending = true;
		pthread_cond_signal(&l->wake);
		pthread_mutex_unlock(&l->lock);
		pthread_join(l->thread, NULL);
		close(l->done_fd);
	}
	list_clear(l);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->wake);
	memset(l, 0, sizeof(*l));
	l->done_fd = -1;
}
