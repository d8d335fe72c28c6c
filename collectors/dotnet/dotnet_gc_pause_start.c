/* Where a background GC's final mark counts from, as GC.GetTotalPauseDuration
 * counts it (collectors/dotnet/dotnet_gc_events.h): from the end of the
 * concurrent mark when the suspending thread ended it last or the restart
 * before it was a moment earlier, else from the suspension. */
#include "collectors/dotnet/dotnet_gc_events.h"

void gt_dn_gc_note_restart_end(struct gt_dn_gc *g, int64_t ts)
{
	g->restart_end_ts[g->n_restart_ends++ % GT_DN_RESTART_ENDS] = ts;
}

void gt_dn_gc_note_bgc_start(struct gt_dn_gc *g)
{
	g->have_conc_end = false;
}

void gt_dn_gc_private_event(struct gt_dn_gc *g, uint32_t event_id, uint64_t thread_id, int64_t ts)
{
	/* each background GC thread writes one; the last one lets the final
	 * mark begin */
	if (event_id != GT_DN_EV_PRIVATE_BGC_1ST_CON_END)
		return;
	if (!g->have_conc_end || ts > g->conc_end_ts) {
		g->conc_end_ts = ts;
		g->conc_end_tid = thread_id;
	}
	g->have_conc_end = true;
}

/* The last restart's end at or before ts; false when none is kept. */
static bool restart_end_before(const struct gt_dn_gc *g, int64_t ts, int64_t *out)
{
	unsigned n = g->n_restart_ends < GT_DN_RESTART_ENDS ? g->n_restart_ends : GT_DN_RESTART_ENDS;
	bool found = false;
	for (unsigned i = 0; i < n; i++) {
		int64_t r = g->restart_end_ts[i];
		if (r <= ts && (!found || r > *out)) {
			*out = r;
			found = true;
		}
	}
	return found;
}

int64_t gt_dn_gc_final_mark_start(const struct gt_dn_gc *g, uint64_t suspend_tid, int64_t suspend_ts)
{
	int64_t conc_end = g->conc_end_ts, restart = 0;
	if (!g->have_conc_end || conc_end >= suspend_ts)
		return suspend_ts;
	/* the suspending thread (heap 0's) ended its concurrent mark last: it
	 * went on at once, and the runtime's clock started there (measured:
	 * every such final mark, within 0.05 ms) */
	if (g->conc_end_tid == suspend_tid)
		return conc_end;
	/* another heap's thread last: the suspending thread wakes some time
	 * later, unseen; at once (counted from the end) where the GC thread had
	 * just restarted the program */
	if (!restart_end_before(g, suspend_ts, &restart))
		return suspend_ts;
	/* a restart after the concurrent mark ended (a foreground GC in
	 * between) or long before it: the clock starts at the suspension.
	 * Hostile timestamps: the gap in unsigned arithmetic, in the target's
	 * ticks. */
	if (restart > conc_end)
		return suspend_ts;
	uint64_t gap = (uint64_t)conc_end - (uint64_t)restart;
	double handover = (double)GT_DN_HANDOVER_NS * (double)g->qpc_freq / 1e9;
	return (double)gap <= handover ? conc_end : suspend_ts;
}
