#include "session/picker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/host/proc.h"
#include "base/clock.h"

/* Opening a JVM that is still starting waits (up to seconds) for its perf
 * data to be ready, and the picker must not freeze meanwhile: a process
 * younger than this is opened on a later refresh ... */
#define PICKER_OPEN_MIN_AGE_MS 3000ull
/* ... and once the opens of one refresh have taken this long, the rest
 * wait for the next one. */
#define PICKER_OPEN_BUDGET_NS 200000000ull

void gt_picker_init(struct gt_picker *p)
{
	memset(p, 0, sizeof(*p));
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
		/* Rows come and go: the tick follows the rows now open. */
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

static void close_slot(struct gt_picker_slot *s)
{
	if (s->session) {
		gt_session_close(s->session);
		free(s->session);
	}
	s->session = NULL;
}

void gt_picker_free(struct gt_picker *p)
{
	for (size_t i = 0; i < p->count; i++)
		close_slot(&p->slots[i]);
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

static struct gt_picker_slot *find_slot(struct gt_picker *p, pid_t pid)
{
	for (size_t i = 0; i < p->count; i++)
		if (p->slots[i].row.pid == pid)
			return &p->slots[i];
	return NULL;
}

static struct gt_picker_slot *add_slot(struct gt_picker *p)
{
	if (p->count == p->capacity) {
		size_t cap = p->capacity ? p->capacity * 2 : 16;
		struct gt_picker_slot *s = realloc(p->slots, cap * sizeof(*s));
		if (!s)
			return NULL;
		p->slots = s;
		p->capacity = cap;
	}
	struct gt_picker_slot *s = &p->slots[p->count++];
	memset(s, 0, sizeof(*s));
	return s;
}

/* Copies as much of src as fits; a long command line is cut, not refused. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void fill_identity(struct gt_picker_row *r, const struct gt_list_entry *e)
{
	r->pid = e->info.pid;
	copy_text(r->user, sizeof(r->user), e->info.user);
	copy_text(r->program, sizeof(r->program), e->info.main_class[0] ? e->info.main_class : e->info.command_line);
	copy_text(r->runtime, sizeof(r->runtime), gt_runtime_name(e->info.runtime));
	copy_text(r->gc, sizeof(r->gc), e->info.gc_name);
}

/* Opens a new row's target unless it is too young or this refresh has
 * spent its budget; then it is tried again on the next refresh. */
static void open_slot(struct gt_picker_slot *s, uint64_t *spent_ns)
{
	uint64_t start_ms;
	if (gt_proc_start_time_ms(s->row.pid, &start_ms) == 0 && (uint64_t)gt_wall_ms() < start_ms + PICKER_OPEN_MIN_AGE_MS) {
		s->row.note = "starting";
		return;
	}
	if (*spent_ns >= PICKER_OPEN_BUDGET_NS) {
		s->row.note = "opening";
		return;
	}
	uint64_t t0 = gt_mono_ns();
	struct gt_error err = { 0 };
	s->open_tried = true;
	s->row.note = NULL;
	s->session = malloc(sizeof(*s->session));
	if (!s->session || gt_session_open(s->session, s->row.pid, &err) != 0) {
		free(s->session);
		s->session = NULL;
		s->row.note = err.code == GT_EXIT_PERMISSION ? "no permission" : "unreadable";
	}
	*spent_ns += gt_mono_ns() - t0;
}

/* Live figures need an open target and two samples; until then the list's
 * own cheap figures (heap, RSS) stand in and the rates say n/a. */
static void sample_slot(struct gt_picker_slot *s, const struct gt_list_entry *e)
{
	struct gt_picker_row *r = &s->row;
	struct gt_f64 none = { 0, false };

	r->alloc_rate_bps = none;
	r->gc_share = none;
	r->heap_used = e->sample.heap_used_bytes;
	r->heap_max = e->sample.heap_max_bytes.valid ? e->sample.heap_max_bytes : e->info.heap_max_bytes;
	r->rss = e->sample.rss_bytes;
	if (!s->session)
		return;
	struct gt_error err = { 0 };
	enum gt_session_step step = gt_session_sample(s->session, &err);
	if (step != GT_SESSION_SAMPLED) {
		r->note = step == GT_SESSION_EXITED ? "exited" : "unreadable";
		close_slot(s);
		return;
	}
	const struct gt_derived *d = &s->session->live.derived;
	const struct gt_sample *cur = &s->session->prev;
	r->alloc_rate_bps = d->alloc_rate_bps;
	r->gc_share = d->pause_share;
	if (cur->heap_used_bytes.valid)
		r->heap_used = cur->heap_used_bytes;
	if (cur->heap_max_bytes.valid)
		r->heap_max = cur->heap_max_bytes;
	if (cur->rss_bytes.valid)
		r->rss = cur->rss_bytes;
}

void gt_picker_refresh(struct gt_picker *p)
{
	struct gt_list list = { 0 };
	pid_t keep = gt_picker_selected_pid(p);
	uint64_t open_spent_ns = 0;

	gt_session_list_all(&list);
	for (size_t i = 0; i < p->count; i++)
		p->slots[i].seen = false;
	for (size_t i = 0; i < list.count; i++) {
		const struct gt_list_entry *e = &list.entries[i];
		struct gt_picker_slot *s = find_slot(p, e->info.pid);
		if (!s) {
			s = add_slot(p);
			if (!s)
				break;
			fill_identity(&s->row, e);
		}
		if (!s->open_tried)
			open_slot(s, &open_spent_ns);
		s->seen = true;
		sample_slot(s, e);
	}
	gt_list_free(&list);

	/* Processes no longer listed have gone. */
	size_t w = 0;
	for (size_t i = 0; i < p->count; i++) {
		if (p->slots[i].seen)
			p->slots[w++] = p->slots[i];
		else
			close_slot(&p->slots[i]);
	}
	p->count = w;
	gt_picker_sort_rows(p->slots, p->count, p->sort);

	p->selected = 0;
	for (size_t i = 0; i < p->count; i++)
		if (p->slots[i].row.pid == keep)
			p->selected = i;
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
	uint64_t best = 0;
	for (size_t i = 0; i < p->count; i++) {
		uint64_t t = p->slots[i].session ? gt_session_poll_interval_ns(p->slots[i].session) : 0;
		if (t && (!best || t < best))
			best = t;
	}
	return best;
}

void gt_picker_poll(struct gt_picker *p, uint64_t now_ns)
{
	for (size_t i = 0; i < p->count; i++)
		if (p->slots[i].session)
			gt_session_events(p->slots[i].session, now_ns);
}

size_t gt_picker_wait_fds(const struct gt_picker *p, int *fds, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < p->count && n < max; i++) {
		int fd = p->slots[i].session ? gt_session_wait_fd(p->slots[i].session) : -1;
		if (fd >= 0)
			fds[n++] = fd;
	}
	return n;
}

void gt_picker_close_sessions(struct gt_picker *p)
{
	for (size_t i = 0; i < p->count; i++) {
		struct gt_picker_slot *s = &p->slots[i];
		close_slot(s);
		s->open_tried = false;
		s->row.note = NULL;
	}
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
