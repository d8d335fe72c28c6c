#include "record/record_reader.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/clock.h"
#include "base/sanitize.h"
#include "model/derive.h"
#include "record/record_format.h"
#include "record/record_lines.h"

/* parse_named writes each entry's name at the start of its struct. */
_Static_assert(offsetof(struct gt_generation, name) == 0, "a generation starts with its name");
_Static_assert(offsetof(struct gt_collector_stat, name) == 0, "a collector starts with its name");

/* The distinct static strings a recording may name (alloc_bound_reason,
 * opcount_name, ...): gctop has a dozen; a file naming more is not its own. */
#define RECORD_STRINGS_MAX 32
#define RECORD_STRING_LEN 256

struct gt_record_reader {
	struct gt_record_lines lines;     /* the input, line by line */
	uint64_t deadline_ns;             /* gt_record_set_deadline's, or 0 */
	uint64_t samples;
	struct json_tokener *tok;
	struct gt_target_info info;
	int64_t version;                  /* the header's format version */
	struct gt_sample last;            /* the pause log carries over */
	bool have_last;
	struct gt_alloc_snapshot alloc;
	struct gt_alloc_stacks *stacks;   /* allocated at the first sample with stacks */
	bool have_stacks;                 /* the last sample brought stacks */
	unsigned n_strings;
	char strings[RECORD_STRINGS_MAX][RECORD_STRING_LEN];
};

/* One sentence naming the file and line; returns -1. */
__attribute__((format(printf, 3, 4)))
static int bad(struct gt_record_reader *r, struct gt_error *err, const char *fmt, ...)
{
	char what[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return gt_record_lines_bad(&r->lines, err, what);
}

/* ---- values ---- */

/* key of o: absent or null leaves *v invalid; else a whole number >= 0. */
static int get_u64(struct gt_record_reader *r, struct json_object *o, const char *key, struct gt_u64 *v,
		   struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	v->valid = false;
	v->value = 0;
	if (!x)
		return 0;
	if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 0)
		return bad(r, err, "\"%s\" is not a whole number of 0 or more", key);
	gt_u64_set(v, json_object_get_uint64(x));
	return 0;
}

static int req_u64(struct gt_record_reader *r, struct json_object *o, const char *key, uint64_t *out,
		   struct gt_error *err)
{
	struct gt_u64 v;
	if (get_u64(r, o, key, &v, err) != 0)
		return -1;
	if (!v.valid)
		return bad(r, err, "\"%s\" is missing", key);
	*out = v.value;
	return 0;
}

/* A whole number in lo..hi. */
static int req_range(struct gt_record_reader *r, struct json_object *o, const char *key, int64_t lo, int64_t hi,
		     int64_t *out, struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	if (!x || !json_object_is_type(x, json_type_int))
		return bad(r, err, "\"%s\" is missing or not a whole number", key);
	int64_t v = json_object_get_int64(x);
	if (v < lo || v > hi)
		return bad(r, err, "\"%s\" is out of range", key);
	*out = v;
	return 0;
}

/* A string (absent: ""), shorter than size, without NUL bytes; cleaned
 * like every string from outside (base/sanitize.h), so a hostile recording
 * reaches neither the terminal nor --json with control bytes. */
static int get_text(struct gt_record_reader *r, struct json_object *o, const char *key, char *dst, size_t size,
		    struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	dst[0] = '\0';
	if (!x)
		return 0;
	if (!json_object_is_type(x, json_type_string))
		return bad(r, err, "\"%s\" is not a string", key);
	const char *s = json_object_get_string(x);
	size_t n = (size_t)json_object_get_string_len(x);
	if (n >= size || strlen(s) != n)
		return bad(r, err, "\"%s\" is longer than gctop writes or holds a NUL byte", key);
	gt_sanitize(dst, size, s, GT_SANITIZE_UTF8);
	return 0;
}

/* key of o: absent or null leaves *v invalid; else a number in 0..hi. */
static int get_f64_in(struct gt_record_reader *r, struct json_object *o, const char *key, double hi,
		      struct gt_f64 *v, struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	v->valid = false;
	v->value = 0;
	if (!x)
		return 0;
	double d = json_object_get_double(x);
	if (!(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)) || !isfinite(d) ||
	    d < 0 || d > hi)
		return bad(r, err, "\"%s\" is not a number from 0 to %g", key, hi);
	gt_f64_set(v, d);
	return 0;
}

