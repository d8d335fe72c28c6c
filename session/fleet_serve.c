/* TEMPORARY (see session/fleet_serve.h): the session layer's fleet
 * replaces this file. It follows the picker's (tui/picker.c) rules for
 * opening many targets without freezing the loop. */
#include "session/fleet_serve.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "collectors/host/proc.h"
#include "collectors/target.h"

/* A JVM younger than this may still be writing its perf data, and opening
 * it would wait (up to seconds) for it: it is opened on a later round ... */
#define FLEET_OPEN_MIN_AGE_MS 1000ull
/* ... and once the opens of one round have taken this long, the rest wait
 * for the next one, so a burst of new processes cannot stall sampling. */
#define FLEET_OPEN_BUDGET_NS 200000000ull

struct member {
	pid_t pid;
	struct gt_target *target;
	struct gt_target_info info;
	struct gt_sample prev, cur;
	struct gt_derived derived;
	struct gt_pause_hist pauses;
	bool have_cur;
	bool given_up;             /* cannot be read (permission, malformed, gone quiet) */
	bool seen;                 /* listed in this round */
	double watch_start_s;
};

struct gt_fleet_serve {
	pid_t *only;
	size_t n_only;
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
	uint64_t start_ms;
	if (gt_proc_start_time_ms(m->pid, &start_ms) == 0 && (uint64_t)gt_wall_ms() < start_ms + FLEET_OPEN_MIN_AGE_MS)
		return;
	if (*spent_ns >= FLEET_OPEN_BUDGET_NS)
		return;
	uint64_t t0 = gt_mono_ns();
	struct gt_error err = { 0 };
	m->target = gt_target_open(m->pid, &err);
	*spent_ns += gt_mono_ns() - t0;
	if (!m->target) {
		/* a runtime still starting is tried again next round */
		m->given_up = err.code != GT_EXIT_TIMEOUT;
		return;
	}
	m->info = *gt_target_info(m->target);
	m->watch_start_s = (double)gt_wall_ms() / 1000.0;
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
		m->given_up = true;
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

void gt_fleet_serve_refresh(struct gt_fleet_serve *f)
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
		if (!m->target && !m->given_up)
			open_member(m, &spent);
		if (m->target)
			m->seen = sample_member(m);
	}
	gt_list_free(&list);
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
