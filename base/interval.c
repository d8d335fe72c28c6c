/* The interval reader (base/interval.h). By hand, not strtod alone: strtod
 * also takes "inf", "nan", hex floats, exponents and leading spaces, none
 * of which is an interval a person types. */
#include "base/interval.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Digits with at most one decimal point and at least one digit; returns
 * its length, 0 when s does not start so. */
static size_t number_len(const char *s)
{
	size_t n = 0, digits = 0;
	bool point = false;
	for (; s[n]; n++) {
		if (isdigit((unsigned char)s[n]))
			digits++;
		else if (s[n] == '.' && !point)
			point = true;
		else
			break;
	}
	return digits ? n : 0;
}

static double unit_seconds(const char *u)
{
	if (!*u || strcmp(u, "s") == 0)
		return 1;
	if (strcmp(u, "m") == 0)
		return 60;
	if (strcmp(u, "h") == 0)
		return 3600;
	return 0;
}

enum gt_interval_status gt_interval_parse(const char *s, uint64_t *ns)
{
	size_t n = s ? number_len(s) : 0;
	if (n == 0)
		return GT_INTERVAL_BAD;
	double unit = unit_seconds(s + n);
	if (unit == 0)
		return GT_INTERVAL_BAD;
	double v = strtod(s, NULL) * unit;
	if (!isfinite(v) || v < GT_INTERVAL_MIN_S || v > GT_INTERVAL_MAX_S)
		return GT_INTERVAL_RANGE;
	*ns = (uint64_t)llround(v * 1e9);
	return GT_INTERVAL_OK;
}
