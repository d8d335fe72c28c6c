/* A census session's events (dotnet_census_run.h). */
#include "collectors/dotnet/dotnet_census_run.h"

#include <string.h>

#include "base/cursor.h"
#include "collectors/dotnet/dotnet_census.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/sampler/dotnet_alloc_events.h"

/* GCStart's Type of a background collection */
#define GC_TYPE_BACKGROUND 1
#define NS_PER_S 1000000000ull

static void on_node(struct gt_dn_census_run *r, const uint8_t *p, size_t n)
{
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

static void on_gc(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	struct gt_dn_gc_start s;
	switch (e->meta->event_id) {
	case GT_DN_EV_SUSPEND_EE_BEGIN:
		if (r->phase == GT_DN_CENSUS_WAIT_START) {
			r->suspend_ts = e->timestamp;
			r->have_suspend = true;
		}
		break;
	case GT_DN_EV_GC_START:
		if (r->phase == GT_DN_CENSUS_WAIT_START && gt_dn_parse_gc_start(e->payload, e->payload_len, &s) == 0 &&
		    s.depth == 2 && s.type != GC_TYPE_BACKGROUND) {
			r->phase = GT_DN_CENSUS_IN_GC;
			r->gc_count = s.count;
			r->pause_from = r->suspend_ts;
		}
		break;
	case GT_DN_EV_HEAP_STATS:
		if (r->phase == GT_DN_CENSUS_IN_GC &&
		    gt_dn_census_total_promoted(e->payload, e->payload_len, &r->promoted) == 0)
			r->have_promoted = true;
		break;
	case GT_DN_EV_GC_END:
		if (r->phase == GT_DN_CENSUS_IN_GC && e->payload_len >= 4 && gt_le(e->payload, 4) == r->gc_count)
			r->phase = GT_DN_CENSUS_AFTER_STOP;
		break;
	case GT_DN_EV_RESTART_EE_BEGIN:
		if (r->phase == GT_DN_CENSUS_AFTER_STOP) {
			r->pause_to = e->timestamp;
			r->phase = GT_DN_CENSUS_DONE;
		}
		break;
	}
}

void gt_dn_census_run_event(struct gt_dn_census_run *r, const struct gt_nettrace_event *e)
{
	if (strcmp(e->meta->provider, GT_DN_RUNTIME_PROVIDER) != 0)
		return;
	if (e->meta->event_id == GT_DN_EV_BULK_TYPE) {
		if (gt_dn_census_bulk_type(r->table, e->payload, e->payload_len) != 0)
			r->malformed++;
	} else if (e->meta->event_id == GT_DN_EV_BULK_NODE) {
		/* the walk's nodes belong to the induced collection */
		if (r->phase != GT_DN_CENSUS_WAIT_START)
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

