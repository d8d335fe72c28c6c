/* Fuzz target for the nettrace parser: the input is fed as a stream in two
 * pieces split where its first byte says (so chunk boundaries land
 * everywhere), every delivered event goes through the GC and counter
 * decoders, and the input is also tried as a single metadata record. */
#include <stdint.h>
#include <string.h>

#include "../../collectors/dotnet_counters.h"
#include "../../collectors/dotnet_gc_events.h"
#include "../../collectors/nettrace.h"

static struct gt_dn_gc gc;
static struct gt_dn_counters counters;

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	(void)ctx;
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
	struct gt_nettrace_callbacks cb = { NULL, NULL, on_event };
	struct gt_nettrace *p = gt_nettrace_new(&cb);
	if (!p)
		return 0;
	size_t split = size > 0 ? (size_t)data[0] * size / 256 : 0;
	if (gt_nettrace_feed(p, data, split) == 0)
		gt_nettrace_feed(p, data + split, size - split);
	gt_nettrace_free(p);

	struct gt_nettrace_meta m;
	if (gt_nettrace_parse_meta(data, size, &m) == 0)
		gt_nettrace_meta_clear(&m);
	uint64_t v;
	gt_dn_series_at(&counters.alloc, 0, &v);
	return 0;
}
