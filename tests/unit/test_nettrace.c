/* The nettrace parser on crafted streams (each rule of the format and each
 * way a stream can be broken) and on a stream captured from .NET 10.0.12. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/nettrace/nettrace.h"
#include "tests/unit/bytes.h"
#include "tests/unit/check.h"

/* ---- a small stream writer ---- */


static void trace_object(struct bytes *b)
{
	bytes_type_header(b, "Trace", 4);
	for (int i = 0; i < 8; i++)
		bytes_u16(b, (uint16_t)(i == 0 ? 2026 : 1));
	bytes_u64(b, 1000);        /* sync QPC */
	bytes_u64(b, 1000000000);  /* QPC frequency */
	bytes_u32(b, 8);
	bytes_u32(b, 4242);
	bytes_u32(b, 2);
	bytes_u32(b, 1000000);
	bytes_u8(b, 6);
}

static void block_header(struct bytes *c)
{
	bytes_u16(c, 20);
	bytes_u16(c, 1);
	bytes_u64(c, 0);
	bytes_u64(c, 0);
}

/* A metadata record with one Int32 and one String field. */
static void meta_record(struct bytes *p, uint32_t id, const char *provider, uint32_t event_id, const char *name)
{
	bytes_u32(p, id);
	bytes_utf16z(p, provider);
	bytes_u32(p, event_id);
	bytes_utf16z(p, name);
	bytes_u64(p, 1);
	bytes_u32(p, 1);
	bytes_u32(p, 4);
	bytes_u32(p, 2);
	bytes_u32(p, 9);
	bytes_utf16z(p, "Number");
	bytes_u32(p, 18);
	bytes_utf16z(p, "Text");
}

/* The writer stores each sequence number as its distance to the previous
 * event's (of any thread) minus one, modulo 2^32. */
static uint32_t prev_seq;

static void event(struct bytes *c, uint32_t meta_id, uint32_t seq, uint64_t tid, uint64_t ts_delta,
		  const struct bytes *payload)
{
	bytes_u8(c, 0x01 | 0x02 | 0x04 | 0x80);
	bytes_varuint(c, meta_id);
	bytes_varuint(c, (uint32_t)(seq - prev_seq - 1));
	prev_seq = seq;
	bytes_varuint(c, tid); /* capture thread */
	bytes_varuint(c, 0);   /* cpu */
	bytes_varuint(c, tid);
	bytes_varuint(c, ts_delta);
	bytes_varuint(c, payload->n);
	bytes_put(c, payload->d, payload->n);
}

/* header, trace, one metadata block (ids 1 and 2), one event block with
 * `events` events of id 1 on thread 7 (sequence numbers 1, 1+gap+1, ...),
 * one event of id 99 (never defined), a sequence point, end tag. */
static void build_stream(struct bytes *b, int events, uint32_t gap, bool sp_after)
{
	b->n = 0;
	bytes_nettrace_header(b);
	trace_object(b);
	static struct bytes c, p;
	c.n = 0;
	block_header(&c);
	p.n = 0;
	meta_record(&p, 1, "Test-Provider", 5, "Hello");
	bytes_u8(&c, 0x80);
	bytes_varuint(&c, 0);
	bytes_varuint(&c, p.n);
	bytes_put(&c, p.d, p.n);
	p.n = 0;
	meta_record(&p, 2, "Other", 6, "Bye");
	bytes_u8(&c, 0x80);
	bytes_varuint(&c, 0);
	bytes_varuint(&c, p.n);
	bytes_put(&c, p.d, p.n);
	bytes_block(b, "MetadataBlock", &c);

	c.n = 0;
	block_header(&c);
	prev_seq = 0;
	for (int i = 0; i < events; i++) {
		p.n = 0;
		bytes_u32(&p, (uint32_t)(100 + i));
		bytes_utf16z(&p, "hi");
		event(&c, 1, (uint32_t)(i + 1) + (i >= 1 ? gap : 0), 7, 10, &p);
	}
	p.n = 0;
	event(&c, 99, 1, 8, 10, &p);
	bytes_block(b, "EventBlock", &c);
	if (sp_after) {
		c.n = 0;
		bytes_u64(&c, 5000);
		bytes_u32(&c, 1);
		bytes_u64(&c, 7);
		bytes_u32(&c, (uint32_t)events + gap + 3); /* three more than it wrote to us */
		bytes_block(b, "SPBlock", &c);
	}
	bytes_u8(b, 1);
}

struct seen {
	int events;
	int64_t first_ts, last_ts;
	int number_sum;
	char text[16];
	char provider[96];
	int traces;
};

