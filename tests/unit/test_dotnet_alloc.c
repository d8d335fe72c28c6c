/* The .NET allocation sampler on crafted payloads: AllocationSampled and
 * AllocationTick layouts, the unbiased weight, method load payloads and the
 * method-name map, first application frames, stack blocks through the
 * nettrace parser, and the snapshot a sampler reads out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/ipc/diag_ipc_wire.h"
#include "collectors/dotnet/sampler/dotnet_alloc.h"
#include "collectors/dotnet/sampler/dotnet_alloc_stacks.h"
#include "collectors/dotnet/sampler/dotnet_alloc_unnamed.h"
#include "collectors/dotnet/nettrace/nettrace.h"
#include "tests/unit/bytes.h"
#include "tests/unit/check.h"

/* AllocationSampled as .NET 10.0.12 writes it (64-bit). */
static void sampled(struct bytes *b, uint32_t kind, const char *type, uint64_t size, bool heap_index)
{
	b->n = 0;
	bytes_u32(b, kind);
	bytes_u16(b, 7);                      /* ClrInstanceID */
	bytes_u64(b, 0x7f0012345678ull);      /* TypeID */
	bytes_utf16z(b, type);
	if (heap_index)
		bytes_u32(b, 3);
	bytes_u64(b, 0x7e0000001000ull);      /* Address */
	bytes_u64(b, size);
	bytes_u64(b, 17);                     /* SampledByteOffset */
}

static void tick(struct bytes *b, uint32_t kind, uint64_t amount, const char *type, uint64_t size)
{
	b->n = 0;
	bytes_u32(b, (uint32_t)amount);
	bytes_u32(b, kind);
	bytes_u16(b, 7);
	bytes_u64(b, amount);
	bytes_u64(b, 0x7f0012345678ull);
	bytes_utf16z(b, type);
	bytes_u32(b, 0);                      /* HeapIndex */
	bytes_u64(b, 0x7e0000001000ull);
	bytes_u64(b, size);
}

static void method(struct bytes *b, uint64_t start, uint32_t size, const char *ns, const char *name)
{
	b->n = 0;
	bytes_u64(b, 0x1111);                 /* MethodID */
	bytes_u64(b, 0x2222);                 /* ModuleID */
	bytes_u64(b, start);
	bytes_u32(b, size);
	bytes_u32(b, 0x06000001);             /* token */
	bytes_u32(b, 0x8);                    /* flags: jitted */
	bytes_utf16z(b, ns);
	bytes_utf16z(b, name);
	bytes_utf16z(b, "void  ()");
	bytes_u16(b, 7);
	bytes_u64(b, 0);                      /* ReJITID (V2) */
}

static void test_weight(void)
{
	/* A 24-byte object is sampled with probability ~24/102400, so it
	 * stands for about 102400 bytes (102400 + (24-1)/2 to first order). */
	CHECK_NEAR(gt_dn_sampled_weight(24), 102411.5, 0.5);
	/* an object of many mean strides is almost surely sampled: its size */
	CHECK_NEAR(gt_dn_sampled_weight(100u * 102400u), 100.0 * 102400, 1.0);
	/* one mean stride: size / (1 - e^-1) */
	CHECK_NEAR(gt_dn_sampled_weight(102400), 102400 / (1 - exp(-1.0)), 1.0);
	CHECK(gt_dn_sampled_weight(0) == 0);
}

static void test_allocation_sampled(void)
{
	struct bytes b;
	struct gt_dn_alloc_event e;
	sampled(&b, 1, "System.Byte[]", 307200, false);
	CHECK(gt_dn_parse_allocation_sampled(b.d, b.n, 8, &e) == 0);
	CHECK(e.heap == GT_ALLOC_HEAP_LARGE);
	CHECK_STR(e.type_name, "System.Byte[]");
	CHECK_U64(e.type_id, 0x7f0012345678ull);
	CHECK_U64(e.object_size, 307200);
	CHECK_NEAR(e.weight, gt_dn_sampled_weight(307200), 1e-6);

	/* the intermediate layout with HeapIndex reads the same size */
	sampled(&b, 2, "System.Int32[]", 40, true);
	CHECK(gt_dn_parse_allocation_sampled(b.d, b.n, 8, &e) == 0);
	CHECK(e.heap == GT_ALLOC_HEAP_PINNED);
	CHECK_U64(e.object_size, 40);

	sampled(&b, 0, "System.String", 64, false);
	CHECK(gt_dn_parse_allocation_sampled(b.d, b.n, 8, &e) == 0);
	CHECK(e.heap == GT_ALLOC_HEAP_SMALL);
	/* truncated anywhere, an unterminated name, a bad pointer size */
	for (size_t n = 0; n < b.n; n++)
		CHECK(gt_dn_parse_allocation_sampled(b.d, n, 8, &e) == -1);
	CHECK(gt_dn_parse_allocation_sampled(b.d, b.n, 3, &e) == -1);
}

static void test_allocation_tick(void)
{
	struct bytes b;
	struct gt_dn_alloc_event e;
	tick(&b, 1, 110000, "System.Char[]", 90000);
	CHECK(gt_dn_parse_allocation_tick(b.d, b.n, 8, &e) == 0);
	CHECK(e.heap == GT_ALLOC_HEAP_LARGE);
	CHECK_STR(e.type_name, "System.Char[]");
	CHECK_NEAR(e.weight, 110000, 0);
	CHECK_U64(e.object_size, 90000);
	/* V2/V3 (no ObjectSize) still give the weight */
	CHECK(gt_dn_parse_allocation_tick(b.d, b.n - 20, 8, &e) == 0);
	CHECK_U64(e.object_size, 0);
	CHECK(gt_dn_parse_allocation_tick(b.d, 20, 8, &e) == -1);
}

