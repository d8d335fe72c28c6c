/* Inside the metrics writer: the families (views/metrics_families.c) write
 * their points through these helpers (views/metrics_emit.c), which put
 * out a family's metadata before its first point, in either format. */
#ifndef GCTOP_VIEWS_METRICS_EMIT_H
#define GCTOP_VIEWS_METRICS_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/pause_hist.h"
#include "views/metrics_writer.h"

/* Room for the labels a family adds to the base ones. */
#define GT_METRICS_EXTRA_LEN 320

enum gt_metrics_type { GT_METRICS_GAUGE, GT_METRICS_COUNTER, GT_METRICS_HISTOGRAM, GT_METRICS_INFO };

struct gt_metrics_family;

/* A target's _created times (when gctop began watching it, when it
 * started), written once a round rather than at every counter. */
#define GT_METRICS_CREATED_CACHE 2
/* The longest label value gctop takes from a target, sanitised. */
#define GT_METRICS_LABEL_VALUE_MAX 255
/* The longest number a point is written with. */
#define GT_METRICS_VALUE_LEN 40
struct gt_metrics_created_cache {
	double v[GT_METRICS_CREATED_CACHE];
	char text[GT_METRICS_CREATED_CACHE][GT_METRICS_VALUE_LEN];
};

/* One family being written for one target. */
struct gt_metrics_emit {
	FILE *out;
	enum gt_metrics_format format;
	const struct gt_metrics_family *fam;
	bool header_done;
	const char *base;            /* the target's pid, runtime and main labels */
	const struct gt_metrics_created_cache *created;  /* the target's, or NULL */
	const struct gt_duration_bounds *durations;      /* the duration histograms' buckets */
};

struct gt_metrics_family {
	const char *name;            /* the OpenMetrics family name (no _total) */
	enum gt_metrics_type type;
	const char *unit;            /* "" when none; the name then has no unit suffix */
	const char *help;
	void (*emit)(struct gt_metrics_emit *e, const struct gt_metrics_target *t);
	/* With emit NULL: a gauge of the struct gt_u64 at this offset in the
	 * sample, for every runtime. */
	size_t sample_field;
};

extern const struct gt_metrics_family gt_metrics_families[];
/* gctop_gc_pause_seconds' le labels, +Inf last (metrics_families.c). */
extern const char *const gt_metrics_pause_le[GT_PAUSE_HIST_BOUNDS + 1];
extern const size_t gt_metrics_family_count;
/* What the classic format appends to a family's name on its samples and
 * its # TYPE: "_total" (counter), "_info" (info) or "". */
const char *gt_metrics_family_suffix(const struct gt_metrics_family *m);

/* Sets extra to key="value" (cleaned, then escaped), or appends
 * ,key="value"; a value that does not fit is cut between whole characters
 * and escapes, its closing quote kept (views/metrics_emit.c). */
void gt_metrics_label(char *extra, size_t size, const char *key, const char *value);
void gt_metrics_label_add(char *extra, size_t size, const char *key, const char *value);

/* name+suffix{base,extra} value; extra may be NULL. */
void gt_metrics_point_u64(struct gt_metrics_emit *e, const char *suffix, const char *extra, uint64_t v);
void gt_metrics_point_f64(struct gt_metrics_emit *e, const char *suffix, const char *extra, double v);

/* Nothing when v is n/a. */
void gt_metrics_gauge(struct gt_metrics_emit *e, const char *extra, struct gt_u64 v);
/* name_total, and name_created (OpenMetrics; created_s <= 0: unknown). */
void gt_metrics_counter(struct gt_metrics_emit *e, const char *extra, struct gt_u64 v, double created_s);
/* A counter of nanoseconds, written in seconds. */
void gt_metrics_counter_ns(struct gt_metrics_emit *e, const char *extra, struct gt_u64 ns, double created_s);
/* The _created of a histogram or counter written point by point. */
void gt_metrics_created(struct gt_metrics_emit *e, const char *extra, double created_s);

/* When a counter that counts from `since` began, seconds since the epoch;
 * 0 when unknown. */
double gt_metrics_since_s(const struct gt_metrics_target *t, enum gt_alloc_since since);

/* The live set's families (views/metrics_live_set.c). */
void gt_metrics_live_set_bytes(struct gt_metrics_emit *e, const struct gt_metrics_target *t);
void gt_metrics_live_set_growth(struct gt_metrics_emit *e, const struct gt_metrics_target *t);
void gt_metrics_live_set_exhaustion(struct gt_metrics_emit *e, const struct gt_metrics_target *t);

#endif