static void on_field(void *ctx, const char *name, const struct gt_nettrace_value *v)
{
	struct seen *s = ctx;
	if (strcmp(name, "Number") == 0)
		s->number_sum += (int)v->number;
	else if (strcmp(name, "Text") == 0 && v->string)
		snprintf(s->text, sizeof(s->text), "%s", v->string);
}

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	struct seen *s = ctx;
	if (s->events == 0)
		s->first_ts = e->timestamp;
	s->last_ts = e->timestamp;
	s->events++;
	snprintf(s->provider, sizeof(s->provider), "%s", e->meta->provider);
	gt_nettrace_decode(e->meta, e->payload, e->payload_len, on_field, s);
}

static void on_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	struct seen *s = ctx;
	if (t->qpc_freq == 1000000000 && t->pid == 4242)
		s->traces++;
}

/* A parser whose events s counts. */
static struct gt_nettrace *counting_parser(struct seen *s)
{
	struct gt_nettrace_callbacks cb = { s, NULL, on_event };
	return gt_nettrace_new(&cb);
}

static int feed_all(struct gt_nettrace *p, const uint8_t *d, size_t n, size_t step)
{
	int rc = 0;
	for (size_t off = 0; off < n && rc == 0; off += step)
		rc = gt_nettrace_feed(p, d + off, n - off < step ? n - off : step);
	return rc;
}

static void test_stream_whole_and_bytewise(void)
{
	static struct bytes b;
	build_stream(&b, 3, 0, false);
	size_t steps[] = { b.n, 1, 7 };
	for (size_t i = 0; i < 3; i++) {
		struct seen s = { 0 };
		struct gt_nettrace_callbacks cb = { &s, on_trace, on_event };
		struct gt_nettrace *p = gt_nettrace_new(&cb);
		CHECK(feed_all(p, b.d, b.n, steps[i]) == 1);
		CHECK_U64(s.events, 3);
		CHECK_U64(s.traces, 1);
		CHECK_U64(s.number_sum, 100 + 101 + 102);
		CHECK_STR(s.text, "hi");
		CHECK_STR(s.provider, "Test-Provider");
		CHECK_U64(s.first_ts, 10);
		CHECK_U64(s.last_ts, 30);
		const struct gt_nettrace_stats *st = gt_nettrace_stats(p);
		CHECK_U64(st->metadata, 2);
		CHECK_U64(st->unknown_meta, 1);
		CHECK_U64(st->dropped, 0);
		CHECK_U64(st->blocks, 2);
		gt_nettrace_free(p);
	}
}

static void test_sequence_gap_and_sequence_point_count_drops(void)
{
	static struct bytes b;
	build_stream(&b, 3, 4, true);
	struct seen s = { 0 };
	struct gt_nettrace *p = counting_parser(&s);
	CHECK(feed_all(p, b.d, b.n, b.n) == 1);
	/* 4 skipped between the first and second event, 3 more per the SP */
	CHECK_U64(gt_nettrace_stats(p)->dropped, 7);
	CHECK_U64(gt_nettrace_stats(p)->sequence_points, 1);
	/* a session that ends keeps the count */
	CHECK_U64(gt_nettrace_end(&p), 7);
	CHECK(p == NULL);
	CHECK_U64(gt_nettrace_end(&p), 0);
}

static void expect_error(const struct bytes *b, const char *fragment)
{
	struct gt_nettrace *p = gt_nettrace_new(NULL);
	int rc = feed_all(p, b->d, b->n, b->n);
	CHECK(rc == -1);
	if (!strstr(gt_nettrace_error(p), fragment))
		check_fail(__FILE__, __LINE__, "error \"%s\" lacks \"%s\"", gt_nettrace_error(p), fragment);
	CHECK(gt_nettrace_feed(p, (const uint8_t *)"x", 1) == -1); /* stays failed */
	gt_nettrace_free(p);
}

static void test_v6_is_refused_with_its_version(void)
{
	static struct bytes b;
	b.n = 0;
	bytes_put(&b, "Nettrace", 8);
	bytes_u32(&b, 0);
	bytes_u32(&b, 6);
	bytes_u32(&b, 0);
	expect_error(&b, "version 6");
}

static void test_absurd_block_size_is_refused(void)
{
	static struct bytes b;
	b.n = 0;
	bytes_nettrace_header(&b);
	trace_object(&b);
	bytes_type_header(&b, "EventBlock", 2);
	bytes_u32(&b, 0x7FFFFFF0u);
	expect_error(&b, "claims");
}

