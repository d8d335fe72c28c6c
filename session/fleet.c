/* The fleet (session/fleet.h): many sessions, opened without freezing the
 * holder's loop, listed only as often as the policy needs. */
#include "session/fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/clock.h"
#include "collectors/host/cgroup.h"
#include "collectors/host/proc.h"
#include "collectors/target.h"

/* An open step asks for at most this many processes, so that a listing
 * does not wait long behind it (a JVM opens in a millisecond, a .NET
 * session may take seconds: ProcessInfo and CollectTracing, 2 s each at
 * worst). */
#define FLEET_OPEN_BATCH 16
/* Listing every process of every runtime costs far more than sampling the
 * open ones (it maps every JVM's perf data and asks every .NET runtime for
 * its ProcessInfo), so with list_on_change a round lists only when a new
 * process may be there: a hsperfdata_* directory of /tmp changed (a JVM's
 * perf data came or went) or the set of .NET diagnostics sockets in /tmp
 * did (a known pid that exec'd a runtime included), and every round for
 * FLEET_SETTLE_NS after such a change (a JVM's file comes before the JVM is
 * readable, a socket before its runtime answers: the listing skips them
 * until then) ... and at least this often for what those miss (a
 * container's own /tmp). */
#define FLEET_LIST_EVERY_NS 10000000000ull
#define FLEET_SETTLE_NS 10000000000ull
/* With retry, a process that could not be opened or read is tried again
 * this much later (a runtime busy or still starting, a session the runtime
 * ended). */
#define FLEET_RETRY_NS 10000000000ull
/* ... and one that timed out (a runtime still starting) this much later:
 * about a round, not at once, so that a process whose open keeps failing
 * fast (a socket removed after the listing, perf data that says the JVM
 * has not begun) cannot take every step of the worker. */
#define FLEET_TIMEOUT_RETRY_NS 1000000000ull
#define FLEET_NEVER UINT64_MAX

int gt_fleet_init(struct gt_fleet *f, const struct gt_fleet_policy *policy, const pid_t *only, size_t n_only)
{
	memset(f, 0, sizeof(*f));
	f->policy = *policy;
	gt_fleet_worker_init(&f->disc.run);
	if (!n_only)
		return 0;
	f->only = malloc(n_only * sizeof(*only));
	if (!f->only)
		return -1;
	memcpy(f->only, only, n_only * sizeof(*only));
	f->n_only = n_only;
	return 0;
}

static void close_member(struct gt_fleet_member *m)
{
	if (m->session) {
		gt_session_close(m->session);
		free(m->session);
	}
	m->session = NULL;
	m->next_poll_ns = 0;
	m->wait_fd = -1;
	m->wait_lags = false;
}

/* The wait list: what each member's session waits on, asked of the session
 * only after a call that may change it (an open, a sample, a read, a
 * close: a fleet's sessions are touched by nothing else), not at every
 * wake-up. Asking all 220 members' sessions (through their targets and
 * collectors) twice a wake-up was 9% of gctop --serve's CPU (perf). */
static void note_wait_fd(struct gt_fleet *f, struct gt_fleet_member *m)
{
	int fd = m->session ? gt_session_wait_fd(m->session) : -1;
	bool lags = fd >= 0 && gt_session_wait_may_lag(m->session);
	if (fd != m->wait_fd || lags != m->wait_lags)
		f->waits_stale = true;
	m->wait_fd = fd;
	m->wait_lags = lags;
}

static void rebuild_waits(struct gt_fleet *f)
{
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

void gt_fleet_free(struct gt_fleet *f)
{
	/* first: the worker reads nothing of the fleet, but ends at once */
	gt_fleet_worker_free(&f->disc.run);
	for (size_t i = 0; i < f->count; i++)
		close_member(&f->m[i]);
	free(f->m);
	free(f->waits);
	free(f->only);
	gt_fleet_tmp_free(&f->disc.tmp);
	gt_cgroup_rounds_free();
	memset(f, 0, sizeof(*f));
}

static bool wanted(const struct gt_fleet *f, pid_t pid)
{
	if (!f->n_only)
		return true;
	for (size_t i = 0; i < f->n_only; i++)
		if (f->only[i] == pid)
			return true;
	return false;
}

static struct gt_fleet_member *find(struct gt_fleet *f, pid_t pid)
{
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i].pid == pid)
			return &f->m[i];
	return NULL;
}

static struct gt_fleet_member *add(struct gt_fleet *f, const struct gt_target_info *info)
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

/* The member's next tick, its collector's interval from now (now: it was
 * just read). */
static void schedule_poll(struct gt_fleet_member *m, uint64_t now_ns)
{
	uint64_t every = gt_session_poll_interval_ns(m->session);
	m->next_poll_ns = every ? now_ns + every : FLEET_NEVER;
}

