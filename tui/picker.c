#include "tui/picker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/array.h"
#include "base/clock.h"

/* Opening a JVM that is still starting waits (up to seconds) for its perf
 * data to be ready, and the picker must not freeze meanwhile: a process
 * younger than this is opened on a later refresh. The picker lists every
 * refresh (rows without a session show the listing's heap and RSS), and a
 * row that could not be opened or read says so until the user comes back
 * from a dashboard (gt_picker_close_sessions). */
static const struct gt_fleet_policy picker_policy = {
	.open_min_age_ms = 3000,
	.list_on_change = false,
	.retry = false,
};

void gt_picker_init(struct gt_picker *p)
{
	memset(p, 0, sizeof(*p));
	/* cannot fail: every pid, nothing to copy */
	gt_fleet_init(&p->fleet, &picker_policy, NULL, 0);
	gt_schedule_stop(&p->schedule);
}

void gt_picker_start(struct gt_picker *p, uint64_t interval_ns, uint64_t now)
{
	gt_schedule_start(&p->schedule, interval_ns, gt_picker_poll_interval_ns(p), now);
}

bool gt_picker_tick(struct gt_picker *p, uint64_t now)
{
	bool refreshed = false;
	if (gt_schedule_sample_due(&p->schedule, now)) {
		gt_picker_refresh(p);
		/* Rows come and go: the tick follows the rows now open. The
		 * next refresh counts from the clock after this one: from now,
		 * a refresh longer than the interval (opens, each within its
		 * deadline) left the next one already due, so the screen's
		 * wait ended before it looked at the keys, round after round
		 * (q went unanswered for 23-32 s). */
		now = gt_mono_ns();
		gt_schedule_sampled(&p->schedule, gt_picker_poll_interval_ns(p), now);
		refreshed = true;
	}
	if (gt_schedule_poll_due(&p->schedule, now)) {
		gt_picker_poll(p, now);
		gt_schedule_polled(&p->schedule, gt_picker_poll_interval_ns(p), now);
	}
	return refreshed;
}

uint64_t gt_picker_deadline(struct gt_picker *p)
{
	return gt_schedule_deadline(&p->schedule);
}