static void test_bad_magic_unknown_object_and_bad_close(void)
{
	static struct bytes b;
	b.n = 0;
	bytes_put(&b, "Nettracf", 8);
	bytes_u32(&b, 20);
	expect_error(&b, "magic");

	b.n = 0;
	bytes_nettrace_header(&b);
	bytes_type_header(&b, "Surprise", 2);
	expect_error(&b, "unknown type");

	b.n = 0;
	bytes_nettrace_header(&b);
	trace_object(&b);
	static struct bytes c;
	c.n = 0;
	block_header(&c);
	bytes_block(&b, "EventBlock", &c);
	b.d[b.n - 1] = 7; /* the closing tag */
	expect_error(&b, "not closed");
}

static void test_truncated_event_in_block_is_an_error(void)
{
	static struct bytes b, c, p;
	b.n = 0;
	bytes_nettrace_header(&b);
	trace_object(&b);
	c.n = 0;
	block_header(&c);
	p.n = 0;
	bytes_u32(&p, 1);
	prev_seq = 0;
	event(&c, 1, 1, 7, 1, &p);
	c.n -= 2; /* the payload runs past the block */
	bytes_block(&b, "EventBlock", &c);
	expect_error(&b, "truncated");
}

static void test_truncated_stream_waits_for_more(void)
{
	static struct bytes b;
	build_stream(&b, 2, 0, false);
	struct seen s = { 0 };
	struct gt_nettrace *p = counting_parser(&s);
	CHECK(gt_nettrace_feed(p, b.d, b.n - 10) == 0);
	CHECK(gt_nettrace_feed(p, b.d + b.n - 10, 10) == 1);
	CHECK_U64(s.events, 2);
	gt_nettrace_free(p);
}

/* A metadata record from its start up to its field count: id, provider,
 * event 1 without a name, keywords, version, level 4 (Informational). */
static void meta_head(struct bytes *p, uint32_t id, const char *provider, uint64_t keywords, uint32_t version)
{
	p->n = 0;
	bytes_u32(p, id);
	bytes_utf16z(p, provider);
	bytes_u32(p, 1);
	bytes_utf16z(p, "");
	bytes_u64(p, keywords);
	bytes_u32(p, version);
	bytes_u32(p, 4);
}

static void test_metadata_huge_string_and_nesting_rejected(void)
{
	static struct bytes p;
	struct gt_nettrace_meta m;
	/* a provider name without its NUL */
	p.n = 0;
	bytes_u32(&p, 3);
	for (int i = 0; i < 1000; i++)
		bytes_u16(&p, 'A');
	CHECK(gt_nettrace_parse_meta(p.d, p.n, &m) == -1);
	/* a field count far beyond the record */
	meta_head(&p, 3, "P", 0, 0);
	bytes_u32(&p, 0xFFFFFFFFu);
	CHECK(gt_nettrace_parse_meta(p.d, p.n, &m) == -1);
	/* objects nested deeper than the limit */
	meta_head(&p, 3, "P", 0, 0);
	bytes_u32(&p, 1);
	for (int i = 0; i < GT_NETTRACE_MAX_DEPTH + 2; i++) {
		bytes_u32(&p, 1); /* Object */
		bytes_u32(&p, 1); /* with one child */
	}
	CHECK(gt_nettrace_parse_meta(p.d, p.n, &m) == -1);
	/* a native runtime event: no fields at all */
	meta_head(&p, 9, "Microsoft-Windows-DotNETRuntime", 1, 2);
	bytes_u32(&p, 0);
	CHECK(gt_nettrace_parse_meta(p.d, p.n, &m) == 0);
	CHECK_U64(m.n_fields, 0);
	CHECK_U64(m.version, 2);
	CHECK_STR(m.provider, "Microsoft-Windows-DotNETRuntime");
	gt_nettrace_meta_clear(&m);
}

static void test_decode_rejects_short_payload(void)
{
	static struct bytes p;
	p.n = 0;
	meta_record(&p, 1, "P", 1, "E");
	struct gt_nettrace_meta m;
	CHECK(gt_nettrace_parse_meta(p.d, p.n, &m) == 0);
	CHECK_U64(m.n_top, 2);
	struct seen s = { 0 };
	uint8_t payload[6] = { 1, 0, 0, 0, 'h', 0 }; /* the string has no NUL unit */
	CHECK(gt_nettrace_decode(&m, payload, sizeof(payload), on_field, &s) == -1);
	gt_nettrace_meta_clear(&m);
}

