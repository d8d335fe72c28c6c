/* What allocating less can win at most (the third seed: a profile sorted
 * by bytes ranked a cheap buffer above costly parsing). Bytes rank the
 * sites, but the time the GC takes bounds what removing all of them can
 * gain: the share of wall time paused and the share of the process's CPU
 * the GC's threads use, the larger of the two, plus the work that
 * produced the garbage, which gctop cannot see. Pure. */
#ifndef GCTOP_MODEL_GC_CEILING_H
#define GCTOP_MODEL_GC_CEILING_H

#include "model/sample.h"

struct gt_gc_ceiling {
	struct gt_f64 pause_share;   /* stop-the-world time over wall time, 0..1 */
	struct gt_f64 cpu_share;     /* the GC's CPU over the process's CPU, 0..1 (HotSpot) */
	struct gt_f64 share;         /* the larger: the most that allocating less can gain */
};

/* From the shares of one window: pause time over wall time, GC CPU and
 * process CPU seconds per wall second (model/derive.h). Each n/a input
 * leaves its part out; share is n/a when both are. */
void gt_gc_ceiling_of(struct gt_f64 pause_share, struct gt_f64 gc_cpu_share, struct gt_f64 process_cpu_share,
		      struct gt_gc_ceiling *out);

#endif
