/* A census session's events (dotnet_census_run.h). */
#include "collectors/dotnet/dotnet_census_run.h"

#include <string.h>

#include "base/cursor.h"
#include "collectors/dotnet/dotnet_census.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/sampler/dotnet_alloc_events.h"

/* GCStart's Type of a background collection */
#define GC_TYPE_BACKGROUND 1
/* GCStart's Reason when a session's GCHeapCollect keyword asks
 * (ETW::GCLog::ForceGC: GarbageCollect(-1, not low memory, blocking)) */
#define GC_REASON_INDUCED 1
#define NS_PER_S 1000000000ull

/* BulkNode's Index counts a walk's events from 0. An Index below the next
 * one expected is another walk: every session that enabled the heap-dump
 * keyword receives the walk of every collection such a session induced (a
 * census still stopping, another tool's), and counting both gave twice
 * the program's objects (112,000 for 56,000, beside another test's
 * workload). The first walk alone is counted: a whole heap's objects. */
static bool another_walk(struct gt_dn_census_run *r, const uint8_t *p, size_t n)
{
	if (!r->other_walk && n >= 4 && r->next_index > 0 && (uint32_t)gt_le(p, 4) < r->next_index)
		r->other_walk = true;
	return r->other_walk;
}

static void on_node(struct gt_dn_census_run *r, const uint8_t *p, size_t n)
{
	if (another_walk(r, p, n))
		return;
	uint32_t index;
	if (gt_dn_census_bulk_node(r->table, p, n, &index) != 0) {
		r->malformed++;
		return;
	}
	if (index > r->next_index)
		r->lost_node_events += index - r->next_index;
	if (index >= r->next_index)
		r->next_index = index + 1;
}

static uint32_t kept(uint32_t n)
{
	return n < GT_DN_CENSUS_KEPT ? n : GT_DN_CENSUS_KEPT;
}

/* The kept GCEnd of the induced collection, or NULL. */
static const struct gt_dn_census_gc_end *induced_end(const struct gt_dn_census_run *r)
{
	for (uint32_t i = 0; i < kept(r->n_ends); i++)
		if (r->ends[i].count == r->gc_count)
			return &r->ends[i];
	return NULL;
}

/* The phase from what has been seen so far, in any order: the induced
 * GCStart, its GCEnd (same Count), and a RestartEE stamped after that
 * GCEnd; the pause from the last SuspendEE stamped before the GCStart. */
static void advance(struct gt_dn_census_run *r)
{
	if (r->phase == GT_DN_CENSUS_DONE || !r->have_start)
		return;
	const struct gt_dn_census_gc_end *end = induced_end(r);
	if (!end) {
		r->phase = GT_DN_CENSUS_IN_GC;
		return;
	}
	bool restarted = false;
	for (uint32_t i = 0; i < kept(r->n_restarts); i++)
		if (r->restarts[i] > end->ts && (!restarted || r->restarts[i] < r->pause_to)) {
			r->pause_to = r->restarts[i];
			restarted = true;
		}
	if (!restarted) {
		r->phase = GT_DN_CENSUS_AFTER_STOP;
		return;
	}
	r->phase = GT_DN_CENSUS_DONE;
	r->promoted = end->promoted;
	r->have_promoted = end->have_promoted;
	for (uint32_t i = 0; i < kept(r->n_suspends); i++)
		if (r->suspends[i] <= r->start_ts && (!r->have_suspend || r->suspends[i] > r->pause_from)) {
			r->pause_from = r->suspends[i];
			r->have_suspend = true;
		}
}

static void on_gc_end(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	if (e->payload_len < 4)
		return;
	struct gt_dn_census_gc_end *end = &r->ends[r->n_ends++ % GT_DN_CENSUS_KEPT];
	*end = (struct gt_dn_census_gc_end){ (uint32_t)gt_le(e->payload, 4), e->thread_id, e->timestamp, 0, false };
}

/* HeapStats follows its collection's GCEnd on the same thread. */
static void on_heap_stats(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	for (uint32_t k = 0; k < kept(r->n_ends); k++) {
		struct gt_dn_census_gc_end *end = &r->ends[(r->n_ends - 1 - k) % GT_DN_CENSUS_KEPT];
		if (end->tid != e->thread_id)
			continue;
		if (!end->have_promoted &&
		    gt_dn_census_total_promoted(e->payload, e->payload_len, &end->promoted) == 0)
			end->have_promoted = true;
		return;
	}
}

static void on_gc(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	struct gt_dn_gc_start s;
	switch (e->meta->event_id) {
	case GT_DN_EV_SUSPEND_EE_BEGIN:
		r->suspends[r->n_suspends++ % GT_DN_CENSUS_KEPT] = e->timestamp;
		break;
	case GT_DN_EV_GC_START:
		if (!r->have_start && gt_dn_parse_gc_start(e->payload, e->payload_len, &s) == 0 && s.depth == 2 &&
		    s.type != GC_TYPE_BACKGROUND && s.reason == GC_REASON_INDUCED) {
			r->have_start = true;
			r->gc_count = s.count;
			r->start_ts = e->timestamp;
		}
		break;
	case GT_DN_EV_HEAP_STATS:
		on_heap_stats(r, e);
		break;
	case GT_DN_EV_GC_END:
		on_gc_end(r, e);
		break;
	case GT_DN_EV_RESTART_EE_BEGIN:
		r->restarts[r->n_restarts++ % GT_DN_CENSUS_KEPT] = e->timestamp;
		break;
	default:
		return;
	}
	advance(r);
}

void gt_dn_census_run_event(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	if (strcmp(e->meta->provider, GT_DN_RUNTIME_PROVIDER) != 0)
		return;
	if (e->meta->event_id == GT_DN_EV_BULK_TYPE) {
		if (gt_dn_census_bulk_type(r->table, e->payload, e->payload_len) != 0)
			r->malformed++;
	} else if (e->meta->event_id == GT_DN_EV_BULK_NODE) {
		/* only a collection a session induced walks the heap
		 * (ETW::GCLog::ShouldWalkHeapObjectsForEtw), and its nodes can
		 * come before its GCStart in the stream */
		on_node(r, e->payload, e->payload_len);
	} else {
		on_gc(r, e);
	}
}

const char *gt_dn_census_run_partial(const struct gt_dn_census_run *r, const struct gt_dn_census_end *se)
{
	const char *cap = gt_dn_census_table_partial(r->table);
	if (cap)
		return cap;
	if (se->dropped > 0 || r->lost_node_events > 0)
		return "the runtime dropped events of the heap walk (its session buffer was full, as .NET 10 drops "
		       "them on large heaps); objects are missing";
	if (r->malformed > 0)
		return "some of the heap walk's events were malformed; their objects are not counted";
	if (se->cut)
		return "the session's stream did not end after the collection; objects still in the runtime's "
		       "buffers are not counted";
	uint64_t walked = gt_dn_census_table_aligned_bytes(r->table);
	if (r->have_promoted && walked < r->promoted / 100 * (100 - GT_DN_CENSUS_SHORT_PERCENT))
		return "the heap walk's objects fall more than 5% short of what the collection found live; "
		       "objects are missing";
	return NULL;
}

void gt_dn_census_run_pause(const struct gt_dn_census_run *r, struct gt_census *out)
{
	if (!r->have_suspend || r->qpc_freq <= 0 || r->pause_to <= r->pause_from)
		return;
	out->pause_valid = true;
	out->pause_ns = (uint64_t)((double)(r->pause_to - r->pause_from) * (double)NS_PER_S / (double)r->qpc_freq);
}

