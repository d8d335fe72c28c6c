#include "record/record_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/safe_create.h"
#include "record/record_format.h"
#include "base/json_text.h"

/* json_named reads each entry's name from the start of its struct. */
_Static_assert(offsetof(struct gt_generation, name) == 0, "a generation starts with its name");
_Static_assert(offsetof(struct gt_collector_stat, name) == 0, "a collector starts with its name");

struct gt_recorder {
	int fd;
	char path[256];
	bool header_written;
	struct gt_target_info info;  /* the facts last written */
	uint64_t pause_next;         /* the first pause of the log not written yet */
	uint64_t live_next;          /* the first live-set point not written yet */
};

static struct json_object *u64_or_null(struct gt_u64 v)
{
	return v.valid ? json_object_new_uint64(v.value) : NULL;
}

static struct json_object *f64_or_null(struct gt_f64 v)
{
	return v.valid && isfinite(v.value) ? json_object_new_double(v.value) : NULL;
}

static void add_u64_fields(struct json_object *o, const void *base, const struct gt_record_fields *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct gt_u64 *v = (const struct gt_u64 *)((const char *)base + t->f[i].offset);
		json_object_object_add(o, t->f[i].key, u64_or_null(*v));
	}
}

struct json_object *gt_record_json_info(const char *type, const struct gt_target_info *info)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string(type));
	if (strcmp(type, "header") == 0) {
		json_object_object_add(o, "format", json_object_new_string(GT_RECORD_FORMAT));
		json_object_object_add(o, "version", json_object_new_int(GT_RECORD_VERSION));
	}
	struct json_object *i = json_object_new_object();
	json_object_object_add(i, "pid", json_object_new_int64(info->pid));
	json_object_object_add(i, "nspid", json_object_new_int64(info->nspid));
	json_object_object_add(i, "runtime", json_object_new_string(gt_runtime_name(info->runtime)));
	for (size_t k = 0; k < gt_record_info_text_count; k++) {
		const char *t = (const char *)info + gt_record_info_text[k].offset;
		json_object_object_add(i, gt_record_info_text[k].key, gt_json_text(t));
	}
	add_u64_fields(i, info, &gt_record_info_u64);
	json_object_object_add(i, "cgroup_version", json_object_new_int(info->cgroup_version));
	json_object_object_add(o, "info", i);
	return o;
}

/* n entries of size bytes from base, each a name (a char array first in
 * the struct) and its counters. */
static struct json_object *json_named(const void *base, size_t size, unsigned n, const struct gt_record_fields *t)
{
	struct json_object *a = json_object_new_array();
	for (unsigned k = 0; k < n; k++) {
		const char *e = (const char *)base + k * size;
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "name", gt_json_text(e));
		add_u64_fields(o, e, t);
		json_object_array_add(a, o);
	}
	return a;
}

/* A log's object for a line: its count, and in *first the number of the
 * first entry to write, those from `from` on (the newest `ring` at most);
 * the caller adds them as "new", from which the reader rebuilds the log. */
static struct json_object *log_object(uint64_t count, uint64_t from, uint64_t ring, uint64_t *first)
{
	*first = from <= count ? from : 0;
	if (count - *first > ring)
		*first = count - ring;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "count", json_object_new_uint64(count));
	return o;
}

/* The pauses from pause_from on, each its length in ns. */
static struct json_object *json_pause_log(const struct gt_sample *s, uint64_t pause_from)
{
	if (!s->pause_log.valid)
		return NULL;
	uint64_t k;
	struct json_object *o = log_object(s->pause_log.count, pause_from, GT_PAUSE_RING, &k);
	struct json_object *a = json_object_new_array();
	for (; k < s->pause_log.count; k++)
		json_object_array_add(a, json_object_new_uint64(s->pause_log.ns[k % GT_PAUSE_RING]));
	json_object_object_add(o, "new", a);
	return o;
}

/* The live-set points from live_from on, each {bytes, at_ns, kind}. */
static struct json_object *json_live_log(const struct gt_sample *s, uint64_t live_from)
{
	if (!s->live_log.valid)
		return NULL;
	uint64_t k;
	struct json_object *o = log_object(s->live_log.count, live_from, GT_LIVE_RING, &k);
	struct json_object *a = json_object_new_array();
	for (; k < s->live_log.count; k++) {
		const struct gt_live_point *p = &s->live_log.points[k % GT_LIVE_RING];
		struct json_object *x = json_object_new_object();
		json_object_object_add(x, "bytes", json_object_new_uint64(p->bytes));
		json_object_object_add(x, "at_ns", json_object_new_uint64(p->at_ns));
		json_object_object_add(x, "kind", gt_json_text(p->kind));
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "new", a);
	return o;
}

