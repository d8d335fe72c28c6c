/* The .NET census on crafted payloads: BulkType and GCBulkNode layouts,
 * the table summed by type and sorted, names in source form, hostile
 * counts and names, the caps, and a session's events: which collection is
 * the induced one, its pause, and the losses that make a census partial. */
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_census.h"
#include "collectors/dotnet/dotnet_census_events.h"
#include "collectors/dotnet/dotnet_census_run.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "tests/unit/bytes.h"
#include "tests/unit/check.h"

static struct bytes b;

/* A BulkType payload of one type (TypeID, name, flags, parameters). */
static void one_type(uint64_t id, const char *name, uint32_t flags, uint32_t n_params, const uint64_t *params)
{
	b.n = 0;
	bytes_u32(&b, 1);
	bytes_u16(&b, 7);                 /* ClrInstanceID */
	bytes_u64(&b, id);
	bytes_u64(&b, 0x7f0000100000ull); /* ModuleID */
	bytes_u32(&b, 0);                 /* TypeNameID */
	bytes_u32(&b, flags);
	bytes_u8(&b, 0x12);               /* CorElementType: class */
	bytes_utf16z(&b, name);
	bytes_u32(&b, n_params);
	for (uint32_t k = 0; k < n_params; k++)
		bytes_u64(&b, params[k]);
}

/* A GCBulkNode payload of n objects of type id, size bytes each. */
static void nodes(uint32_t index, uint32_t n, uint64_t id, uint64_t size)
{
	b.n = 0;
	bytes_u32(&b, index);
	bytes_u32(&b, n);
	bytes_u16(&b, 7);
	for (uint32_t i = 0; i < n; i++) {
		bytes_u64(&b, 0x7e0000001000ull + 64 * i);  /* Address */
		bytes_u64(&b, size);
		bytes_u64(&b, id);
		bytes_u64(&b, 0);                          /* EdgeCount */
	}
}

static void add_type(struct gt_dn_census_table *t, uint64_t id, const char *name, uint32_t flags, uint32_t n_params,
		     const uint64_t *params)
{
	one_type(id, name, flags, n_params, params);
	CHECK(gt_dn_census_bulk_type(t, b.d, b.n) == 0);
}

static void add_nodes(struct gt_dn_census_table *t, uint32_t index, uint32_t n, uint64_t id, uint64_t size)
{
	uint32_t got;
	nodes(index, n, id, size);
	CHECK(gt_dn_census_bulk_node(t, b.d, b.n, &got) == 0);
	CHECK_U64(got, index);
}

static void test_objects_summed_by_type_and_sorted(void)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	/* nodes may come before the BulkType that names their type */
	add_nodes(t, 0, 3, 0x1000, 24);
	add_type(t, 0x1000, "System.Object", 0, 0, NULL);
	add_type(t, 0x2000, "System.Byte[]", GT_DN_TYPE_FLAG_ARRAY, 1, (const uint64_t[]){ 0x3000 });
	add_nodes(t, 1, 2, 0x2000, 1000);
	add_nodes(t, 2, 1, 0x1000, 24);
	add_type(t, 0x4000, "Unused", 0, 0, NULL);
	struct gt_census c = { 0 };
	CHECK(gt_dn_census_table_result(t, &c) == 0);
	CHECK_U64(c.n_types, 2);   /* a named type with no object is no row */
	CHECK_STR(c.types[0].name, "System.Byte[]");
	CHECK_U64(c.types[0].count, 2);
	CHECK_U64(c.types[0].bytes, 2000);
	CHECK_STR(c.types[1].name, "System.Object");
	CHECK_U64(c.types[1].count, 4);
	CHECK_U64(c.types[1].bytes, 96);
	CHECK_U64(c.total_count, 6);
	CHECK_U64(c.total_bytes, 2096);
	CHECK(gt_dn_census_table_partial(t) == NULL);
	free(c.types);
	gt_dn_census_table_free(t);
}

/* The name a type gets in the census, given its runtime name. */
static void check_name(const char *runtime, uint32_t flags, uint32_t n_params, const uint64_t *params,
		       const char *want)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	add_type(t, 0x5000, "System.String", 0, 0, NULL);
	add_type(t, 0x6000, "System.Int32", 0, 0, NULL);
	add_type(t, 0x9000, runtime, flags, n_params, params);
	add_nodes(t, 0, 1, 0x9000, 1 << 20);
	struct gt_census c = { 0 };
	CHECK(gt_dn_census_table_result(t, &c) == 0);
	CHECK(c.n_types == 1);
	if (c.n_types == 1)
		CHECK_STR(c.types[0].name, want);
	free(c.types);
	gt_dn_census_table_free(t);
}