static int get_bool(struct gt_record_reader *r, struct json_object *o, const char *key, bool *out,
		    struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	*out = false;
	if (!x)
		return 0;
	if (!json_object_is_type(x, json_type_boolean))
		return bad(r, err, "\"%s\" is not true or false", key);
	*out = json_object_get_boolean(x);
	return 0;
}

/* An enumeration by name. */
static int get_enum(struct gt_record_reader *r, struct json_object *o, const char *key, enum gt_record_enum e,
		    int *out, struct gt_error *err)
{
	char name[64];
	if (get_text(r, o, key, name, sizeof(name), err) != 0)
		return -1;
	*out = gt_record_enum_from(e, name);
	if (*out < 0)
		return bad(r, err, "\"%s\" names nothing gctop knows", key);
	return 0;
}

static int get_u64_fields(struct gt_record_reader *r, struct json_object *o, void *base,
			  const struct gt_record_fields *t, struct gt_error *err)
{
	for (size_t i = 0; i < t->n; i++)
		if (get_u64(r, o, t->f[i].key, (struct gt_u64 *)((char *)base + t->f[i].offset), err) != 0)
			return -1;
	return 0;
}

/* An array of at most max entries under key (absent: none). */
static int get_array(struct gt_record_reader *r, struct json_object *o, const char *key, size_t max,
		     struct json_object **out, size_t *n, struct gt_error *err)
{
	*out = json_object_object_get(o, key);
	*n = 0;
	if (!*out)
		return 0;
	if (!json_object_is_type(*out, json_type_array))
		return bad(r, err, "\"%s\" is not a list", key);
	*n = json_object_array_length(*out);
	if (*n > max)
		return bad(r, err, "\"%s\" has more entries than gctop writes", key);
	return 0;
}

static int expect_object(struct gt_record_reader *r, struct json_object *x, const char *what, struct gt_error *err)
{
	if (!json_object_is_type(x, json_type_object))
		return bad(r, err, "%s is not an object", what);
	return 0;
}

/* A static string of the sample, kept once in the reader (NULL stays NULL). */
static int get_static(struct gt_record_reader *r, struct json_object *o, const char *key, const char **out,
		      struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key);
	*out = NULL;
	if (!x)
		return 0;
	char s[RECORD_STRING_LEN];
	if (get_text(r, o, key, s, sizeof(s), err) != 0)
		return -1;
	for (unsigned i = 0; i < r->n_strings; i++)
		if (strcmp(r->strings[i], s) == 0) {
			*out = r->strings[i];
			return 0;
		}
	if (r->n_strings == RECORD_STRINGS_MAX)
		return bad(r, err, "more distinct texts than gctop writes");
	memcpy(r->strings[r->n_strings], s, sizeof(s));
	*out = r->strings[r->n_strings++];
	return 0;
}

/* ---- lines ---- */

static int parse_info(struct gt_record_reader *r, struct json_object *o, struct gt_error *err)
{
	struct json_object *i = json_object_object_get(o, "info");
	if (!i || expect_object(r, i, "\"info\"", err) != 0)
		return i ? -1 : bad(r, err, "\"info\" is missing");
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	int64_t pid, nspid, cgv;
	int runtime;
	if (req_range(r, i, "pid", 0, INT_MAX, &pid, err) != 0 || req_range(r, i, "nspid", 0, INT_MAX, &nspid, err) != 0 ||
	    req_range(r, i, "cgroup_version", 0, 2, &cgv, err) != 0 ||
	    get_enum(r, i, "runtime", GT_RECORD_RUNTIME, &runtime, err) != 0)
		return -1;
	info.pid = (pid_t)pid;
	info.nspid = (pid_t)nspid;
	info.cgroup_version = (int)cgv;
	info.runtime = gt_record_runtime(runtime);
	for (size_t k = 0; k < gt_record_info_text_count; k++) {
		const struct gt_record_text_field *f = &gt_record_info_text[k];
		if (get_text(r, i, f->key, (char *)&info + f->offset, f->size, err) != 0)
			return -1;
	}
	if (get_u64_fields(r, i, &info, &gt_record_info_u64, err) != 0)
		return -1;
	r->info = info;
	return 0;
}

