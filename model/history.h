/* A fixed-size ring of per-interval figures, newest last, for sparklines and
 * for figures over a window longer than one interval (pause share over the
 * last minute, longest pause in it, collections per minute).
 * Pure: no clock, no I/O; the caller pushes each derived sample. */
#ifndef GCTOP_MODEL_HISTORY_H
#define GCTOP_MODEL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/derive.h"
#include "model/sample.h"

/* 1024 points: 17 minutes at the default 1 s, still over a minute at 0.1 s. */
#define GT_HISTORY_CAPACITY 1024

/* What one interval leaves behind, small enough to keep a thousand of. */
struct gt_history_point {
	uint64_t mono_ns;                  /* end of the interval */
	int64_t wall_ms;                   /* the same moment, ms since the epoch (for output) */
	char last_gc_cause[GT_NAME_LEN];   /* the runtime's cause of the interval's last collection */
	struct gt_f64 interval_s;
	struct gt_f64 alloc_rate_bps;
	struct gt_u64 pause_ns;            /* pause time in the interval */
	struct gt_f64 pause_share;
	struct gt_f64 gc_cpu_share;        /* GC CPU seconds per wall second (model/derive.h) */
	struct gt_f64 cpu_share;           /* process CPU seconds per wall second */
	struct gt_u64 longest_pause_ns;    /* longest single pause in the interval, 0 if none */
	/* the pause log's numbers of the interval's pauses: [pause_log_from, pause_log_to) */
	bool pause_log_valid;
	uint64_t pause_log_from, pause_log_to;
	unsigned n_generations;
	struct gt_u64 collections[GT_MAX_GENERATIONS]; /* in the interval, by generation index */
	struct gt_u64 heap_used_bytes;
	struct gt_u64 rss_bytes;
	struct gt_collection_causes causes; /* collections by cause in the interval */
	struct gt_u64 opcount;              /* operations counted in the interval */
	struct gt_f64 bytes_per_op;         /* bytes allocated per operation in it */
	struct gt_u64 opcount_alloc_bytes;  /* bytes and collections over the operations' span */
	struct gt_u64 opcount_collections;
	bool alloc_lower_bound;             /* the allocation figures are at least these */
	bool alloc_upper_bound;             /* at most these (G1 humongous objects in whole regions) */
};

struct gt_history {
	struct gt_history_point points[GT_HISTORY_CAPACITY];
	size_t head;   /* index of the next write */
	size_t count;
};

enum gt_history_metric {
	GT_HISTORY_ALLOC_RATE = 0,
	GT_HISTORY_PAUSE_SHARE,
	GT_HISTORY_LONGEST_PAUSE,
	GT_HISTORY_COLLECTIONS,     /* all generations together */
	GT_HISTORY_HEAP_USED,
	GT_HISTORY_RSS,
};

/* Figures over the newest points that end within a window of time. */
struct gt_history_window {
	unsigned points;
	struct gt_f64 span_s;              /* wall time the points cover */
	struct gt_f64 pause_share;
	struct gt_f64 gc_cpu_share;        /* over the points that have it */
	struct gt_f64 cpu_share;
	struct gt_u64 longest_pause_ns;
	struct gt_f64 alloc_rate_bps;      /* bytes over the span / span */
	struct gt_u64 collections[GT_MAX_GENERATIONS];
	struct gt_f64 per_minute[GT_MAX_GENERATIONS];
};

void gt_history_clear(struct gt_history *h);

/* Appends the interval d describes. A first sample (no interval) adds nothing. */
void gt_history_push(struct gt_history *h, const struct gt_derived *d);
/* The same in two steps, for a holder that keeps its own few points (the
 * fleet's findings, session/fleet_findings.c): the point d adds (false:
 * none), and a point appended. */
bool gt_history_point_of(const struct gt_derived *d, struct gt_history_point *p);
void gt_history_push_point(struct gt_history *h, const struct gt_history_point *p);

size_t gt_history_count(const struct gt_history *h);

/* age 0 is the newest point; NULL past the oldest. */
const struct gt_history_point *gt_history_at(const struct gt_history *h, size_t age);

/* The newest min(max, count) values of a metric, oldest first; returns how many. */
size_t gt_history_series(const struct gt_history *h, enum gt_history_metric m,
			 struct gt_f64 *out, size_t max);

/* Points whose end lies within window_ns of the newest point's end. */
void gt_history_window(const struct gt_history *h, uint64_t window_ns, struct gt_history_window *out);

/* The distribution of the pauses in the points within window_ns, read from
 * cur's pause log (cur: the sample of the newest point). Invalid unless every
 * such point carries a log continuing the one before; partial when the
 * window holds more pauses than the log keeps. */
void gt_history_pause_dist(const struct gt_history *h, uint64_t window_ns, const struct gt_sample *cur,
			   struct gt_pause_dist *out);

/* The longest single pause of one interval: the runtime's own maximum where
 * it gives one, else the last pause if a pause happened in the interval. */
struct gt_u64 gt_history_longest_pause(const struct gt_derived *d);

#endif
