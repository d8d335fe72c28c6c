/* JFR's pauses in the sample in place of the perf data's (the join is
 * described in hotspot_internal.h). The distribution (pause_log), the
 * interval's longest, the latest and the total become JFR's; each pause
 * enters the sample that takes it, up to a second after it ended (the
 * JVM flushes the recording about once a second). */
#include "collectors/hotspot/hotspot_internal.h"

#include <time.h>

#include "collectors/hotspot/jfr/jfr_sampler.h"

#define HOTSPOT_JFR_PAUSES_BATCH 256
#define HOTSPOT_JFR_PAUSE_SOURCE "jfr"

static int64_t hotspot_jfr_wall_ns(void)
{
	struct timespec w;
	clock_gettime(CLOCK_REALTIME, &w);
	return (int64_t)w.tv_sec * 1000000000 + w.tv_nsec;
}

void hotspot_jfr_pauses_fill(struct gt_backend *c, struct gt_sample *out)
{
	struct hotspot_jfr_pauses *p = &c->jfr_pauses;
	if (!c->jfr) {
		/* the recording stopped: the perf data's again, from here */
		p->joined = false;
		return;
	}
	if (c->counters.gc == HOTSPOT_GC_SHENANDOAH)
		return; /* its perf data has no pause of its own to join: left as it is */
	if (!p->joined) {
		*p = (struct hotspot_jfr_pauses){ .joined = true, .join_wall_ns = hotspot_jfr_wall_ns(),
						  .base_ns = out->pause_total_ns };
		/* what the reader already holds ended before now */
		int64_t off;
		struct gt_hotspot_jfr_pause skip[HOTSPOT_JFR_PAUSES_BATCH];
		while (gt_hotspot_jfr_pauses(c->jfr, &p->next, &off, skip, HOTSPOT_JFR_PAUSES_BATCH) > 0)
			;
		return; /* this sample is the perf data's */
	}
	uint64_t longest = 0;
	struct gt_hotspot_jfr_pause batch[HOTSPOT_JFR_PAUSES_BATCH];
	size_t n;
	int64_t off;
	while ((n = gt_hotspot_jfr_pauses(c->jfr, &p->next, &off, batch, HOTSPOT_JFR_PAUSES_BATCH)) > 0) {
		for (size_t i = 0; i < n; i++) {
			const struct gt_hotspot_jfr_pause *q = &batch[i];
			if (q->start_ns + (int64_t)q->duration_ns < p->join_wall_ns)
				continue;
			hotspot_pause_log_add(&c->pauses, q->duration_ns);
			p->sum_ns += q->duration_ns;
			if (q->duration_ns > longest)
				longest = q->duration_ns;
			gt_u64_set(&p->last_ns, q->duration_ns);
		}
	}
	hotspot_pause_log_fill(&c->pauses, out);
	gt_u64_set(&out->pause_max_ns, longest);
	if (p->last_ns.valid)
		out->last_pause_ns = p->last_ns;
	if (p->base_ns.valid)
		gt_u64_set(&out->pause_total_ns, p->base_ns.value + p->sum_ns);
	out->pause_source = HOTSPOT_JFR_PAUSE_SOURCE;
}