static int parse_header(struct gt_record_reader *r, struct json_object *o, struct gt_error *err)
{
	char type[16], format[32];
	if (get_text(r, o, "type", type, sizeof(type), err) != 0 || get_text(r, o, "format", format, sizeof(format), err) != 0)
		return -1;
	if (strcmp(type, "header") != 0 || strcmp(format, GT_RECORD_FORMAT) != 0)
		return bad(r, err, "the first line is not the header of a gctop recording (gctop -w writes them)");
	int64_t version;
	if (req_range(r, o, "version", 1, INT_MAX, &version, err) != 0)
		return -1;
	if (version > GT_RECORD_VERSION)
		return bad(r, err, "written by a newer gctop (format version %lld; this gctop reads %d)", (long long)version,
			   GT_RECORD_VERSION);
	r->version = version;
	return parse_info(r, o, err);
}

/* key's list into n entries of size bytes at base, each a name (a char
 * array of name_size first in the struct) and its counters. */
static int parse_named(struct gt_record_reader *r, struct json_object *o, const char *key, void *base, size_t size,
		       size_t max, size_t name_size, const struct gt_record_fields *t, unsigned *count,
		       struct gt_error *err)
{
	struct json_object *a;
	size_t n;
	if (get_array(r, o, key, max, &a, &n, err) != 0)
		return -1;
	for (size_t k = 0; k < n; k++) {
		struct json_object *e = json_object_array_get_idx(a, k);
		char *entry = (char *)base + k * size;
		if (expect_object(r, e, key, err) != 0 || get_text(r, e, "name", entry, name_size, err) != 0 ||
		    get_u64_fields(r, e, entry, t, err) != 0)
			return -1;
	}
	*count = (unsigned)n;
	return 0;
}

static int parse_generations(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			     struct gt_error *err)
{
	if (parse_named(r, o, "generations", s->generations, sizeof(s->generations[0]), GT_MAX_GENERATIONS,
			sizeof(s->generations[0].name), &gt_record_generation_u64, &s->n_generations, err) != 0)
		return -1;
	return parse_named(r, o, "collectors", s->collectors, sizeof(s->collectors[0]), GT_MAX_COLLECTORS,
			   sizeof(s->collectors[0].name), &gt_record_collector_u64, &s->n_collectors, err);
}

/* Collections by cause; absent in a recording made before they were
 * written, and then n/a. */
static int parse_causes(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			struct gt_error *err)
{
	struct json_object *c = json_object_object_get(o, "causes");
	if (!c)
		return 0;
	if (expect_object(r, c, "\"causes\"", err) != 0)
		return -1;
	return get_u64_fields(r, c, &s->causes, &gt_record_causes_u64, err);
}

/* A log of the line, key: {count, new[]}: 1 with its count and new
 * entries (at most ring, and no more than count: `noun`), 0 when the line
 * has none (an older recording: n/a), -1 with err. */
static int parse_log(struct gt_record_reader *r, struct json_object *o, const char *key, const char *noun,
		     size_t ring, uint64_t *count, struct json_object **a, size_t *n, struct gt_error *err)
{
	struct json_object *l = json_object_object_get(o, key);
	if (!l)
		return 0;
	char what[32];
	snprintf(what, sizeof(what), "\"%s\"", key);
	*count = 0;
	if (expect_object(r, l, what, err) != 0 || req_u64(r, l, "count", count, err) != 0 ||
	    get_array(r, l, "new", ring, a, n, err) != 0)
		return -1;
	if (*n > *count)
		return bad(r, err, "%s has more new %s than its count", what, noun);
	return 1;
}