/* ---- what declared metadata costs ---- */

/* Feeds a MetadataBlock per bytes-full of records ids first.. first+count-1
 * (provider "Flood", V1 lists of `fields` Int32 fields), after the stream
 * header and Trace object when first is 1. Returns the last feed's result. */
static int feed_meta_kinds(struct gt_nettrace *p, uint32_t first, uint32_t count, uint32_t fields)
{
	static struct bytes b, c, r;
	static size_t sent; /* stream offset: blocks pad to a 4-byte offset of it */
	int rc = 0;
	b.n = 0;
	if (first == 1) {
		sent = 0;
		bytes_nettrace_header(&b);
		trace_object(&b);
	}
	for (uint32_t id = first; id < first + count && rc == 0;) {
		c.n = 0;
		block_header(&c);
		for (; id < first + count && c.n + 64 + 8 * fields < 60000; id++) {
			meta_head(&r, id, "Flood", 0, 0);
			bytes_u32(&r, fields);
			for (uint32_t f = 0; f < fields; f++) {
				bytes_u32(&r, GT_NT_INT32);
				bytes_utf16z(&r, "F");
			}
			bytes_u8(&c, 0x80);
			bytes_varuint(&c, 0);
			bytes_varuint(&c, r.n);
			bytes_put(&c, r.d, r.n);
		}
		bytes_block(&b, "MetadataBlock", &c);
		rc = gt_nettrace_feed(p, b.d + sent % 4, b.n - sent % 4);
		sent += b.n - sent % 4;
		b.n = sent % 4; /* the next block is built at the stream's alignment */
	}
	return rc;
}

/* Bytes in use on the heap; 0 when the allocator cannot say (ASan's). */
static size_t heap_in_use(void)
{
	return mallinfo2().uordblks;
}

/* Each kind costs what it declares: 2,000 kinds without fields took 16 MB
 * when every record kept room for 128 fields (7.7 KiB) and the table held
 * records, not pointers. Now a record is its struct (some 240 bytes) and
 * a table slot or four; 400 bytes a kind leaves room for malloc's headers. */
static void test_metadata_costs_what_it_declares(void)
{
	size_t before = heap_in_use();
	struct gt_nettrace *p = gt_nettrace_new(NULL);
	CHECK(feed_meta_kinds(p, 1, 2000, 0) == 0);
	CHECK_U64(gt_nettrace_stats(p)->metadata, 2000);
	size_t grew = heap_in_use() - before;
	if (before)
		CHECK(grew < 2000 * 400);
	CHECK(gt_nettrace_stats(p)->metadata_bytes < 2000 * 400);
	CHECK(gt_nettrace_stats(p)->metadata_bytes <= grew || !before);
	gt_nettrace_free(p);
	CHECK_U64(gt_nettrace_meta_held(), 0);
}

/* Kinds of 100 fields (6 KiB each as kept) until the stream's budget:
 * the record that would pass it ends the stream with the limit named, and
 * what is kept stays within the budget. */
static void test_metadata_budget_per_stream(void)
{
	size_t before = heap_in_use();
	struct gt_nettrace *p = gt_nettrace_new(NULL);
	CHECK(feed_meta_kinds(p, 1, 1000, 100) == -1);
	CHECK(strstr(gt_nettrace_error(p), "KiB of event metadata, the limit for one stream") != NULL);
	const struct gt_nettrace_stats *st = gt_nettrace_stats(p);
	CHECK(st->metadata > 100 && st->metadata < 1000);
	CHECK(st->metadata_bytes <= GT_NETTRACE_META_BUDGET);
	CHECK(st->metadata_bytes + 8000 > GT_NETTRACE_META_BUDGET);
	if (before)
		CHECK(heap_in_use() - before < GT_NETTRACE_META_BUDGET + (256u << 10));
	CHECK(gt_nettrace_feed(p, (const uint8_t *)"", 0) == -1);
	gt_nettrace_free(p);
}

/* Streams that each stay within their own budget are stopped together at
 * the process's: the one that would pass it fails with that sentence, the
 * others keep what they have, and freeing them gives it all back. */
