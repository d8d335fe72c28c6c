/* GC event payloads (bytes as .NET 10.0.12 sent them), pause pairing, the
 * anchored totals and the counter series. */
#include <stdio.h>
#include <string.h>

#include "../../collectors/dotnet_counters.h"
#include "../../collectors/dotnet_gc_events.h"
#include "check.h"

/* GCStart_V2 of a background gen2 GC #10, reason AllocLarge (live capture) */
static const uint8_t gc_start[26] = { 0x0a, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
/* GCHeapStats_V2 (live capture): gen0 0x55c7b8, LOH 0x64bc78, POH 0x1ff8 */
static const uint8_t heap_stats[110] = {
	0xb8, 0xc7, 0x55, 0, 0, 0, 0, 0, 0x80, 0x16, 0x3c, 0, 0, 0, 0, 0, 0xe8, 0x9d, 0x3c, 0, 0, 0, 0, 0,
	0xf0, 0xc3, 0x06, 0, 0, 0, 0, 0, 0x70, 0xbf, 0x08, 0, 0, 0, 0, 0, 0x18, 0xa4, 0x03, 0, 0, 0, 0, 0,
	0x78, 0xbc, 0x64, 0, 0, 0, 0, 0, 0x80, 0xd5, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x5e, 0, 0, 0, 0, 0, 0xf8, 0x1f, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
static const uint8_t suspend_for_gc[10] = { 1, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t suspend_other[10] = { 0, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t restart[2] = { 0, 0 };

static void test_payloads(void)
{
	struct gt_dn_gc_start s;
	CHECK(gt_dn_parse_gc_start(gc_start, sizeof(gc_start), &s) == 0);
	CHECK_U64(s.count, 10);
	CHECK_U64(s.depth, 2);
	CHECK_STR(gt_dn_gc_reason_name(s.reason), "AllocLarge");
	CHECK_U64(s.type, 1);
	CHECK(gt_dn_parse_gc_start(gc_start, 15, &s) == -1);

	struct gt_dn_heap_stats h;
	CHECK(gt_dn_parse_heap_stats(heap_stats, sizeof(heap_stats), &h) == 0);
	CHECK_U64(h.gen_size[0], 0x55c7b8);
	CHECK_U64(h.gen_size[3], 0x64bc78);
	CHECK(h.has_poh);
	CHECK_U64(h.gen_size[4], 0x1ff8);
	/* version 1 (94 bytes) has no POH */
	CHECK(gt_dn_parse_heap_stats(heap_stats, 94, &h) == 0);
	CHECK(!h.has_poh);
	CHECK(gt_dn_parse_heap_stats(heap_stats, 63, &h) == -1);
}

static void test_committed_usage(void)
{
	uint8_t p[78] = { 0 };
	const char *name = "CommittedUsage";
	for (size_t i = 0; i < strlen(name); i++)
		p[2 * i] = (uint8_t)name[i];
	p[30] = 42;      /* data size */
	p[34] = 1;       /* version */
	p[36] = 0x10;    /* in use: 0x1000 << 4 ... */
	p[37] = 0x20;    /* = 0x2010 */
	p[36 + 32] = 5;  /* bookkeeping */
	uint64_t c;
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == 0);
	CHECK_U64(c, 0x2010 + 5);
	p[30] = 200;     /* data beyond the payload */
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == -1);
	p[30] = 42;
	p[0] = 'X';      /* another dynamic event */
	CHECK(gt_dn_parse_committed_usage(p, sizeof(p), &c) == 1);
}

static void test_pauses_pair_on_the_suspending_thread(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 1000, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 7, 1100, gc_start, sizeof(gc_start));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_END, 9, 1200, restart, sizeof(restart)); /* another thread */
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_END, 7, 1500, restart, sizeof(restart));
	CHECK_U64(gt_dn_total_value(&g.pause_ns), 500);
	CHECK_U64(g.last_pause_ns, 500);
	/* a suspension for the debugger is no GC pause */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 7, 2000, suspend_other, sizeof(suspend_other));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_END, 7, 9000, restart, sizeof(restart));
	CHECK_U64(gt_dn_total_value(&g.pause_ns), 500);
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 8, 10000, suspend_for_gc, sizeof(suspend_for_gc));
	gt_dn_gc_event(&g, GT_DN_EV_RESTART_EE_END, 8, 10200, restart, sizeof(restart));
	CHECK_U64(gt_dn_total_value(&g.pause_ns), 700);
	CHECK_U64(g.last_pause_ns, 200);
	CHECK_U64(gt_dn_gc_take_window_max(&g), 500);
	CHECK_U64(gt_dn_gc_take_window_max(&g), 0);
	CHECK_U64(gt_dn_total_value(&g.by_depth[2]), 1);
	CHECK(g.background_running);
}

