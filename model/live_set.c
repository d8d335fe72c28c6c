#include "model/live_set.h"

#include <math.h>
#include <string.h>

#define NS_PER_S 1e9

const char *gt_live_limit_name(enum gt_live_limit k)
{
	switch (k) {
	case GT_LIVE_LIMIT_HEAP_MAX: return "heap-max";
	case GT_LIVE_LIMIT_CONTAINER: return "container";
	default: return "none";
	}
}

struct gt_f64 gt_old_used_share(const struct gt_sample *s)
{
	struct gt_f64 share = { 0, false };
	if (s->old_used_bytes.valid && s->old_committed_bytes.valid && s->old_committed_bytes.value > 0)
		gt_f64_set(&share, (double)s->old_used_bytes.value / (double)s->old_committed_bytes.value);
	return share;
}

void gt_live_tracker_clear(struct gt_live_tracker *t)
{
	memset(t, 0, sizeof(*t));
}

static const struct gt_live_set_point *point_at(const struct gt_live_tracker *t, size_t i)
{
	return &t->points[(t->head + i) % GT_LIVE_SET_POINTS];
}

/* Removes point i (0 < i < n - 1), closing the ring over it. */
static void remove_point(struct gt_live_tracker *t, size_t i)
{
	for (; i + 1 < t->n; i++)
		t->points[(t->head + i) % GT_LIVE_SET_POINTS] = *point_at(t, i + 1);
	t->n--;
}

/* Makes room when the ring is full by thinning, not by dropping the
 * oldest: the inner point whose removal leaves the shortest gap goes, so
 * the points stay spread evenly over the whole span watched. Dropping the
 * oldest shortened the span to 128 collections: near a full heap G1's
 * mixed collections come every 1-2 s, and the trend of a dying JVM went
 * back to "too short a span" minutes before its death. The oldest and the
 * newest stay, and so does the window (drop_old). */
static void thin(struct gt_live_tracker *t)
{
	size_t worst = 1;
	uint64_t shortest = UINT64_MAX;
	for (size_t i = 1; i + 1 < t->n; i++) {
		uint64_t gap = point_at(t, i + 1)->at_ns - point_at(t, i - 1)->at_ns;
		if (gap < shortest) {
			shortest = gap;
			worst = i;
		}
	}
	remove_point(t, worst);
}

static void push_point(struct gt_live_tracker *t, const struct gt_live_point *p)
{
	if (t->n > 0 && p->at_ns < point_at(t, t->n - 1)->at_ns)
		return;   /* out of order: a garbled log, not a measurement to fit */
	if (t->n == 0)
		t->origin_ns = p->at_ns;
	if (t->n == GT_LIVE_SET_POINTS)
		thin(t);
	t->points[(t->head + t->n) % GT_LIVE_SET_POINTS] = (struct gt_live_set_point){ p->at_ns, p->bytes };
	t->n++;
	t->newest_kind = p->kind;
}

/* Takes the log's new points; returns whether any came. */
static bool take_new(struct gt_live_tracker *t, const struct gt_live_log *log)
{
	if (!t->started || log->count < t->next) {
		/* first sight, or a log that restarted: a new series */
		uint64_t missed = t->missed;
		gt_live_tracker_clear(t);
		t->missed = missed;
		t->started = true;
	}
	uint64_t fresh = log->count - t->next;
	uint64_t from = t->next;
	if (fresh > GT_LIVE_RING) {
		t->missed += fresh - GT_LIVE_RING;
		from = log->count - GT_LIVE_RING;
	}
	for (uint64_t k = from; k < log->count; k++)
		push_point(t, &log->points[k % GT_LIVE_RING]);
	t->next = log->count;
	return fresh > 0;
}

static bool drop_old(struct gt_live_tracker *t, uint64_t now_ns)
{
	bool dropped = false;
	while (t->n > 0 && now_ns > point_at(t, 0)->at_ns && now_ns - point_at(t, 0)->at_ns > GT_LIVE_SET_WINDOW_NS) {
		t->head = (t->head + 1) % GT_LIVE_SET_POINTS;
		t->n--;
		dropped = true;
	}
	return dropped;
}

/* Fits points [from, n) with x in seconds since origin_ns, y in bytes. */
static int fit(const struct gt_live_tracker *t, size_t from, struct gt_trend *out)
{
	double x[GT_LIVE_SET_POINTS], y[GT_LIVE_SET_POINTS];
	size_t m = 0;
	for (size_t i = from; i < t->n; i++, m++) {
		x[m] = (double)(point_at(t, i)->at_ns - t->origin_ns) / NS_PER_S;
		y[m] = (double)point_at(t, i)->bytes;
	}
	return gt_trend_fit(x, y, m, out);
}

