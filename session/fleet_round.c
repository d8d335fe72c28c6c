/* The fleet's rounds (session/fleet.h): each member sampled, the worker's
 * next step started and its last one taken in, and the polls and
 * descriptors between rounds. */
#include "session/fleet_internal.h"

#include "base/clock.h"
#include "collectors/host/cgroup.h"
#include "collectors/host/proc.h"

/* A member whose process exited keeps its note until the next round finds
 * it gone; one that is gone already (not a zombie) goes this round. */
static void sample_member(struct gt_fleet *f, struct gt_fleet_member *m)
{
	struct gt_error err = { 0 };
	m->sampled = false;
	m->fresh = false;
	if (!m->session)
		return;
	enum gt_session_step step = gt_session_sample(m->session, &err);
	gt_fleet_note_wait(f, m);
	if (step == GT_SESSION_SAMPLED) {
		gt_pause_hist_add(&m->pauses, &m->session->prev);
		gt_fleet_findings_update(f, m);
		m->sampled = true;
		/* A sample reads the collector as a poll does (both backends
		 * poll in it), so the next tick counts from here: an idle JVM's
		 * one-second tick then falls at the rounds instead of waking the
		 * loop once more a second for each JVM. */
		gt_fleet_schedule_poll(f, m, gt_mono_ns());
		return;
	}
	if (step == GT_SESSION_IDLE)
		return;   /* a job has the target */
	bool exited = step == GT_SESSION_EXITED;
	m->note = exited ? "exited" : "unreadable";
	if (exited)
		m->seen = gt_proc_exists(m->pid);
	if (gt_fleet_member_live(m))
		f->changed = true;
	gt_fleet_member_close(m);
	f->waits_stale = true;
	m->retry_ns = exited || !f->policy.retry ? FLEET_NEVER : gt_mono_ns() + FLEET_RETRY_NS;
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

/* The first sample of the members just opened, so that they are served
 * from now, not from the next round (with the policy's round_ns). */
static void sample_fresh(struct gt_fleet *f)
{
	bool any = false;
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		if (!m->fresh)
			continue;
		if (!any)
			gt_cgroup_round_begin();
		any = true;
		sample_member(f, m);
		if (m->sampled)
			f->changed = true;
	}
	if (any)
		gt_cgroup_round_end();
}

/* Takes in the worker's step when it has finished; true when it had. */
static bool take_step(struct gt_fleet *f)
{
	if (!gt_fleet_worker_take(&f->disc.run))
		return false;
	if (f->disc.run.step == GT_FLEET_LIST) {
		gt_fleet_take_listing(f);
	} else {
		gt_fleet_take_opened(f);
		sample_fresh(f);
	}
	/* members went, came, moved (prune sorts them) or opened */
	f->waits_stale = true;
	gt_fleet_rebuild_waits(f);
	return true;
}

/* A round that does not list: the known processes only; one that has
 * gone from /proc is dropped. */
static void refresh_known(struct gt_fleet *f)
{
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		if (m->session)
			m->seen = gt_fleet_member_there(m);
		else   /* not listed again with round_ns: its pid may name another process by now */
			m->seen = f->policy.round_ns && !m->opening ? gt_fleet_member_same_process(m) : gt_proc_exists(m->pid);
	}
	refresh_seen(f);
}

/* The worker's next step, when it has none: a listing when due, else the
 * known processes that want opening. The listing first, so that opens
 * that keep failing (hung runtimes, each due again by the time the others
 * are tried) cannot hold off the processes it would find. */
static void start_next_step(struct gt_fleet *f, uint64_t now_ns)
{
	if (f->disc.run.running)
		return;
	bool due = !gt_fleet_only_all_open(f) && gt_fleet_listing_due(&f->policy, &f->disc, now_ns);
	/* after the first listing, /tmp's new pids join without one */
	bool discovering = f->policy.round_ns && f->disc.listed;
	if (discovering && f->disc.discover) {
		f->disc.discover = false;
		gt_fleet_discover(f);
	}
	if (!due) {
		gt_fleet_start_opens(f);
		return;
	}
	/* their opens before a listing, which leaves them out */
	if (discovering && gt_fleet_start_opens(f)) {
		f->disc.listed_ns = 0;   /* the listing right after them */
		return;
	}
	gt_fleet_start_listing(f);
}

