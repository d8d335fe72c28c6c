/* Each collector's pauses since gctop began watching, by length, for
 * jvm_gc_duration_seconds' buckets. Perf data keeps per collector its
 * count, total time and the newest pause's entry and exit stamps, so a
 * poll that finds one new pause times it exactly (exit - entry); a poll
 * that finds several (they came faster than the tick) knows the newest one
 * exactly and the others only by their count and total time, and counts
 * them at their mean length. The count and the sum stay exact either way:
 * they are the counters' own deltas. */
#include "collectors/hotspot/hotspot_internal.h"

#include "model/pause_hist.h"

/* One collector's counters as one poll read them. */
struct durations_reading {
	int64_t invocations, time, entry, exit;
};

static bool durations_read(const struct hotspot_collector_counters *k, struct durations_reading *r)
{
	if (!k->invocations || !k->time || !k->last_entry || !k->last_exit)
		return false;
	r->invocations = hsperf_load(k->invocations);
	r->time = hsperf_load(k->time);
	r->entry = hsperf_load(k->last_entry);
	r->exit = hsperf_load(k->last_exit);
	return true;
}

/* The pauses between the last poll and r: the newest by its stamps, the
 * others at their mean (what the time counter adds beyond the newest).
 * The sum grows by the time counter's delta, or by the newest pause where
 * a poll read its exit stamp before its time was added. */
static void durations_count(struct gt_duration_hist *h, const struct hotspot_counters *c, int64_t pauses,
			    int64_t time, const struct durations_reading *r, bool newest_seen)
{
	uint64_t total = hotspot_ticks_to_ns(c, time);
	if (!newest_seen) {
		gt_duration_hist_add(h, total, (uint64_t)pauses);
		return;
	}
	uint64_t newest = hotspot_ticks_to_ns(c, r->exit - r->entry);
	uint64_t rest = total > newest ? total - newest : 0;
	gt_duration_hist_add(h, newest, 1);
	if (pauses > 1)
		gt_duration_hist_add(h, rest, (uint64_t)pauses - 1);
	else
		h->sum_ns += rest;
}

/* A collector's counters are written at a pause's entry (count, entry
 * stamp) and exit (exit stamp, then time): a poll between those sees a
 * pause under way, whose time is not counted yet, so it waits for one that
 * sees all of them settled. Shenandoah's stamps and time bracket
 * concurrent phases too: it has none. */
void hotspot_durations_note(struct hotspot_durations *d, const struct hotspot_counters *c, bool count)
{
	if (c->gc == HOTSPOT_GC_SHENANDOAH)
		return;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		struct durations_reading r;
		if (!durations_read(&c->collector[i], &r) || r.entry > r.exit || r.entry < 0)
			continue;
		int64_t pauses = r.invocations - d->invocations[i], time = r.time - d->time[i];
		if (count && d->primed[i] && pauses >= 0 && time >= 0) {
			d->hist[i].valid = true;
			if (pauses > 0)
				durations_count(&d->hist[i], c, pauses, time, &r, r.exit != d->exit[i]);
		}
		d->primed[i] = true;
		d->invocations[i] = r.invocations;
		d->time[i] = r.time;
		d->exit[i] = r.exit;
	}
}

void hotspot_durations_fill(const struct hotspot_durations *d, const struct hotspot_counters *c, struct gt_sample *out)
{
	unsigned n = 0;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS && n < out->n_collectors; i++) {
		if (!hotspot_collector_listed(&c->collector[i]))
			continue;
		out->collectors[n++].durations = d->hist[i];
	}
}