static void test_method_payload_and_map(void)
{
	struct bytes b;
	struct gt_dn_method m;
	method(&b, 0x7000, 0x100, "Shop.Cart", "Add");
	CHECK(gt_dn_parse_method_verbose(b.d, b.n, &m) == 0);
	CHECK_STR(m.name, "Shop.Cart.Add");
	CHECK_U64(m.start, 0x7000);
	CHECK_U64(m.size, 0x100);
	for (size_t n = 0; n < 60; n++)
		CHECK(gt_dn_parse_method_verbose(b.d, n, &m) == -1);

	struct gt_dn_methods map = { 0 };
	CHECK(gt_dn_methods_find(&map, 0x7000) == NULL);
	CHECK(gt_dn_parse_method_verbose(b.d, b.n, &m) == 0);
	gt_dn_methods_add(&map, &m);
	method(&b, 0x7100, 0x80, "Shop.Cart", "Remove");
	gt_dn_parse_method_verbose(b.d, b.n, &m);
	gt_dn_methods_add(&map, &m);
	CHECK_STR(gt_dn_methods_find(&map, 0x7000)->name, "Shop.Cart.Add");
	CHECK_STR(gt_dn_methods_find(&map, 0x70ff)->name, "Shop.Cart.Add");
	CHECK_STR(gt_dn_methods_find(&map, 0x7100)->name, "Shop.Cart.Remove");
	CHECK(gt_dn_methods_find(&map, 0x7180) == NULL);
	CHECK(gt_dn_methods_find(&map, 0x6fff) == NULL);
	/* code freed and reused: the newest definition names the range */
	method(&b, 0x7000, 0x40, "Shop.Cart", "Tier1Add");
	gt_dn_parse_method_verbose(b.d, b.n, &m);
	gt_dn_methods_add(&map, &m);
	CHECK_STR(gt_dn_methods_find(&map, 0x7010)->name, "Shop.Cart.Tier1Add");
	gt_dn_methods_free(&map);
}

static struct gt_dn_alloc *sampler_with_methods(const char *packages)
{
	struct gt_error err = { 0 };
	struct gt_dn_alloc *a = gt_dn_alloc_new(true, packages, &err);
	struct bytes b;
	method(&b, 0x1000, 0x100, "System.String", "Ctor");
	gt_dn_alloc_method(a, b.d, b.n);
	method(&b, 0x2000, 0x100, "Microsoft.Extensions.Logging.Logger", "Log");
	gt_dn_alloc_method(a, b.d, b.n);
	method(&b, 0x3000, 0x100, "Shop.Cart", "Add");
	gt_dn_alloc_method(a, b.d, b.n);
	method(&b, 0x4000, 0x100, "Program", "Main");
	gt_dn_alloc_method(a, b.d, b.n);
	return a;
}

static void test_first_frame(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	char out[GT_ALLOC_SITE_NAME_LEN];
	const uint64_t runtime_then_app[] = { 0x1010, 0x2020, 0x3030, 0x4040 };
	gt_dn_alloc_first_frame(a, runtime_then_app, 4, out, sizeof(out));
	CHECK_STR(out, "Shop.Cart.Add");
	/* an unresolved frame does not hide the application frame after it */
	const uint64_t unknown_first[] = { 0x9999, 0x1010, 0x4040 };
	gt_dn_alloc_first_frame(a, unknown_first, 3, out, sizeof(out));
	CHECK_STR(out, "Program.Main");
	/* nothing of the application's and an address no method covers:
	 * native code, never an application frame, and one site for all */
	const uint64_t runtime_only[] = { 0x1010, 0xabc0 };
	gt_dn_alloc_first_frame(a, runtime_only, 2, out, sizeof(out));
	CHECK_STR(out, "[native]");
	const uint64_t other_native[] = { 0xdef0 };
	gt_dn_alloc_first_frame(a, other_native, 1, out, sizeof(out));
	CHECK_STR(out, "[native]");
	const uint64_t all_runtime[] = { 0x1010, 0x2010 };
	gt_dn_alloc_first_frame(a, all_runtime, 2, out, sizeof(out));
	CHECK_STR(out, "Microsoft.Extensions.Logging.Logger.Log");
	gt_dn_alloc_first_frame(a, NULL, 0, out, sizeof(out));
	CHECK_STR(out, "(no stack)");
	/* a library recursing past the frames the runtime walks: its
	 * outermost frame walked is no site; one frame fewer, it is */
	uint64_t recursing[GT_DN_EP_STACK_DEPTH];
	for (int i = 0; i < GT_DN_EP_STACK_DEPTH; i++)
		recursing[i] = i % 2 ? 0x1010 : 0x2010;
	gt_dn_alloc_first_frame(a, recursing, GT_DN_EP_STACK_DEPTH, out, sizeof(out));
	CHECK_STR(out, GT_DN_CUT_FRAME);
	gt_dn_alloc_first_frame(a, recursing, GT_DN_EP_STACK_DEPTH - 1, out, sizeof(out));
	CHECK_STR(out, "Microsoft.Extensions.Logging.Logger.Log");
	/* the application frame within them is the site all the same */
	recursing[GT_DN_EP_STACK_DEPTH - 1] = 0x3010;
	gt_dn_alloc_first_frame(a, recursing, GT_DN_EP_STACK_DEPTH, out, sizeof(out));
	CHECK_STR(out, "Shop.Cart.Add");
	gt_dn_alloc_free(a);

	/* --allocator-packages: Shop. counts as the runtime's too */
	a = sampler_with_methods("System.,Microsoft.,Shop.");
	gt_dn_alloc_first_frame(a, runtime_then_app, 4, out, sizeof(out));
	CHECK_STR(out, "Program.Main");
	gt_dn_alloc_free(a);

	struct gt_error err = { 0 };
	CHECK(gt_dn_alloc_new(true, "A.,B.,C.,D.,E.,F.,G.,H.,I.,J.,K.,L.,M.,N.,O.,P.,Q.", &err) == NULL);
	CHECK(err.code == GT_EXIT_USAGE);
}

