#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/target.h"
#include "session/session_census.h"
#include "session/job.h"

static int init_session(struct gt_session *s, const struct gt_target_info *info, bool history, struct gt_error *err)
{
	memset(s, 0, sizeof(*s));
	if (history && !(s->live.history = calloc(1, sizeof(*s->live.history))))
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	if (info)
		s->info = *info;
	gt_schedule_stop(&s->schedule);
	return 0;
}

int gt_session_init(struct gt_session *s, const struct gt_target_info *info, struct gt_error *err)
{
	return init_session(s, info, true, err);
}

void gt_session_adopt_without_history(struct gt_session *s, struct gt_target *t)
{
	/* without a history nothing is allocated: it cannot fail */
	init_session(s, NULL, false, NULL);
	gt_session_adopt(s, t);
}

static int open_session(struct gt_session *s, pid_t pid, bool history, struct gt_error *err)
{
	if (init_session(s, NULL, history, err) != 0)
		return -1;
	struct gt_target *t = gt_target_open(pid, err);
	if (!t) {
		gt_session_close(s);
		return -1;
	}
	gt_session_adopt(s, t);
	return 0;
}

int gt_session_open(struct gt_session *s, pid_t pid, struct gt_error *err)
{
	return open_session(s, pid, true, err);
}

int gt_session_open_without_history(struct gt_session *s, pid_t pid, struct gt_error *err)
{
	return open_session(s, pid, false, err);
}

/* The open runs on the job's worker (session/job.h); the session is
 * initialised here, so a failed start leaves it closed as gt_session_open. */
int gt_session_open_async(struct gt_session *s, pid_t pid, struct gt_error *err)
{
	if (gt_session_init(s, NULL, err) != 0)
		return -1;
	s->info.pid = pid;
	if (gt_session_job_open(s, pid, err) != 0) {
		gt_session_close(s);
		return -1;
	}
	return 0;
}

int gt_session_set_opcount(struct gt_session *s, const char *name, struct gt_error *err)
{
	if (!s->target)
		return gt_fail(err, GT_EXIT_FAILURE, "process %d is not open", (int)s->info.pid);
	return gt_target_set_opcount(s->target, name, err);
}

int gt_session_enable_opcount_agent(struct gt_session *s, struct gt_error *err)
{
	if (!s->target)
		return gt_fail(err, GT_EXIT_FAILURE, "process %d is not open", (int)s->info.pid);
	return gt_target_enable_opcount_agent(s->target, err);
}

void gt_session_close(struct gt_session *s)
{
	gt_session_job_stop(s);
	gt_session_census_close(s);
	if (s->target)
		gt_target_close(s->target);
	gt_session_free_allocators(s);
	free(s->live.history);
	if (s->frozen_figures)
		free(s->frozen_figures->history);
	free(s->frozen_figures);
	memset(s, 0, sizeof(*s));
}

void gt_session_feed(struct gt_session *s, const struct gt_sample *cur)
{
	gt_derive(s->have_prev ? &s->prev : NULL, cur, &s->live.derived);
	gt_live_tracker_fold(&s->live_tracker, cur);
	gt_live_set_figures(&s->live_tracker, cur, &s->live.derived.live_set);
	s->live.have_derived = true;
	if (s->live.history)
		gt_history_push(s->live.history, &s->live.derived);
	s->prev = *cur;
	s->have_prev = true;
	s->samples++;
}

enum gt_session_step gt_session_sample(struct gt_session *s, struct gt_error *err)
{
	struct gt_sample cur;

	if (s->exited || !s->target || s->job)
		return GT_SESSION_IDLE;
	int rc = gt_target_sample(s->target, &cur, err);
	if (rc != 0 && err->code == GT_EXIT_TARGET_EXITED) {
		/* The last figures stay: a derive against the same counters
		 * would show made-up zero rates. */
		s->exited = true;
		s->info = *gt_target_info(s->target);
		snprintf(s->message, sizeof(s->message), "%s", err->msg);
		return GT_SESSION_EXITED;
	}
	if (rc != 0) {
		snprintf(s->message, sizeof(s->message), "%s", err->msg);
		return GT_SESSION_FAILED;
	}
	gt_u64_set(&cur.causes.census, s->census_started);
	gt_session_feed(s, &cur);
	s->info = *gt_target_info(s->target);
	gt_session_feed_allocators(s, gt_target_allocators(s->target));
	gt_session_feed_alloc_stacks(s, gt_target_alloc_stacks(s->target));
	s->message[0] = '\0';
	return GT_SESSION_SAMPLED;
}