/* The log as of this sample: the last one's, with the new pauses put in. */
static int parse_pause_log(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			   struct gt_error *err)
{
	struct json_object *a;
	size_t n;
	uint64_t count;
	int rc = parse_log(r, o, "pause_log", "pauses", GT_PAUSE_RING, &count, &a, &n, err);
	if (rc <= 0)
		return rc;
	if (r->have_last && r->last.pause_log.valid && r->last.pause_log.count <= count)
		memcpy(s->pause_log.ns, r->last.pause_log.ns, sizeof(s->pause_log.ns));
	s->pause_log.valid = true;
	s->pause_log.count = count;
	for (size_t i = 0; i < n; i++) {
		struct json_object *x = json_object_array_get_idx(a, i);
		if (!json_object_is_type(x, json_type_int) || json_object_get_int64(x) < 0)
			return bad(r, err, "a pause is not a whole number of nanoseconds");
		s->pause_log.ns[(count - n + i) % GT_PAUSE_RING] = json_object_get_uint64(x);
	}
	return 0;
}

static int parse_live_point(struct gt_record_reader *r, struct json_object *x, struct gt_live_point *p,
			    struct gt_error *err)
{
	if (expect_object(r, x, "a live-set point", err) != 0 || req_u64(r, x, "bytes", &p->bytes, err) != 0 ||
	    req_u64(r, x, "at_ns", &p->at_ns, err) != 0)
		return -1;
	return get_static(r, x, "kind", &p->kind, err);
}

/* The live-set log as of this sample: the last one's, with the new points
 * put in; absent in a recording made before it was written (n/a, and the
 * why says the recording, not the collector, lacks them). A collector
 * without points writes "live_log": null and its own live_unavailable. */
static int parse_live_log(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			  struct gt_error *err)
{
	if (!json_object_object_get_ex(o, "live_log", NULL)) {
		if (!s->live_unavailable)
			s->live_unavailable = "the recording holds no live-set points";
		return 0;
	}
	struct json_object *a;
	size_t n;
	uint64_t count;
	int rc = parse_log(r, o, "live_log", "points", GT_LIVE_RING, &count, &a, &n, err);
	if (rc <= 0)
		return rc;
	if (r->have_last && r->last.live_log.valid && r->last.live_log.count <= count)
		memcpy(s->live_log.points, r->last.live_log.points, sizeof(s->live_log.points));
	s->live_log.valid = true;
	s->live_log.count = count;
	for (size_t i = 0; i < n; i++)
		if (parse_live_point(r, json_object_array_get_idx(a, i), &s->live_log.points[(count - n + i) % GT_LIVE_RING],
				     err) != 0)
			return -1;
	return 0;
}

static int parse_alloc_at(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			  struct gt_error *err)
{
	struct json_object *a = json_object_object_get(o, "alloc_at");
	if (!a)
		return 0;
	if (expect_object(r, a, "\"alloc_at\"", err) != 0 || req_u64(r, a, "ns", &s->alloc_at.ns, err) != 0 ||
	    req_u64(r, a, "prev_ns", &s->alloc_at.prev_ns, err) != 0 ||
	    req_u64(r, a, "prev_total", &s->alloc_at.prev_total, err) != 0)
		return -1;
	s->alloc_at.valid = true;
	return 0;
}

static int parse_pause_at(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			  struct gt_error *err)
{
	struct json_object *a = json_object_object_get(o, "pause_at");
	if (!a)
		return 0;
	if (expect_object(r, a, "\"pause_at\"", err) != 0)
		return -1;
	/* no figures yet, only the moment they would be as of */
	if (!json_object_object_get(a, "prev_ns") && json_object_object_get(a, "ns"))
		return req_u64(r, a, "ns", &s->pause_at.ns, err);
	if (req_u64(r, a, "prev_ns", &s->pause_at.prev_ns, err) != 0 ||
	    req_u64(r, a, "total", &s->pause_at.total, err) != 0 ||
	    req_u64(r, a, "prev_total", &s->pause_at.prev_total, err) != 0)
		return -1;
	/* recordings before the pause counter have no "ns": the sample's moment */
	if (json_object_object_get(a, "ns") && req_u64(r, a, "ns", &s->pause_at.ns, err) != 0)
		return -1;
	s->pause_at.valid = true;
	return 0;
}