void gt_picker_free(struct gt_picker *p)
{
	gt_fleet_free(&p->fleet);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

const char *gt_picker_sort_name(enum gt_picker_sort s)
{
	switch (s) {
	case GT_SORT_ALLOC: return "alloc rate";
	case GT_SORT_GC: return "GC%";
	case GT_SORT_HEAP: return "heap";
	case GT_SORT_RSS: return "RSS";
	case GT_SORT_PID: return "PID";
	case GT_SORT_COUNT: break;
	}
	return "?";
}

/* Copies as much of src as fits; a long command line is cut, not refused. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The release alone, for a column: HotSpot's "17.0.13+11-Debian-2" and
 * a .NET preview's "10.0.0-rc.2.25502.107" keep their leading numbers. */
static void copy_release(char *dst, size_t size, const char *src)
{
	size_t n = strspn(src, "0123456789.");
	if (n >= size)
		n = 0;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Live figures need an open session and two samples; until then the
 * listing's own cheap figures (heap, RSS) stand in and the rates say n/a. */
static void fill_row(struct gt_picker_row *r, const struct gt_fleet_member *m)
{
	const struct gt_target_info *id = &m->listed;
	memset(r, 0, sizeof(*r));
	r->pid = m->pid;
	copy_text(r->user, sizeof(r->user), id->user);
	gt_picker_program(r->program, sizeof(r->program), id->main_class, id->command_line);
	copy_text(r->command, sizeof(r->command), id->command_line);
	r->runtime = id->runtime;
	copy_release(r->version, sizeof(r->version), id->runtime_version);
	copy_text(r->gc, sizeof(r->gc), id->gc_name);
	copy_text(r->sampler, sizeof(r->sampler), id->alloc_sources);
	r->sampler[strcspn(r->sampler, ",")] = '\0';
	r->heap_used = m->heap_used;
	r->heap_max = m->heap_max;
	r->rss = m->rss;
	r->note = m->note;
	if (!m->sampled)
		return;
	const struct gt_derived *d = &m->session->live.derived;
	const struct gt_sample *cur = &d->cur;   /* held to the plausibility rules */
	r->alloc_rate_bps = d->alloc_rate_bps;
	r->gc_share = d->pause_share;
	if (cur->heap_used_bytes.valid)
		r->heap_used = cur->heap_used_bytes;
	if (cur->heap_max_bytes.valid)
		r->heap_max = cur->heap_max_bytes;
	if (cur->rss_bytes.valid)
		r->rss = cur->rss_bytes;
}

/* A case-insensitive substring search: strcasestr is a GNU extension. */
static bool holds_text(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return n == 0;
}

/* The words a runtime is found by: the picker's label first, then what
 * users type for it (model/runtime.h's words). */
static const char *const unknown_words[] = { "?", NULL };

static const char *const *runtime_words(const struct gt_runtime_traits *rt)
{
	return rt && rt->words ? rt->words : unknown_words;
}

const char *gt_picker_runtime_label(const struct gt_runtime_traits *rt)
{
	return runtime_words(rt)[0];
}

/* The runtime's name for its collector gc (model/runtime.h gc_names), or
 * NULL; "unknown" is every runtime's. */
static const struct gt_gc_name gc_unknown = { "unknown", "unknown", "?" };

static const struct gt_gc_name *gc_name_find(const struct gt_runtime_traits *rt, const char *gc)
{
	if (strcmp(gc, gc_unknown.name) == 0)
		return &gc_unknown;
	for (const struct gt_gc_name *n = rt ? rt->gc_names : NULL; n && n->name; n++)
		if (strcmp(n->name, gc) == 0)
			return n;
	return NULL;
}

const char *gt_picker_gc_label(const struct gt_runtime_traits *rt, const char *gc, bool brief)
{
	const struct gt_gc_name *n = gc_name_find(rt, gc);
	if (!n)
		return gc;
	return brief ? n->brief : n->whole;
}

static bool holds_any(const char *const *words, const char *text)
{
	for (; *words; words++)
		if (holds_text(*words, text))
			return true;
	return false;
}

bool gt_picker_row_matches(const struct gt_picker_row *r, const char *text)
{
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", (int)r->pid);
	const char *gc[] = { r->gc, gt_picker_gc_label(r->runtime, r->gc, false), gt_picker_gc_label(r->runtime, r->gc, true),
			     NULL };
	return holds_text(pid, text) || holds_text(r->user, text) || holds_text(r->program, text) ||
	       holds_text(r->command, text) || holds_text(r->sampler, text) ||
	       holds_text(r->version, text) || holds_any(runtime_words(r->runtime), text) || holds_any(gc, text);
}

/* The rows from the fleet's members that pass the filter, sorted. */
static void picker_rows(struct gt_picker *p)
{
	pid_t keep = gt_picker_selected_pid(p);
	size_t n = p->fleet.count;
	struct gt_picker_slot *slots = n ? gt_array_grow(p->slots, &p->capacity, n, sizeof(*slots), 16) : p->slots;
	if (!slots) {
		/* Without room for the rows, none: better than rows of another time. */
		n = 0;
	} else {
		p->slots = slots;
	}
	p->count = 0;
	for (size_t i = 0; i < n; i++) {
		fill_row(&p->slots[p->count].row, &p->fleet.m[i]);
		if (gt_picker_row_matches(&p->slots[p->count].row, p->filter))
			p->count++;
	}
	p->found = n;
	gt_picker_sort_rows(p->slots, p->count, p->sort);

	p->selected = 0;
	for (size_t i = 0; i < p->count; i++)
		if (p->slots[i].row.pid == keep)
			p->selected = i;
}

void gt_picker_refresh(struct gt_picker *p)
{
	gt_fleet_refresh(&p->fleet);
	picker_rows(p);
}

void gt_picker_set_filter(struct gt_picker *p, const char *text)
{
	snprintf(p->filter, sizeof(p->filter), "%s", text);
	picker_rows(p);
}

/* Descending by value, unknown figures last, then by PID. */
static int cmp_f64_desc(struct gt_f64 a, struct gt_f64 b)
{
	if (a.valid != b.valid)
		return a.valid ? -1 : 1;
	if (!a.valid || a.value == b.value)
		return 0;
	return a.value > b.value ? -1 : 1;
}

static int cmp_u64_desc(struct gt_u64 a, struct gt_u64 b)
{
	if (a.valid != b.valid)
		return a.valid ? -1 : 1;
	if (!a.valid || a.value == b.value)
		return 0;
	return a.value > b.value ? -1 : 1;
}

static int row_cmp(const struct gt_picker_row *a, const struct gt_picker_row *b, enum gt_picker_sort key)
{
	int c = 0;
	switch (key) {
	case GT_SORT_ALLOC: c = cmp_f64_desc(a->alloc_rate_bps, b->alloc_rate_bps); break;
	case GT_SORT_GC: c = cmp_f64_desc(a->gc_share, b->gc_share); break;
	case GT_SORT_HEAP: c = cmp_u64_desc(a->heap_used, b->heap_used); break;
	case GT_SORT_RSS: c = cmp_u64_desc(a->rss, b->rss); break;
	case GT_SORT_PID: case GT_SORT_COUNT: break;
	}
	if (c == 0)
		c = a->pid < b->pid ? -1 : a->pid > b->pid;
	return c;
}

uint64_t gt_picker_poll_interval_ns(const struct gt_picker *p)
{
	return gt_fleet_poll_interval_ns(&p->fleet);
}

void gt_picker_poll(struct gt_picker *p, uint64_t now_ns)
{
	gt_fleet_poll(&p->fleet, now_ns);
}

bool gt_picker_events(struct gt_picker *p, const struct pollfd *polled, size_t n, uint64_t now_ns)
{
	if (!gt_fleet_events(&p->fleet, polled, n, now_ns))
		return false;
	picker_rows(p);
	return true;
}

size_t gt_picker_wait_fds(const struct gt_picker *p, int *fds, size_t max)
{
	return gt_fleet_wait_fds(&p->fleet, fds, max);
}

void gt_picker_close_sessions(struct gt_picker *p)
{
	gt_fleet_close_sessions(&p->fleet);
	for (size_t i = 0; i < p->count; i++)
		p->slots[i].row.note = NULL;
}

void gt_picker_sort_rows(struct gt_picker_slot *slots, size_t n, enum gt_picker_sort key)
{
	/* Insertion sort: a few dozen rows, and qsort has no context argument. */
	for (size_t i = 1; i < n; i++) {
		struct gt_picker_slot tmp = slots[i];
		size_t j = i;
		while (j > 0 && row_cmp(&slots[j - 1].row, &tmp.row, key) > 0) {
			slots[j] = slots[j - 1];
			j--;
		}
		slots[j] = tmp;
	}
}

void gt_picker_move(struct gt_picker *p, long delta)
{
	if (p->count == 0) {
		p->selected = 0;
		return;
	}
	long s = (long)p->selected + delta;
	if (s < 0)
		s = 0;
	if (s >= (long)p->count)
		s = (long)p->count - 1;
	p->selected = (size_t)s;
}

pid_t gt_picker_selected_pid(const struct gt_picker *p)
{
	return p->selected < p->count ? p->slots[p->selected].row.pid : 0;
}
