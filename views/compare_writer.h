/* gctop --compare's output: a text table (one column per run, one row per
 * figure, each later run's ratio to the first) or one JSON object. Keys and
 * units: man/gctop.1, COMPARING RUNS. */
#ifndef GCTOP_VIEWS_COMPARE_WRITER_H
#define GCTOP_VIEWS_COMPARE_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "record/compare.h"

int gt_compare_write_text(FILE *out, const struct gt_run *runs, size_t n);
/* {"runs": [...]}; the caller puts it. */
struct json_object *gt_compare_json(const struct gt_run *runs, size_t n);

#endif