static int parse_alloc_table(struct gt_record_reader *r, struct json_object *o, const char *key,
			     struct gt_alloc_table *t, struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, key), *a;
	size_t n;
	if (!x)
		return bad(r, err, "\"%s\" is missing", key);
	if (expect_object(r, x, key, err) != 0 || get_bool(r, x, "complete", &t->complete, err) != 0 ||
	    get_array(r, x, "sites", GT_ALLOC_SITES_MAX, &a, &n, err) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);
		struct gt_alloc_site *site = &t->sites[i];
		char heap[16] = "";
		if (expect_object(r, e, "a site", err) != 0 || get_text(r, e, "name", site->name, sizeof(site->name), err) != 0 ||
		    req_u64(r, e, "bytes", &site->bytes, err) != 0 || req_u64(r, e, "count", &site->count, err) != 0)
			return -1;
		struct json_object *h = json_object_object_get(e, "heap");
		if (h && get_text(r, e, "heap", heap, sizeof(heap), err) != 0)
			return -1;
		int v = h ? gt_record_enum_from(GT_RECORD_HEAP, heap) : GT_ALLOC_HEAP_UNKNOWN;
		if (v < 0)
			return bad(r, err, "a site's \"heap\" names nothing gctop knows");
		site->heap = (enum gt_alloc_heap)v;
	}
	t->n = (unsigned)n;
	return 0;
}

static int parse_allocators(struct gt_record_reader *r, struct json_object *o,
			    const struct gt_alloc_snapshot **out, struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, "allocators");
	*out = NULL;
	if (!x)
		return 0;
	struct gt_alloc_snapshot *a = &r->alloc;
	memset(a, 0, sizeof(*a));
	int state;
	if (expect_object(r, x, "\"allocators\"", err) != 0 || req_u64(r, x, "mono_ns", &a->mono_ns, err) != 0 ||
	    req_u64(r, x, "generation", &a->generation, err) != 0 ||
	    get_text(r, x, "source", a->source, sizeof(a->source), err) != 0 ||
	    get_enum(r, x, "state", GT_RECORD_SAMPLER_STATE, &state, err) != 0 ||
	    get_text(r, x, "message", a->message, sizeof(a->message), err) != 0 ||
	    req_u64(r, x, "samples", &a->samples, err) != 0 || req_u64(r, x, "est_bytes", &a->est_bytes, err) != 0 ||
	    req_u64(r, x, "dropped", &a->dropped, err) != 0 ||
	    req_u64(r, x, "interval_bytes", &a->interval_bytes, err) != 0 ||
	    get_u64(r, x, "exact_total", &a->exact_total, err) != 0 ||
	    get_f64_in(r, x, "sampled_share", 1, &a->sampled_share, err) != 0 ||
	    parse_alloc_table(r, x, "by_frame", &a->by_frame, err) != 0 ||
	    parse_alloc_table(r, x, "by_type", &a->by_type, err) != 0)
		return -1;
	a->state = (enum gt_sampler_state)state;
	*out = a;
	return 0;
}

/* One recorded stack: frames are indexes into the line's names, whose
 * pool offsets are off[0..n_names). */
static int parse_stack(struct gt_record_reader *r, struct json_object *e, const uint32_t *off, size_t n_names,
		       struct gt_alloc_stack *st, struct gt_error *err)
{
	struct json_object *a;
	size_t n;
	if (expect_object(r, e, "a stack", err) != 0 || req_u64(r, e, "bytes", &st->bytes, err) != 0 ||
	    req_u64(r, e, "count", &st->count, err) != 0 ||
	    get_array(r, e, "frames", GT_ALLOC_STACK_FRAMES, &a, &n, err) != 0)
		return -1;
	for (size_t f = 0; f < n; f++) {
		struct json_object *x = json_object_array_get_idx(a, f);
		int64_t i = json_object_is_type(x, json_type_int) ? json_object_get_int64(x) : -1;
		if (i < 0 || (uint64_t)i >= n_names)
			return bad(r, err, "a stack's frame names no entry of \"names\"");
		st->frames[f] = off[i];
	}
	st->n_frames = (unsigned)n;
	return 0;
}

