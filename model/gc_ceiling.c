#include "model/gc_ceiling.h"

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

void gt_gc_ceiling_of(struct gt_f64 pause_share, struct gt_f64 gc_cpu_share, struct gt_f64 process_cpu_share,
		      struct gt_gc_ceiling *out)
{
	*out = (struct gt_gc_ceiling){ 0 };
	if (pause_share.valid)
		gt_f64_set(&out->pause_share, clamp01(pause_share.value));
	/* The GC's threads against the process's, both CPU seconds per wall
	 * second: a process that idles has nothing to gain. */
	if (gc_cpu_share.valid && process_cpu_share.valid && process_cpu_share.value > 0)
		gt_f64_set(&out->cpu_share, clamp01(gc_cpu_share.value / process_cpu_share.value));
	if (out->pause_share.valid || out->cpu_share.valid) {
		double p = out->pause_share.valid ? out->pause_share.value : 0;
		double c = out->cpu_share.valid ? out->cpu_share.value : 0;
		gt_f64_set(&out->share, p > c ? p : c);
	}
}
