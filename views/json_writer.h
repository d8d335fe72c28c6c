/* The --json output: one object per derived sample (NDJSON), built with json-c.
 * Every key and its unit is documented in man/gctop.1 (JSON OUTPUT). */
#ifndef GCTOP_VIEWS_JSON_WRITER_H
#define GCTOP_VIEWS_JSON_WRITER_H

#include <stdio.h>

#include <json-c/json.h>

#include "model/list.h"
#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/derive.h"

/* The object for one interval; the caller puts it. */
struct json_object *gt_json_sample(const struct gt_target_info *info, const struct gt_derived *d);

/* Adds "top_allocators" to a sample's object: null when a is NULL
 * (sampling off), else source, state, samples, window_s, by_frame and
 * by_type (at most GT_JSON_ALLOCATORS_MAX sites each, largest first). */
#define GT_JSON_ALLOCATORS_MAX 20
void gt_json_add_allocators(struct json_object *sample, const struct gt_alloc_derived *a);
/* The same with each by_frame site's "stacks": [{"frames": [...] innermost
 * first, "share" of the site's sampled bytes since sampling started,
 * "samples"}], its top GT_ALLOC_STACKS_TOP, with "stacks_distinct" and
 * "stacks_dropped" (samples whose stack gctop had no room for); "stacks"
 * is null where st is NULL (a sampler without stacks) or has no entry. */
void gt_json_add_allocators_stacks(struct json_object *sample, const struct gt_alloc_derived *a,
				   const struct gt_alloc_stacks *st);

/* The object for one --list row; the caller puts it. */
struct json_object *gt_json_list_entry(const struct gt_list_entry *e, int64_t now_ms);

/* Writes obj as one line and flushes. Returns 0, or -1 on a write error (errno set). */
int gt_json_write_line(FILE *out, struct json_object *obj);

#endif