static void test_names_in_source_form(void)
{
	const uint64_t str[] = { 0x5000 }, two[] = { 0x6000, 0x5000 };
	/* as .NET 10 names them (measured), the arguments in the name */
	check_name("System.Collections.Generic.List`1[System.String]", 0, 1, str,
		   "System.Collections.Generic.List<System.String>");
	check_name("Entry[System.Int32,CacheEntry][]", GT_DN_TYPE_FLAG_ARRAY, 1, str, "Entry<System.Int32,CacheEntry>[]");
	check_name("System.Func`2[System.Object,System.Func`1[System.String]]", 0, 2, two,
		   "System.Func<System.Object,System.Func<System.String>>");
	check_name("System.Int32[,]", GT_DN_TYPE_FLAG_ARRAY, 1, two, "System.Int32[,]");
	check_name("System.Byte[]", GT_DN_TYPE_FLAG_ARRAY, 1, two, "System.Byte[]");
	/* a definition alone is completed from the type parameters */
	check_name("System.Collections.Generic.Dictionary`2", 0, 2, two,
		   "System.Collections.Generic.Dictionary<System.Int32,System.String>");
	check_name("Pair`2", 0, 2, (const uint64_t[]){ 0x6000, 0xdead0 }, "Pair<System.Int32,?>");
	/* an unmatched bracket stays as written */
	check_name("Odd[Name", 0, 0, NULL, "Odd[Name");
}

static void test_unnamed_type(void)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	add_nodes(t, 0, 1, 0xabc0, 40);
	struct gt_census c = { 0 };
	CHECK(gt_dn_census_table_result(t, &c) == 0);
	CHECK_STR(c.types[0].name, "(type 0xabc0)");
	free(c.types);
	gt_dn_census_table_free(t);
}

static void test_hostile_payloads(void)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	uint32_t index;
	/* a node count larger than the payload: nothing counted */
	nodes(0, 2, 0x1000, 24);
	b.d[4] = 3;
	CHECK(gt_dn_census_bulk_node(t, b.d, b.n, &index) == -1);
	CHECK(gt_dn_census_bulk_node(t, b.d, 9, &index) == -1);
	CHECK_U64(gt_dn_census_table_nodes(t), 0);
	/* a name with no terminator */
	one_type(0x1000, "Abc", 0, 0, NULL);
	CHECK(gt_dn_census_bulk_type(t, b.d, 10 + 25 + 4) == -1);
	/* a TypeParameterCount the payload cannot hold */
	one_type(0x1000, "Abc", 0, 1, (const uint64_t[]){ 1 });
	memset(b.d + b.n - 12, 0xff, 4);
	CHECK(gt_dn_census_bulk_type(t, b.d, b.n) == -1);
	/* a type count larger than its records, truncated counts */
	one_type(0x1000, "Abc", 0, 0, NULL);
	b.d[0] = 2;
	CHECK(gt_dn_census_bulk_type(t, b.d, b.n) == -1);
	CHECK(gt_dn_census_bulk_type(t, b.d, 3) == -1);
	uint64_t promoted;
	CHECK(gt_dn_census_total_promoted(b.d, 63, &promoted) == -1);
	gt_dn_census_table_free(t);
}

/* Sizes a target crafts to overflow are held at UINT64_MAX, as the JVM's
 * histogram holds them: before, two nodes of 2^63 bytes and one of 5
 * read as "3 objects, 5 B". */
static void test_sizes_that_overflow_saturate(void)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	add_type(t, 0x1000, "Huge", 0, 0, NULL);
	add_nodes(t, 0, 2, 0x1000, 1ull << 63);
	add_nodes(t, 1, 1, 0x1000, 5);
	CHECK_U64(gt_dn_census_table_bytes(t), UINT64_MAX);
	CHECK_U64(gt_dn_census_table_aligned_bytes(t), UINT64_MAX);
	struct gt_census c = { 0 };
	CHECK(gt_dn_census_table_result(t, &c) == 0);
	CHECK_U64(c.n_types, 1);
	CHECK_U64(c.types[0].count, 3);
	CHECK_U64(c.types[0].bytes, UINT64_MAX);
	CHECK_U64(c.total_bytes, UINT64_MAX);
	free(c.types);
	gt_dn_census_table_free(t);
	/* one size that its alignment alone would wrap to 0 */
	t = gt_dn_census_table_new();
	add_nodes(t, 0, 1, 0x2000, UINT64_MAX - 2);
	CHECK_U64(gt_dn_census_table_aligned_bytes(t), UINT64_MAX);
	CHECK_U64(gt_dn_census_table_bytes(t), UINT64_MAX - 2);
	gt_dn_census_table_free(t);
}