static uint64_t deepest_fall(const struct gt_live_tracker *t)
{
	uint64_t peak = 0, fall = 0;
	for (size_t i = 0; i < t->n; i++) {
		uint64_t b = point_at(t, i)->bytes;
		if (b > peak)
			peak = b;
		else if (peak - b > fall)
			fall = peak - b;
	}
	return fall;
}

static void refit(struct gt_live_tracker *t)
{
	t->max_fall = deepest_fall(t);
	t->fit_failed = fit(t, 0, &t->trend) != 0;
	memset(&t->recent, 0, sizeof(t->recent));
	size_t half = t->n / 2;
	if (t->n - half >= GT_LIVE_SET_MIN_RECENT && fit(t, half, &t->recent) != 0)
		t->fit_failed = true;
}

void gt_live_tracker_fold(struct gt_live_tracker *t, const struct gt_sample *s)
{
	bool changed = false;
	if (s->live_log.valid)
		changed = take_new(t, &s->live_log);
	if (drop_old(t, s->mono_ns))
		changed = true;
	if (changed)
		refit(t);
}

/* The plausibility rules. Every figure here comes from the target's own
 * counters (a perf-data file or an event stream the target writes), and
 * one process's memory cannot exceed the host's: so the host's memory
 * (MemTotal, which the collector puts in the sample) bounds each figure,
 * one rule per figure. Where MemTotal is n/a the rules that need it pass. */

/* Rule for a limit: one above the host's memory (or, for the heap's, the
 * container's) is no limit: the process runs out of memory first. */
static bool limit_plausible(const struct gt_sample *s, uint64_t v)
{
	return v > 0 && (!s->host_mem_total_bytes.valid || v <= s->host_mem_total_bytes.value);
}

/* The container's limit when it is one (limit_plausible), else 0. */
static uint64_t container_limit(const struct gt_sample *s)
{
	if (!s->cgroup_limit_bytes.valid || !limit_plausible(s, s->cgroup_limit_bytes.value))
		return 0;
	return s->cgroup_limit_bytes.value;
}

/* The least bound the heap sets on the live set, 0 when none is known; a
 * bound above the host's memory or the container's limit is none. */
static uint64_t heap_bound(const struct gt_sample *s)
{
	const struct gt_u64 *b[] = { &s->old_max_bytes, &s->heap_max_bytes, &s->gc_hard_limit_bytes };
	uint64_t least = 0, container = container_limit(s);
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (b[i]->valid && limit_plausible(s, b[i]->value) && (container == 0 || b[i]->value <= container) &&
		    (least == 0 || b[i]->value < least))
			least = b[i]->value;
	return least;
}

/* A heap maximum or container limit was given but is above the host's
 * memory (limit_plausible): the why of an exhaustion with no limit says so. */
static bool limit_dropped(const struct gt_sample *s)
{
	const struct gt_u64 *b[] = { &s->old_max_bytes, &s->heap_max_bytes, &s->gc_hard_limit_bytes,
				     &s->cgroup_limit_bytes };
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (b[i]->valid && b[i]->value > 0 && !limit_plausible(s, b[i]->value))
			return true;
	return false;
}

/* The room left in the container: its limit less what it uses now. */
static bool container_room(const struct gt_sample *s, double live_now, double *room)
{
	uint64_t limit_bytes = container_limit(s);
	if (limit_bytes == 0)
		return false;
	double limit = (double)limit_bytes;
	if (s->cgroup_working_set_bytes.valid)
		*room = limit - (double)s->cgroup_working_set_bytes.value;
	else if (s->cgroup_usage_bytes.valid)
		*room = limit - (double)s->cgroup_usage_bytes.value;
	else
		*room = limit - live_now;
	if (*room < 0)
		*room = 0;
	return true;
}

/* Rule for the exhaustion: within GT_LIVE_SET_PROJECTION_FACTOR times
 * the span the trend was measured over. */
static bool exhaustion_plausible(const struct gt_live_set *out, double seconds)
{
	return out->span_s.valid && seconds <= out->span_s.value * GT_LIVE_SET_PROJECTION_FACTOR;
}