static int parse_stack_site(struct gt_record_reader *r, struct json_object *e, const uint32_t *off, size_t n_names,
			    struct gt_alloc_site_stacks *s, struct gt_error *err)
{
	struct json_object *a;
	size_t n;
	memset(s, 0, sizeof(*s));
	if (expect_object(r, e, "a site's stacks", err) != 0 || get_text(r, e, "site", s->site, sizeof(s->site), err) != 0 ||
	    req_u64(r, e, "bytes", &s->bytes, err) != 0 || req_u64(r, e, "distinct", &s->distinct, err) != 0 ||
	    req_u64(r, e, "dropped", &s->dropped, err) != 0 ||
	    get_array(r, e, "stacks", GT_ALLOC_STACKS_TOP, &a, &n, err) != 0)
		return -1;
	for (size_t k = 0; k < n; k++)
		if (parse_stack(r, json_object_array_get_idx(a, k), off, n_names, &s->stacks[k], err) != 0)
			return -1;
	s->n = (unsigned)n;
	return 0;
}

/* "alloc_stacks" (record/record_writer.c): the names once, then the sites. */
static int parse_stacks(struct gt_record_reader *r, struct json_object *o, struct gt_error *err)
{
	struct json_object *x = json_object_object_get(o, "alloc_stacks"), *names, *sites;
	size_t nn, ns;
	r->have_stacks = false;
	if (!x)
		return 0;
	if (!r->stacks && !(r->stacks = malloc(sizeof(*r->stacks))))
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	gt_alloc_stacks_clear(r->stacks);
	if (expect_object(r, x, "\"alloc_stacks\"", err) != 0 ||
	    get_array(r, x, "names", GT_RECORD_STACK_NAMES_MAX, &names, &nn, err) != 0 ||
	    get_array(r, x, "sites", GT_ALLOC_SITES_MAX, &sites, &ns, err) != 0)
		return -1;
	uint32_t *off = malloc((nn ? nn : 1) * sizeof(*off));
	if (!off)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	int rc = 0;
	for (size_t i = 0; i < nn && rc == 0; i++) {
		struct json_object *e = json_object_array_get_idx(names, i);
		if (!json_object_is_type(e, json_type_string))
			rc = bad(r, err, "a name of \"alloc_stacks\" is not a string");
		else
			off[i] = gt_alloc_stacks_intern(r->stacks, json_object_get_string(e));
	}
	for (size_t i = 0; i < ns && rc == 0; i++)
		rc = parse_stack_site(r, json_object_array_get_idx(sites, i), off, nn, &r->stacks->sites[i], err);
	free(off);
	if (rc != 0)
		return -1;
	r->stacks->n_sites = (unsigned)ns;
	r->have_stacks = true;
	return 0;
}

/* The sample's enumerations, flags and single values. */
static int parse_scalars(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s, struct gt_error *err)
{
	int64_t wall, pid, window;
	int state, source, since, csince;
	if (req_u64(r, o, "mono_ns", &s->mono_ns, err) != 0 ||
	    req_range(r, o, "wall_ms", INT64_MIN, INT64_MAX, &wall, err) != 0 ||
	    req_range(r, o, "pid", 0, INT_MAX, &pid, err) != 0 ||
	    req_range(r, o, "agent_pause_window", 0, UINT_MAX, &window, err) != 0 ||
	    get_enum(r, o, "state", GT_RECORD_STATE, &state, err) != 0 ||
	    get_enum(r, o, "alloc_source", GT_RECORD_ALLOC_SOURCE, &source, err) != 0 ||
	    get_enum(r, o, "alloc_since", GT_RECORD_ALLOC_SINCE, &since, err) != 0 ||
	    get_enum(r, o, "collections_since", GT_RECORD_ALLOC_SINCE, &csince, err) != 0 ||
	    get_text(r, o, "last_gc_cause", s->last_gc_cause, sizeof(s->last_gc_cause), err) != 0 ||
	    get_bool(r, o, "gc_in_progress", &s->gc_in_progress, err) != 0 ||
	    get_bool(r, o, "memory_pressure_system_wide", &s->memory_pressure_system_wide, err) != 0)
		return -1;
	s->wall_ms = wall;
	s->pid = (pid_t)pid;
	s->agent_pause_window = (unsigned)window;
	s->state = (enum gt_target_state)state;
	s->alloc_source = (enum gt_alloc_source)source;
	s->alloc_since = (enum gt_alloc_since)since;
	s->collections_since = (enum gt_alloc_since)csince;
	return get_f64_in(r, o, "memory_pressure_avg10", 100, &s->memory_pressure_avg10, err);
}