static void test_anchor_counts_only_later_events(void)
{
	static struct gt_dn_total t;
	memset(&t, 0, sizeof(t));
	gt_dn_total_add(&t, 100, 1);
	gt_dn_total_add(&t, 300, 1);
	CHECK_U64(gt_dn_total_value(&t), 2);     /* since attach */
	gt_dn_total_anchor(&t, 200, 50);          /* arrives after the event at 300 */
	CHECK_U64(gt_dn_total_value(&t), 51);
	gt_dn_total_add(&t, 150, 1);              /* late, already in the anchor */
	gt_dn_total_add(&t, 400, 1);
	CHECK_U64(gt_dn_total_value(&t), 52);
	gt_dn_total_anchor(&t, 450, 60);          /* re-anchoring repairs lost events */
	CHECK_U64(gt_dn_total_value(&t), 60);
}

static void test_series_interpolates_between_observations(void)
{
	static struct gt_dn_series s;
	memset(&s, 0, sizeof(s));
	uint64_t v = 0;
	CHECK(!gt_dn_series_at(&s, 5, &v));
	gt_dn_series_add(&s, 1000, 100);
	gt_dn_series_add(&s, 2000, 300);
	gt_dn_series_add(&s, 1500, 999);          /* out of order: ignored */
	CHECK(gt_dn_series_at(&s, 500, &v));
	CHECK_U64(v, 100);
	CHECK(gt_dn_series_at(&s, 1250, &v));
	CHECK_U64(v, 150);
	CHECK(gt_dn_series_at(&s, 5000, &v));
	CHECK_U64(v, 300);
	gt_dn_series_add(&s, 3000, 200);          /* a cumulative figure never falls */
	CHECK(gt_dn_series_at(&s, 3000, &v));
	CHECK_U64(v, 300);
	for (int i = 0; i < 40; i++)
		gt_dn_series_add(&s, 4000 + i * 1000, 400 + (uint64_t)i * 10);
	CHECK(gt_dn_series_at(&s, 42500, &v));
	CHECK_U64(v, 785);
}

/* A CounterRateValuePublished event as the meter's metadata describes it. */
static void metric_meta(struct gt_nettrace_meta *m, struct gt_nettrace_field *f)
{
	static const char *const names[] = { "sessionId", "meterName", "meterVersion", "instrumentName",
					     "unit", "tags", "rate", "value", "instrumentId" };
	memset(m, 0, sizeof(*m));
	snprintf(m->provider, sizeof(m->provider), "System.Diagnostics.Metrics");
	snprintf(m->event_name, sizeof(m->event_name), "CounterRateValuePublished");
	m->event_id = 4;
	m->id = 1;
	for (int i = 0; i < 9; i++) {
		memset(&f[i], 0, sizeof(f[i]));
		f[i].type = i == 8 ? GT_NT_INT32 : GT_NT_STRING;
		f[i].subtree = 1;
		snprintf(f[i].name, sizeof(f[i].name), "%s", names[i]);
	}
	m->fields = f;
	m->n_fields = m->n_top = 9;
	m->fields_decodable = true;
}

static size_t utf16(uint8_t *p, const char *s)
{
	size_t n = 0;
	for (; *s; s++) {
		p[n++] = (uint8_t)*s;
		p[n++] = 0;
	}
	p[n++] = 0;
	p[n++] = 0;
	return n;
}

static size_t metric_payload(uint8_t *p, const char *instrument, const char *tags, const char *value)
{
	const char *v[] = { "SHARED", "System.Runtime", "", instrument, "", tags, "", value };
	size_t n = 0;
	for (int i = 0; i < 8; i++)
		n += utf16(p + n, v[i]);
	memset(p + n, 0, 4);
	return n + 4;
}