void gt_fleet_refresh(struct gt_fleet *f)
{
	/* Processes often share a cgroup: its files are read once a round. */
	gt_cgroup_round_begin();
	take_step(f);
	refresh_known(f);
	gt_cgroup_round_end();
	/* opens follow a listing at once (gt_fleet_events) */
	start_next_step(f, gt_mono_ns());
	gt_fleet_prune(f);
	/* members went, came or moved (prune sorts them) */
	f->waits_stale = true;
	gt_fleet_rebuild_waits(f);
	/* the holder publishes the round */
	f->changed = false;
}

/* The worker's next step between rounds: opens as soon as a member is
 * old enough, a listing when /tmp says one is due. */
static void watch_step(struct gt_fleet *f, uint64_t now_ns)
{
	if (f->disc.run.running)
		return;
	if (now_ns >= f->disc.next_open_ns && gt_fleet_start_opens(f))
		return;
	start_next_step(f, now_ns);
}

bool gt_fleet_watch(struct gt_fleet *f, uint64_t now_ns)
{
	if (!f->policy.round_ns || now_ns < gt_fleet_next_watch_ns(f))
		return false;
	if (now_ns < f->disc.next_watch_ns) {
		/* a member old enough to open: not a look of its own */
		watch_step(f, now_ns);
		return false;
	}
	f->disc.next_watch_ns = now_ns + FLEET_WATCH_NS;
	if (f->policy.round_ns > FLEET_SWEEP_NS && now_ns - f->disc.swept_ns >= FLEET_SWEEP_NS) {
		f->disc.swept_ns = now_ns;
		gt_fleet_sweep(f);
	}
	watch_step(f, now_ns);
	bool changed = f->changed;
	f->changed = false;
	return changed;
}

uint64_t gt_fleet_next_watch_ns(const struct gt_fleet *f)
{
	if (!f->policy.round_ns)
		return FLEET_NEVER;
	/* a member starting: when it is old enough, if the worker is free then */
	uint64_t open = f->disc.run.running ? FLEET_NEVER : f->disc.next_open_ns;
	return open < f->disc.next_watch_ns ? open : f->disc.next_watch_ns;
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
	gt_fleet_rebuild_polls(f);
	for (size_t k = 0; k < f->n_polls; k++) {
		size_t i = f->polls[k];
		struct gt_fleet_member *m = i < f->count ? &f->m[i] : NULL;
		if (!m || !m->session || m->next_poll_ns > now_ns + FLEET_POLL_SLACK_NS)
			continue;
		gt_session_events(m->session, now_ns);
		gt_fleet_note_wait(f, m);
		gt_fleet_schedule_poll(f, m, now_ns);
	}
	gt_fleet_rebuild_waits(f);
}

uint64_t gt_fleet_next_poll_ns(const struct gt_fleet *f)
{
	uint64_t next = FLEET_NEVER;
	/* a stale list (a change not yet rebuilt) is walked whole */
	if (f->polls_stale || f->waits_stale) {
		for (size_t i = 0; i < f->count; i++)
			if (f->m[i].session && f->m[i].next_poll_ns < next)
				next = f->m[i].next_poll_ns;
		return next;
	}
	for (size_t k = 0; k < f->n_polls; k++) {
		size_t i = f->polls[k];
		if (i < f->count && f->m[i].session && f->m[i].next_poll_ns < next)
			next = f->m[i].next_poll_ns;
	}
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
	 * new JVMs at 16 a step would take 14 rounds. After opens, a listing
	 * that is due where listings are timed (--serve), so that opens
	 * chained here cannot hold it off for good; never after a listing
	 * (back to back, a quick one would run all the time), nor in the
	 * picker, which lists every round. */
	bool after_opens = f->disc.run.step == GT_FLEET_OPEN;
	if (first && (polled[0].revents & (POLLIN | POLLHUP | POLLERR)) && (changed = take_step(f))) {
		if (after_opens && f->policy.list_on_change)
			start_next_step(f, now_ns);
		else
			gt_fleet_start_opens(f);
	}
	for (size_t i = first; i < n; i++) {
		if (!(polled[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		const struct gt_fleet_wait *w = wait_of(f, i - first, polled[i].fd);
		struct gt_fleet_member *m = w && w->member < f->count ? &f->m[w->member] : NULL;
		if (!m || !m->session || m->wait_fd != polled[i].fd)
			continue;
		gt_session_events(m->session, now_ns);
		gt_fleet_note_wait(f, m);
	}
	gt_fleet_rebuild_waits(f);
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
