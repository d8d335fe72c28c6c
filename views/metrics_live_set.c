/* The live set's families (model/live_set.h): kept apart from
 * views/metrics_families.c, whose runtime families change on their own. */
#include "views/metrics_emit.h"

void gt_metrics_live_set_bytes(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (t->derived && t->derived->live_set.valid)
		gt_metrics_gauge(e, NULL, (struct gt_u64){ t->derived->live_set.bytes, true });
}

void gt_metrics_live_set_growth(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (t->derived && t->derived->live_set.growth_bps.valid)
		gt_metrics_point_f64(e, "", NULL, t->derived->live_set.growth_bps.value);
}

/* Labelled with what it runs into, so an alert can tell a heap that fills
 * from a container that does. */
void gt_metrics_live_set_exhaustion(struct gt_metrics_emit *e, const struct gt_metrics_target *t)
{
	if (!t->derived || !t->derived->live_set.exhaustion_s.valid)
		return;
	char extra[GT_METRICS_EXTRA_LEN];
	gt_metrics_label(extra, sizeof(extra), "limit", gt_live_limit_name(t->derived->live_set.limit_kind));
	gt_metrics_point_f64(e, "", extra, t->derived->live_set.exhaustion_s.value);
}
