/* The one reader of an interval as a person types it, for -d and for the
 * full-screen view's d prompt alike: seconds with fractions as top's -d
 * takes them ("0.5"), or with a unit, s, m or h ("1.5s", "5m", "0.5h"). */
#ifndef GCTOP_BASE_INTERVAL_H
#define GCTOP_BASE_INTERVAL_H

#include <stdint.h>

/* The interval's bounds: 0.1 s (below, sampling costs more than it shows)
 * to an hour. */
#define GT_INTERVAL_MIN_S 0.1
#define GT_INTERVAL_MAX_S 3600.0

/* What a refusal says the interval must be, for both front ends' messages. */
#define GT_INTERVAL_WANTS "seconds from 0.1 to 3600, fractions and a unit s, m or h allowed (0.5, 5m, 0.5h)"

enum gt_interval_status {
	GT_INTERVAL_OK = 0,
	GT_INTERVAL_BAD,     /* not a number with an optional unit */
	GT_INTERVAL_RANGE,   /* a number, outside GT_INTERVAL_MIN_S..GT_INTERVAL_MAX_S */
};

/* Reads s; on GT_INTERVAL_OK sets *ns. */
enum gt_interval_status gt_interval_parse(const char *s, uint64_t *ns);

#endif