static void test_type_cap(void)
{
	struct gt_dn_census_table *t = gt_dn_census_table_new();
	for (uint64_t i = 0; i <= GT_DN_CENSUS_MAX_TYPES; i++)
		add_nodes(t, (uint32_t)i, 1, 0x10000 + 8 * i, 24);
	CHECK_U64(gt_dn_census_table_nodes(t), GT_DN_CENSUS_MAX_TYPES);
	CHECK(gt_dn_census_table_partial(t) != NULL);
	struct gt_census c = { 0 };
	CHECK(gt_dn_census_table_result(t, &c) == 0);
	CHECK_U64(c.n_types, GT_DN_CENSUS_MAX_TYPES);
	free(c.types);
	gt_dn_census_table_free(t);
}

static void test_total_promoted(void)
{
	b.n = 0;
	for (int g = 0; g < 4; g++) {
		bytes_u64(&b, 1000000);       /* GenerationSize */
		bytes_u64(&b, 100u << g);     /* TotalPromotedSize */
	}
	for (int i = 0; i < 30; i++)
		bytes_u8(&b, 0);
	uint64_t promoted = 0;
	CHECK(gt_dn_census_total_promoted(b.d, b.n, &promoted) == 0);
	CHECK_U64(promoted, 100 + 200 + 400 + 800);
	bytes_u64(&b, 5000);   /* GenerationSize4 */
	bytes_u64(&b, 1600);   /* TotalPromotedSize4 */
	CHECK(gt_dn_census_total_promoted(b.d, b.n, &promoted) == 0);
	CHECK_U64(promoted, 100 + 200 + 400 + 800 + 1600);
}

/* ---- a session's events ---- */

static struct gt_nettrace_meta meta;

static void event(struct gt_dn_census_run *r, uint32_t id, int64_t ts)
{
	memset(&meta, 0, sizeof(meta));
	strcpy(meta.provider, "Microsoft-Windows-DotNETRuntime");
	meta.event_id = id;
	struct gt_nettrace_event e = { .meta = &meta, .timestamp = ts, .payload = b.d, .payload_len = (uint32_t)b.n };
	gt_dn_census_run_event(r, &e);
}

static void gc_start_why(struct gt_dn_census_run *r, uint32_t count, uint32_t depth, uint32_t type, uint32_t reason,
			 int64_t ts)
{
	b.n = 0;
	bytes_u32(&b, count);
	bytes_u32(&b, depth);
	bytes_u32(&b, reason);
	bytes_u32(&b, type);
	bytes_u16(&b, 7);
	event(r, GT_DN_EV_GC_START, ts);
}

/* a GCStart with Reason Induced */
static void gc_start(struct gt_dn_census_run *r, uint32_t count, uint32_t depth, uint32_t type)
{
	gc_start_why(r, count, depth, type, 1, 0);
}

static void gc_stop(struct gt_dn_census_run *r, uint32_t count)
{
	b.n = 0;
	bytes_u32(&b, count);
	bytes_u32(&b, 2);
	bytes_u16(&b, 7);
	event(r, GT_DN_EV_GC_END, 0);
}

static void suspend(struct gt_dn_census_run *r, int64_t ts)
{
	b.n = 0;
	bytes_u32(&b, 1);   /* ForGC */
	bytes_u32(&b, 0);
	bytes_u16(&b, 7);
	event(r, GT_DN_EV_SUSPEND_EE_BEGIN, ts);
}

static void heap_stats(struct gt_dn_census_run *r, uint64_t promoted)
{
	b.n = 0;
	for (int g = 0; g < 4; g++) {
		bytes_u64(&b, 1u << 20);
		bytes_u64(&b, g == 2 ? promoted : 0);
	}
	for (int i = 0; i < 30; i++)
		bytes_u8(&b, 0);
	event(r, GT_DN_EV_HEAP_STATS, 0);
}

/* An induced collection (count 9) whose walk writes BulkNode events with
 * the given indexes, 10 objects of 100 bytes each, and which the runtime
 * says kept `promoted` bytes; the program stops at tick 1000 and restarts
 * at 5000. A background gen2, a gen1 and a blocking gen2 that nobody
 * asked for (AllocLarge) come first. */
