/* The fleet's listing (session/fleet_internal.h): when a round lists
 * every process, and what a finished listing changes. */
#include "session/fleet_internal.h"

#include <stdlib.h>
#include <unistd.h>

#include "collectors/host/proc.h"

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
/* ... but, with the policy's round_ns, no more often than once a second:
 * a listing walks /proc twice, reading each process that is no member
 * (its mount namespace, a .NET runtime's TMPDIR), and where .NET programs
 * come and go all the time (a build or test host) a listing at each of
 * gt_fleet_watch's looks was most of --serve's CPU at -d 15 (perf). */
#define FLEET_LIST_MIN_NS FLEET_SWEEP_NS

/* Whether this round must list every process (see FLEET_LIST_EVERY_NS). */
bool gt_fleet_listing_due(const struct gt_fleet_policy *p, struct gt_fleet_discovery *d, uint64_t now)
{
	if (!p->list_on_change)
		return true;
	uint64_t stamp = gt_fleet_tmp_stamp(&d->tmp);
	/* With round_ns the fleet finds a new JVM's pid in /tmp itself
	 * (gt_fleet_discover), so a JVM's file that came makes a look, not a
	 * listing: on a machine where JVMs come and go (a build host, the
	 * bench's neighbours) a listing at each look walked /proc twice
	 * whatever -d was (1j: 2.3% of a core at -d 15 with 50 processes). */
	if (p->round_ns) {
		uint64_t dirs = stamp - d->tmp.sockets;
		d->discover |= dirs != d->dirs_stamp;
		d->dirs_stamp = dirs;
		stamp = d->tmp.sockets;
	}
	if (stamp != d->tmp_stamp)
		d->changed_ns = now;
	d->tmp_stamp = stamp;
	bool due = !d->listed_ns || now - d->changed_ns < FLEET_SETTLE_NS || now - d->listed_ns >= FLEET_LIST_EVERY_NS;
	if (p->round_ns && d->listed_ns && now - d->listed_ns < FLEET_LIST_MIN_NS)
		due = false;
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

/* Starts a listing on its worker. It leaves out pids not watched, and
 * members with an open session, which see their own target's exit. A
 * member without one (not yet readable, or its process gone) is listed
 * again, so that a pid that stopped being a runtime is dropped; with the
 * policy's round_ns it is not (a listing reads only pids not seen before:
 * under churn, 1,000 members not yet open were read again at every
 * listing), and the rounds drop it when its pid names another process
 * (gt_fleet_member_same_process). Out of memory or threads, the listing
 * is tried again at the next round. */
void gt_fleet_start_listing(struct gt_fleet *f)
{
	pid_t *open = f->count ? malloc(f->count * sizeof(*open)) : NULL;
	size_t n = 0;
	if (f->count && !open)
		return;
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i].session || f->policy.round_ns)
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
void gt_fleet_take_listing(struct gt_fleet *f)
{
	struct gt_fleet_worker *w = &f->disc.run;
	/* with round_ns every member was left out (or joined since, from /tmp) */
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		bool kept = f->policy.round_ns || gt_fleet_worker_skipped(w, m->pid) || m->opening;
		m->seen = m->session ? gt_fleet_member_there(m) : kept && gt_proc_exists(m->pid);
	}
	for (size_t i = 0; i < w->list.count; i++) {
		const struct gt_list_entry *e = &w->list.entries[i];
		struct gt_fleet_member *m = gt_fleet_find(f, e->info.pid);
		if (!m && !(m = gt_fleet_add(f, &e->info)))
			break;
		m->seen = true;
		take_listed(m, e);
	}
	gt_list_free(&w->list);
	gt_fleet_prune(f);
	f->disc.listed = true;
}

static int pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* Whether pid is among the first n members (the sorted ones by binary
 * search, those added since by a look). */
static bool member_among(const struct gt_fleet *f, size_t n, pid_t pid)
{
	size_t lo = 0, hi = f->n_sorted <= n ? f->n_sorted : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->m[mid].pid == pid)
			return true;
		if (f->m[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = f->n_sorted <= n ? f->n_sorted : 0; i < n; i++)
		if (f->m[i].pid == pid)
			return true;
	return false;
}

/* A listing read each new JVM's perf data and /proc files (and asked each
 * new .NET runtime for its ProcessInfo), and its open read them again:
 * under churn, 100 new processes a second, the worker spent half its time
 * listing (bench/README.md 1k). A pid /tmp names is enough to try an open,
 * which finds out what the process is; the listings go on for what /tmp
 * does not show (containers) and leave these out. */
void gt_fleet_discover(struct gt_fleet *f)
{
	struct gt_fleet_discovery *d = &f->disc;
	size_t n = gt_fleet_tmp_pids(&d->tmp, &d->pids, &d->pids_cap);
	if (n > 1)
		qsort(d->pids, n, sizeof(*d->pids), pid_cmp);
	size_t before = f->count;
	pid_t self = getpid();
	for (size_t i = 0; i < n; i++) {
		pid_t pid = d->pids[i];
		uint64_t start_ms;
		if ((i && pid == d->pids[i - 1]) || pid == self || !gt_fleet_wanted(f, pid) || member_among(f, before, pid))
			continue;
		/* gone (a file or socket left behind), or not ours to see */
		if (gt_proc_start_time_ms(pid, &start_ms) != 0)
			continue;
		struct gt_target_info info = { .pid = pid, .nspid = pid };
		gt_u64_set(&info.start_time_ms, start_ms);
		struct gt_fleet_member *m = gt_fleet_add(f, &info);
		if (!m)
			break;
		m->seen = true;
	}
	if (f->count != before) {
		gt_fleet_prune(f);
		f->waits_stale = true;
		gt_fleet_rebuild_waits(f);
	}
}

/* Every pid of -p has an open session: a listing would skip them all
 * (listing_skips) and find nothing, so neither it nor the look at /tmp
 * that decides on one is needed (/tmp, shared by everyone, changes often). */
bool gt_fleet_only_all_open(const struct gt_fleet *f)
{
	if (!f->n_only)
		return false;
	size_t open = 0;
	for (size_t i = 0; i < f->count; i++)
		open += f->m[i].session && gt_fleet_wanted(f, f->m[i].pid);
	return open >= f->n_only;
}
