/* Each collector's pauses since gctop began watching, by length, for
 * jvm_gc_duration_seconds' buckets. Perf data keeps per collector its
 * count, total time and the newest pause's entry and exit stamps; the JVM
 * writes the count and then the entry stamp as a pause starts, the exit
 * stamp and then the time as it ends. A poll that finds one new finished
 * pause times it by its stamps; so does one that finds several when the
 * newest is the pause an earlier poll saw under way (its entry stamp was
 * read then): back to back collections, where most polls land inside a
 * pause. The others of several (they came faster than the tick) are known
 * only by their count and total time and are counted at their mean length.
 * The count and the sum are the counters' own deltas either way. */
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
	/* none is negative in a JVM's file; in a hostile one, a difference of
	 * two non-negative values cannot overflow */
	return r->invocations >= 0 && r->time >= 0 && r->entry >= 0 && r->exit >= 0;
}

/* The newest finished pause's length in ns, when its entry is known: its
 * own stamp (no pause under way since), or the one a poll read while it
 * was under way. */
static bool durations_newest(const struct hotspot_durations *d, int i, const struct hotspot_counters *c,
			     const struct durations_reading *r, int64_t finished, uint64_t *ns)
{
	int64_t entry;
	if (r->entry <= r->exit)
		entry = r->entry;
	else if (d->pending_valid[i] && d->pending_no[i] == finished && d->pending_entry[i] <= r->exit)
		entry = d->pending_entry[i];
	else
		return false;
	*ns = hotspot_ticks_to_ns(c, r->exit - entry);
	return true;
}

/* The pauses finished since the last poll: the newest by its stamps where
 * known, the others at their mean (what the time counter adds beyond the
 * newest). The sum grows by the time counter's delta, or by the newest
 * pause where a poll read its exit stamp before its time was added. */
static void durations_count(struct gt_duration_hist *h, int64_t pauses, uint64_t total, bool known, uint64_t newest)
{
	if (!known) {
		gt_duration_hist_add(h, total, (uint64_t)pauses);
		if (pauses > 1)
			h->merged += (uint64_t)pauses;
		return;
	}
	uint64_t rest = total > newest ? total - newest : 0;
	gt_duration_hist_add(h, newest, 1);
	if (pauses > 1) {
		gt_duration_hist_add(h, rest, (uint64_t)pauses - 1);
		h->merged += (uint64_t)pauses - 1;
	} else {
		h->sum_ns += rest;
	}
}

/* Shenandoah's stamps and time bracket concurrent phases too: it has none. */
void hotspot_durations_note(struct hotspot_durations *d, const struct hotspot_counters *c, bool count)
{
	if (c->gc == HOTSPOT_GC_SHENANDOAH)
		return;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		struct durations_reading r;
		if (!durations_read(&c->collector[i], &r))
			continue;
		bool under_way = r.entry > r.exit;
		int64_t finished = under_way ? r.invocations - 1 : r.invocations;
		/* A count up with no new exit: a pause whose entry stamp is not
		 * written yet, or none finished. */
		if (d->primed[i] && r.exit == d->exit[i])
			finished = d->finished[i];
		int64_t pauses = finished - d->finished[i], time = r.time - d->time[i];
		if (count && d->primed[i] && pauses >= 0 && time >= 0) {
			d->hist[i].valid = true;
			uint64_t newest = 0;
			bool known = durations_newest(d, i, c, &r, finished, &newest);
			if (pauses > 0)
				durations_count(&d->hist[i], pauses, hotspot_ticks_to_ns(c, time), known, newest);
		}
		if (!d->primed[i] || (pauses >= 0 && time >= 0)) {
			d->finished[i] = finished;
			d->time[i] = r.time;
			d->exit[i] = r.exit;
		}
		d->primed[i] = true;
		d->pending_valid[i] = under_way;
		d->pending_entry[i] = r.entry;
		d->pending_no[i] = r.invocations;
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
