/* gctop --compare: the figures of recorded runs, side by side.
 *
 * Each run's samples are fed through a session (gt_session_replay_sample),
 * so every per-interval figure is the one the live view showed; the
 * whole-run figures (collections per minute, pause share) are the derive
 * step's over the first and last samples. Pure apart from reading the
 * files: the views print (views/compare_writer.c). */
#ifndef GCTOP_RECORD_COMPARE_H
#define GCTOP_RECORD_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "model/sample.h"

#define GT_COMPARE_RUNS_MAX 16
/* Single pauses kept per run for its percentiles (some days of a busy
 * .NET service's gen0 collections). */
#define GT_COMPARE_PAUSES_MAX 4000000

/* The figures of a run that are one number each, in the order printed. */
enum gt_fig {
	GT_FIG_DURATION_S = 0,
	GT_FIG_ALLOC_RATE_MEDIAN,     /* bytes/s, over the intervals */
	GT_FIG_ALLOC_RATE_P95,
	GT_FIG_BYTES_PER_OP_MEDIAN,   /* where operations are counted */
	GT_FIG_OPCOUNT_RATE,              /* operations per second over the whole run, where counted */
	GT_FIG_PAUSE_SHARE,           /* of the whole run's wall time, 0..1 */
	GT_FIG_PAUSE_P50_MS,          /* over every single pause of the run */
	GT_FIG_PAUSE_P99_MS,
	GT_FIG_PAUSE_MAX_MS,
	GT_FIG_LARGE_PEAK_BYTES,
	GT_FIG_WORKING_SET_PEAK_BYTES,
	GT_FIG_COMMITTED_PEAK_BYTES,
	GT_FIG_LIVE_SET_BYTES,        /* the live set at the run's end */
	GT_FIG_LIVE_GROWTH_BPS,       /* its growth then, over the tracker's window */
	GT_FIG_COUNT,
};

enum gt_fig_unit { GT_UNIT_SECONDS, GT_UNIT_BPS, GT_UNIT_BYTES, GT_UNIT_SHARE, GT_UNIT_MS, GT_UNIT_PER_MIN,
		   GT_UNIT_PER_S };

struct gt_fig_desc {
	const char *key;    /* the --json path and --fail-if name, e.g. "alloc.rate_bps_median" */
	const char *label;  /* the text row */
	enum gt_fig_unit unit;
};
extern const struct gt_fig_desc gt_fig_descs[GT_FIG_COUNT];

struct gt_run {
	const char *file;
	struct gt_target_info info;     /* as of the last line */
	uint64_t samples;
	bool truncated;                 /* the recording ended in a partial line */
	char opcount_name[32];          /* "requests", or "" */
	struct gt_f64 fig[GT_FIG_COUNT];
	unsigned n_generations;
	char generation[GT_MAX_GENERATIONS][24];
	struct gt_f64 per_min[GT_MAX_GENERATIONS];   /* collections per minute over the run */
	struct gt_u64 gc_heaps_max;     /* .NET: the most GC heaps seen (Server GC, DATAS) */
};

/* Reads one recording into run. Returns 0, or -1 with err
 * (GT_EXIT_BAD_RECORDING: unreadable, or fewer than two samples). */
int gt_compare_load(const char *file, struct gt_run *run, struct gt_error *err);

/* The figure named key ("alloc.bytes_per_op_median", "collections_per_min.gen2")
 * of run; invalid when the run has none. Returns -1 for a key that names
 * no figure. */
int gt_compare_figure(const struct gt_run *run, const char *key, struct gt_f64 *out);

/* b / a when both are valid and a is not 0. */
struct gt_f64 gt_compare_ratio(struct gt_f64 a, struct gt_f64 b);

/* --fail-if KEY>+N% or KEY<-N% (also >=, <=, and N without a sign). */
struct gt_fail_if {
	char key[64];
	bool greater;       /* > or >=: a rise fails */
	bool or_equal;
	double percent;     /* the change that fails, signed */
};
int gt_fail_if_parse(const char *expr, struct gt_fail_if *out, struct gt_error *err);
/* Judges the last run against the first: 1 regressed, 0 not, -1 with err
 * when either run has no such figure or the first is 0. *change_pct: the
 * change found. */
int gt_fail_if_judge(const struct gt_fail_if *f, const struct gt_run *first, const struct gt_run *last,
		     double *change_pct, struct gt_error *err);

/* Nearest-rank percentile (model/percentile.h) of n values, sorted in
 * place here; n > 0. */
double gt_compare_percentile(double *v, size_t n, unsigned pct);

/* A value that stands for `weight` observations (an interval's bytes per
 * operation, for each of its operations). */
struct gt_weighted {
	double value, weight;
};
/* The weighted median of n values (sorted in place): the smallest value
 * with at least half the total weight at or below it; n > 0, weights > 0. */
double gt_compare_weighted_median(struct gt_weighted *v, size_t n);

#endif
