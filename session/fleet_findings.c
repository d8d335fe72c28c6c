/* A fleet member's findings (session/fleet.h): the same rules and
 * thresholds as the screen's and --doctor's (model/findings.c), applied to
 * the member's last GT_FLEET_FINDING_POINTS intervals. A fleet keeps no
 * history per member (a few hundred would be most of gctop's memory); it
 * keeps these few points each (22 KiB) and reads them into one history of
 * its own for the rules. */
#include "session/fleet_internal.h"

#include <stdlib.h>

static void points_add(struct gt_fleet_findings *x, const struct gt_history_point *p)
{
	x->points[x->head] = *p;
	x->head = (x->head + 1) % GT_FLEET_FINDING_POINTS;
	if (x->count < GT_FLEET_FINDING_POINTS)
		x->count++;
}

/* The member's points, oldest first, as the history the rules read. */
static void points_load(const struct gt_fleet_findings *x, struct gt_history *h)
{
	gt_history_clear(h);
	size_t oldest = (x->head + GT_FLEET_FINDING_POINTS - x->count) % GT_FLEET_FINDING_POINTS;
	for (size_t k = 0; k < x->count; k++)
		gt_history_push_point(h, &x->points[(oldest + k) % GT_FLEET_FINDING_POINTS]);
}

void gt_fleet_findings_update(struct gt_fleet *f, struct gt_fleet_member *m)
{
	const struct gt_session *s = m->session;
	if (!f->policy.findings || !s || !s->live.have_derived)
		return;
	if (!f->findings_scratch && !(f->findings_scratch = malloc(sizeof(*f->findings_scratch))))
		return;
	if (!m->findings && !(m->findings = calloc(1, sizeof(*m->findings))))
		return;
	struct gt_fleet_findings *x = m->findings;
	struct gt_history_point p;
	if (gt_history_point_of(&s->live.derived, &p))
		points_add(x, &p);
	points_load(x, f->findings_scratch);
	struct gt_findings all;
	gt_findings_compute(&s->info, &s->live.derived, f->findings_scratch, &all);
	x->n = 0;
	for (unsigned i = 0; i < all.count && i < GT_FINDINGS_MAX; i++)
		x->found[x->n++] = (struct gt_finding_brief){ all.items[i].id, all.items[i].severity };
}