static void stack_of(uint8_t *d, const uint64_t *ips, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 8; k++)
			d[8 * i + k] = (uint8_t)(ips[i] >> (8 * k));
}

static void test_aggregation_and_snapshot(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	uint8_t raw[32];
	const uint64_t s1[] = { 0x1010, 0x3030, 0x4040 };   /* String.Ctor <- Cart.Add */
	const uint64_t s2[] = { 0x4050 };                   /* Program.Main */
	stack_of(raw, s1, 3);
	gt_dn_alloc_stack(a, 1, raw, 24);
	stack_of(raw, s2, 1);
	gt_dn_alloc_stack(a, 2, raw, 8);
	struct bytes b;
	sampled(&b, 0, "System.String", 24, false);
	for (int i = 0; i < 3; i++)
		gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 1, b.d, b.n);
	sampled(&b, 1, "System.Byte[]", 204800, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 2, b.d, b.n);
	sampled(&b, 0, "System.Byte[]", 24, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 2, b.d, b.n);
	/* a sampled session ignores AllocationTick */
	tick(&b, 0, 100000, "System.Object", 24);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_TICK, 2, b.d, b.n);
	/* an id the stream never defined: no stack */
	sampled(&b, 0, "System.Object", 24, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 77, b.d, b.n);

	struct gt_alloc_snapshot *s = calloc(1, sizeof(*s));
	gt_dn_alloc_snapshot(a, 5, s);
	CHECK_STR(s->source, "eventpipe-allocation-sampled");
	CHECK(s->state == GT_SAMPLER_RUNNING);
	CHECK_U64(s->samples, 6);
	double w24 = gt_dn_sampled_weight(24), wl = gt_dn_sampled_weight(204800);
	CHECK_NEAR((double)s->est_bytes, 5 * w24 + wl, 2);
	CHECK_U64(s->by_frame.n, 3);
	CHECK(s->by_frame.complete);
	CHECK_STR(s->by_frame.sites[0].name, "Program.Main");
	CHECK_NEAR((double)s->by_frame.sites[0].bytes, wl + w24, 1);
	CHECK_STR(s->by_frame.sites[1].name, "Shop.Cart.Add");
	CHECK_U64(s->by_frame.sites[1].count, 3);
	CHECK_STR(s->by_frame.sites[2].name, "(no stack)");
	/* one type on two heaps is two sites */
	CHECK_U64(s->by_type.n, 4);
	CHECK_STR(s->by_type.sites[0].name, "System.String");
	CHECK(s->by_type.sites[0].heap == GT_ALLOC_HEAP_SMALL);
	CHECK_STR(s->by_type.sites[1].name, "System.Byte[]");
	CHECK(s->by_type.sites[1].heap == GT_ALLOC_HEAP_LARGE);
	CHECK_STR(s->by_type.sites[2].name, "System.Byte[]");
	CHECK(s->by_type.sites[2].heap == GT_ALLOC_HEAP_SMALL);

	/* a sequence point forgets the stacks: ids are reused after it */
	gt_dn_alloc_sequence_point(a);
	sampled(&b, 0, "System.String", 24, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 1, b.d, b.n);
	gt_dn_alloc_snapshot(a, 6, s);
	CHECK_STR(s->by_frame.sites[2].name, "(no stack)");
	CHECK_U64(s->by_frame.sites[2].count, 2);
	free(s);
	gt_dn_alloc_free(a);
}

static void test_tick_sampler_is_biased(void)
{
	struct gt_error err = { 0 };
	struct gt_dn_alloc *a = gt_dn_alloc_new(false, NULL, &err);
	struct bytes b;
	tick(&b, 0, 102000, "System.Text.StringBuilder", 48);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_TICK, 0, b.d, b.n);
	sampled(&b, 0, "System.String", 24, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 0, b.d, b.n);
	struct gt_alloc_snapshot *s = calloc(1, sizeof(*s));
	gt_dn_alloc_snapshot(a, 1, s);
	CHECK_STR(s->source, "eventpipe-allocation-tick-biased");
	CHECK_U64(s->samples, 1);
	CHECK_U64(s->est_bytes, 102000);
	CHECK(s->message[0] != '\0');
	free(s);
	gt_dn_alloc_free(a);
}

/* Samples taken in a share of the time weigh its inverse, from the scale
 * set on: the bytes estimate is scaled, the sample count and the shares
 * are not; a scale below 1 (more than all the time) is refused. */
static void test_scaled_samples(void)
{
	struct gt_error err = { 0 };
	struct gt_dn_alloc *a = gt_dn_alloc_new(true, NULL, &err);
	struct bytes b;
	double w = gt_dn_sampled_weight(1000);
	sampled(&b, 0, "System.String", 1000, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 0, b.d, b.n);
	gt_dn_alloc_set_scale(a, 10);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 0, b.d, b.n);
	gt_dn_alloc_set_scale(a, 0.5);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 0, b.d, b.n);
	struct gt_alloc_snapshot *s = calloc(1, sizeof(*s));
	gt_dn_alloc_snapshot(a, 1, s);
	CHECK_U64(s->samples, 3);
	CHECK_NEAR((double)s->est_bytes, 21 * w, 2);
	CHECK_NEAR((double)s->by_type.sites[0].bytes, 21 * w, 2);
	CHECK_U64(s->by_type.sites[0].count, 3);
	free(s);
	gt_dn_alloc_free(a);
}