/* A member the worker could not open: its note says why, and the policy
 * when it is tried again. */
static void open_failed(struct gt_fleet *f, struct gt_fleet_member *m, const struct gt_error *err)
{
	if (err->code == GT_EXIT_OK) {
		/* withdrawn (gt_fleet_close_sessions): tried again as new */
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
	gt_session_adopt_without_history(m->session, t);
	/* A JVM that does not publish the counter has its operations n/a, as
	 * with -p (the session says why); .NET counts its own requests. */
	if (f->policy.ops_counter && m->session->info.runtime && !m->session->info.runtime->own_ops_counter)
		(void)gt_session_set_ops(m->session, f->policy.ops_counter, &err);
	/* its first tick is its own collector's (the open polled it) */
	schedule_poll(m, gt_mono_ns());
	note_wait_fd(f, m);
	/* counted again from here, with a new _created (a reset to Prometheus) */
	m->watch_start_s = (double)gt_wall_ms() / 1000.0;
	memset(&m->pauses, 0, sizeof(m->pauses));
}

/* Whether the member is to be opened: there, without a session, not
 * with the worker already, its retry time come, and old enough (one
 * younger is noted as starting). */
static bool wants_open(const struct gt_fleet *f, struct gt_fleet_member *m, uint64_t now)
{
	uint64_t start_ms;
	if (!m->seen || m->session || m->opening || now < m->retry_ns)
		return false;
	if (gt_proc_start_time_ms(m->pid, &start_ms) == 0 && (uint64_t)gt_wall_ms() < start_ms + f->policy.open_min_age_ms) {
		m->note = "starting";
		return false;
	}
	return true;
}

/* Asks the worker to open the members that want it (FLEET_OPEN_BATCH at
 * most; the rest at a later step). True when it did. */
static bool start_opens(struct gt_fleet *f)
{
	pid_t pids[FLEET_OPEN_BATCH];
	size_t n = 0;
	uint64_t now = gt_mono_ns();
	for (size_t i = 0; i < f->count && n < FLEET_OPEN_BATCH; i++)
		if (wants_open(f, &f->m[i], now))
			pids[n++] = f->m[i].pid;
	if (!n || gt_fleet_worker_open(&f->disc.run, pids, n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		struct gt_fleet_member *m = find(f, pids[i]);
		m->opening = true;
		m->note = "opening";
	}
	return true;
}

/* Takes in the worker's opens: each member still there gets its session
 * or its note. A target whose member has gone is closed. */
static void take_opened(struct gt_fleet *f)
{
	struct gt_fleet_worker *w = &f->disc.run;
	for (size_t i = 0; i < w->n_opened; i++) {
		struct gt_fleet_opened *o = &w->opened[i];
		struct gt_fleet_member *m = find(f, o->pid);
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

/* A member whose process exited keeps its note until the next round finds
 * it gone; one that is gone already (not a zombie) goes this round. */
static void sample_member(struct gt_fleet *f, struct gt_fleet_member *m)
{
	struct gt_error err = { 0 };
	m->sampled = false;
	if (!m->session)
		return;
	enum gt_session_step step = gt_session_sample(m->session, &err);
	note_wait_fd(f, m);
	if (step == GT_SESSION_SAMPLED) {
		gt_pause_hist_add(&m->pauses, &m->session->prev);
		m->sampled = true;
		/* A sample reads the collector as a poll does (both backends
		 * poll in it), so the next tick counts from here: an idle JVM's
		 * one-second tick then falls at the rounds instead of waking the
		 * loop once more a second for each JVM. */
		schedule_poll(m, gt_mono_ns());
		return;
	}
	if (step == GT_SESSION_IDLE)
		return;   /* a job has the target */
	bool exited = step == GT_SESSION_EXITED;
	m->note = exited ? "exited" : "unreadable";
	if (exited)
		m->seen = gt_proc_exists(m->pid);
	close_member(m);
	f->waits_stale = true;
	m->retry_ns = exited || !f->policy.retry ? FLEET_NEVER : gt_mono_ns() + FLEET_RETRY_NS;
}

static int member_cmp(const void *a, const void *b)
{
	const struct gt_fleet_member *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Drops the members not seen this round (gone) and sorts the rest. */
static void prune(struct gt_fleet *f)
{
	size_t w = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (f->m[i].seen)
			f->m[w++] = f->m[i];
		else
			close_member(&f->m[i]);
	}
	f->count = w;
	/* an empty fleet has no array yet, and qsort's is declared nonnull */
	if (f->count > 1)
		qsort(f->m, f->count, sizeof(*f->m), member_cmp);
}

/* Whether this round must list every process (see FLEET_LIST_EVERY_NS). */
static bool listing_due(const struct gt_fleet_policy *p, struct gt_fleet_discovery *d, uint64_t now)
{
	if (!p->list_on_change)
		return true;
	uint64_t stamp = gt_fleet_tmp_stamp(&d->tmp);
	if (stamp != d->tmp_stamp)
		d->changed_ns = now;
	d->tmp_stamp = stamp;
	bool due = !d->listed_ns || now - d->changed_ns < FLEET_SETTLE_NS || now - d->listed_ns >= FLEET_LIST_EVERY_NS;
	if (due)
		d->listed_ns = now;
	return due;
}

/* The listing's cheap figures stand in until a session has its own. */
static void take_listed(struct gt_fleet_member *m, const struct gt_list_entry *e)
{
	m->heap_used = e->sample.heap_used_bytes;
	m->heap_max = e->sample.heap_max_bytes.valid ? e->sample.heap_max_bytes : e->info.heap_max_bytes;
	m->rss = e->sample.rss_bytes;
}

/* Samples every member still there (the worker opens them). */
static void refresh_seen(struct gt_fleet *f)
{
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		m->sampled = false;
		if (m->seen)
			sample_member(f, m);
	}
}

/* Whether a member with a session is still there. Its sample finds out
 * (a process gone from /proc is always an exit: collectors/target.c), and
 * sample_member drops it then; a stat of /proc/PID beside every sample was
 * 2.7% of gctop --serve's CPU with 220 processes (perf). A session
 * busy with a job takes no sample, so its process is looked for here. */
static bool member_there(const struct gt_fleet_member *m)
{
	if (m->session && !m->session->job)
		return true;
	return m->session && gt_proc_exists(m->pid);
}

/* Starts a listing on its worker. It leaves out pids not watched, and
 * members with an open session, which see their own target's exit. A
 * member without one (not yet readable, or its process gone) is listed
 * again, so that a pid that stopped being a runtime is dropped. Out of
 * memory or threads, the listing is tried again at the next round. */
static void start_listing(struct gt_fleet *f)
{
	pid_t *open = f->count ? malloc(f->count * sizeof(*open)) : NULL;
	size_t n = 0;
	if (f->count && !open)
		return;
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i].session)
			open[n++] = f->m[i].pid;
	if (gt_fleet_worker_list(&f->disc.run, open, n, f->only, f->n_only) != 0)
		f->disc.listed_ns = 0;
	free(open);
}

/* Takes in a listing that has finished: new processes join, members
 * without a session that it did not list are dropped (one whose session
 * ended after the listing began, left out by it, stays while its process
 * is there, as does one with the worker); members with one stay while
 * their process is there. */
static void take_listing(struct gt_fleet *f)
{
	struct gt_fleet_worker *w = &f->disc.run;
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		m->seen = m->session ? member_there(m)
				     : (gt_fleet_worker_skipped(w, m->pid) || m->opening) && gt_proc_exists(m->pid);
	}
	for (size_t i = 0; i < w->list.count; i++) {
		const struct gt_list_entry *e = &w->list.entries[i];
		struct gt_fleet_member *m = find(f, e->info.pid);
		if (!m && !(m = add(f, &e->info)))
			break;
		m->seen = true;
		take_listed(m, e);
	}
	gt_list_free(&w->list);
	prune(f);
	f->disc.listed = true;
}

