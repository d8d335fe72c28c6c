/* The live set's figures as words, shared by -b and the memory pane
 * (model/format.h has the plain numbers). Invalid figures render as "n/a". */
#ifndef GCTOP_VIEWS_FORMAT_LIVE_H
#define GCTOP_VIEWS_FORMAT_LIVE_H

#include <stddef.h>

#include "model/live_set.h"
#include "model/sample.h"

/* The growth per minute with its interval in the same unit:
 * "+60.0 MiB/min (54.0..66.0)". */
const char *gt_format_live_growth(char *buf, size_t len, const struct gt_live_set *l);
/* Seconds as the nearest sensible unit: "45 s", "3.2 min", "5.0 h", "2.1 d". */
const char *gt_format_long_seconds(char *buf, size_t len, double seconds);
/* The time to exhaustion and what runs out: "3.2 min to heap max". */
const char *gt_format_live_exhaustion(char *buf, size_t len, const struct gt_live_set *l);
/* Old-generation occupancy as jstat: "used 300 MiB / committed 400 MiB / max 1.00 GiB, O 75.0%". */
const char *gt_format_old(char *buf, size_t len, const struct gt_sample *s);

#endif