/* AllocationAmount64 is the target's word: sums past 2^64 saturate instead
 * of an undefined double-to-integer conversion (UBSan caught it). */
static void test_huge_amounts_saturate(void)
{
	struct gt_error err = { 0 };
	struct gt_dn_alloc *a = gt_dn_alloc_new(false, NULL, &err);
	struct bytes b;
	for (int i = 0; i < 3; i++) {
		tick(&b, 0, UINT64_MAX, "System.Byte[]", 24);
		gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_TICK, 0, b.d, b.n);
	}
	struct gt_alloc_snapshot *s = calloc(1, sizeof(*s));
	gt_dn_alloc_snapshot(a, 1, s);
	CHECK_U64(s->samples, 3);
	CHECK_U64(s->est_bytes, UINT64_MAX);
	CHECK(s->by_type.n == 1 && s->by_type.sites[0].bytes == UINT64_MAX);
	free(s);
	gt_dn_alloc_free(a);
}

/* ---- stack blocks through the parser ---- */

struct seen {
	uint32_t ids[8];
	uint64_t first_ip[8];
	uint32_t frames[8];
	unsigned n, sps;
};

static void on_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
	struct seen *s = ctx;
	if (s->n < 8) {
		s->ids[s->n] = id;
		s->frames[s->n] = size / 8;
		s->first_ip[s->n] = 0;
		for (int k = 0; k < 8 && size >= 8; k++)
			s->first_ip[s->n] |= (uint64_t)ips[k] << (8 * k);
		s->n++;
	}
}

static void on_sp(void *ctx)
{
	((struct seen *)ctx)->sps++;
}

static void test_stack_blocks(void)
{
	static struct bytes st, c, sp;
	st.n = c.n = sp.n = 0;
	bytes_nettrace_header(&st);
	bytes_type_header(&st, "Trace", 4);
	for (int i = 0; i < 8; i++)
		bytes_u16(&st, 1);
	bytes_u64(&st, 0);
	bytes_u64(&st, 1000000000);
	bytes_u32(&st, 8);
	bytes_u32(&st, 1);
	bytes_u32(&st, 1);
	bytes_u32(&st, 0);
	bytes_u8(&st, 6);
	/* two stacks: ids 1 and 2, of 2 and 0 frames */
	bytes_u32(&c, 1);
	bytes_u32(&c, 2);
	bytes_u32(&c, 16);
	bytes_u64(&c, 0x7f0000001234ull);
	bytes_u64(&c, 0x7f0000005678ull);
	bytes_u32(&c, 0);
	bytes_block(&st, "StackBlock", &c);
	bytes_u64(&sp, 0);
	bytes_u32(&sp, 0);
	bytes_block(&st, "SPBlock", &sp);
	bytes_u8(&st, 1);

	struct seen s = { 0 };
	struct gt_nettrace_callbacks cb = { &s, NULL, NULL };
	struct gt_nettrace *p = gt_nettrace_new(&cb);
	gt_nettrace_set_stack_callbacks(p, on_stack, on_sp);
	CHECK(gt_nettrace_feed(p, st.d, st.n) == 1);
	CHECK_U64(s.n, 2);
	CHECK_U64(s.ids[0], 1);
	CHECK_U64(s.ids[1], 2);
	CHECK_U64(s.frames[0], 2);
	CHECK_U64(s.first_ip[0], 0x7f0000001234ull);
	CHECK_U64(s.frames[1], 0);
	CHECK_U64(s.sps, 1);
	gt_nettrace_free(p);

	/* a stack claiming more bytes than its block holds fails the stream */
	size_t at = 0;
	for (size_t i = 0; i + 4 <= st.n; i++)
		if (st.d[i] == 16 && st.d[i + 1] == 0 && st.d[i + 2] == 0 && st.d[i + 3] == 0 && st.d[i + 4] == 0x34) {
			at = i;
			break;
		}
	CHECK(at != 0);
	st.d[at] = 0xF0;
	s.n = 0;
	p = gt_nettrace_new(&cb);
	gt_nettrace_set_stack_callbacks(p, on_stack, on_sp);
	CHECK(gt_nettrace_feed(p, st.d, st.n) == -1);
	gt_nettrace_free(p);
}

/* The sampling session asks for stacks; the rundown one for rundown only. */
static void test_session_options_on_the_wire(void)
{
	struct gt_diag_provider p = { "P", 0x80000000011ull, 5, NULL, NULL, 0 };
	static struct gt_diag_msg m;
	struct gt_diag_session_opts stacks = { 0, true }, rundown = { GT_DIAG_RUNDOWN_DEFAULT, false };
	CHECK(gt_diag_build_collect_opts(&m, 5, 16, &stacks, &p, 1) == 0);
	/* header 20, session type, buffer, format, rundown keyword (8), stackwalk */
	for (int i = 0; i < 8; i++)
		CHECK_U64(m.data[32 + i], 0);
	CHECK_U64(m.data[40], 1);
	CHECK(gt_diag_build_collect_opts(&m, 4, 16, &rundown, &p, 1) == 0);
	CHECK_U64(m.data[28] | (m.data[29] << 8) | (m.data[30] << 16) | ((uint32_t)m.data[31] << 24), 0x80020139u);
	CHECK_U64(m.data[36], 0);
	CHECK(gt_diag_build_collect_opts(&m, 3, 16, &stacks, &p, 1) == 0);
	CHECK_U64(m.data[28], 0);   /* requestRundown */
	CHECK_U64(m.data[29], 1);   /* requestStackwalk */
	CHECK(gt_diag_build_collect_opts(&m, 2, 16, &rundown, &p, 1) == 0);
	CHECK_U64(m.data[28], 1);
	/* the keywords of a provider: 0x80000000011 */
	CHECK_U64(m.data[33], 0x11);
	CHECK_U64(m.data[38], 0x08);
}

