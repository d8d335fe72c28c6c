/* A fleet member's findings (session/fleet.h): the same rules and
 * thresholds as the screen's and --doctor's (model/findings.c), applied to
 * the member's last GT_FLEET_FINDING_POINTS intervals. A fleet keeps no
 * history per member (a few hundred would be most of gctop's memory); it
 * keeps these few points each (22 KiB) and reads them into one history of
 * its own for the rules. */
#include "session/fleet_internal.h"

#include <stdlib.h>

/* The rules run again only when a member's newest interval changed what
 * they read (a collection, a pause, the heap in use, the working set by
 * more than 1/FLEET_FINDINGS_RSS_SHARE), while a finding holds (its
 * window moves on), and at least every FLEET_FINDINGS_QUIET_MAX samples
 * (a window that fills or empties with time alone): 1,000 idle members'
 * points read into a history and the rules over them, every round, were
 * 6% of --serve's CPU at -d 1 (perf: gt_history_push_point,
 * gt_findings_compute, bench/README.md 1j). */
#define FLEET_FINDINGS_QUIET_MAX 16
#define FLEET_FINDINGS_RSS_SHARE 64

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

static bool u64_zero(struct gt_u64 v)
{
	return !v.valid || v.value == 0;
}

/* Whether interval p changed nothing the rules read since last. */
static bool point_quiet(const struct gt_history_point *p, const struct gt_history_point *last)
{
	if (!u64_zero(p->pause_ns) || !u64_zero(p->longest_pause_ns) || !u64_zero(p->opcount))
		return false;
	for (unsigned i = 0; i < p->n_generations && i < GT_MAX_GENERATIONS; i++)
		if (!u64_zero(p->collections[i]))
			return false;
	if (p->heap_used_bytes.valid != last->heap_used_bytes.valid ||
	    p->heap_used_bytes.value != last->heap_used_bytes.value || p->rss_bytes.valid != last->rss_bytes.valid)
		return false;
	uint64_t a = p->rss_bytes.value, b = last->rss_bytes.value, d = a > b ? a - b : b - a;
	return d <= b / FLEET_FINDINGS_RSS_SHARE;
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
	if (gt_history_point_of(&s->live.derived, &p)) {
		bool quiet = x->count && point_quiet(&p, &x->points[(x->head + GT_FLEET_FINDING_POINTS - 1) %
									 GT_FLEET_FINDING_POINTS]);
		points_add(x, &p);
		if (quiet && !x->n && ++m->quiet_rounds < FLEET_FINDINGS_QUIET_MAX)
			return;
	}
	m->quiet_rounds = 0;
	points_load(x, f->findings_scratch);
	struct gt_findings all;
	gt_findings_compute(&s->info, &s->live.derived, f->findings_scratch, &all);
	x->n = 0;
	for (unsigned i = 0; i < all.count && i < GT_FINDINGS_MAX; i++)
		x->found[x->n++] = (struct gt_finding_brief){ all.items[i].id, all.items[i].severity };
}