/* Takes in the worker's step when it has finished; true when it had. */
static bool take_step(struct gt_fleet *f)
{
	if (!gt_fleet_worker_take(&f->disc.run))
		return false;
	if (f->disc.run.step == GT_FLEET_LIST)
		take_listing(f);
	else
		take_opened(f);
	/* members went, came, moved (prune sorts them) or opened */
	f->waits_stale = true;
	rebuild_waits(f);
	return true;
}

/* A round that does not list: the known processes only; one that has
 * gone from /proc is dropped. */
static void refresh_known(struct gt_fleet *f)
{
	for (size_t i = 0; i < f->count; i++)
		f->m[i].seen = f->m[i].session ? member_there(&f->m[i]) : gt_proc_exists(f->m[i].pid);
	refresh_seen(f);
}

/* Every pid of -p has an open session: a listing would skip them all
 * (listing_skips) and find nothing, so neither it nor the look at /tmp
 * that decides on one is needed (/tmp, shared by everyone, changes often). */
static bool only_all_open(const struct gt_fleet *f)
{
	if (!f->n_only)
		return false;
	size_t open = 0;
	for (size_t i = 0; i < f->count; i++)
		open += f->m[i].session && wanted(f, f->m[i].pid);
	return open >= f->n_only;
}

void gt_fleet_refresh(struct gt_fleet *f)
{
	/* Processes often share a cgroup: its files are read once a round. */
	gt_cgroup_round_begin();
	take_step(f);
	refresh_known(f);
	gt_cgroup_round_end();
	/* The worker's next step: a listing when due, else the known
	 * processes that want opening. The listing first, so that opens that
	 * keep failing cannot hold off the processes it would find; opens
	 * follow it at once (gt_fleet_events). */
	if (!f->disc.run.running) {
		if (!only_all_open(f) && listing_due(&f->policy, &f->disc, gt_mono_ns()))
			start_listing(f);
		else
			start_opens(f);
	}
	prune(f);
	/* members went, came or moved (prune sorts them) */
	f->waits_stale = true;
	rebuild_waits(f);
}