/* ---- a stream captured from .NET 10.0.12 (AllocSites, sampling session) ---- */

struct live {
	struct gt_dn_alloc *a;
	uint32_t max_stack_id;
	unsigned stacks, sampled, parsed, with_stack, sps;
	int pointer_size;
};

static void live_stack(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size)
{
	struct live *l = ctx;
	l->stacks++;
	if (id > l->max_stack_id)
		l->max_stack_id = id;
	gt_dn_alloc_stack(l->a, id, ips, size);
}

static void live_sp(void *ctx)
{
	struct live *l = ctx;
	l->sps++;
	l->max_stack_id = 0;
	gt_dn_alloc_sequence_point(l->a);
}

static void live_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	struct live *l = ctx;
	l->pointer_size = t->pointer_size;
	gt_dn_alloc_set_pointer_size(l->a, t->pointer_size);
}

static void live_event(void *ctx, const struct gt_nettrace_event *e)
{
	struct live *l = ctx;
	if (e->meta->event_id != GT_DN_EV_ALLOCATION_SAMPLED)
		return;
	l->sampled++;
	struct gt_dn_alloc_event ev;
	if (gt_dn_parse_allocation_sampled(e->payload, e->payload_len, l->pointer_size, &ev) == 0 && ev.object_size > 0 &&
	    ev.heap != GT_ALLOC_HEAP_UNKNOWN && ev.type_name[0])
		l->parsed++;
	/* the runtime writes a stack before the events that name it */
	if (e->stack_id > 0 && e->stack_id <= l->max_stack_id)
		l->with_stack++;
	gt_dn_alloc_event(l->a, e->meta->event_id, e->stack_id, e->payload, e->payload_len);
}

static void test_live_capture(void)
{
	FILE *f = fopen("tests/fuzz/corpus/nettrace/live-alloc-sampled-stacks", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static uint8_t d[1 << 16];
	size_t n = fread(d, 1, sizeof(d), f);
	fclose(f);
	struct gt_error err = { 0 };
	struct live l = { 0 };
	l.a = gt_dn_alloc_new(true, NULL, &err);
	struct gt_nettrace_callbacks cb = { &l, live_trace, live_event };
	struct gt_nettrace *p = gt_nettrace_new(&cb);
	gt_nettrace_set_stack_callbacks(p, live_stack, live_sp);
	CHECK(gt_nettrace_feed(p, d, n) == 0);   /* cut mid-stream */
	CHECK_U64(l.pointer_size, 8);
	CHECK(l.stacks > 0);
	CHECK(l.sampled > 10);
	CHECK_U64(l.parsed, l.sampled);
	CHECK_U64(l.with_stack, l.sampled);
	struct gt_alloc_snapshot *s = calloc(1, sizeof(*s));
	gt_dn_alloc_snapshot(l.a, 1, s);
	CHECK_U64(s->samples, l.sampled);
	bool byte_arrays = false;
	for (unsigned i = 0; i < s->by_type.n; i++)
		byte_arrays |= strcmp(s->by_type.sites[i].name, "System.Byte[]") == 0;
	CHECK(byte_arrays);
	free(s);
	gt_nettrace_free(p);
	gt_dn_alloc_free(l.a);
}

static void test_stack_key(void)
{
	struct gt_dn_stack_key k;
	/* native run, runtime, app at 3, then 4 callers: 3 kept */
	const uint64_t a[] = { 0, 0, 0x1000, 0x3000, 0x4000, 0x4100, 0x4200, 0x4300 };
	gt_dn_stack_key(a, 8, 3, &k);
	CHECK_U64(k.n, 6);
	CHECK_U64(k.v[0], GT_DN_KEY_NATIVE);
	CHECK_U64(k.v[1], 0x1000);
	CHECK_U64(k.v[2], 0x3000);
	CHECK_U64(k.v[5], 0x4200);
	/* no application frame: the whole stack */
	gt_dn_stack_key(a, 8, -1, &k);
	CHECK_U64(k.n, 7);
	/* fewer callers than the stack has: all of them */
	gt_dn_stack_key(a, 5, 3, &k);
	CHECK_U64(k.n, 4);
	/* a native frame between managed ones stays where it is */
	const uint64_t b[] = { 0x1000, 0, 0x2000, 0, 0 };
	gt_dn_stack_key(b, 5, -1, &k);
	CHECK_U64(k.n, 4);
	CHECK_U64(k.v[3], GT_DN_KEY_NATIVE);
	/* a deep library: innermost frames, a mark, the rest to the callers */
	uint64_t deep[60];
	for (int i = 0; i < 60; i++)
		deep[i] = 0x10000 + 0x100 * (uint64_t)i;
	gt_dn_stack_key(deep, 60, 50, &k);
	CHECK_U64(k.n, GT_ALLOC_STACK_FRAMES);
	CHECK_U64(k.v[0], 0x10000);
	CHECK_U64(k.v[8], GT_DN_KEY_ELIDED);
	CHECK_U64(k.v[GT_ALLOC_STACK_FRAMES - 1], 0x10000 + 0x100 * 53);
	CHECK_U64(k.v[GT_ALLOC_STACK_FRAMES - 4], 0x10000 + 0x100 * 50);
	/* frames left out when the stack was kept stay marked */
	const uint64_t cut[] = { 0x1000, GT_DN_KEY_ELIDED, 0x3000, 0x4000 };
	gt_dn_stack_key(cut, 4, 2, &k);
	CHECK_U64(k.n, 4);
	CHECK_U64(k.v[1], GT_DN_KEY_ELIDED);
}

static void test_stack_keep(void)
{
	uint64_t ips[80], out[GT_DN_STACK_IPS];
	bool cut;
	for (int i = 0; i < 80; i++)
		ips[i] = 0x10000 + 0x100 * (uint64_t)i;
	/* up to the application frame and its callers, no further */
	CHECK_U64(gt_dn_stack_keep(ips, 10, 3, out, &cut), 3 + 1 + GT_DN_STACK_CALLERS);
	CHECK(!cut);
	CHECK_U64(out[6], ips[6]);
	/* no application frame named: all of it */
	CHECK_U64(gt_dn_stack_keep(ips, 10, -1, out, &cut), 10);
	/* a library deeper than the addresses kept: the innermost, the mark,
	 * and the frames up to the application's callers, the site among them */
	CHECK_U64(gt_dn_stack_keep(ips, 80, 70, out, &cut), GT_DN_STACK_IPS);
	CHECK(cut);
	CHECK_U64(out[0], ips[0]);
	CHECK_U64(out[7], ips[7]);
	CHECK_U64(out[8], GT_DN_IP_ELIDED);
	CHECK_U64(out[GT_DN_STACK_IPS - 1], ips[70 + GT_DN_STACK_CALLERS]);
	CHECK_U64(out[GT_DN_STACK_IPS - 1 - GT_DN_STACK_CALLERS], ips[70]);
	/* deep with no application frame: its outermost frames are kept */
	gt_dn_stack_keep(ips, 80, -1, out, &cut);
	CHECK(cut);
	CHECK_U64(out[GT_DN_STACK_IPS - 1], ips[79]);
	/* a sampled address equal to the mark is not taken for it */
	const uint64_t hostile[] = { GT_DN_IP_ELIDED, 0x1000 };
	CHECK_U64(gt_dn_stack_keep(hostile, 2, -1, out, &cut), 2);
	CHECK_U64(out[0], GT_DN_KEY_NATIVE);
}

static void add_methods(struct gt_dn_alloc *a)
{
	struct bytes b;
	method(&b, 0x5000, 0x100, "Program", "<<Main>$>g__Serialize|0_0");
	gt_dn_alloc_method(a, b.d, b.n);
	method(&b, 0x6000, 0x100, "System.Text.Json.JsonSerializer", "WriteString");
	gt_dn_alloc_method(a, b.d, b.n);
}

static void event_on(struct gt_dn_alloc *a, uint32_t id, const uint64_t *ips, size_t n, int times)
{
	uint8_t raw[8 * 16];
	struct bytes b;
	stack_of(raw, ips, n);
	gt_dn_alloc_stack(a, id, raw, (uint32_t)(8 * n));
	sampled(&b, 0, "System.String", 24, false);
	for (int i = 0; i < times; i++)
		gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, id, b.d, b.n);
}