static void induced(struct gt_dn_census_run *r, const uint32_t *indexes, int n, uint64_t promoted)
{
	r->qpc_freq = 1000000000;
	gc_start(r, 7, 2, 1);
	suspend(r, 500);
	gc_start(r, 8, 1, 0);
	gc_start_why(r, 8, 2, 0, 4, 0);
	CHECK(r->phase == GT_DN_CENSUS_WAIT_START);
	suspend(r, 1000);
	gc_start_why(r, 9, 2, 0, 1, 1100);
	CHECK(r->phase == GT_DN_CENSUS_IN_GC);
	for (int i = 0; i < n; i++) {
		nodes(indexes[i], 10, 0x1000, 100);
		event(r, GT_DN_EV_BULK_NODE, 0);
	}
	gc_stop(r, 8);
	CHECK(r->phase == GT_DN_CENSUS_IN_GC);
	gc_stop(r, 9);
	heap_stats(r, promoted);
	CHECK(r->phase == GT_DN_CENSUS_AFTER_STOP);
	b.n = 0;
	event(r, GT_DN_EV_RESTART_EE_BEGIN, 5000);
	CHECK(r->phase == GT_DN_CENSUS_DONE);
}

static void test_induced_collection_and_its_pause(void)
{
	struct gt_dn_census_run r = { .table = gt_dn_census_table_new() };
	induced(&r, (const uint32_t[]){ 0, 1, 2 }, 3, 3000);
	CHECK_U64(gt_dn_census_table_nodes(r.table), 30);
	struct gt_census c = { 0 };
	gt_dn_census_run_pause(&r, &c);
	CHECK(c.pause_valid);
	CHECK_U64(c.pause_ns, 4000);
	struct gt_dn_census_end end = { 0, false };
	CHECK(gt_dn_census_run_partial(&r, &end) == NULL);
	gt_dn_census_table_free(r.table);
}

/* A second heap walk in the same stream (another session's induced
 * collection: every session with the heap-dump keyword receives every
 * walk) is not counted again. */
static void test_a_second_walk_is_not_counted(void)
{
	struct gt_dn_census_run r = { .table = gt_dn_census_table_new() };
	induced(&r, (const uint32_t[]){ 0, 1, 2, 0, 1, 2, 3 }, 7, 3000);
	CHECK_U64(gt_dn_census_table_nodes(r.table), 30);
	CHECK(r.other_walk);
	struct gt_dn_census_end end = { 0, false };
	CHECK(gt_dn_census_run_partial(&r, &end) == NULL);
	gt_dn_census_table_free(r.table);
}

static void stop_at(struct gt_dn_census_run *r, uint32_t count, int64_t ts)
{
	b.n = 0;
	bytes_u32(&b, count);
	bytes_u32(&b, 2);
	bytes_u16(&b, 7);
	event(r, GT_DN_EV_GC_END, ts);
}

/* Server GC under load: the GC thread that joins last writes the GCStart,
 * heap 0's thread the suspension, the walk, the GCEnd and the restart, and
 * the runtime writes one thread's events after the other's, so the stream
 * holds the GCStart after the restart that ends its collection (measured:
 * AspAlloc under wrk, 2 heaps). The census still ends there, with the
 * walk's nodes and the pause from the suspension before the GCStart. */
static void test_out_of_order_threads(void)
{
	struct gt_dn_census_run r = { .table = gt_dn_census_table_new(), .qpc_freq = 1000000000 };
	suspend(&r, 900);       /* heap 0's thread: the collection before */
	b.n = 0;
	event(&r, GT_DN_EV_RESTART_EE_BEGIN, 950);
	suspend(&r, 1000);
	nodes(0, 10, 0x1000, 100);
	event(&r, GT_DN_EV_BULK_NODE, 2000);
	stop_at(&r, 9, 4000);
	heap_stats(&r, 1000);
	b.n = 0;
	event(&r, GT_DN_EV_RESTART_EE_BEGIN, 5000);
	CHECK(r.phase == GT_DN_CENSUS_WAIT_START);
	gc_start_why(&r, 9, 2, 0, 1, 1100);   /* another GC thread's block */
	CHECK(r.phase == GT_DN_CENSUS_DONE);
	CHECK_U64(gt_dn_census_table_nodes(r.table), 10);
	struct gt_census c = { 0 };
	gt_dn_census_run_pause(&r, &c);
	CHECK(c.pause_valid);
	CHECK_U64(c.pause_ns, 4000);
	struct gt_dn_census_end end = { 0, false };
	CHECK(gt_dn_census_run_partial(&r, &end) == NULL);
	gt_dn_census_table_free(r.table);
	/* the GCStart first, its GCEnd later, the restart last: not over
	 * until the restart */
	r = (struct gt_dn_census_run){ .table = gt_dn_census_table_new(), .qpc_freq = 1000000000 };
	gc_start_why(&r, 3, 2, 0, 1, 100);
	CHECK(r.phase == GT_DN_CENSUS_IN_GC);
	stop_at(&r, 3, 300);
	CHECK(r.phase == GT_DN_CENSUS_AFTER_STOP);
	b.n = 0;
	event(&r, GT_DN_EV_RESTART_EE_BEGIN, 200);   /* an earlier restart */
	CHECK(r.phase == GT_DN_CENSUS_AFTER_STOP);
	event(&r, GT_DN_EV_RESTART_EE_BEGIN, 400);
	CHECK(r.phase == GT_DN_CENSUS_DONE);
	gt_dn_census_table_free(r.table);
}

