/* TEMPORARY (see session/fleet_serve.h): the session layer's fleet
 * replaces this file. It follows the picker's (tui/picker.c) rules for
 * opening many targets without freezing the loop. */
#include "session/fleet_serve.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/clock.h"
#include "collectors/host/proc.h"
#include "collectors/target.h"

/* A JVM younger than this may still be writing its perf data, and opening
 * it would wait (up to seconds) for it: it is opened on a later round ... */
#define FLEET_OPEN_MIN_AGE_MS 1000ull
/* ... and once the opens of one round have taken this long, the rest wait
 * for the next one, so a burst of new processes cannot stall sampling. */
#define FLEET_OPEN_BUDGET_NS 200000000ull
/* Listing every process of every runtime (gt_target_list_all) costs far
 * more than sampling the open ones (it maps every JVM's perf data and asks
 * every .NET runtime for its ProcessInfo), so a round lists only when a
 * new process may be there: a hsperfdata_* directory of /tmp changed (a
 * JVM's perf data came or went) or the set of .NET diagnostics sockets in
 * /tmp did (a known pid that exec'd a runtime included), and every round
 * for FLEET_SETTLE_NS after such a change (a JVM's file comes before the
 * JVM is readable, a socket before its runtime answers: the listing skips
 * them until then) ... and at least this often for what those miss (a
 * container's own /tmp). */
#define FLEET_LIST_EVERY_NS 10000000000ull
#define FLEET_SETTLE_NS 10000000000ull
/* A process that could not be opened or read is tried again this much
 * later (a runtime busy or still starting, a session the runtime ended),
 * unless it refused permission. */
#define FLEET_RETRY_NS 10000000000ull

struct member {
	pid_t pid;
	struct gt_target *target;
	struct gt_target_info info;
	struct gt_sample prev, cur;
	struct gt_derived derived;
	struct gt_pause_hist pauses;
	bool have_cur;
	bool given_up;             /* no permission to read it */
	uint64_t retry_ns;         /* CLOCK_MONOTONIC before which no open is tried again */
	bool seen;                 /* listed in this round */
	double watch_start_s;
};

/* What the last full listing saw, to tell whether another is needed. */
struct discovery {
	uint64_t tmp_stamp;        /* the hsperfdata_* directories and .NET sockets of /tmp, summed */
	uint64_t listed_ns;        /* CLOCK_MONOTONIC of the last listing, 0: never */
	uint64_t changed_ns;       /* ... of the last change of tmp_stamp */
};

struct gt_fleet_serve {
	pid_t *only;
	size_t n_only;
	struct discovery disc;
	struct member **m;
	size_t count, capacity;
	size_t shown;              /* members with a sample, first in m after a round */
};

struct gt_fleet_serve *gt_fleet_serve_new(const pid_t *only, size_t n_only)
{
	struct gt_fleet_serve *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	if (n_only) {
		f->only = malloc(n_only * sizeof(*only));
		if (!f->only) {
			free(f);
			return NULL;
		}
		memcpy(f->only, only, n_only * sizeof(*only));
		f->n_only = n_only;
	}
	return f;
}

static void member_free(struct member *m)
{
	if (m->target)
		gt_target_close(m->target);
	free(m);
}

void gt_fleet_serve_free(struct gt_fleet_serve *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->count; i++)
		member_free(f->m[i]);
	free(f->m);
	free(f->only);
	free(f);
}

static bool wanted(const struct gt_fleet_serve *f, pid_t pid)
{
	if (!f->n_only)
		return true;
	for (size_t i = 0; i < f->n_only; i++)
		if (f->only[i] == pid)
			return true;
	return false;
}

static struct member *find(struct gt_fleet_serve *f, pid_t pid)
{
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i]->pid == pid)
			return f->m[i];
	return NULL;
}

static struct member *add(struct gt_fleet_serve *f, pid_t pid)
{
	if (f->count == f->capacity) {
		size_t cap = f->capacity ? f->capacity * 2 : 16;
		struct member **m = realloc(f->m, cap * sizeof(*m));
		if (!m)
			return NULL;
		f->m = m;
		f->capacity = cap;
	}
	struct member *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->pid = pid;
	f->m[f->count++] = m;
	return m;
}

/* Opens a member unless it is too young or the round's budget is spent. */
static void open_member(struct member *m, uint64_t *spent_ns)
{
	uint64_t start_ms, t0 = gt_mono_ns();
	if (m->given_up || t0 < m->retry_ns)
		return;
	if (gt_proc_start_time_ms(m->pid, &start_ms) == 0 && (uint64_t)gt_wall_ms() < start_ms + FLEET_OPEN_MIN_AGE_MS)
		return;
	if (*spent_ns >= FLEET_OPEN_BUDGET_NS)
		return;
	struct gt_error err = { 0 };
	m->target = gt_target_open(m->pid, &err);
	*spent_ns += gt_mono_ns() - t0;
	if (!m->target) {
		/* a runtime still starting is tried again next round */
		m->given_up = err.code == GT_EXIT_PERMISSION;
		m->retry_ns = err.code == GT_EXIT_TIMEOUT ? 0 : gt_mono_ns() + FLEET_RETRY_NS;
		return;
	}
	m->info = *gt_target_info(m->target);
	/* counted again from here, with a new _created (a reset to Prometheus) */
	m->watch_start_s = (double)gt_wall_ms() / 1000.0;
	memset(&m->pauses, 0, sizeof(m->pauses));
}