static const char *frame(const struct gt_alloc_stacks *st, const struct gt_alloc_site_stacks *s, unsigned k, unsigned f)
{
	return k < s->n && f < s->stacks[k].n_frames ? gt_alloc_stacks_name(st, s->stacks[k].frames[f]) : "(none)";
}

static void test_stacks_by_site(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	add_methods(a);
	/* the serializer allocates for the local function, through native code */
	const uint64_t via_json[] = { 0xabc0, 0xabd0, 0x1010, 0x6010, 0x5010, 0x4010 };
	event_on(a, 1, via_json, 6, 3);
	/* the same methods at other offsets: the same stack */
	const uint64_t same[] = { 0xabc8, 0x1020, 0x6020, 0x5030, 0x4020 };
	event_on(a, 2, same, 5, 1);
	const uint64_t direct[] = { 0x1010, 0x5020, 0x4010 };
	event_on(a, 3, direct, 3, 1);
	/* the application frame, three callers, and no further */
	const uint64_t deep[] = { 0x1010, 0x3010, 0x4010, 0x2010, 0x6010, 0x1010, 0x4010 };
	event_on(a, 4, deep, 7, 1);

	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_dn_alloc_stacks(a, st);
	CHECK_U64(st->n_sites, 2);
	const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, "Program.<Main>$.Serialize");
	CHECK(s != NULL);
	if (s) {
		CHECK(s == &st->sites[0]);
		CHECK_U64(s->n, 2);
		CHECK_U64(s->distinct, 2);
		CHECK_U64(s->dropped, 0);
		CHECK_U64(s->stacks[0].count, 4);
		CHECK_NEAR(gt_alloc_stack_share(s, &s->stacks[0]).value, 0.8, 0.01);
		CHECK_U64(s->stacks[0].n_frames, 5);
		CHECK_STR(frame(st, s, 0, 0), "[native]");
		CHECK_STR(frame(st, s, 0, 1), "System.String.Ctor");
		CHECK_STR(frame(st, s, 0, 2), "System.Text.Json.JsonSerializer.WriteString");
		CHECK_STR(frame(st, s, 0, 3), "Program.<Main>$.Serialize");
		CHECK_STR(frame(st, s, 0, 4), "Program.Main");
		CHECK_STR(frame(st, s, 1, 1), "Program.<Main>$.Serialize");
		/* names are kept once */
		CHECK(s->stacks[0].frames[3] == s->stacks[1].frames[1]);
	}
	s = gt_alloc_stacks_find(st, "Shop.Cart.Add");
	CHECK(s != NULL && s->n == 1 && s->stacks[0].n_frames == 5);
	if (s)
		CHECK_STR(frame(st, s, 0, 4), "System.Text.Json.JsonSerializer.WriteString");
	free(st);
	gt_dn_alloc_free(a);
}

/* A method's load may come after samples in its code (tier-1 code loaded
 * on the tiering thread): the frame is named when the stacks are read, and
 * the stack moves, with its bytes, to the site it has then. */