static struct json_object *json_alloc_at(const struct gt_sample *s)
{
	if (!s->alloc_at.valid)
		return NULL;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "ns", json_object_new_uint64(s->alloc_at.ns));
	json_object_object_add(o, "prev_ns", json_object_new_uint64(s->alloc_at.prev_ns));
	json_object_object_add(o, "prev_total", json_object_new_uint64(s->alloc_at.prev_total));
	return o;
}

static struct json_object *json_pause_at(const struct gt_sample *s)
{
	/* no figures yet, but the moment they would be as of: the derive step
	 * compares the next sample's with it (a replay must see it too) */
	if (!s->pause_at.valid && s->pause_at.ns) {
		struct json_object *o = json_object_new_object();
		json_object_object_add(o, "ns", json_object_new_uint64(s->pause_at.ns));
		return o;
	}
	if (!s->pause_at.valid)
		return NULL;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "prev_ns", json_object_new_uint64(s->pause_at.prev_ns));
	json_object_object_add(o, "total", json_object_new_uint64(s->pause_at.total));
	json_object_object_add(o, "prev_total", json_object_new_uint64(s->pause_at.prev_total));
	if (s->pause_at.ns)   /* as of an earlier moment than the sample's */
		json_object_object_add(o, "ns", json_object_new_uint64(s->pause_at.ns));
	return o;
}

static struct json_object *json_alloc_table(const struct gt_alloc_table *t)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "complete", json_object_new_boolean(t->complete));
	struct json_object *a = json_object_new_array();
	for (unsigned i = 0; i < t->n && i < GT_ALLOC_SITES_MAX; i++) {
		const struct gt_alloc_site *site = &t->sites[i];
		struct json_object *e = json_object_new_object();
		json_object_object_add(e, "name", gt_json_text(site->name));
		json_object_object_add(e, "heap", gt_json_text(gt_alloc_heap_name(site->heap)));
		json_object_object_add(e, "bytes", json_object_new_uint64(site->bytes));
		json_object_object_add(e, "count", json_object_new_uint64(site->count));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "sites", a);
	return o;
}

static struct json_object *json_alloc_snapshot(const struct gt_alloc_snapshot *a)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "mono_ns", json_object_new_uint64(a->mono_ns));
	json_object_object_add(o, "generation", json_object_new_uint64(a->generation));
	json_object_object_add(o, "source", gt_json_text(a->source));
	json_object_object_add(o, "state", json_object_new_string(gt_sampler_state_name(a->state)));
	json_object_object_add(o, "message", gt_json_text(a->message));
	json_object_object_add(o, "samples", json_object_new_uint64(a->samples));
	json_object_object_add(o, "est_bytes", json_object_new_uint64(a->est_bytes));
	json_object_object_add(o, "dropped", json_object_new_uint64(a->dropped));
	json_object_object_add(o, "interval_bytes", json_object_new_uint64(a->interval_bytes));
	json_object_object_add(o, "exact_total", u64_or_null(a->exact_total));
	json_object_object_add(o, "sampled_share", f64_or_null(a->sampled_share));
	json_object_object_add(o, "by_frame", json_alloc_table(&a->by_frame));
	json_object_object_add(o, "by_type", json_alloc_table(&a->by_type));
	return o;
}

/* Stack frames as indexes into a list of names, each name once. */
struct names {
	struct json_object *list;
	int32_t *index;        /* by pool offset: the name's index, -1 not yet listed */
	int32_t n;
};