uint64_t gt_fleet_poll_interval_ns(const struct gt_fleet *f)
{
	uint64_t best = 0;
	for (size_t i = 0; i < f->count; i++) {
		uint64_t t = f->m[i].session ? gt_session_poll_interval_ns(f->m[i].session) : 0;
		if (t && (!best || t < best))
			best = t;
	}
	return best;
}

/* A member's tick counts as due this close before its time: the loop wakes
 * at the fastest member's tick, which may fall a hair before a slower one's. */
#define FLEET_POLL_SLACK_NS 1000000ull

void gt_fleet_poll(struct gt_fleet *f, uint64_t now_ns)
{
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		if (!m->session || m->next_poll_ns > now_ns + FLEET_POLL_SLACK_NS)
			continue;
		gt_session_events(m->session, now_ns);
		note_wait_fd(f, m);
		schedule_poll(m, now_ns);
	}
	rebuild_waits(f);
}

uint64_t gt_fleet_next_poll_ns(const struct gt_fleet *f)
{
	uint64_t next = FLEET_NEVER;
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i].session && f->m[i].next_poll_ns < next)
			next = f->m[i].next_poll_ns;
	return next;
}

/* The wait list's entry of fd: polled follows the list's order
 * (gt_fleet_wait_fds), so entry i is usually it; a search covers a list
 * that changed since. */
static const struct gt_fleet_wait *wait_of(const struct gt_fleet *f, size_t i, int fd)
{
	if (i < f->n_waits && f->waits[i].fd == fd)
		return &f->waits[i];
	for (size_t j = 0; j < f->n_waits; j++)
		if (f->waits[j].fd == fd)
			return &f->waits[j];
	return NULL;
}

bool gt_fleet_events(struct gt_fleet *f, const struct pollfd *polled, size_t n, uint64_t now_ns)
{
	/* The worker's descriptor comes first (wait_fds), then the members'
	 * in the wait list's order. */
	bool changed = false;
	size_t first = n && polled[0].fd >= 0 && polled[0].fd == gt_fleet_worker_fd(&f->disc.run);
	/* More to open goes to the worker at once, not a round later: 220
	 * new JVMs at 16 a round would take 14 rounds. (A listing waits for
	 * a round: back to back, a quick one would run all the time.) */
	if (first && (polled[0].revents & (POLLIN | POLLHUP | POLLERR)) && (changed = take_step(f)))
		start_opens(f);
	for (size_t i = first; i < n; i++) {
		if (!(polled[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		const struct gt_fleet_wait *w = wait_of(f, i - first, polled[i].fd);
		struct gt_fleet_member *m = w && w->member < f->count ? &f->m[w->member] : NULL;
		if (!m || !m->session || m->wait_fd != polled[i].fd)
			continue;
		gt_session_events(m->session, now_ns);
		note_wait_fd(f, m);
	}
	rebuild_waits(f);
	return changed;
}

static size_t wait_fds(const struct gt_fleet *f, int *fds, size_t max, bool lagging_too)
{
	size_t n = 0;
	if (max && gt_fleet_worker_fd(&f->disc.run) >= 0)
		fds[n++] = gt_fleet_worker_fd(&f->disc.run);
	for (size_t i = 0; i < f->n_waits && n < max; i++)
		if (lagging_too || !f->waits[i].lags)
			fds[n++] = f->waits[i].fd;
	return n;
}

size_t gt_fleet_wait_fds(const struct gt_fleet *f, int *fds, size_t max)
{
	return wait_fds(f, fds, max, true);
}

size_t gt_fleet_wait_fds_prompt(const struct gt_fleet *f, int *fds, size_t max)
{
	return wait_fds(f, fds, max, false);
}

void gt_fleet_close_sessions(struct gt_fleet *f)
{
	/* the worker's opens too: they come back without targets */
	gt_fleet_worker_cancel(&f->disc.run);
	f->waits_stale = true;
	for (size_t i = 0; i < f->count; i++) {
		close_member(&f->m[i]);
		f->m[i].retry_ns = 0;
		f->m[i].note = NULL;
		f->m[i].sampled = false;
	}
	rebuild_waits(f);
}