void gt_live_set_project(const struct gt_sample *s, double live_now, struct gt_live_set *out)
{
	/* a flat or falling line never reaches a limit: seconds per byte 0 */
	double slope = out->growth_bps.value, room = 0, best = -1;
	double per_byte = slope > 0 ? 1 / slope : 0;
	uint64_t bound = heap_bound(s);
	if (bound > 0) {
		gt_u64_set(&out->limit_bytes, bound);
		out->limit_kind = GT_LIVE_LIMIT_HEAP_MAX;
		best = live_now >= (double)bound ? 0 : ((double)bound - live_now) * per_byte;
	}
	if (container_room(s, live_now, &room) && (best < 0 || room * per_byte < best)) {
		gt_u64_set(&out->limit_bytes, s->cgroup_limit_bytes.value);
		out->limit_kind = GT_LIVE_LIMIT_CONTAINER;
		best = room * per_byte;
	}
	if (slope <= 0)
		out->exhaustion_why = "the live set is not growing";
	else if (out->growth_low_bps.value <= 0)
		out->exhaustion_why = "the live set is not growing significantly (its 90% interval includes zero)";
	else if (best < 0 && limit_dropped(s))
		out->exhaustion_why = "no limit is known: the heap's maximum or the container's limit is above the host's "
				      "memory, so it is none";
	else if (best < 0)
		out->exhaustion_why = "no limit is known: the heap has no maximum and the process no container limit";
	else if (!exhaustion_plausible(out, best))
		out->exhaustion_why = "further away than 10 times the span the trend was measured over";
	else
		gt_f64_set(&out->exhaustion_s, best);
}

/* Rule for a live set: no larger than the host's memory. */
static bool bytes_plausible(const struct gt_sample *s, uint64_t bytes)
{
	return !s->host_mem_total_bytes.valid || bytes <= s->host_mem_total_bytes.value;
}

/* Rule for the growth: every point a live set the host could hold, and
 * the line's rise (or fall) over the span no more than the host's memory
 * either: a growth faster than that could not have been measured. */
static bool growth_plausible(const struct gt_live_tracker *t, const struct gt_sample *s, double span_s)
{
	for (size_t i = 0; i < t->n; i++)
		if (!bytes_plausible(s, point_at(t, i)->bytes))
			return false;
	return !s->host_mem_total_bytes.valid || fabs(t->trend.slope) * span_s <= (double)s->host_mem_total_bytes.value;
}

static void growth_figures(const struct gt_live_tracker *t, const struct gt_sample *s, struct gt_live_set *out)
{
	/* past the two minimums the points hold two moments a minute apart,
	 * so the fit is valid unless memory for its slopes was short */
	if (t->fit_failed) {
		out->growth_why = "out of memory for the trend";
	} else if (t->n < GT_LIVE_SET_MIN_POINTS) {
		out->growth_why = "too few points: the trend needs 5 collections that reached the old generation";
	} else if (point_at(t, t->n - 1)->at_ns - point_at(t, 0)->at_ns < GT_LIVE_SET_MIN_SPAN_NS) {
		out->growth_why = "too short a span: the trend needs points over at least a minute";
	} else if (!growth_plausible(t, s, out->span_s.value)) {
		out->growth_why = GT_LIVE_SET_IMPLAUSIBLE
			": the live set grew faster than the host's memory could hold within the window";
	} else {
		gt_f64_set(&out->growth_bps, t->trend.slope);
		gt_f64_set(&out->growth_low_bps, t->trend.low);
		gt_f64_set(&out->growth_high_bps, t->trend.high);
		if (t->recent.valid)
			gt_f64_set(&out->recent_growth_bps, t->recent.slope);
		double x_now = s->mono_ns > t->origin_ns ? (double)(s->mono_ns - t->origin_ns) / NS_PER_S : 0;
		gt_live_set_project(s, t->trend.intercept + t->trend.slope * x_now, out);
		return;
	}
	out->exhaustion_why = out->growth_why;
}

void gt_live_set_figures(const struct gt_live_tracker *t, const struct gt_sample *s, struct gt_live_set *out)
{
	memset(out, 0, sizeof(*out));
	out->missed = t->missed;
	if (t->n == 0) {
		out->why = !s->live_log.valid && s->live_unavailable ? s->live_unavailable
			 : !s->live_log.valid ? "the collector does not measure the live set"
			 : t->next > 0 ? "no collection has reached the old generation in the last 30 minutes"
			 : "no collection has reached the old generation yet";
		out->growth_why = out->exhaustion_why = out->why;
		return;
	}
	const struct gt_live_set_point *newest = point_at(t, t->n - 1);
	if (!bytes_plausible(s, newest->bytes)) {
		out->why = GT_LIVE_SET_IMPLAUSIBLE ": a live set larger than the host's memory";
		out->growth_why = out->exhaustion_why = out->why;
		return;
	}
	out->valid = true;
	out->bytes = newest->bytes;
	out->kind = t->newest_kind;
	out->points = (unsigned)t->n;
	out->max_fall_bytes = t->max_fall;
	gt_f64_set(&out->span_s, (double)(newest->at_ns - point_at(t, 0)->at_ns) / NS_PER_S);
	growth_figures(t, s, out);
}