/* Format version 1 held the collections per generation of a runtime whose
 * collections condemn the younger generations too (model/runtime.h's
 * condemned_generations: .NET's GC.CollectionCount, where a gen2 GC counts
 * in gen0's and gen1's too) as inclusive counts, and each collection
 * counted once (model/sample.h) is a generation's count less the next
 * older one's. */
static void v1_inclusive_collections(struct gt_sample *s, unsigned condemned)
{
	unsigned n = s->n_generations < condemned ? s->n_generations : condemned;
	for (unsigned i = 0; i < n; i++)
		s->generations[i].collections_inclusive = s->generations[i].collections;
	for (unsigned i = 0; i + 1 < n; i++)
		s->generations[i].collections =
			gt_u64_delta(s->generations[i + 1].collections_inclusive, s->generations[i].collections_inclusive);
}

static int parse_sample(struct gt_record_reader *r, struct json_object *o, struct gt_sample *s,
			const struct gt_alloc_snapshot **alloc, struct gt_error *err)
{
	memset(s, 0, sizeof(*s));
	if (parse_scalars(r, o, s, err) != 0 ||
	    get_u64_fields(r, o, s, &gt_record_sample_u64, err) != 0)
		return -1;
	for (size_t i = 0; i < gt_record_sample_strings.n; i++) {
		const struct gt_record_field *f = &gt_record_sample_strings.f[i];
		if (get_static(r, o, f->key, (const char **)((char *)s + f->offset), err) != 0)
			return -1;
	}
	if (parse_alloc_at(r, o, s, err) != 0 || parse_pause_at(r, o, s, err) != 0 ||
	    parse_generations(r, o, s, err) != 0 || parse_causes(r, o, s, err) != 0 || parse_pause_log(r, o, s, err) != 0 ||
	    parse_live_log(r, o, s, err) != 0 ||
	    parse_allocators(r, o, alloc, err) != 0 || parse_stacks(r, o, err) != 0)
		return -1;
	if (r->version < 2 && r->info.runtime)
		v1_inclusive_collections(s, r->info.runtime->condemned_generations);
	/* derive divides by the time between samples */
	if (r->have_last && s->mono_ns <= r->last.mono_ns)
		return bad(r, err, "a sample is not later than the one before it");
	if (++r->samples > GT_RECORD_SAMPLES_MAX)
		return bad(r, err, "more than %d samples", GT_RECORD_SAMPLES_MAX);
	r->last = *s;
	r->have_last = true;
	return 0;
}

/* The caller's deadline has passed, and a line was read since line_no was
 * first (so every call gets on). */
static bool past_deadline(const struct gt_record_reader *r, uint64_t first)
{
	return r->deadline_ns && r->lines.line_no > first && gt_mono_ns() >= r->deadline_ns;
}

/* The next line as a JSON object (the caller puts it): 1, 0 at the end,
 * GT_RECORD_LATER past the deadline, -1. first: the line number when the
 * caller's call began. */
static int next_object(struct gt_record_reader *r, struct json_object **out, uint64_t first, struct gt_error *err)
{
	size_t len;
	int rc;
	do {
		if (past_deadline(r, first))
			return GT_RECORD_LATER;
		rc = gt_record_lines_next(&r->lines, &len, err);
	} while (rc == 1 && len == 0);
	if (rc <= 0)
		return rc;
	json_tokener_reset(r->tok);
	struct json_object *o = json_tokener_parse_ex(r->tok, r->lines.line, (int)len);
	if (!o || json_tokener_get_error(r->tok) != json_tokener_success ||
	    json_tokener_get_parse_end(r->tok) != len) {
		json_object_put(o);
		return bad(r, err, "not one JSON value (or nested deeper than %d)", GT_RECORD_DEPTH_MAX);
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return bad(r, err, "not a JSON object");
	}
	*out = o;
	return 1;
}

