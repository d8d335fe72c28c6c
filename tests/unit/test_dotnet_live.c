/* The live set from the GC events: what each gen2 GC kept (GCHeapStats'
 * promoted bytes), paired with its GC by the GCEnd its thread wrote just
 * before, blocking or background; the ephemeral GCs give no point. */
#include <string.h>

#include "collectors/dotnet/dotnet_gc_events.h"
#include "tests/unit/check.h"
#include "tests/unit/dotnet_captured.h"

/* the captured GCHeapStats' promoted bytes, all generations */
#define KEPT (0x3c1680ULL + 0x06c3f0 + 0x03a418 + 0x30d580)

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* GCStart_V2 of GC `count` at `depth`, type 0 blocking or 1 background */
static void gc_start(struct gt_dn_gc *g, uint64_t tid, int64_t ts, uint32_t count, uint32_t depth, uint32_t type)
{
	uint8_t p[26] = { 0 };
	put_u32(p, count);
	put_u32(p + 4, depth);
	put_u32(p + 12, type);
	gt_dn_gc_event(g, GT_DN_EV_GC_START, tid, ts, p, sizeof(p));
}

static void gc_end(struct gt_dn_gc *g, uint64_t tid, int64_t ts, uint32_t count, uint32_t depth)
{
	uint8_t p[10] = { 0 };
	put_u32(p, count);
	put_u32(p + 4, depth);
	gt_dn_gc_event(g, GT_DN_EV_GC_END, tid, ts, p, sizeof(p));
}

/* the captured stats with the gen2 promoted bytes set to gen2 */
static void stats(struct gt_dn_gc *g, uint64_t tid, int64_t ts, uint64_t gen2)
{
	uint8_t p[sizeof(heap_stats)];
	memcpy(p, heap_stats, sizeof(p));
	put_u64(p + 40, gen2);
	gt_dn_gc_event(g, GT_DN_EV_HEAP_STATS, tid, ts, p, sizeof(p));
}

static void test_promoted_bytes_parsed(void)
{
	struct gt_dn_heap_stats h;
	CHECK(gt_dn_parse_heap_stats(heap_stats, sizeof(heap_stats), &h) == 0);
	CHECK_U64(h.promoted[0], 0x3c1680);
	CHECK_U64(h.promoted[1], 0x06c3f0);
	CHECK_U64(h.promoted[2], 0x03a418);
	CHECK_U64(h.promoted[3], 0x30d580);
	CHECK_U64(h.promoted[4], 0);
	uint8_t p[sizeof(heap_stats)];
	memcpy(p, heap_stats, sizeof(p));
	put_u64(p + 102, 4096);          /* TotalPromotedSize4, the last field */
	CHECK(gt_dn_parse_heap_stats(p, sizeof(p), &h) == 0);
	CHECK_U64(h.promoted[4], 4096);
	CHECK_U64(h.gen_size[4], 0x1ff8);
	/* POH's size but not its promoted bytes: none counted */
	CHECK(gt_dn_parse_heap_stats(p, 109, &h) == 0);
	CHECK(h.has_poh);
	CHECK_U64(h.promoted[4], 0);
}

/* A background GC (#10, started on thread 1, ended by the background GC's
 * thread 2) with an ephemeral GC nested in it (#11, thread 3), then a
 * blocking gen2 (#12, thread 3): two points, each from the stats its own
 * thread wrote after its GCEnd. */
static void test_gen2_points_blocking_and_background(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	/* stats before any GCEnd (the session began mid-GC): no GC to name */
	stats(&g, 2, 50, 1);
	CHECK_U64(g.live_count, 0);
	gc_start(&g, 1, 100, 10, 2, 1);
	gc_start(&g, 3, 200, 11, 1, 0);
	gc_end(&g, 3, 300, 11, 1);
	gc_end(&g, 2, 350, 10, 2);
	stats(&g, 3, 310, 7);            /* the gen1's: no point, though read after the gen2's end */
	CHECK_U64(g.live_count, 0);
	stats(&g, 2, 360, 1000);
	CHECK_U64(g.live_count, 1);
	CHECK_U64(g.live[0].bytes, KEPT - 0x03a418 + 1000);
	CHECK(g.live[0].ts == 360);
	CHECK(g.live[0].background);
	stats(&g, 2, 370, 5);            /* a second stats for one GC: no second point */
	CHECK_U64(g.live_count, 1);
	gc_start(&g, 3, 400, 12, 2, 0);
	gc_end(&g, 3, 500, 12, 2);
	stats(&g, 3, 501, 2000);
	CHECK_U64(g.live_count, 2);
	CHECK_U64(g.live[1].bytes, KEPT - 0x03a418 + 2000);
	CHECK(!g.live[1].background);
	/* the heap after the last GC is still taken from every stats */
	CHECK(g.have_heap);
	CHECK(g.heap_ts == 501);
	/* #13 starts as a background GC but ends on the thread that started
	 * it: it went on blocking, and is no background GC */
	gc_start(&g, 3, 600, 13, 2, 1);
	gc_end(&g, 3, 700, 13, 2);
	stats(&g, 3, 701, 3000);
	CHECK_U64(g.live_count, 3);
	CHECK(!g.live[2].background);
}

/* Hostile sizes add up to at most UINT64_MAX; the ring keeps the last
 * GT_LIVE_RING points. */
static void test_live_ring_and_overflow(void)
{
	static struct gt_dn_gc g;
	gt_dn_gc_init(&g, 1000000000);
	gc_end(&g, 4, 10, 1, 2);
	stats(&g, 4, 11, UINT64_MAX - 5);
	CHECK_U64(g.live[0].bytes, UINT64_MAX);
	for (uint32_t k = 2; k < GT_LIVE_RING + 4; k++) {
		gc_end(&g, 4, 100 * k, k, 2);
		stats(&g, 4, 100 * k + 1, k);
	}
	CHECK_U64(g.live_count, GT_LIVE_RING + 3);
	/* point GT_LIVE_RING + 2 (GC #GT_LIVE_RING + 3) overwrote point 2 */
	CHECK_U64(g.live[2].bytes, KEPT - 0x03a418 + GT_LIVE_RING + 3);
	CHECK(g.live[2].ts == 100 * (GT_LIVE_RING + 3) + 1);
	/* a GCEnd too short to hold its depth waits for nothing */
	uint8_t p[4] = { 99, 0, 0, 0 };
	gt_dn_gc_event(&g, GT_DN_EV_GC_END, 5, 5000, p, sizeof(p));
	stats(&g, 5, 5001, 1);
	CHECK_U64(g.live_count, GT_LIVE_RING + 3);
}

int main(void)
{
	RUN_TEST(test_promoted_bytes_parsed);
	RUN_TEST(test_gen2_points_blocking_and_background);
	RUN_TEST(test_live_ring_and_overflow);
	return check_summary();
}
