/* A census of the live objects (model/census.h) for outside readers:
 * gctop --census's text table and its --json object, and the rows the
 * screen's census pane draws. Type names come from the target: every one
 * is sanitised here. Keys and units are in man/gctop.1 (CENSUS). */
#ifndef GCTOP_VIEWS_CENSUS_WRITER_H
#define GCTOP_VIEWS_CENSUS_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "model/census.h"
#include "model/sample.h"

/* How many types the text table shows (the JSON has them all). */
#define GT_CENSUS_TEXT_TOP 40

/* One line on what a census was: "2026-12-03T15:01:02Z: 3181468 objects,
 * 177 MiB; took 1.35 s, the JVM paused 641 ms". */
const char *gt_census_summary(char *buf, size_t len, const struct gt_census *c, const struct gt_target_info *info);

/* A signed byte count, "+1.5 MiB", "-300 B", "0 B". */
const char *gt_census_delta_bytes(char *buf, size_t len, int64_t delta);

/* The text table: the summary, the top GT_CENSUS_TEXT_TOP types by bytes
 * (bytes, count, name), what was left out, and why it is partial. 0, or -1
 * on a write error. */
int gt_census_write_text(FILE *out, const struct gt_census *c, const struct gt_target_info *info);

/* The --json object: pid, runtime, taken_at, took_ms, pause_ms (null: the
 * runtime does not say), partial (why, or null), total_count, total_bytes,
 * types[] {name, count, bytes} by bytes. The caller puts it. */
struct json_object *gt_census_json(const struct gt_census *c, const struct gt_target_info *info);

#endif
