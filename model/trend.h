/* A robust straight-line trend through points (x, y): the Theil–Sen
 * estimator (the median of the slopes between every pair of points) with
 * Sen's confidence interval for it, read off the same sorted slopes at the
 * ranks Kendall's S statistic gives (Sen 1968; Gilbert 1987, "Statistical
 * Methods for Environmental Pollution Monitoring", §16.5). One outlier in
 * a handful of points moves it little, where a least-squares line follows
 * the outlier: a live set measured after collections has such outliers (a
 * collection that ran while a batch of work was alive).
 * Pure: no clock, no I/O. */
#ifndef GCTOP_MODEL_TREND_H
#define GCTOP_MODEL_TREND_H

#include <stdbool.h>
#include <stddef.h>

/* The most points a trend takes: the pairs are n(n-1)/2 slopes to sort. */
#define GT_TREND_MAX_POINTS 256

/* The interval's two-sided confidence, and its standard normal quantile
 * z(1 - 0.10/2). */
#define GT_TREND_CONFIDENCE 0.90
#define GT_TREND_Z 1.6448536269514722

struct gt_trend {
	bool valid;        /* at least two points with different x */
	size_t points;
	size_t pairs;      /* slopes between points with different x */
	double slope;      /* y per x: the median of the pairwise slopes */
	double intercept;  /* the median of y - slope * x: the line's y at x = 0 */
	double low, high;  /* Sen's GT_TREND_CONFIDENCE interval of the slope */
};

/* The trend of n points (x[i], y[i]); n at most GT_TREND_MAX_POINTS (more:
 * invalid). Returns 0, or -1 when memory for the slopes is short (out
 * invalid). */
int gt_trend_fit(const double *x, const double *y, size_t n, struct gt_trend *out);

/* The value at 1-based rank r of n sorted values, interpolated between
 * the neighbouring ranks and clamped to [1, n]; n > 0. */
double gt_trend_rank(const double *sorted, size_t n, double r);

#endif