/* A reader with its tokenizer and nothing to read yet (lines.fd -1). */
static struct gt_record_reader *reader_new(struct gt_error *err)
{
	struct gt_record_reader *r = gt_calloc(sizeof(*r), err);
	if (!r)
		return NULL;
	r->lines.fd = -1;
	r->tok = json_tokener_new_ex(GT_RECORD_DEPTH_MAX);
	if (!r->tok) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		free(r);
		return NULL;
	}
	return r;
}

/* Reads the header; closes r and returns NULL when it is not one. */
static struct gt_record_reader *read_header(struct gt_record_reader *r, struct gt_error *err)
{
	struct json_object *o = NULL;
	int rc = next_object(r, &o, r->lines.line_no, err);
	if (rc == 0) {
		r->lines.line_no = 1;
		rc = r->lines.truncated ? bad(r, err, "the header is cut short") : bad(r, err, "the file is empty");
	}
	if (rc > 0)
		rc = parse_header(r, o, err);
	json_object_put(o);
	if (rc < 0) {
		gt_record_close(r);
		return NULL;
	}
	return r;
}

struct gt_record_reader *gt_record_open_stream(FILE *f, const char *name, struct gt_error *err)
{
	struct gt_record_reader *r = reader_new(err);
	if (!r) {
		fclose(f);
		return NULL;
	}
	if (gt_record_lines_stream(&r->lines, f, name, err) != 0) {
		gt_record_close(r);
		return NULL;
	}
	return read_header(r, err);
}

/* file_only: refuse anything but a regular file before reading a byte. */
static struct gt_record_reader *record_open(const char *path, bool file_only, struct gt_error *err)
{
	struct gt_record_reader *r = reader_new(err);
	if (!r)
		return NULL;
	if (gt_record_lines_open(&r->lines, path, file_only, err) != 0) {
		gt_record_close(r);
		return NULL;
	}
	return read_header(r, err);
}

struct gt_record_reader *gt_record_open(const char *path, struct gt_error *err)
{
	return record_open(path, false, err);
}

struct gt_record_reader *gt_record_open_file(const char *path, struct gt_error *err)
{
	return record_open(path, true, err);
}

void gt_record_close(struct gt_record_reader *r)
{
	if (!r)
		return;
	if (r->tok)
		json_tokener_free(r->tok);
	gt_record_lines_close(&r->lines);
	free(r->stacks);
	free(r);
}

const struct gt_target_info *gt_record_info(const struct gt_record_reader *r)
{
	return &r->info;
}

const struct gt_alloc_stacks *gt_record_stacks(const struct gt_record_reader *r)
{
	return r->have_stacks ? r->stacks : NULL;
}

bool gt_record_truncated(const struct gt_record_reader *r)
{
	return r->lines.truncated;
}

bool gt_record_disk_full(const struct gt_record_reader *r)
{
	return gt_record_lines_disk_full(&r->lines);
}

void gt_record_set_deadline(struct gt_record_reader *r, uint64_t deadline_ns)
{
	r->deadline_ns = deadline_ns;
}

/* One line: 1 a sample, 2 an info line, or -1. */
static int dispatch(struct gt_record_reader *r, struct json_object *o, struct gt_sample *out,
		    const struct gt_alloc_snapshot **alloc, struct gt_error *err)
{
	char type[16];
	if (get_text(r, o, "type", type, sizeof(type), err) != 0)
		return -1;
	if (strcmp(type, "sample") == 0)
		return parse_sample(r, o, out, alloc, err) == 0 ? 1 : -1;
	if (strcmp(type, "info") == 0)
		return parse_info(r, o, err) == 0 ? 2 : -1;
	if (strcmp(type, "header") == 0)
		return bad(r, err, "a second header (two recordings joined into one file?)");
	return bad(r, err, "a line of unknown type \"%s\"", type);
}

int gt_record_next(struct gt_record_reader *r, struct gt_sample *out, const struct gt_alloc_snapshot **alloc,
		   struct gt_error *err)
{
	*alloc = NULL;
	uint64_t first = r->lines.line_no;
	for (;;) {
		struct json_object *o;
		int rc = next_object(r, &o, first, err);
		if (rc != 1)
			return rc;
		rc = dispatch(r, o, out, alloc, err);
		json_object_put(o);
		if (rc != 2)
			return rc;
	}
}