static void test_metadata_budget_for_the_process(void)
{
	enum { STREAMS = 2 * (GT_NETTRACE_META_TOTAL / GT_NETTRACE_META_BUDGET) };
	struct gt_nettrace *p[STREAMS];
	int failed = -1;
	for (int i = 0; i < STREAMS; i++) {
		p[i] = gt_nettrace_new(NULL);
		/* 150 kinds of 100 fields: some 900 KiB, under one stream's budget */
		if (feed_meta_kinds(p[i], 1, 150, 100) != 0 && failed < 0)
			failed = i;
	}
	CHECK(failed == (int)(GT_NETTRACE_META_TOTAL / gt_nettrace_stats(p[0])->metadata_bytes));
	CHECK(failed > 0 && strstr(gt_nettrace_error(p[failed]), "MiB, gctop's limit for them together") != NULL);
	CHECK(gt_nettrace_meta_held() <= GT_NETTRACE_META_TOTAL);
	CHECK(gt_nettrace_meta_held() + gt_nettrace_stats(p[0])->metadata_bytes > GT_NETTRACE_META_TOTAL);
	for (int i = 0; i < STREAMS; i++)
		gt_nettrace_free(p[i]);
	CHECK_U64(gt_nettrace_meta_held(), 0);
}

/* ---- the captured stream ---- */

struct live {
	int gc_start, heap_stats, suspend, restart, counters, metrics;
	uint32_t heap_stats_len, gc_start_len;
};

static void on_live(void *ctx, const struct gt_nettrace_event *e)
{
	struct live *l = ctx;
	if (strcmp(e->meta->provider, "Microsoft-Windows-DotNETRuntime") == 0) {
		switch (e->meta->event_id) {
		case 1: l->gc_start++; l->gc_start_len = e->payload_len; break;
		case 4: l->heap_stats++; l->heap_stats_len = e->payload_len; break;
		case 9: l->suspend++; break;
		case 3: l->restart++; break;
		default: break;
		}
	} else if (strcmp(e->meta->event_name, "EventCounters") == 0) {
		l->counters++;
	} else if (strcmp(e->meta->provider, "System.Diagnostics.Metrics") == 0) {
		l->metrics++;
	}
}

static void test_captured_net10_stream(void)
{
	FILE *f = fopen("tests/data/nettrace/gcalloc-net10.0.12.nettrace", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static uint8_t d[1 << 20];
	size_t n = fread(d, 1, sizeof(d), f);
	fclose(f);
	size_t steps[] = { n, 4096, 3 };
	for (size_t i = 0; i < 3; i++) {
		struct live l = { 0 };
		struct gt_nettrace_callbacks cb = { &l, NULL, on_live };
		struct gt_nettrace *p = gt_nettrace_new(&cb);
		CHECK(feed_all(p, d, n, steps[i]) == 1);
		const struct gt_nettrace_trace *t = gt_nettrace_trace_info(p);
		CHECK(t != NULL);
		if (t) {
			CHECK_U64(t->qpc_freq, 1000000000);
			CHECK_U64(t->pointer_size, 8);
		}
		CHECK(l.gc_start > 0);
		CHECK_U64(l.heap_stats, l.gc_start);
		CHECK_U64(l.gc_start_len, 26);
		CHECK_U64(l.heap_stats_len, 110);
		CHECK_U64(l.restart, l.suspend);
		CHECK(l.counters > 0);
		CHECK(l.metrics > 0);
		CHECK_U64(gt_nettrace_stats(p)->dropped, 0);
		CHECK_U64(gt_nettrace_stats(p)->unknown_meta, 0);
		/* a real session's metadata, far under a stream's budget */
		if (i == 0)
			printf("# captured stream: %llu kinds, %llu bytes of metadata\n",
			       (unsigned long long)gt_nettrace_stats(p)->metadata,
			       (unsigned long long)gt_nettrace_stats(p)->metadata_bytes);
		CHECK(gt_nettrace_stats(p)->metadata_bytes < GT_NETTRACE_META_BUDGET / 16);
		gt_nettrace_free(p);
	}
}

int main(void)
{
	RUN_TEST(test_stream_whole_and_bytewise);
	RUN_TEST(test_sequence_gap_and_sequence_point_count_drops);
	RUN_TEST(test_v6_is_refused_with_its_version);
	RUN_TEST(test_absurd_block_size_is_refused);
	RUN_TEST(test_bad_magic_unknown_object_and_bad_close);
	RUN_TEST(test_truncated_event_in_block_is_an_error);
	RUN_TEST(test_truncated_stream_waits_for_more);
	RUN_TEST(test_metadata_huge_string_and_nesting_rejected);
	RUN_TEST(test_decode_rejects_short_payload);
	RUN_TEST(test_metadata_costs_what_it_declares);
	RUN_TEST(test_metadata_budget_per_stream);
	RUN_TEST(test_metadata_budget_for_the_process);
	RUN_TEST(test_captured_net10_stream);
	return check_summary();
}
