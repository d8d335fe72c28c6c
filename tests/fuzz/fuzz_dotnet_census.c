/* Fuzz target for the .NET census's payload parsers and its session's
 * events (collectors/dotnet/dotnet_census_events.h, dotnet_census_run.h).
 * The input is tried whole as a BulkType, a GCBulkNode and a GCHeapStats
 * payload, then read as records (kind byte, 16-bit length, payload) handed
 * to the session as events: kind picks BulkType, BulkNode, GCStart,
 * GCStop, GCHeapStats, SuspendEE or RestartEE. The census read out must
 * hold: names NUL-terminated, rows sorted by bytes, rows summing to the
 * totals. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_census_events.h"
#include "collectors/dotnet/dotnet_census_run.h"
#include "collectors/dotnet/dotnet_gc_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t KINDS[] = {
	GT_DN_EV_BULK_TYPE, GT_DN_EV_BULK_NODE, GT_DN_EV_GC_START, GT_DN_EV_GC_END,
	GT_DN_EV_HEAP_STATS, GT_DN_EV_SUSPEND_EE_BEGIN, GT_DN_EV_RESTART_EE_BEGIN,
};

static void check_census(const struct gt_dn_census_table *t)
{
	struct gt_census c;
	memset(&c, 0, sizeof(c));
	if (gt_dn_census_table_result(t, &c) != 0)
		return;
	uint64_t count = 0, bytes = 0;
	for (size_t i = 0; i < c.n_types; i++) {
		if (memchr(c.types[i].name, '\0', sizeof(c.types[i].name)) == NULL)
			__builtin_trap();
		if (i > 0 && c.types[i].bytes > c.types[i - 1].bytes)
			__builtin_trap();
		count += c.types[i].count;
		bytes += c.types[i].bytes;
	}
	if (count != c.total_count || bytes != c.total_bytes)
		__builtin_trap();
	free(c.types);
}

static void as_events(struct gt_dn_census_run *r, const uint8_t *data, size_t size)
{
	struct gt_nettrace_meta meta;
	memset(&meta, 0, sizeof(meta));
	strcpy(meta.provider, "Microsoft-Windows-DotNETRuntime");
	size_t off = 0;
	int64_t ts = 0;
	while (size - off >= 3) {
		meta.event_id = KINDS[data[off] % (sizeof(KINDS) / sizeof(KINDS[0]))];
		size_t len = (size_t)data[off + 1] | (size_t)data[off + 2] << 8;
		off += 3;
		if (len > size - off)
			len = size - off;
		struct gt_nettrace_event e = { .meta = &meta, .timestamp = ts += 100, .payload = data + off,
					       .payload_len = (uint32_t)len };
		gt_dn_census_run_event(r, &e);
		off += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	if (!t)
		return 0;
	uint32_t index;
	uint64_t promoted;
	gt_dn_census_bulk_type(t, data, size);
	gt_dn_census_bulk_node(t, data, size, &index);
	gt_dn_census_total_promoted(data, size, &promoted);
	check_census(t);
	gt_dn_census_table_free(t);

	struct gt_dn_census_run r;
	memset(&r, 0, sizeof(r));
	r.table = gt_dn_census_table_new();
	r.qpc_freq = 1000000000;
	if (!r.table)
		return 0;
	as_events(&r, data, size);
	struct gt_dn_census_end end = { 0, false };
	struct gt_census c;
	memset(&c, 0, sizeof(c));
	gt_dn_census_run_partial(&r, &end);
	gt_dn_census_run_pause(&r, &c);
	check_census(r.table);
	gt_dn_census_table_free(r.table);
	return 0;
}