static struct json_object *json_stack_site(const struct gt_alloc_stacks *st, const struct gt_alloc_site_stacks *s,
					   struct names *nm)
{
	struct json_object *o = json_object_new_object(), *stacks = json_object_new_array();
	json_object_object_add(o, "site", gt_json_text(s->site));
	json_object_object_add(o, "bytes", json_object_new_uint64(s->bytes));
	json_object_object_add(o, "distinct", json_object_new_uint64(s->distinct));
	json_object_object_add(o, "dropped", json_object_new_uint64(s->dropped));
	for (unsigned k = 0; k < s->n && k < GT_ALLOC_STACKS_TOP; k++) {
		const struct gt_alloc_stack *x = &s->stacks[k];
		struct json_object *e = json_object_new_object(), *frames = json_object_new_array();
		for (unsigned f = 0; f < x->n_frames && f < GT_ALLOC_STACK_FRAMES; f++) {
			uint32_t off = x->frames[f] < st->pool_used ? x->frames[f] : 0;
			if (nm->index[off] < 0) {
				nm->index[off] = nm->n++;
				json_object_array_add(nm->list, gt_json_text(gt_alloc_stacks_name(st, off)));
			}
			json_object_array_add(frames, json_object_new_int(nm->index[off]));
		}
		json_object_object_add(e, "frames", frames);
		json_object_object_add(e, "bytes", json_object_new_uint64(x->bytes));
		json_object_object_add(e, "count", json_object_new_uint64(x->count));
		json_object_array_add(stacks, e);
	}
	json_object_object_add(o, "stacks", stacks);
	return o;
}

/* The stacks behind the window's sites (the rows a replay shows), or NULL
 * when there are none or they would take more than half a line a reader
 * accepts (names a hostile target made long). */
static struct json_object *json_alloc_stacks(const struct gt_alloc_stacks *st, const struct gt_alloc_derived *d)
{
	if (!st || !d || !d->valid || st->pool_used == 0)
		return NULL;
	struct names nm = { json_object_new_array(), malloc(st->pool_used * sizeof(int32_t)), 0 };
	struct json_object *o = json_object_new_object(), *sites = json_object_new_array();
	json_object_object_add(o, "names", nm.list);
	json_object_object_add(o, "sites", sites);
	if (!nm.index) {
		json_object_put(o);
		return NULL;
	}
	memset(nm.index, 0xff, st->pool_used * sizeof(int32_t));
	for (unsigned i = 0; i < d->n_frames && i < GT_ALLOC_SITES_MAX; i++) {
		const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, d->by_frame[i].name);
		if (s)
			json_object_array_add(sites, json_stack_site(st, s, &nm));
	}
	free(nm.index);
	size_t len;
	json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
	if (len > GT_RECORD_LINE_MAX / 2) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void add_sample_scalars(struct json_object *o, const struct gt_sample *s)
{
	json_object_object_add(o, "mono_ns", json_object_new_uint64(s->mono_ns));
	json_object_object_add(o, "wall_ms", json_object_new_int64(s->wall_ms));
	json_object_object_add(o, "pid", json_object_new_int64(s->pid));
	json_object_object_add(o, "state", json_object_new_string(gt_record_state_name(s->state)));
	json_object_object_add(o, "alloc_source", json_object_new_string(gt_alloc_source_name(s->alloc_source)));
	json_object_object_add(o, "alloc_since", json_object_new_string(gt_alloc_since_name(s->alloc_since)));
	json_object_object_add(o, "collections_since",
			       json_object_new_string(gt_alloc_since_name(s->collections_since)));
	json_object_object_add(o, "last_gc_cause", gt_json_text(s->last_gc_cause));
	json_object_object_add(o, "gc_in_progress", json_object_new_boolean(s->gc_in_progress));
	json_object_object_add(o, "agent_pause_window", json_object_new_int64(s->agent_pause_window));
	json_object_object_add(o, "memory_pressure_avg10", f64_or_null(s->memory_pressure_avg10));
	json_object_object_add(o, "memory_pressure_system_wide", json_object_new_boolean(s->memory_pressure_system_wide));
}


struct json_object *gt_record_json_sample(const struct gt_sample *s, uint64_t pause_from, uint64_t live_from,
					  const struct gt_alloc_snapshot *alloc)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("sample"));
	add_sample_scalars(o, s);
	add_u64_fields(o, s, &gt_record_sample_u64);
	for (size_t i = 0; i < gt_record_sample_strings.n; i++) {
		const struct gt_record_field *f = &gt_record_sample_strings.f[i];
		json_object_object_add(o, f->key, gt_json_text(*(const char *const *)((const char *)s + f->offset)));
	}
	json_object_object_add(o, "alloc_at", json_alloc_at(s));
	json_object_object_add(o, "pause_at", json_pause_at(s));
	unsigned ng = s->n_generations < GT_MAX_GENERATIONS ? s->n_generations : GT_MAX_GENERATIONS;
	unsigned nc = s->n_collectors < GT_MAX_COLLECTORS ? s->n_collectors : GT_MAX_COLLECTORS;
	json_object_object_add(o, "generations", json_named(s->generations, sizeof(s->generations[0]), ng,
							    &gt_record_generation_u64));
	json_object_object_add(o, "collectors", json_named(s->collectors, sizeof(s->collectors[0]), nc,
							   &gt_record_collector_u64));
	struct json_object *causes = json_object_new_object();
	add_u64_fields(causes, &s->causes, &gt_record_causes_u64);
	json_object_object_add(o, "causes", causes);
	json_object_object_add(o, "pause_log", json_pause_log(s, pause_from));
	json_object_object_add(o, "live_log", json_live_log(s, live_from));
	if (alloc)
		json_object_object_add(o, "allocators", json_alloc_snapshot(alloc));
	return o;
}

