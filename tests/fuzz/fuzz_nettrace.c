/* Fuzz target for the nettrace parser: the input is fed as a stream in two
 * pieces split where its first byte says (so chunk boundaries land
 * everywhere), every delivered event goes through the GC and counter
 * decoders and the allocation sampler (stacks, method loads, allocation
 * events), the pauses and GCs are then read by time at moments near and
 * far, and the input is also tried as a single metadata record. */
#include <stdint.h>
#include <string.h>

#include "collectors/dotnet/sampler/dotnet_alloc.h"
#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/nettrace/nettrace.h"

static struct gt_dn_gc gc;
static struct gt_dn_counters counters;
static struct gt_dn_alloc *alloc;

static void on_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	(void)ctx;
	gt_dn_alloc_set_pointer_size(alloc, t->pointer_size);
}

static void on_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
	(void)ctx;
	gt_dn_alloc_stack(alloc, id, ips, size);
}

static void on_sequence_point(void *ctx)
{
	(void)ctx;
	gt_dn_alloc_sequence_point(alloc);
}

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	(void)ctx;
	if (e->meta->event_id == GT_DN_EV_METHOD_LOAD_VERBOSE || e->meta->event_id == GT_DN_EV_METHOD_DC_END_VERBOSE)
		gt_dn_alloc_method(alloc, e->payload, e->payload_len);
	gt_dn_alloc_event(alloc, e->meta->event_id, e->stack_id, e->payload, e->payload_len);
	if (strcmp(e->meta->provider, "Microsoft-Windows-DotNETRuntime") == 0)
		gt_dn_gc_event(&gc, e->meta->event_id, e->thread_id, e->timestamp, e->payload, e->payload_len);
	else
		gt_dn_counters_event(&counters, e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gt_dn_gc_init(&gc, 1000000000);
	gt_dn_counters_init(&counters);
	/* both ways of taking the first alloc-rate poll (.NET 10 counts it) */
	counters.first_counts = size > 1 && (data[1] & 2);
	alloc = gt_dn_alloc_new(size > 1 && (data[1] & 1), NULL, NULL);
	struct gt_nettrace_callbacks cb = { NULL, on_trace, on_event };
	struct gt_nettrace *p = gt_nettrace_new(&cb);
	if (!p || !alloc) {
		gt_nettrace_free(p);
		gt_dn_alloc_free(alloc);
		return 0;
	}
	gt_nettrace_set_stack_callbacks(p, on_stack, on_sequence_point);
	size_t split = size > 0 ? (size_t)data[0] * size / 256 : 0;
	if (gt_nettrace_feed(p, data, split) == 0)
		gt_nettrace_feed(p, data + split, size - split);
	gt_nettrace_free(p);
	static struct gt_alloc_snapshot snap;
	gt_dn_alloc_snapshot(alloc, 1, &snap);
	gt_dn_alloc_free(alloc);

	struct gt_nettrace_meta m;
	if (gt_nettrace_parse_meta(data, size, &m) == 0)
		gt_nettrace_meta_clear(&m);
	uint64_t v;
	gt_dn_series_at(&counters.requests, 0, &v);
	/* the pauses and GCs by the target's timestamps, at moments around
	 * and far from them */
	static struct gt_sample s;
	static const int64_t at[] = { INT64_MIN, -1, 0, 1000000000, INT64_MAX };
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		gt_dn_gc_fill_pause_at(&gc, (uint64_t)i + 1, at[i], &s);
		gt_dn_gc_collections_until(&gc, at[i]);
	}
	return 0;
}
