/* The fleet's open step (session/fleet_internal.h): which members the
 * worker opens, and their sessions or notes when it has. */
#include "session/fleet_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "collectors/host/proc.h"
#include "collectors/target.h"

/* An open step asks for every member that wants opening (a listing of
 * 1,000 new processes opens them all, not 16 before the next listing: under
 * churn, at 100 new processes a second, those 16 a step served almost
 * none, bench/README.md 1k); the worker ends the step at the first that
 * opens with a stream to read (a .NET session) or once its time budget is
 * spent (gt_fleet_worker_open), and the rest are asked for at once. The
 * opens run on the worker, so neither the rounds nor a scrape waits. */
/* A process whose open timed out (a runtime still starting) is tried again
 * this much later (FLEET_RETRY_NS: one that failed otherwise):
 * about a round, not at once, so that a process whose open keeps failing
 * fast (a socket removed after the listing, perf data that says the JVM
 * has not begun) cannot take every step of the worker. */
#define FLEET_TIMEOUT_RETRY_NS 1000000000ull

/* A member the worker could not open: its note says why, and the policy
 * when it is tried again. */
static void open_failed(struct gt_fleet *f, struct gt_fleet_member *m, const struct gt_error *err)
{
	if (err->code == GT_EXIT_OK) {
		/* withdrawn (gt_fleet_close_sessions), or not tried (the
		 * step handed over an open before it): tried again as new */
		m->note = NULL;
		m->retry_ns = 0;
		return;
	}
	m->note = err->code == GT_EXIT_PERMISSION ? "no permission" : "unreadable";
	/* a runtime that timed out is still starting: tried about a round later */
	if (!f->policy.retry || err->code == GT_EXIT_PERMISSION)
		m->retry_ns = FLEET_NEVER;
	else
		m->retry_ns = gt_mono_ns() + (err->code == GT_EXIT_TIMEOUT ? FLEET_TIMEOUT_RETRY_NS : FLEET_RETRY_NS);
}

/* The member's session, without a history (see fleet.h), from the target
 * the worker opened (owned from here). */
static void adopt_session(struct gt_fleet *f, struct gt_fleet_member *m, struct gt_target *t)
{
	struct gt_error err = { 0 };
	m->note = NULL;
	m->session = malloc(sizeof(*m->session));
	if (!m->session) {
		gt_target_close(t);
		gt_fail(&err, GT_EXIT_FAILURE, "out of memory");
		open_failed(f, m, &err);
		return;
	}
	/* the worker set its operations counter (fleet_worker.c) */
	gt_session_adopt_without_history(m->session, t);
	/* its first tick is its own collector's (the open polled it) */
	gt_fleet_schedule_poll(f, m, gt_mono_ns());
	gt_fleet_note_wait(f, m);
	m->fresh = f->policy.round_ns != 0;
	/* counted again from here, with a new _created (a reset to Prometheus) */
	m->watch_start_s = (double)gt_wall_ms() / 1000.0;
	memset(&m->pauses, 0, sizeof(m->pauses));
}

/* When the process of m is open_min_age_ms old, on the monotonic clock
 * (0: it is, or its start is unknown). Its start is the listing's (no
 * look at /proc for each of 1,000 new processes at every step). */
static uint64_t old_enough_at(const struct gt_fleet *f, const struct gt_fleet_member *m, uint64_t now)
{
	uint64_t start_ms;
	if (m->listed.start_time_ms.valid)
		start_ms = m->listed.start_time_ms.value;
	else if (gt_proc_start_time_ms(m->pid, &start_ms) != 0)
		return 0;
	uint64_t wall = (uint64_t)gt_wall_ms(), ready = start_ms + f->policy.open_min_age_ms;
	return wall < ready ? now + (ready - wall) * 1000000ull : 0;
}

/* Whether the member is to be opened: there, without a session, not
 * with the worker already, its retry time come, and old enough (one
 * younger is noted as starting, and the fleet notes when it will be old
 * enough: disc.next_open_ns). */
static bool wants_open(struct gt_fleet *f, struct gt_fleet_member *m, uint64_t now)
{
	if (!m->seen || m->session || m->opening || now < m->retry_ns)
		return false;
	uint64_t at = old_enough_at(f, m, now);
	if (at) {
		m->note = "starting";
		if (at < f->disc.next_open_ns)
			f->disc.next_open_ns = at;
		return false;
	}
	return true;
}

size_t gt_fleet_open_candidates(struct gt_fleet *f, uint64_t now, pid_t *pids, size_t max)
{
	size_t n = 0;
	f->disc.next_open_ns = FLEET_NEVER;
	/* Never tried (or handed back untried) first, then those whose retry
	 * has come: processes that keep timing out, each due again before
	 * the others are reached, must not hold off the ones never tried. */
	for (int tried = 0; tried < 2; tried++)
		for (size_t i = 0; i < f->count && n < max; i++)
			if ((f->m[i].retry_ns != 0) == tried && wants_open(f, &f->m[i], now))
				pids[n++] = f->m[i].pid;
	return n;
}

/* Asks the worker to open every member that wants it. True when it did. */
bool gt_fleet_start_opens(struct gt_fleet *f)
{
	if (f->disc.run.running)
		return false;
	pid_t *pids = f->count ? malloc(f->count * sizeof(*pids)) : NULL;
	if (!pids) {
		/* none to open (or out of memory): tried again at a round */
		f->disc.next_open_ns = FLEET_NEVER;
		return false;
	}
	size_t n = gt_fleet_open_candidates(f, gt_mono_ns(), pids, f->count);
	bool asked = n && gt_fleet_worker_open(&f->disc.run, pids, n) == 0;
	if (asked)
		for (size_t i = 0; i < n; i++) {
			struct gt_fleet_member *m = gt_fleet_find(f, pids[i]);
			m->opening = true;
			m->note = "opening";
		}
	free(pids);
	return asked;
}

/* Takes in the worker's opens: each member still there gets its session
 * or its note. A target whose member has gone is closed. */
void gt_fleet_take_opened(struct gt_fleet *f)
{
	struct gt_fleet_worker *w = &f->disc.run;
	for (size_t i = 0; i < w->n_opened; i++) {
		struct gt_fleet_opened *o = &w->opened[i];
		struct gt_fleet_member *m = gt_fleet_find(f, o->pid);
		if (m)
			m->opening = false;
		if (!m || m->session) {
			if (o->target)
				gt_target_close(o->target);
		} else if (o->target) {
			adopt_session(f, m, o->target);
		} else {
			open_failed(f, m, &o->err);
		}
		o->target = NULL;
	}
}
