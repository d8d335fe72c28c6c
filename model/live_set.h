/* The live set: the heap that survives the collections that reach the old
 * generation, its trend and the time until it runs out of room (issue 28).
 *
 * A tracker folds each sample's live log (model/sample.h: a ring of the
 * newest GT_LIVE_RING points with a running count) into its own bounded
 * history: the points of the last GT_LIVE_SET_WINDOW_NS, at most
 * GT_LIVE_SET_POINTS spread over it. The session keeps one tracker per
 * target and puts its figures in the derived sample (gt_derived.live_set),
 * which every front end reads. Reading the live set costs the target
 * nothing: the collectors measure it from what they already read.
 * Pure: no clock (times are the samples' CLOCK_MONOTONIC), no I/O. */
#ifndef GCTOP_MODEL_LIVE_SET_H
#define GCTOP_MODEL_LIVE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sample.h"
#include "model/trend.h"

/* The window: a leak shows over minutes to hours, and 30 minutes of points
 * is what a person watching a dashboard can still relate to. */
#define GT_LIVE_SET_WINDOW_NS (30ull * 60 * 1000000000ull)
/* At most this many points: past it they are thinned evenly over the span
 * watched (the oldest and newest kept), so a collector that reaches the old
 * generation every second keeps the whole window, more sparsely. */
#define GT_LIVE_SET_POINTS 128
/* The growth is n/a with fewer points or a shorter span: below five the
 * 90% interval is the whole range of slopes, and within a minute a warm-up
 * or one batch of work looks like growth. */
#define GT_LIVE_SET_MIN_POINTS 5
#define GT_LIVE_SET_MIN_SPAN_NS (60ull * 1000000000ull)
/* An exhaustion is projected only this many times the span the trend
 * was measured over into the future: a straight line through 30 minutes
 * says little about next week, and nothing about next century. */
#define GT_LIVE_SET_PROJECTION_FACTOR 10
/* Why a figure the target's counters feed is n/a when they cannot be true
 * (the plausibility rules: model/live_set.c, man page "Plausibility"). */
#define GT_LIVE_SET_IMPLAUSIBLE "the target's counters are implausible"
/* The newer half of the points has its own trend when it holds this many. */
#define GT_LIVE_SET_MIN_RECENT 3

/* What the projected exhaustion runs into. */
enum gt_live_limit {
	GT_LIVE_LIMIT_NONE = 0,
	GT_LIVE_LIMIT_HEAP_MAX,   /* the old generation's max, the heap's max or the GC's hard limit,
				   * the least known: room = it - the live set */
	GT_LIVE_LIMIT_CONTAINER,  /* the memory left in the container: room = cgroup limit - the
				   * cgroup's working set (its usage where that is n/a), counting each
				   * byte the live set gains as a byte more the container uses */
};

struct gt_live_set_point {
	uint64_t at_ns;
	uint64_t bytes;
};

struct gt_live_tracker {
	bool started;
	uint64_t next;        /* the live log's count already folded */
	uint64_t missed;      /* points the log's ring dropped before a sample read them */
	uint64_t origin_ns;   /* x = 0 of the trends */
	size_t head, n;       /* ring of points, oldest at head */
	struct gt_live_set_point points[GT_LIVE_SET_POINTS];
	const char *newest_kind;  /* static: what measured the newest point */
	/* The fits of the points held, redone when they change. */
	bool fit_failed;      /* out of memory at the last fit */
	struct gt_trend trend, recent;
	uint64_t max_fall;    /* the deepest fall of the points below an earlier one */
};

/* The figures a view shows; "n/a" fields carry a sentence why. */
struct gt_live_set {
	bool valid;                  /* a live point is held */
	const char *why;             /* !valid: why there is none (static string) */
	uint64_t bytes;              /* the newest point */
	const char *kind;            /* what measured it ("full GC", "gen2", ...) */
	unsigned points;             /* in the window */
	uint64_t missed;             /* points lost since watching began */
	struct gt_f64 span_s;        /* from the oldest point to the newest */
	struct gt_f64 growth_bps;    /* Theil–Sen slope over the window */
	struct gt_f64 growth_low_bps, growth_high_bps;   /* its GT_TREND_CONFIDENCE interval */
	struct gt_f64 recent_growth_bps;  /* the slope over the newer half of the points */
	uint64_t max_fall_bytes;     /* the deepest fall of a point below an earlier one in the window:
				      * a leak's live set falls by its noise, a cache emptied by its size */
	const char *growth_why;      /* growth n/a: why */
	struct gt_f64 exhaustion_s;  /* from the sample's moment until the live set fills limit_kind */
	struct gt_u64 limit_bytes;   /* that limit (n/a exhaustion: the first limit known, if any) */
	enum gt_live_limit limit_kind;
	const char *exhaustion_why;  /* exhaustion n/a: why */
};

void gt_live_tracker_clear(struct gt_live_tracker *t);

/* Folds the points of s's live log past those already seen (a count that
 * went backwards starts a new series), drops those older than the window
 * at s's moment, and refits. */
void gt_live_tracker_fold(struct gt_live_tracker *t, const struct gt_sample *s);

/* The figures as of s (the sample folded last). */
void gt_live_set_figures(const struct gt_live_tracker *t, const struct gt_sample *s, struct gt_live_set *out);

/* Projects when a live set on line (growth_bps, live at s's moment)
 * reaches the first limit s knows: fills exhaustion_s, limit_bytes,
 * limit_kind or exhaustion_why in out. growth_bps and its low bound must
 * be set (valid) in out beforehand. */
void gt_live_set_project(const struct gt_sample *s, double live_now, struct gt_live_set *out);

/* The old generation's occupancy as jstat's O: used over committed. */
struct gt_f64 gt_old_used_share(const struct gt_sample *s);

/* "heap-max", "container", or "none": the JSON and metrics word. */
const char *gt_live_limit_name(enum gt_live_limit k);

#endif