static void test_stacks_named_late(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	const uint64_t ips[] = { 0x1010, 0x6010, 0x5010, 0x4010 };
	event_on(a, 1, ips, 4, 2);
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_dn_alloc_stacks(a, st);
	const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, "Program.Main");
	CHECK(s != NULL && s->n == 1);
	if (s)
		CHECK_STR(frame(st, s, 0, 1), "[native]");
	add_methods(a);
	struct gt_alloc_snapshot *snap = calloc(1, sizeof(*snap));
	gt_dn_alloc_snapshot(a, 1, snap);
	gt_dn_alloc_stacks(a, st);
	s = gt_alloc_stacks_find(st, "Program.<Main>$.Serialize");
	CHECK(s != NULL && s->n == 1);
	if (s) {
		CHECK_U64(s->stacks[0].n_frames, 4);
		CHECK_STR(frame(st, s, 0, 1), "System.Text.Json.JsonSerializer.WriteString");
		CHECK_STR(frame(st, s, 0, 2), "Program.<Main>$.Serialize");
		CHECK_U64(s->stacks[0].count, 2);
	}
	/* the snapshot's sites agree: all bytes are the local function's */
	CHECK_STR(snap->by_frame.sites[0].name, "Program.<Main>$.Serialize");
	CHECK_U64(snap->by_frame.sites[0].count, 2);
	CHECK(snap->by_frame.n == 1 || snap->by_frame.sites[1].bytes == 0);
	/* a later sample of the same stack id goes to the new site */
	event_on(a, 1, ips, 4, 1);
	gt_dn_alloc_snapshot(a, 2, snap);
	CHECK_U64(snap->by_frame.sites[0].count, 3);
	free(snap);
	free(st);
	gt_dn_alloc_free(a);
}

/* A stack with code no method names asks for a rundown; once one has
 * ended, the same address (native code) asks for none, a new one does. */
static void test_unnamed_code_asks_for_a_rundown(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	const uint64_t named[] = { 0x1010, 0x4010 };
	event_on(a, 1, named, 2, 1);
	CHECK(!gt_dn_alloc_names_wanted(a));
	const uint64_t late[] = { 0x5010, 0x4010 };
	event_on(a, 2, late, 2, 1);
	CHECK(gt_dn_alloc_names_wanted(a));
	/* the rundown names 0x5010 */
	add_methods(a);
	gt_dn_alloc_names_settled(a);
	CHECK(!gt_dn_alloc_names_wanted(a));
	/* named now, and a native frame the rundown left unnamed: no new ask */
	const uint64_t native[] = { 0xabc0, 0x5010, 0x4010 };
	event_on(a, 3, native, 3, 1);
	CHECK(gt_dn_alloc_names_wanted(a));
	gt_dn_alloc_names_settled(a);
	gt_dn_alloc_sequence_point(a);
	event_on(a, 1, native, 3, 1);
	CHECK(!gt_dn_alloc_names_wanted(a));
	const uint64_t other[] = { 0xdef0, 0x4010 };
	event_on(a, 2, other, 2, 1);
	CHECK(gt_dn_alloc_names_wanted(a));
	gt_dn_alloc_free(a);
	/* AllocationTick's loads come in gctop's own session: never asks */
	struct gt_error err = { 0 };
	a = gt_dn_alloc_new(false, NULL, &err);
	event_on(a, 1, other, 2, 1);
	CHECK(!gt_dn_alloc_names_wanted(a));
	gt_dn_alloc_free(a);
}

/* The set keeps at most GT_DN_UNNAMED_MAX addresses: past that a new one
 * asks for nothing (a stream of random addresses cannot grow it, nor ask
 * for a rundown each window). */
static void test_unnamed_set_is_bounded(void)
{
	struct gt_dn_unnamed u = { 0 };
	for (uint64_t i = 1; i <= GT_DN_UNNAMED_MAX; i++)
		gt_dn_unnamed_note(&u, i * 16);
	CHECK_U64(u.n, GT_DN_UNNAMED_MAX);
	gt_dn_unnamed_note(&u, 16);
	CHECK_U64(u.n, GT_DN_UNNAMED_MAX);
	gt_dn_unnamed_settle(&u);
	gt_dn_unnamed_note(&u, 0x7fff0000);
	CHECK_U64(u.n, GT_DN_UNNAMED_MAX);
	CHECK(!gt_dn_unnamed_wanted(&u));
	gt_dn_unnamed_note(&u, 0);
	CHECK(!gt_dn_unnamed_wanted(&u));
	gt_dn_unnamed_free(&u);
}

/* Which events name code: live loads of the runtime provider, and the
 * rundown provider's enumeration; not the runtime's own DCEnd id. */
static void test_method_name_events(void)
{
	CHECK(gt_dn_is_method_name_event(GT_DN_RUNTIME_PROVIDER, GT_DN_EV_METHOD_LOAD_VERBOSE));
	CHECK(!gt_dn_is_method_name_event(GT_DN_RUNTIME_PROVIDER, GT_DN_EV_METHOD_DC_END_VERBOSE));
	CHECK(!gt_dn_is_method_name_event(GT_DN_RUNTIME_PROVIDER, GT_DN_EV_ALLOCATION_SAMPLED));
	CHECK(gt_dn_is_method_name_event(GT_DN_RUNDOWN_PROVIDER, GT_DN_EV_METHOD_DC_END_VERBOSE));
	CHECK(gt_dn_is_method_name_event(GT_DN_RUNDOWN_PROVIDER, GT_DN_EV_METHOD_LOAD_VERBOSE));
	CHECK(!gt_dn_is_method_name_event("System.Runtime", GT_DN_EV_METHOD_LOAD_VERBOSE));
}

/* A library's recursion deeper than the addresses kept of a stack, under
 * the application frame: the stack behind the site still reaches it. */