uint64_t gt_session_poll_interval_ns(const struct gt_session *s)
{
	return s->target && !s->exited && !s->job ? gt_target_poll_interval_ns(s->target) : 0;
}

void gt_session_start(struct gt_session *s, uint64_t interval_ns, uint64_t now)
{
	gt_schedule_start(&s->schedule, interval_ns, gt_session_poll_interval_ns(s), now);
	if (s->exited)
		gt_schedule_stop(&s->schedule);
}

enum gt_session_step gt_session_tick(struct gt_session *s, uint64_t now, struct gt_error *err)
{
	enum gt_session_step step = GT_SESSION_IDLE;
	/* The worker has the target: nothing is due until it is done. */
	if (s->job)
		return step;
	if (gt_schedule_sample_due(&s->schedule, now)) {
		step = gt_session_sample(s, err);
		if (step == GT_SESSION_EXITED) {
			gt_schedule_stop(&s->schedule);
			return step;
		}
		gt_schedule_sampled(&s->schedule, gt_session_poll_interval_ns(s), now);
	}
	if (gt_schedule_poll_due(&s->schedule, now)) {
		gt_target_poll(s->target, now);
		gt_schedule_polled(&s->schedule, gt_session_poll_interval_ns(s), now);
	}
	return step;
}

uint64_t gt_session_deadline(struct gt_session *s)
{
	if (s->job)
		return GT_DEADLINE_NEVER;   /* the job's descriptor wakes the loop */
	return gt_schedule_deadline(&s->schedule);
}

int gt_session_wait_fd(const struct gt_session *s)
{
	if (s->job)
		return gt_session_job_fd(s);
	return s->target && !s->exited ? gt_target_wait_fd(s->target) : -1;
}

bool gt_session_wait_may_lag(const struct gt_session *s)
{
	/* a job's descriptor says it is done: read at once */
	return !s->job && s->target && !s->exited && gt_target_wait_may_lag(s->target);
}

void gt_session_events(struct gt_session *s, uint64_t now)
{
	if (s->target && !s->exited && !s->job)
		gt_target_poll(s->target, now);
}

void gt_session_settle(struct gt_session *s, uint64_t deadline_ns)
{
	if (s->target && !s->exited && !s->job)
		gt_target_settle(s->target, deadline_ns);
}

/* The frozen copy of the allocation table, or none when sampling is off. */
static void freeze_allocators(struct gt_session *s)
{
	struct gt_session_figures *f = s->frozen_figures;
	if (!s->live.alloc) {
		free(f->alloc);
		f->alloc = NULL;
		gt_session_copy_stacks(&f->stacks, NULL);
		return;
	}
	if (!f->alloc)
		f->alloc = malloc(sizeof(*f->alloc));
	if (f->alloc)
		*f->alloc = *s->live.alloc;
	gt_session_copy_stacks(&f->stacks, s->live.stacks);
	memcpy(f->alloc_message, s->live.alloc_message, sizeof(f->alloc_message));
}

void gt_session_toggle_freeze(struct gt_session *s)
{
	if (!s->frozen_figures)
		s->frozen_figures = calloc(1, sizeof(*s->frozen_figures));
	struct gt_session_figures *f = s->frozen_figures;
	if (f && !f->history)
		f->history = malloc(sizeof(*f->history));
	/* Without room for the copy, the picture stays live. */
	if (!f || !f->history || !s->live.history)
		return;
	s->frozen = !s->frozen;
	if (!s->frozen)
		return;
	f->derived = s->live.derived;
	f->have_derived = s->live.have_derived;
	*f->history = *s->live.history;
	freeze_allocators(s);
}

const struct gt_session_figures *gt_session_shown(const struct gt_session *s)
{
	return s->frozen ? s->frozen_figures : &s->live;
}

int64_t gt_session_shown_wall_ms(const struct gt_session *s)
{
	/* An exited target's uptime stops where its figures stopped, and a
	 * frozen display's at the sample it shows. */
	if (s->exited && s->have_prev)
		return s->prev.wall_ms;
	if (s->frozen && s->frozen_figures->have_derived)
		return s->frozen_figures->derived.cur.wall_ms;
	return 0;
}

void gt_session_list_all(struct gt_list *out)
{
	gt_target_list_all(out);
	/* the listing's cheap figures (heap used, max, working set) come from
	 * the target's counters too: held to the same plausibility rules as a
	 * session's, before -l or the picker shows them */
	for (size_t i = 0; i < out->count; i++)
		gt_plausible_sample(&out->entries[i].sample, NULL);
}