/* Returns false when the process has exited. */
static bool sample_member(struct member *m)
{
	struct gt_sample s;
	struct gt_error err = { 0 };
	if (gt_target_sample(m->target, &s, &err) != 0) {
		gt_target_close(m->target);
		m->target = NULL;
		m->have_cur = false;
		m->retry_ns = gt_mono_ns() + FLEET_RETRY_NS;
		return err.code != GT_EXIT_TARGET_EXITED;
	}
	if (m->have_cur)
		m->prev = m->cur;
	m->cur = s;
	gt_derive(m->have_cur ? &m->prev : NULL, &m->cur, &m->derived);
	gt_pause_hist_add(&m->pauses, &m->cur);
	m->have_cur = true;
	return true;
}

/* Shown members first, each group by pid. */
static int member_cmp(const void *a, const void *b)
{
	const struct member *x = *(struct member *const *)a, *y = *(struct member *const *)b;
	if (x->have_cur != y->have_cur)
		return x->have_cur ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Drops the members not seen this round (gone) and sorts the rest. */
static void prune(struct gt_fleet_serve *f)
{
	size_t w = 0;
	for (size_t i = 0; i < f->count; i++) {
		if (f->m[i]->seen)
			f->m[w++] = f->m[i];
		else
			member_free(f->m[i]);
	}
	f->count = w;
	qsort(f->m, f->count, sizeof(*f->m), member_cmp);
	f->shown = 0;
	while (f->shown < f->count && f->m[f->shown]->have_cur)
		f->shown++;
}

static uint64_t stat_stamp(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec + (uint64_t)st.st_ino;
}

/* A sum that changes when a hsperfdata_* directory of /tmp changes or a
 * .NET diagnostics socket comes or goes (not with /tmp's own change time,
 * which every temporary file moves). */
static uint64_t tmp_stamp(void)
{
	DIR *d = opendir("/tmp");
	if (!d)
		return 0;
	uint64_t sum = 0;
	struct dirent *e;
	int pid;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "hsperfdata_", 11) == 0)
			sum += stat_stamp(dirfd(d), e->d_name);
		else if (sscanf(e->d_name, "dotnet-diagnostic-%d-", &pid) == 1)
			sum += (uint64_t)pid * 0x9e3779b97f4a7c15ull + 1;
	}
	closedir(d);
	return sum;
}

/* Whether this round must list every process (see FLEET_LIST_EVERY_NS). */
static bool listing_due(struct discovery *d, uint64_t now)
{
	uint64_t stamp = tmp_stamp();
	if (stamp != d->tmp_stamp)
		d->changed_ns = now;
	d->tmp_stamp = stamp;
	bool due = !d->listed_ns || now - d->changed_ns < FLEET_SETTLE_NS || now - d->listed_ns >= FLEET_LIST_EVERY_NS;
	if (due)
		d->listed_ns = now;
	return due;
}

/* A round that lists: new processes join, unlisted ones are dropped. */
static void refresh_listed(struct gt_fleet_serve *f)
{
	struct gt_list list = { 0 };
	uint64_t spent = 0;
	gt_target_list_all(&list);
	for (size_t i = 0; i < f->count; i++)
		f->m[i]->seen = false;
	for (size_t i = 0; i < list.count; i++) {
		pid_t pid = list.entries[i].info.pid;
		if (!wanted(f, pid))
			continue;
		struct member *m = find(f, pid);
		if (!m && !(m = add(f, pid)))
			break;
		m->seen = true;
		if (!m->target)
			open_member(m, &spent);
		if (m->target)
			m->seen = sample_member(m);
	}
	gt_list_free(&list);
}

/* A round that does not list: the known processes only; one that has
 * gone from /proc is dropped. */
static void refresh_known(struct gt_fleet_serve *f)
{
	uint64_t spent = 0;
	for (size_t i = 0; i < f->count; i++) {
		struct member *m = f->m[i];
		m->seen = gt_proc_exists(m->pid);
		if (m->seen && !m->target)
			open_member(m, &spent);
		if (m->seen && m->target)
			m->seen = sample_member(m);
	}
}

void gt_fleet_serve_refresh(struct gt_fleet_serve *f)
{
	if (listing_due(&f->disc, gt_mono_ns()))
		refresh_listed(f);
	else
		refresh_known(f);
	prune(f);
}

size_t gt_fleet_serve_count(const struct gt_fleet_serve *f)
{
	return f->shown;
}

struct gt_fleet_serve_view gt_fleet_serve_get(const struct gt_fleet_serve *f, size_t i)
{
	const struct member *m = f->m[i];
	return (struct gt_fleet_serve_view){ &m->info, &m->cur, &m->derived, &m->pauses, m->watch_start_s };
}

uint64_t gt_fleet_serve_poll_interval_ns(const struct gt_fleet_serve *f)
{
	uint64_t best = 0;
	for (size_t i = 0; i < f->count; i++) {
		uint64_t t = f->m[i]->target ? gt_target_poll_interval_ns(f->m[i]->target) : 0;
		if (t && (!best || t < best))
			best = t;
	}
	return best;
}

void gt_fleet_serve_poll(struct gt_fleet_serve *f, uint64_t now_ns)
{
	for (size_t i = 0; i < f->count; i++)
		if (f->m[i]->target)
			gt_target_poll(f->m[i]->target, now_ns);
}

size_t gt_fleet_serve_wait_fds(const struct gt_fleet_serve *f, int *fds, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < f->count && n < max; i++) {
		int fd = f->m[i]->target ? gt_target_wait_fd(f->m[i]->target) : -1;
		if (fd >= 0)
			fds[n++] = fd;
	}
	return n;
}