static void test_deep_library_stack_keeps_its_site(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	enum { DEPTH = 72, SITE = 68 };
	uint64_t ips[DEPTH];
	uint8_t raw[8 * DEPTH];
	struct bytes b;
	for (int i = 0; i < SITE; i++)
		ips[i] = 0x1010 + (uint64_t)(i % 16);   /* System.String.Ctor, recursing */
	ips[SITE] = 0x3010;                         /* Shop.Cart.Add */
	ips[SITE + 1] = 0x4010;                     /* Program.Main */
	ips[SITE + 2] = 0xabc0;
	ips[SITE + 3] = 0xabd0;
	stack_of(raw, ips, DEPTH);
	gt_dn_alloc_stack(a, 1, raw, (uint32_t)sizeof(raw));
	sampled(&b, 0, "System.String", 24, false);
	gt_dn_alloc_event(a, GT_DN_EV_ALLOCATION_SAMPLED, 1, b.d, b.n);
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_dn_alloc_stacks(a, st);
	const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, "Shop.Cart.Add");
	CHECK(s != NULL && s->n == 1);
	if (s && s->n == 1) {
		unsigned n = s->stacks[0].n_frames;
		CHECK_U64(n, GT_ALLOC_STACK_FRAMES);
		CHECK_STR(frame(st, s, 0, 0), "System.String.Ctor");
		CHECK_STR(frame(st, s, 0, 8), GT_ALLOC_FRAME_ELIDED);
		CHECK_STR(frame(st, s, 0, n - 4), "System.String.Ctor");
		CHECK_STR(frame(st, s, 0, n - 3), "Shop.Cart.Add");
		CHECK_STR(frame(st, s, 0, n - 2), "Program.Main");
		CHECK_STR(frame(st, s, 0, n - 1), GT_DN_NATIVE_FRAME);
	}
	free(st);
	gt_dn_alloc_free(a);
}

static void test_stacks_bounded(void)
{
	struct gt_dn_alloc *a = sampler_with_methods(NULL);
	struct bytes b;
	char name[32];
	for (int i = 0; i < GT_DN_STACKS_PER_SITE + 6; i++) {
		snprintf(name, sizeof(name), "Caller%d", i);
		method(&b, 0x100000 + 0x100 * (uint64_t)i, 0x100, "App", name);
		gt_dn_alloc_method(a, b.d, b.n);
	}
	/* one site, Shop.Cart.Add, reached from more callers than are kept */
	for (int i = 0; i < GT_DN_STACKS_PER_SITE + 6; i++) {
		const uint64_t ips[] = { 0x3010, 0x100010 + 0x100 * (uint64_t)i };
		event_on(a, (uint32_t)i, ips, 2, 1);
	}
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_dn_alloc_stacks(a, st);
	const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(st, "Shop.Cart.Add");
	CHECK(s != NULL);
	if (s) {
		CHECK_U64(s->distinct, GT_DN_STACKS_PER_SITE);
		CHECK_U64(s->dropped, 6);
		CHECK_U64(s->n, GT_ALLOC_STACKS_TOP);
		/* the shares leave the dropped samples' bytes out of every stack */
		double sum = 0;
		for (unsigned i = 0; i < s->n; i++)
			sum += gt_alloc_stack_share(s, &s->stacks[i]).value;
		CHECK_NEAR(sum, 5.0 / (GT_DN_STACKS_PER_SITE + 6), 0.001);
	}
	free(st);
	gt_dn_alloc_free(a);
}

static void test_stack_pool(void)
{
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_alloc_stacks_clear(st);
	uint32_t x = gt_alloc_stacks_intern(st, "A.B");
	CHECK(x == gt_alloc_stacks_intern(st, "A.B"));
	CHECK(x != gt_alloc_stacks_intern(st, "A.C"));
	CHECK_STR(gt_alloc_stacks_name(st, x), "A.B");
	CHECK_STR(gt_alloc_stacks_name(st, UINT32_MAX), "");
	/* a full pool names what it cannot keep, and stays within itself */
	char name[GT_ALLOC_SITE_NAME_LEN + 10];
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	uint32_t last = 0;
	for (int i = 0; i < 2000; i++) {
		snprintf(name, 12, "%011d", i);
		name[11] = 'x';
		last = gt_alloc_stacks_intern(st, name);
	}
	CHECK_STR(gt_alloc_stacks_name(st, last), GT_ALLOC_FRAME_LOST);
	CHECK(st->pool_used <= GT_ALLOC_STACK_POOL);
	CHECK_U64(strlen(gt_alloc_stacks_name(st, x + 4 + 4)), GT_ALLOC_SITE_NAME_LEN - 1);
	free(st);
}

int main(void)
{
	RUN_TEST(test_weight);
	RUN_TEST(test_allocation_sampled);
	RUN_TEST(test_allocation_tick);
	RUN_TEST(test_method_payload_and_map);
	RUN_TEST(test_first_frame);
	RUN_TEST(test_aggregation_and_snapshot);
	RUN_TEST(test_tick_sampler_is_biased);
	RUN_TEST(test_scaled_samples);
	RUN_TEST(test_stack_key);
	RUN_TEST(test_stack_keep);
	RUN_TEST(test_deep_library_stack_keeps_its_site);
	RUN_TEST(test_stacks_by_site);
	RUN_TEST(test_stacks_named_late);
	RUN_TEST(test_stacks_bounded);
	RUN_TEST(test_unnamed_code_asks_for_a_rundown);
	RUN_TEST(test_unnamed_set_is_bounded);
	RUN_TEST(test_method_name_events);
	RUN_TEST(test_stack_pool);
	RUN_TEST(test_huge_amounts_saturate);
	RUN_TEST(test_stack_blocks);
	RUN_TEST(test_session_options_on_the_wire);
	RUN_TEST(test_live_capture);
	return check_summary();
}
