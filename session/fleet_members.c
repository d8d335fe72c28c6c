/* The fleet's members (session/fleet_internal.h): found, added, dropped,
 * closed, and what each one's session waits on. */
#include "session/fleet_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "collectors/host/proc.h"

void gt_fleet_member_close(struct gt_fleet_member *m)
{
	if (m->session) {
		gt_session_close(m->session);
		free(m->session);
	}
	m->session = NULL;
	free(m->findings);   /* a session opened again starts its findings again */
	m->findings = NULL;
	m->quiet_rounds = 0;
	m->fresh = false;
	m->next_poll_ns = 0;
	m->wait_fd = -1;
	m->wait_lags = false;
}

bool gt_fleet_wanted(const struct gt_fleet *f, pid_t pid)
{
	if (!f->n_only)
		return true;
	for (size_t i = 0; i < f->n_only; i++)
		if (f->only[i] == pid)
			return true;
	return false;
}

/* A binary search of the members in pid order, then a look at those
 * added since: a listing of 1,000 new processes looked each up among all
 * (a member is 2.5 KiB: a cache miss each). */
struct gt_fleet_member *gt_fleet_find(struct gt_fleet *f, pid_t pid)
{
	size_t lo = 0, hi = f->n_sorted <= f->count ? f->n_sorted : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->m[mid].pid == pid)
			return &f->m[mid];
		if (f->m[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = f->n_sorted <= f->count ? f->n_sorted : 0; i < f->count; i++)
		if (f->m[i].pid == pid)
			return &f->m[i];
	return NULL;
}

struct gt_fleet_member *gt_fleet_add(struct gt_fleet *f, const struct gt_target_info *info)
{
	struct gt_fleet_member *m = gt_array_grow(f->m, &f->capacity, f->count + 1, sizeof(*m), 16);
	if (!m)
		return NULL;
	f->m = m;
	m = &f->m[f->count++];
	memset(m, 0, sizeof(*m));
	m->pid = info->pid;
	m->listed = *info;
	m->wait_fd = -1;
	return m;
}

static int member_cmp(const void *a, const void *b)
{
	const struct gt_fleet_member *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Drops the members not seen this round (gone) and sorts the rest. */
void gt_fleet_prune(struct gt_fleet *f)
{
	size_t w = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (f->m[i].seen)
			f->m[w++] = f->m[i];
		else
			gt_fleet_member_close(&f->m[i]);
	}
	f->count = w;
	/* an empty fleet has no array yet, and qsort's is declared nonnull */
	if (f->count > 1)
		qsort(f->m, f->count, sizeof(*f->m), member_cmp);
	f->n_sorted = f->count;
}

/* Whether a member with a session is still there. Its sample finds out
 * (a process gone from /proc is always an exit: collectors/target.c), and
 * its round drops it then (session/fleet_round.c); a stat of /proc/PID
 * beside every sample was 2.7% of gctop --serve's CPU with 220 processes
 * (perf). A session busy with a job takes no sample, so its process is
 * looked for here. */
bool gt_fleet_member_there(const struct gt_fleet_member *m)
{
	if (m->session && !m->session->job)
		return true;
	return m->session && gt_proc_exists(m->pid);
}

/* The wait list: what each member's session waits on, asked of the session
 * only after a call that may change it (an open, a sample, a read, a
 * close: a fleet's sessions are touched by nothing else), not at every
 * wake-up. Asking all 220 members' sessions (through their targets and
 * collectors) twice a wake-up was 9% of gctop --serve's CPU (perf). */
void gt_fleet_note_wait(struct gt_fleet *f, struct gt_fleet_member *m)
{
	int fd = m->session ? gt_session_wait_fd(m->session) : -1;
	bool lags = fd >= 0 && gt_session_wait_may_lag(m->session);
	if (fd != m->wait_fd || lags != m->wait_lags)
		f->waits_stale = true;
	m->wait_fd = fd;
	m->wait_lags = lags;
}

/* The members with a tick between rounds, so that a wake-up (and the
 * deadline the loop asks for before each) walks them, not every member:
 * with idle members read at the rounds only, few are left. */
void gt_fleet_rebuild_polls(struct gt_fleet *f)
{
	if (!f->polls_stale)
		return;
	f->n_polls = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (!f->m[i].session || f->m[i].next_poll_ns == FLEET_NEVER)
			continue;
		size_t *p = gt_array_grow(f->polls, &f->polls_capacity, f->n_polls + 1, sizeof(*p), 16);
		if (!p)
			return;   /* stays stale: tried again after the next change */
		f->polls = p;
		f->polls[f->n_polls++] = i;
	}
	f->polls_stale = false;
}

void gt_fleet_rebuild_waits(struct gt_fleet *f)
{
	/* members that changed change both lists */
	if (f->waits_stale)
		f->polls_stale = true;
	gt_fleet_rebuild_polls(f);
	if (!f->waits_stale)
		return;
	f->n_waits = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (f->m[i].wait_fd < 0)
			continue;
		struct gt_fleet_wait *w = gt_array_grow(f->waits, &f->waits_capacity, f->n_waits + 1, sizeof(*w), 16);
		if (!w)
			return;   /* stays stale: tried again after the next change */
		f->waits = w;
		f->waits[f->n_waits++] = (struct gt_fleet_wait){ f->m[i].wait_fd, i, f->m[i].wait_lags };
	}
	f->waits_stale = false;
}

uint64_t gt_fleet_tick_after(uint64_t every, uint64_t round_ns, uint64_t now_ns)
{
	bool at_rounds = !every || (round_ns && (every >= round_ns || every >= FLEET_IDLE_TICK_NS));
	return at_rounds ? FLEET_NEVER : now_ns + every;
}

/* The member's next tick (gt_fleet_tick_after; now: it was just read). */
void gt_fleet_schedule_poll(struct gt_fleet *f, struct gt_fleet_member *m, uint64_t now_ns)
{
	uint64_t next = gt_fleet_tick_after(gt_session_poll_interval_ns(m->session), f->policy.round_ns, now_ns);
	if ((next == FLEET_NEVER) != (m->next_poll_ns == FLEET_NEVER))
		f->polls_stale = true;
	m->next_poll_ns = next;
}

bool gt_fleet_member_same_process(const struct gt_fleet_member *m)
{
	uint64_t ms;
	if (!m->listed.start_time_ms.valid)
		return gt_proc_exists(m->pid);
	return gt_proc_start_time_ms(m->pid, &ms) == 0 && ms == m->listed.start_time_ms.value;
}

/* kill(pid, 0), not a stat of /proc/PID (a path walk in procfs): ESRCH
 * only when no process has the pid; another user's says EPERM. A zombie
 * is still there: its next sample finds it exited. */
static bool member_gone(const struct gt_fleet_member *m)
{
	return kill(m->pid, 0) != 0 && errno == ESRCH;
}

bool gt_fleet_sweep(struct gt_fleet *f)
{
	bool any = false;
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		/* one the worker holds is its to report; one without a session
		 * is not served (refresh_known drops it at the round) */
		if (!m->session || m->opening || !member_gone(m))
			continue;
		m->seen = false;
		any = true;
	}
	if (any) {
		f->changed = true;
		gt_fleet_prune(f);
		f->waits_stale = true;
		gt_fleet_rebuild_waits(f);
	}
	return any;
}
