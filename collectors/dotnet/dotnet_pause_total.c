#include "collectors/dotnet/dotnet_pause_total.h"

/* The polls around at: the newest at or before it (a) and the oldest
 * after it (b); b is a where at is a poll's moment. */
static bool polls_around(const struct gt_dn_series *polls, int64_t at, int64_t *a_ts, uint64_t *a, int64_t *b_ts,
			 uint64_t *b)
{
	int64_t ts;
	uint64_t v;
	if (!gt_dn_series_nth(polls, 0, &ts, &v) || at > ts)
		return false;
	*b_ts = ts;
	*b = v;
	for (unsigned age = 0; gt_dn_series_nth(polls, age, &ts, &v); age++) {
		if (ts <= at) {
			*a_ts = ts;
			*a = v;
			if (ts == at) {
				*b_ts = ts;
				*b = v;
			}
			return true;
		}
		*b_ts = ts;
		*b = v;
	}
	return false;
}

/* The share of the counter's growth between the polls at a_ts and b_ts
 * reached by at, where the events missed none of it or did not see the
 * pauses it missed: as the events' pause time grew, linearly where they
 * saw none. */
static double spread(const struct gt_dn_gc *g, int64_t a_ts, int64_t b_ts, int64_t at)
{
	uint64_t ea = gt_dn_gc_pause_until(g, a_ts), eb = gt_dn_gc_pause_until(g, b_ts);
	if (eb > ea) {
		uint64_t et = gt_dn_gc_pause_until(g, at);
		return et <= ea ? 0 : et >= eb ? 1 : (double)(et - ea) / (double)(eb - ea);
	}
	/* in doubles: hostile timestamps could overflow an int64 difference */
	return ((double)at - (double)a_ts) / ((double)b_ts - (double)a_ts);
}

/* Where the counter grew by more than the events' pauses between the
 * polls and a background GC's final mark came between them: the events'
 * pauses as timed up to at, and the time they missed, which the runtime
 * counts just before a final mark's suspension (dotnet_gc_events.h), in
 * equal parts at the final marks' starts up to at. false otherwise. */
static bool at_final_marks(const struct gt_dn_gc *g, int64_t a_ts, int64_t b_ts, int64_t at, uint64_t grow,
			   uint64_t *placed)
{
	uint64_t ea = gt_dn_gc_pause_until(g, a_ts), eb = gt_dn_gc_pause_until(g, b_ts), n_all, n_by;
	if (eb < ea || eb - ea >= grow || !gt_dn_gc_final_marks(g, a_ts, b_ts, &n_all) || n_all == 0 ||
	    !gt_dn_gc_final_marks(g, a_ts, at, &n_by))
		return false;
	uint64_t et = gt_dn_gc_pause_until(g, at);
	et = et < ea ? ea : et > eb ? eb : et;
	uint64_t missed = grow - (eb - ea);
	*placed = (et - ea) + (uint64_t)((double)missed * (double)n_by / (double)n_all + 0.5);
	return true;
}

/* After the last poll: its total and the events' pause time since. */
static bool after_last_poll(const struct gt_dn_series *polls, const struct gt_dn_gc *g, int64_t at, uint64_t *total)
{
	int64_t last_ts;
	uint64_t last;
	if (!gt_dn_series_nth(polls, 0, &last_ts, &last) || at <= last_ts)
		return false;
	uint64_t e_last = gt_dn_gc_pause_until(g, last_ts), e_at = gt_dn_gc_pause_until(g, at);
	*total = last + (e_at > e_last ? e_at - e_last : 0);
	return true;
}

bool gt_dn_pause_total_at(const struct gt_dn_series *polls, const struct gt_dn_gc *g, int64_t at, uint64_t *total)
{
	int64_t a_ts, b_ts;
	uint64_t a, b, placed;
	if (after_last_poll(polls, g, at, total))
		return true;
	if (!polls_around(polls, at, &a_ts, &a, &b_ts, &b))
		return false;
	*total = a;
	/* totals never fall (gt_dn_series_add), and b_ts > a_ts where b != a */
	if (b <= a || b_ts <= a_ts)
		return true;
	if (!at_final_marks(g, a_ts, b_ts, at, b - a, &placed))
		placed = (uint64_t)((double)(b - a) * spread(g, a_ts, b_ts, at) + 0.5);
	*total = a + (placed < b - a ? placed : b - a);
	return true;
}
