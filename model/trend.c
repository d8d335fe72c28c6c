#include "model/trend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double gt_trend_rank(const double *sorted, size_t n, double r)
{
	if (r <= 1)
		return sorted[0];
	if (r >= (double)n)
		return sorted[n - 1];
	size_t i = (size_t)floor(r);          /* 1-based: sorted[i - 1] */
	double f = r - (double)i;
	return sorted[i - 1] + f * (sorted[i] - sorted[i - 1]);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return gt_trend_rank(v, n, (double)(n + 1) / 2);
}

/* Sen's interval: with N slopes sorted and C = z * sqrt(Var S), where
 * Var S = n(n-1)(2n+5)/18 is the variance of Kendall's S without ties,
 * the bounds are the slopes at ranks (N - C)/2 and (N + C)/2 + 1. */
static void sen_interval(const double *sorted, size_t pairs, size_t n, struct gt_trend *out)
{
	double dn = (double)n;
	double c = GT_TREND_Z * sqrt(dn * (dn - 1) * (2 * dn + 5) / 18);
	out->low = gt_trend_rank(sorted, pairs, ((double)pairs - c) / 2);
	out->high = gt_trend_rank(sorted, pairs, ((double)pairs + c) / 2 + 1);
}

int gt_trend_fit(const double *x, const double *y, size_t n, struct gt_trend *out)
{
	memset(out, 0, sizeof(*out));
	out->points = n;
	if (n < 2 || n > GT_TREND_MAX_POINTS)
		return 0;
	double *slopes = malloc(n * (n - 1) / 2 * sizeof(*slopes));
	double *rest = malloc(n * sizeof(*rest));
	if (!slopes || !rest) {
		free(slopes);
		free(rest);
		return -1;
	}
	size_t pairs = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (x[j] != x[i])
				slopes[pairs++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (pairs > 0) {
		out->valid = true;
		out->pairs = pairs;
		out->slope = median(slopes, pairs);   /* sorts them too */
		sen_interval(slopes, pairs, n, out);
		for (size_t i = 0; i < n; i++)
			rest[i] = y[i] - out->slope * x[i];
		out->intercept = median(rest, n);
	}
	free(slopes);
	free(rest);
	return 0;
}
