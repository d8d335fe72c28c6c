/* The census worker (session/census.h). */
#include "session/census.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wait.h"
#include "collectors/target.h"
#include "session/job.h"
#include "session/session.h"

struct gt_census_job {
	pthread_t thread;
	int done_fd;
	atomic_bool stop;          /* the worker's waits end (base/wait.h) */
	atomic_bool finished;
	/* in: a copy, since the session's own info follows each sample */
	struct gt_target_info info;
	gt_census_fn census;
	uint64_t deadline_ns;
	/* out: */
	int rc;
	struct gt_census result;
	struct gt_error err;
};

/* A runtime without a census hook. */
static int no_census(const struct gt_target_info *info, struct gt_error *err)
{
	return gt_fail(err, GT_EXIT_NOT_RUNTIME, "gctop cannot take a census of the live objects of %s %d",
		       info->runtime ? info->runtime->display : "process", (int)info->pid);
}

int gt_census_take(const struct gt_target_info *info, gt_census_fn census, struct gt_census *out,
		   uint64_t deadline_ns, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!census)
		return no_census(info, err);
	return census(info, out, deadline_ns, err);
}

gt_census_fn gt_session_census_hook(const struct gt_session *s, struct gt_target_info *info)
{
	*info = *gt_target_info(s->target);
	return gt_target_census_fn(s->target);
}

static void *census_main(void *arg)
{
	struct gt_census_job *j = arg;
	gt_wait_set_cancel(&j->stop);
	j->rc = j->census(&j->info, &j->result, j->deadline_ns, &j->err);
	atomic_store(&j->finished, true);
	gt_worker_done(j->done_fd);
	return NULL;
}

int gt_session_census_start(struct gt_session *s, struct gt_error *err)
{
	if (s->census_job)
		return gt_fail(err, GT_EXIT_USAGE, "a census of process %d is still under way", (int)s->info.pid);
	if (!s->target)
		return gt_fail(err, GT_EXIT_FAILURE, "process %d is not open", (int)s->info.pid);
	gt_census_fn census = gt_target_census_fn(s->target);
	if (!census)
		return no_census(&s->info, err);
	struct gt_census_job *j = calloc(1, sizeof(*j));
	if (!j)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	atomic_init(&j->stop, false);
	atomic_init(&j->finished, false);
	j->info = *gt_target_info(s->target);
	j->census = census;
	j->deadline_ns = gt_wait_deadline_in_ms(GT_CENSUS_DEADLINE_MS);
	if (gt_worker_start(&j->thread, census_main, j, &j->done_fd, err) != 0) {
		free(j);
		return -1;
	}
	s->census_job = j;
	s->census_started++; /* counted from the request on: model/sample.h causes.census */
	return 0;
}

bool gt_session_census_running(const struct gt_session *s)
{
	return s->census_job != NULL;
}

int gt_session_census_fd(const struct gt_session *s)
{
	return s->census_job ? s->census_job->done_fd : -1;
}

static void job_free(struct gt_census_job *j)
{
	gt_census_free(&j->result);
	close(j->done_fd);
	free(j);
}

/* The newest census becomes the previous one; the change between them is
 * made again. */
static int census_keep(struct gt_session *s, struct gt_census *c, struct gt_error *err)
{
	if (!s->census && !(s->census = calloc(1, sizeof(*s->census))))
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	struct gt_session_census *k = s->census;
	gt_census_diff_free(&k->diff);
	gt_census_free(&k->prev);
	k->prev = k->cur;
	k->have_prev = k->have_cur;
	k->cur = *c;
	memset(c, 0, sizeof(*c));
	k->have_cur = true;
	k->taken++;
	if (k->have_prev && gt_census_diff(&k->prev, &k->cur, &k->diff) != 0)
		k->have_prev = false; /* out of memory: shown without the change */
	return 0;
}

int gt_session_census_finish(struct gt_session *s, struct gt_error *err)
{
	struct gt_census_job *j = s->census_job;
	if (!j || !atomic_load(&j->finished))
		return 0;
	pthread_join(j->thread, NULL);
	s->census_job = NULL;
	int rc = j->rc;
	if (rc != 0)
		*err = j->err;
	else
		rc = census_keep(s, &j->result, err);
	job_free(j);
	return rc == 0 ? 1 : -1;
}

void gt_session_census_close(struct gt_session *s)
{
	struct gt_census_job *j = s->census_job;
	if (j) {
		atomic_store(&j->stop, true);
		pthread_join(j->thread, NULL);
		job_free(j);
		s->census_job = NULL;
	}
	if (s->census) {
		gt_census_diff_free(&s->census->diff);
		gt_census_free(&s->census->prev);
		gt_census_free(&s->census->cur);
		free(s->census);
		s->census = NULL;
	}
}