static void test_meter_values_anchor_and_fill(void)
{
	static struct gt_dn_gc g;
	static struct gt_dn_counters c;
	gt_dn_gc_init(&g, 1000000000);
	gt_dn_counters_init(&c, true);
	struct gt_nettrace_meta m;
	struct gt_nettrace_field f[9];
	metric_meta(&m, f);
	uint8_t p[1024];
	struct gt_nettrace_event e = { .meta = &m, .payload = p, .timestamp = 5000 };

	gt_dn_gc_event(&g, GT_DN_EV_GC_START, 1, 6000, gc_start, sizeof(gc_start));
	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.collections", "gc.heap.generation=gen2", "17");
	gt_dn_counters_event(&c, &g, &e);
	CHECK_U64(gt_dn_total_value(&g.by_depth[2]), 18);

	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.heap.total_allocated", "", "1.5E+9");
	gt_dn_counters_event(&c, &g, &e);
	uint64_t v = 0;
	CHECK(gt_dn_series_at(&c.alloc, 5000, &v));
	CHECK_U64(v, 1500000000);
	CHECK(c.alloc_since_start);

	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.pause.time", "", "0.018671");
	gt_dn_counters_event(&c, &g, &e);
	CHECK_U64(c.pause_total_ns, 18671000);

	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.last_collection.heap.size", "gc.heap.generation=loh", "3200896");
	gt_dn_counters_event(&c, &g, &e);
	CHECK(c.size_valid[3]);
	CHECK_U64(c.size[3], 3200896);

	/* text that is not a number, and another meter, change nothing */
	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.pause.time", "", "-1");
	gt_dn_counters_event(&c, &g, &e);
	CHECK_U64(c.pause_total_ns, 18671000);
	e.payload_len = (uint32_t)metric_payload(p, "dotnet.gc.collections", "gc.heap.generation=gen2x", "99");
	gt_dn_counters_event(&c, &g, &e);
	CHECK_U64(gt_dn_total_value(&g.by_depth[2]), 18);
	/* a payload cut short is ignored */
	e.payload_len = 10;
	gt_dn_counters_event(&c, &g, &e);
	CHECK_U64(gt_dn_total_value(&g.by_depth[2]), 18);
}

/* An EventCounters event: { Payload: { Name, <value field> } }. */
static void counter_meta(struct gt_nettrace_meta *m, struct gt_nettrace_field *f, const char *provider,
			 const char *value_field)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->provider, sizeof(m->provider), "%s", provider);
	snprintf(m->event_name, sizeof(m->event_name), "EventCounters");
	memset(f, 0, 3 * sizeof(*f));
	f[0] = (struct gt_nettrace_field){ .type = GT_NT_OBJECT, .subtree = 3, .n_children = 2, .name = "Payload" };
	f[1] = (struct gt_nettrace_field){ .type = GT_NT_STRING, .subtree = 1, .name = "Name" };
	f[2] = (struct gt_nettrace_field){ .type = GT_NT_DOUBLE, .subtree = 1 };
	snprintf(f[2].name, sizeof(f[2].name), "%s", value_field);
	m->fields = f;
	m->n_fields = 3;
	m->n_top = 1;
	m->fields_decodable = true;
}

static size_t counter_payload(uint8_t *p, const char *name, double value)
{
	size_t n = utf16(p, name);
	memcpy(p + n, &value, 8);
	return n + 8;
}

static void test_event_counters_without_the_meter(void)
{
	static struct gt_dn_gc g;
	static struct gt_dn_counters c;
	gt_dn_gc_init(&g, 1000000000);
	gt_dn_counters_init(&c, false); /* .NET 8: no System.Runtime meter */
	struct gt_nettrace_meta m;
	struct gt_nettrace_field f[3];
	counter_meta(&m, f, "System.Runtime", "Increment");
	uint8_t p[256];
	struct gt_nettrace_event e = { .meta = &m, .payload = p };
	e.timestamp = 1000;
	e.payload_len = (uint32_t)counter_payload(p, "alloc-rate", 4000000);
	gt_dn_counters_event(&c, &g, &e);
	e.timestamp = 2000;
	e.payload_len = (uint32_t)counter_payload(p, "alloc-rate", 6000000);
	gt_dn_counters_event(&c, &g, &e);
	e.timestamp = 3000;
	e.payload_len = (uint32_t)counter_payload(p, "gen-0-gc-count", 5); /* not an allocation */
	gt_dn_counters_event(&c, &g, &e);
	uint64_t v = 0;
	CHECK(gt_dn_series_at(&c.alloc, 2000, &v));
	CHECK_U64(v, 10000000);
	CHECK(!c.alloc_since_start);

	/* with the meter expected, increments are left to it */
	gt_dn_counters_init(&c, true);
	e.payload_len = (uint32_t)counter_payload(p, "alloc-rate", 4000000);
	gt_dn_counters_event(&c, &g, &e);
	CHECK(!gt_dn_series_at(&c.alloc, 2000, &v));

	/* ASP.NET Core's total-requests is a polled total */
	counter_meta(&m, f, "Microsoft.AspNetCore.Hosting", "Mean");
	e.payload_len = (uint32_t)counter_payload(p, "total-requests", 92);
	gt_dn_counters_event(&c, &g, &e);
	CHECK(gt_dn_series_at(&c.requests, 3000, &v));
	CHECK_U64(v, 92);
}

int main(void)
{
	RUN_TEST(test_payloads);
	RUN_TEST(test_committed_usage);
	RUN_TEST(test_pauses_pair_on_the_suspending_thread);
	RUN_TEST(test_anchor_counts_only_later_events);
	RUN_TEST(test_series_interpolates_between_observations);
	RUN_TEST(test_meter_values_anchor_and_fill);
	RUN_TEST(test_event_counters_without_the_meter);
	return check_summary();
}
