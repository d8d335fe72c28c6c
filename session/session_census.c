/* The census worker (session/session_census.h). */
#include "session/session_census.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "collectors/host/cgroup.h"
#include "collectors/host/mem_available.h"
#include "collectors/host/proc.h"
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

/* A census that failed may have failed because the target died of it:
 * the target's start (a pid reused is another process) and its memory
 * cgroup's OOM kills (v2 memory.events, v1 memory.oom_control: oom_kill)
 * are read before, and again after a failure. */
struct census_watch {
	bool have_start;
	unsigned long long start_ticks;
	struct gt_cgroup *cg;
	struct gt_u64 oom_before;
};

/* How long a target whose census failed has to be seen gone: the runtime
 * closes its sockets as the kernel tears it down, a moment before. */
#define DEATH_SEEN_WITHIN_MS 1000u
#define DEATH_POLL_MS 20u

static struct gt_u64 oom_kills(struct gt_cgroup *cg)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_cgroup_sample(cg, &s);
	return s.oom_kills;
}

static void watch_begin(pid_t pid, struct census_watch *w)
{
	memset(w, 0, sizeof(*w));
	struct gt_target_info scratch;
	memset(&scratch, 0, sizeof(scratch));
	w->have_start = gt_proc_start_ticks(pid, &w->start_ticks) == 0;
	w->cg = gt_cgroup_open(pid, &scratch);
	if (w->cg)
		w->oom_before = oom_kills(w->cg);
}

/* The target is gone: no such pid, another process under it, or a zombie. */
static bool target_gone(pid_t pid, const struct census_watch *w)
{
	struct gt_proc_stat st;
	if (gt_proc_read_stat(pid, &st) != 0)
		return true;
	return st.state == 'Z' || st.state == 'X' || (w->have_start && st.start_ticks != w->start_ticks);
}

static bool died(pid_t pid, const struct census_watch *w)
{
	uint64_t end = gt_wait_deadline_in_ms(DEATH_SEEN_WITHIN_MS);
	for (;;) {
		if (target_gone(pid, w))
			return true;
		if (gt_mono_ns() >= end || gt_wait_sleep(gt_wait_deadline_in_ms(DEATH_POLL_MS)) == GT_WAIT_QUIT)
			return false;
	}
}

/* After a failed census: the target's death in err (GT_EXIT_CENSUS_DIED),
 * with the kernel's OOM kill where its cgroup counts one, or err as it
 * was when the target lives. */
static void watch_verdict(const struct gt_target_info *info, const struct census_watch *w, struct gt_error *err)
{
	if (gt_quit_requested() || !died(info->pid, w))
		return;
	const char *who = info->runtime ? info->runtime->display : "the";
	struct gt_u64 after = w->cg ? oom_kills(w->cg) : (struct gt_u64){ 0 };
	if (w->oom_before.valid && after.valid && after.value > w->oom_before.value)
		gt_fail(err, GT_EXIT_CENSUS_DIED,
			"%s process %d died during the census: the kernel's OOM killer ended it (its memory cgroup's "
			"oom_kill count went from %llu to %llu while the runtime held the heap walk)",
			who, (int)info->pid, (unsigned long long)w->oom_before.value, (unsigned long long)after.value);
	else
		gt_fail(err, GT_EXIT_CENSUS_DIED,
			"%s process %d died during the census (%s; before that: %s)", who, (int)info->pid,
			after.valid ? "its memory cgroup counts no OOM kill" : "no memory cgroup says why", err->msg);
}

static void watch_end(struct census_watch *w)
{
	gt_cgroup_close(w->cg);
	w->cg = NULL;
}

/* The hook, watched for the target's death. */
static int take_watched(const struct gt_target_info *info, gt_census_fn census, struct gt_census *out,
			uint64_t deadline_ns, struct gt_error *err)
{
	struct census_watch w;
	watch_begin(info->pid, &w);
	int rc = census(info, out, deadline_ns, err);
	if (rc != 0)
		watch_verdict(info, &w, err);
	watch_end(&w);
	return rc;
}

int gt_census_take(const struct gt_target_info *info, gt_census_fn census, struct gt_census *out,
		   uint64_t deadline_ns, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!census)
		return no_census(info, err);
	return take_watched(info, census, out, deadline_ns, err);
}

void gt_census_fit_of(const struct gt_target_info *info, const struct gt_sample *s, struct gt_census_fit *out)
{
	const struct gt_census_memory *m = info->runtime ? &info->runtime->census_memory : NULL;
	gt_census_fit_judge(m, s, gt_host_mem_available(), out);
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
	j->rc = take_watched(&j->info, j->census, &j->result, j->deadline_ns, &j->err);
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