/* Why a write failed, in a sentence: a full disk (or quota) said so
 * plainly, with how much of the line it took. */
static int write_failed(struct gt_recorder *r, int e, size_t took, size_t len, struct gt_error *err)
{
	if (e == ENOSPC || e == EDQUOT)
		return gt_fail(err, GT_EXIT_FAILURE,
			       "cannot write the recording %s: the disk is full (%s); it took %zu of the line's %zu bytes, "
			       "and gctop -r skips that partial line",
			       r->path, strerror(e), took, len);
	return gt_fail(err, GT_EXIT_FAILURE, "cannot write the recording %s: %s", r->path, strerror(e));
}

/* The object as one line, in one write(): a reader never sees half a line
 * but the last one of a gctop killed mid-write. A write that took part of
 * it (the disk filled, or a signal came) is followed by one for the rest,
 * whose error says why. */
static int write_line(struct gt_recorder *r, struct json_object *o, struct gt_error *err)
{
	size_t n;
	const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &n);
	char *line = malloc(n + 1);
	if (!line) {
		json_object_put(o);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	memcpy(line, text, n);
	line[n] = '\n';
	json_object_put(o);
	size_t done = 0;
	int saved = 0;
	while (done < n + 1) {
		ssize_t w = write(r->fd, line + done, n + 1 - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* 0 from a regular file: nothing more fits */
			saved = w < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)w;
	}
	free(line);
	return done == n + 1 ? 0 : write_failed(r, saved, done, n + 1, err);
}

struct gt_recorder *gt_recorder_open(const char *path, struct gt_error *err)
{
	struct gt_recorder *r = gt_calloc(sizeof(*r), err);
	if (!r)
		return NULL;
	snprintf(r->path, sizeof(r->path), "%s", path);
	/* O_APPEND: each line lands whole at the end, whatever else writes.
	 * gctop runs as root: the path may have been prepared by another user
	 * (base/safe_create.h). */
	const char *why;
	r->fd = gt_safe_create(path, 0600, O_APPEND, &why);
	if (r->fd < 0) {
		if (why)
			gt_fail(err, GT_EXIT_UNSAFE_OUTPUT, "refusing to write the recording %s: it %s; remove it or "
				"choose another name", path, why);
		else
			gt_fail(err, GT_EXIT_FAILURE, "cannot create the recording %s: %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	return r;
}

int gt_recorder_write(struct gt_recorder *r, const struct gt_session *s, struct gt_error *err)
{
	if (!s->have_prev)
		return 0;
	if (!r->header_written || memcmp(&r->info, &s->info, sizeof(r->info)) != 0) {
		if (write_line(r, gt_record_json_info(r->header_written ? "info" : "header", &s->info), err) != 0)
			return -1;
		r->header_written = true;
		r->info = s->info;
	}
	const struct gt_alloc_snapshot *a =
		s->alloc_fresh && s->alloc_window ? gt_alloc_window_latest(s->alloc_window) : NULL;
	struct json_object *o = gt_record_json_sample(&s->prev, r->pause_next, r->live_next, a);
	struct json_object *st = a ? json_alloc_stacks(s->live.stacks, s->live.alloc) : NULL;
	if (st)
		json_object_object_add(o, "alloc_stacks", st);
	if (write_line(r, o, err) != 0)
		return -1;
	r->pause_next = s->prev.pause_log.valid ? s->prev.pause_log.count : 0;
	r->live_next = s->prev.live_log.valid ? s->prev.live_log.count : 0;
	return 0;
}

void gt_recorder_close(struct gt_recorder *r)
{
	if (!r)
		return;
	close(r->fd);
	free(r);
}
