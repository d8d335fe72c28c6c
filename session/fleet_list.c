/* The fleet's listing (session/fleet_internal.h): when a round lists
 * every process, and what a finished listing changes. */
#include "session/fleet_internal.h"

#include <stdlib.h>

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

/* Whether this round must list every process (see FLEET_LIST_EVERY_NS). */
bool gt_fleet_listing_due(const struct gt_fleet_policy *p, struct gt_fleet_discovery *d, uint64_t now)
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

/* Starts a listing on its worker. It leaves out pids not watched, and
 * members with an open session, which see their own target's exit. A
 * member without one (not yet readable, or its process gone) is listed
 * again, so that a pid that stopped being a runtime is dropped. Out of
 * memory or threads, the listing is tried again at the next round. */
void gt_fleet_start_listing(struct gt_fleet *f)
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
void gt_fleet_take_listing(struct gt_fleet *f)
{
	struct gt_fleet_worker *w = &f->disc.run;
	for (size_t i = 0; i < f->count; i++) {
		struct gt_fleet_member *m = &f->m[i];
		m->seen = m->session ? gt_fleet_member_there(m)
				     : (gt_fleet_worker_skipped(w, m->pid) || m->opening) && gt_proc_exists(m->pid);
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