static void test_losses_make_it_partial(void)
{
	struct gt_dn_census_end clean = { 0, false }, dropped = { 3, false }, cut = { 0, true };
	struct gt_dn_census_run r = { .table = gt_dn_census_table_new() };
	/* a BulkNode event missing from the middle */
	induced(&r, (const uint32_t[]){ 0, 2 }, 2, 2000);
	CHECK_U64(r.lost_node_events, 1);
	CHECK(gt_dn_census_run_partial(&r, &clean) != NULL);
	gt_dn_census_table_free(r.table);
	/* complete by the indexes, but the session dropped events, or its
	 * stream was cut */
	r = (struct gt_dn_census_run){ .table = gt_dn_census_table_new() };
	induced(&r, (const uint32_t[]){ 0, 1 }, 2, 2000);
	CHECK(gt_dn_census_run_partial(&r, &clean) == NULL);
	CHECK(gt_dn_census_run_partial(&r, &dropped) != NULL);
	CHECK(gt_dn_census_run_partial(&r, &cut) != NULL);
	gt_dn_census_table_free(r.table);
	/* the walk short of what the collection kept: 2,000 of 2,200 bytes
	 * (9% short) is partial, 2,000 of 2,100 (4.8%) is not */
	r = (struct gt_dn_census_run){ .table = gt_dn_census_table_new() };
	induced(&r, (const uint32_t[]){ 0, 1 }, 2, 2200);
	CHECK(gt_dn_census_run_partial(&r, &clean) != NULL);
	gt_dn_census_table_free(r.table);
	r = (struct gt_dn_census_run){ .table = gt_dn_census_table_new() };
	induced(&r, (const uint32_t[]){ 0, 1 }, 2, 2100);
	CHECK(gt_dn_census_run_partial(&r, &clean) == NULL);
	gt_dn_census_table_free(r.table);
	/* objects whose sizes are not multiples of 8: the collection counts
	 * them aligned (20 objects of 25 bytes take 640), so 500 bytes walked
	 * are complete */
	r = (struct gt_dn_census_run){ .table = gt_dn_census_table_new() };
	induced(&r, NULL, 0, 640);
	nodes(0, 20, 0x1000, 25);
	event(&r, GT_DN_EV_BULK_NODE, 0);
	CHECK_U64(gt_dn_census_table_bytes(r.table), 500);
	CHECK(gt_dn_census_run_partial(&r, &clean) == NULL);
	/* a malformed node event */
	nodes(2, 10, 0x1000, 100);
	b.n -= 1;
	event(&r, GT_DN_EV_BULK_NODE, 0);
	CHECK(gt_dn_census_run_partial(&r, &clean) != NULL);
	gt_dn_census_table_free(r.table);
}

int main(void)
{
	RUN_TEST(test_objects_summed_by_type_and_sorted);
	RUN_TEST(test_names_in_source_form);
	RUN_TEST(test_unnamed_type);
	RUN_TEST(test_hostile_payloads);
	RUN_TEST(test_sizes_that_overflow_saturate);
	RUN_TEST(test_type_cap);
	RUN_TEST(test_total_promoted);
	RUN_TEST(test_induced_collection_and_its_pause);
	RUN_TEST(test_a_second_walk_is_not_counted);
	RUN_TEST(test_out_of_order_threads);
	RUN_TEST(test_losses_make_it_partial);
	return check_summary();
}
