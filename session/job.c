#include "session/job.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "base/sighandler.h"
#include "base/wait.h"
#include "collectors/target.h"

struct gt_session_job {
	enum gt_job_kind kind;
	pthread_t thread;
	int done_fd;               /* eventfd, written once when the worker ends */
	atomic_bool stop;          /* the worker's waits end (base/wait.h) */
	atomic_bool finished;
	bool withdrawn;            /* the user cancelled: undo the result */
	/* in: */
	pid_t pid;
	char *packages;
	char *source;              /* NULL: the runtime's choice */
	struct gt_target *target;  /* in for ALLOCATORS, out for OPEN */
	/* out: */
	int rc;
	struct gt_error err;
};

static void *job_main(void *arg)
{
	struct gt_session_job *j = arg;
	gt_wait_set_cancel(&j->stop);
	if (j->kind == GT_JOB_OPEN) {
		j->target = gt_target_open(j->pid, &j->err);
		j->rc = j->target ? 0 : -1;
	} else {
		j->rc = gt_target_enable_allocators(j->target, j->packages, j->source, &j->err);
	}
	atomic_store(&j->finished, true);
	gt_worker_done(j->done_fd);
	return NULL;
}

static void job_free(struct gt_session_job *j)
{
	if (j->done_fd >= 0)
		close(j->done_fd);
	free(j->packages);
	free(j->source);
	free(j);
}

/* The thread is made with every asynchronous signal blocked, so the quit
 * and resize signals always reach the main thread's wait; the fault
 * signals stay open, since a blocked SIGBUS (a perf-data file truncated
 * under its mapping) would kill the process instead of reaching the
 * handler that recovers from it. */
int gt_worker_start(pthread_t *thread, void *(*fn)(void *), void *arg, int *done_fd, struct gt_error *err)
{
	*done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (*done_fd < 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot make an event descriptor: %s", strerror(errno));
	int rc = gt_thread_start_quiet(thread, fn, arg);
	if (rc != 0) {
		close(*done_fd);
		*done_fd = -1;
		return gt_fail(err, GT_EXIT_FAILURE, "cannot start a thread: %s", strerror(rc));
	}
	return 0;
}

void gt_worker_done(int done_fd)
{
	uint64_t one = 1;
	while (write(done_fd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

/* Starts j on its thread (gt_worker_start). */
static int job_start(struct gt_session *s, struct gt_session_job *j, struct gt_error *err)
{
	if (gt_worker_start(&j->thread, job_main, j, &j->done_fd, err) != 0) {
		job_free(j);
		return -1;
	}
	s->job = j;
	return 0;
}

static struct gt_session_job *job_new(enum gt_job_kind kind, struct gt_error *err)
{
	struct gt_session_job *j = calloc(1, sizeof(*j));
	if (!j) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	j->kind = kind;
	j->done_fd = -1;
	atomic_init(&j->stop, false);
	atomic_init(&j->finished, false);
	return j;
}

int gt_session_job_open(struct gt_session *s, pid_t pid, struct gt_error *err)
{
	struct gt_session_job *j = job_new(GT_JOB_OPEN, err);
	if (!j)
		return -1;
	j->pid = pid;
	return job_start(s, j, err);
}

int gt_session_enable_allocators_async(struct gt_session *s, const char *packages, const char *source,
				       struct gt_error *err)
{
	if (s->job)
		return gt_fail(err, GT_EXIT_FAILURE, "process %d is still busy with the last request", (int)s->info.pid);
	if (!s->target)
		return gt_fail(err, GT_EXIT_FAILURE, "process %d is not open", (int)s->info.pid);
	struct gt_session_job *j = job_new(GT_JOB_ALLOCATORS, err);
	if (!j)
		return -1;
	j->target = s->target;
	j->packages = packages ? strdup(packages) : NULL;
	j->source = source ? strdup(source) : NULL;
	if ((packages && !j->packages) || (source && !j->source)) {
		job_free(j);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	if (gt_session_alloc_begin(s, err) != 0) {
		job_free(j);
		return -1;
	}
	if (job_start(s, j, err) != 0) {
		gt_session_alloc_end(s, false);
		return -1;
	}
	return 0;
}

enum gt_job_kind gt_session_job_kind(const struct gt_session *s)
{
	return s->job ? s->job->kind : GT_JOB_OPEN;
}

int gt_session_job_fd(const struct gt_session *s)
{
	return s->job ? s->job->done_fd : -1;
}

/* Joins a finished (or stopping) worker and detaches the job from s. */
static struct gt_session_job *job_join(struct gt_session *s)
{
	struct gt_session_job *j = s->job;
	pthread_join(j->thread, NULL);
	s->job = NULL;
	return j;
}

/* The result of a finished job, applied to s. */
static enum gt_job_result job_apply(struct gt_session *s, struct gt_session_job *j, struct gt_error *err)
{
	bool stopped = atomic_load(&j->stop) || j->withdrawn;
	if (j->kind == GT_JOB_OPEN) {
		if (j->rc == 0 && !stopped) {
			gt_session_adopt(s, j->target);
			return GT_JOB_DONE;
		}
		if (j->target)
			gt_target_close(j->target);
	} else {
		gt_session_alloc_end(s, j->rc == 0);
		if (j->rc == 0 && !stopped)
			return GT_JOB_DONE;
		if (j->rc == 0)
			gt_session_disable_allocators(s);
	}
	if (stopped)
		return GT_JOB_CANCELLED;
	*err = j->err;
	return GT_JOB_FAILED;
}

enum gt_job_result gt_session_job_finish(struct gt_session *s, struct gt_error *err)
{
	if (!s->job)
		return GT_JOB_NONE;
	if (!atomic_load(&s->job->finished))
		return GT_JOB_RUNNING;
	struct gt_session_job *j = job_join(s);
	enum gt_job_result r = job_apply(s, j, err);
	job_free(j);
	return r;
}

void gt_session_job_cancel(struct gt_session *s)
{
	if (!s->job)
		return;
	s->job->withdrawn = true;
	if (s->job->kind == GT_JOB_OPEN)
		atomic_store(&s->job->stop, true);
}

void gt_session_job_stop(struct gt_session *s)
{
	if (!s->job)
		return;
	atomic_store(&s->job->stop, true);
	struct gt_session_job *j = job_join(s);
	struct gt_error ignored = { 0 };
	job_apply(s, j, &ignored);
	job_free(j);
}
