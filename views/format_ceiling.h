/* The GC's share of the time as the ceiling of what allocating less can
 * gain (model/gc_ceiling.h), as words: -b's allocators section, the
 * allocators pane and --doctor say it the same way. */
#ifndef GCTOP_VIEWS_FORMAT_CEILING_H
#define GCTOP_VIEWS_FORMAT_CEILING_H

#include <stddef.h>

#include "model/gc_ceiling.h"

/* "GC takes 2.2% of the time (pauses 2.2% of wall time, its threads 3.1%
 * of the process's CPU): removing all of this allocation gains at most
 * about that, plus the work that produced it"; n/a with why. */
const char *gt_format_gc_ceiling(char *buf, size_t len, const struct gt_gc_ceiling *c);

/* The same in fewer words for a pane's line of width columns, the longest
 * form that fits whole: "GC 2.2% of the time: at most ~2.2% to gain by
 * allocating less, plus the work behind it", then shorter ones down to
 * "GC 2.2%: gain <=2.2% by allocating less"; "" when none fits. */
const char *gt_format_gc_ceiling_short(char *buf, size_t len, const struct gt_gc_ceiling *c, int width);

#endif
