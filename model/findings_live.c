#include "model/findings_live.h"

/* The starting point is JDK Mission Control's "Live Set Trend" rule
 * (IncreasingLiveSetRule, org.openjdk.jmc.flightrecorder.rules.jdk.memory):
 * a least-squares slope of the heap used after each GC, as a share of the
 * heap after warm-up per second, scored with mapExp100 so that 1%/s
 * (PERCENT_OF_HEAP_INCREASE_PER_SECOND = 0.01) scores 75, a warning; 25,
 * its info point, is 0.21%/s; and no verdict from 4 young collections or
 * fewer (YOUNG_COLLECTION_THRESHOLD). JMC judges a recording of a minute
 * or so, where only so fast a growth shows; gctop watches for hours, so it
 * keeps JMC's warning point and adds its own, below. */
#define GT_LIVE_JMC_WARNING_SHARE_PER_S 0.01

/* gctop's own: more points and a longer span than the figures need (5,
 * a minute), so that a warm-up or one batch of work is not called a leak. */
#define GT_LIVE_FINDING_MIN_POINTS 8
#define GT_LIVE_FINDING_MIN_SPAN_S 300.0
/* gctop's own: a rise over the window of at least 5% of the live set, so
 * that a drift within a big cache's noise is not one. */
#define GT_LIVE_FINDING_MIN_RISE 0.05
/* gctop's own: steady means the newer half of the points grows at least
 * half as fast as all of them (a warm-up that has levelled off does not)
 * and no point fell below an earlier one by half the rise or more (a cache
 * filled and emptied in turn does; a leak falls by its noise). */
#define GT_LIVE_FINDING_RECENT_SHARE 0.5
#define GT_LIVE_FINDING_MAX_FALL_SHARE 0.5
/* gctop's own: out of room within an hour is a warning, within ten
 * minutes critical (the time to page someone, the time to act). */
#define GT_LIVE_FINDING_WARNING_S 3600.0
#define GT_LIVE_FINDING_CRITICAL_S 600.0

static bool steady(const struct gt_live_set *l)
{
	double rise = l->growth_bps.value * l->span_s.value;
	return l->growth_low_bps.value > 0 && l->recent_growth_bps.valid &&
	       l->recent_growth_bps.value >= GT_LIVE_FINDING_RECENT_SHARE * l->growth_bps.value &&
	       rise >= GT_LIVE_FINDING_MIN_RISE * (double)l->bytes &&
	       (double)l->max_fall_bytes < GT_LIVE_FINDING_MAX_FALL_SHARE * rise;
}

/* Whether the points are enough for a verdict: gctop's 8 over 5 minutes,
 * or, once the trend projects the limit within the warning's horizon, the
 * trend's own minimum (model/live_set.h: 5 over a minute) with its 90%
 * interval above zero (steady): a leak that kills its process within
 * minutes must be called before it does, and one of 1 MB/s in a small
 * heap dies before 5 minutes of growth are there to see. */
static bool enough_points(const struct gt_live_set *l)
{
	if (l->points >= GT_LIVE_FINDING_MIN_POINTS && l->span_s.value >= GT_LIVE_FINDING_MIN_SPAN_S)
		return true;
	return l->exhaustion_s.valid && l->exhaustion_s.value <= GT_LIVE_FINDING_WARNING_S;
}

enum gt_severity gt_findings_live_verdict(const struct gt_live_set *l)
{
	if (!l->valid || !l->growth_bps.valid || !l->span_s.valid || l->bytes == 0 || !enough_points(l) || !steady(l))
		return GT_SEVERITY_NONE;
	if (l->exhaustion_s.valid && l->exhaustion_s.value <= GT_LIVE_FINDING_CRITICAL_S)
		return GT_SEVERITY_CRITICAL;
	if ((l->exhaustion_s.valid && l->exhaustion_s.value <= GT_LIVE_FINDING_WARNING_S) ||
	    l->growth_bps.value / (double)l->bytes >= GT_LIVE_JMC_WARNING_SHARE_PER_S)
		return GT_SEVERITY_WARNING;
	return GT_SEVERITY_INFO;
}
