/* The segment layout, publisher and reader: round trips through a real
 * file, and crafted segments the reader must refuse or bound. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "segment/reader.h"
#include "segment/publish.h"
#include "segment/reader_stacks.h"
#include "tests/unit/check.h"

static char dir[64];
static struct gt_segment_reading reading; /* large: off the stack */

static int publish(struct gctop_pub *p, const char *name, uint32_t frames, uint32_t types)
{
	char path[256], err[200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct gctop_pub_config cfg = { frames, types, GCTOP_SEG_F_ALLOC_TOTAL | GCTOP_SEG_F_PAUSES, "test-sampled", 0, 0, false };
	return gctop_pub_create(p, path, &cfg, err, sizeof(err));
}

/* publish, checked: false (and a failed check) when there is no segment. */
static bool published(struct gctop_pub *p, const char *name, uint32_t frames, uint32_t types)
{
	CHECK(publish(p, name, frames, types) == 0);
	return p->hdr != NULL;
}

/* n frames named C.m<i> (i in `digits` digits), sampled once each: frame i
 * weighs (i + 1) * step, or 1 with step 0. */
static void sample_frames(struct gctop_pub *p, int n, int digits, uint64_t step)
{
	char name[32];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "C.m%0*d", digits, i);
		gctop_pub_sample(p, name, NULL, GCTOP_SEG_HEAP_UNKNOWN, step ? (uint64_t)(i + 1) * step : 1);
	}
}

static const struct gt_alloc_site *find(const struct gt_alloc_table *t, const char *name)
{
	for (unsigned i = 0; i < t->n; i++)
		if (strcmp(t->sites[i].name, name) == 0)
			return &t->sites[i];
	return NULL;
}

static void test_round_trip(void)
{
	struct gctop_pub p;
	if (!published(&p, "rt", 64, 32))
		return;
	struct stat st;
	CHECK(lstat(p.path, &st) == 0 && (st.st_mode & 0777) == 0600);
	gctop_pub_set_state(&p, GCTOP_SEG_RUNNING, NULL);
	gctop_pub_set_interval(&p, 524288);
	for (int i = 0; i < 6; i++)
		gctop_pub_sample(&p, "Lab.siteA", "byte[]", GCTOP_SEG_HEAP_UNKNOWN, 1000);
	for (int i = 0; i < 3; i++)
		gctop_pub_sample(&p, "Lab.siteB", "long[]", GCTOP_SEG_HEAP_LARGE, 1000);
	gctop_pub_sample(&p, "Lab.siteC", "int[]", GCTOP_SEG_HEAP_UNKNOWN, 1000);
	gctop_pub_set_alloc_total(&p, 123456789, 42);
	gctop_pub_pause(&p, 3000000);
	gctop_pub_pause(&p, 1000000);

	struct gt_segment *s;
	struct gt_error err;
	CHECK(gt_segment_open(p.path, getuid(), &s, &err) == 0);
	if (!s) {
		gctop_pub_close(&p);
		return;
	}
	CHECK(gt_segment_read(s, &reading, &err) == 0);
	CHECK(reading.snap.state == GT_SAMPLER_RUNNING);
	CHECK_STR(reading.snap.source, "test-sampled");
	CHECK_U64(reading.snap.samples, 10);
	CHECK_U64(reading.snap.est_bytes, 10000);
	CHECK_U64(reading.snap.interval_bytes, 524288);
	CHECK(reading.alloc_total.valid);
	CHECK_U64(reading.alloc_total.value, 123456789);
	CHECK_U64(reading.alloc_total_ns, 42);
	CHECK_U64(reading.pause_count.value, 2);
	CHECK_U64(reading.pause_total_ns.value, 4000000);
	CHECK_U64(reading.n_recent, 2);
	CHECK_U64(reading.recent_ns[0], 3000000);
	CHECK_U64(reading.recent_ns[1], 1000000);
	CHECK_U64(reading.snap.by_frame.n, 3);
	CHECK(reading.snap.by_frame.complete);
	CHECK_STR(reading.snap.by_frame.sites[0].name, "Lab.siteA");
	CHECK_U64(reading.snap.by_frame.sites[0].bytes, 6000);
	CHECK_U64(reading.snap.by_frame.sites[0].count, 6);
	const struct gt_alloc_site *b = find(&reading.snap.by_type, "long[]");
	CHECK(b && b->heap == GT_ALLOC_HEAP_LARGE && b->bytes == 3000);

	/* The reader heartbeat is the one thing gctop writes. */
	gt_segment_beat(s, 777);
	CHECK_U64(gctop_pub_reader_heartbeat(&p), 777);
	gt_segment_request_interval(s, 65536);
	CHECK_U64(gctop_pub_requested_interval(&p), 65536);

	gctop_pub_unlink(&p);
	CHECK(gt_segment_replaced(s));
	gt_segment_close(s);
	gctop_pub_close(&p);
}

/* Objects that take whole regions (layout_minor 3): only those larger than
 * half a region count, each with its last region's tail scaled by its
 * sample's weight; an older file's reserved bytes are not read. */
static void test_region_objects(void)
{
	struct gctop_pub p;
	if (!published(&p, "regions", 8, 8))
		return;
	struct gt_error e;
	const uint64_t mib = 1 << 20;
	gctop_pub_region_object(&p, 3 * mib, 3 * mib);   /* no region size yet: nothing */
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK(!reading.humongous_bytes.valid && !reading.humongous_tail_bytes.valid);
	gctop_pub_set_region(&p, mib);
	gctop_pub_region_object(&p, mib / 2, mib);             /* half a region: not humongous */
	gctop_pub_region_object(&p, 3 * mib + 1000, 3 * mib + 1000); /* four regions */
	gctop_pub_region_object(&p, mib / 2 + 8, mib + 16);    /* one region, weighed twice its size */
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK_U64(reading.region_bytes, mib);
	CHECK_U64(reading.humongous_bytes.value, 3 * mib + 1000 + mib + 16);
	CHECK_U64(reading.humongous_tail_bytes.value, (mib - 1000) + 2 * (mib / 2 - 8));
	p.hdr->layout_minor = 2;
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK(!reading.humongous_bytes.valid && reading.region_bytes == 0);
	gctop_pub_close(&p);
}

/* Two names with the same key must stay two sites. */
static void test_collision_keeps_names_apart(void)
{
	struct gctop_pub p;
	if (!published(&p, "coll", 16, 16))
		return;
	/* Plant a site with the key of "Real.method" but another name. */
	uint64_t key = gctop_seg_key("Real.method");
	struct gctop_seg_site *t = (struct gctop_seg_site *)((char *)p.hdr + p.hdr->frame_offset);
	struct gctop_seg_site *slot = &t[key & 15];
	snprintf(slot->name, sizeof(slot->name), "Impostor.method");
	slot->key = key;
	gctop_pub_sample(&p, "Real.method", NULL, GCTOP_SEG_HEAP_UNKNOWN, 500);
	CHECK_U64(slot->bytes, 0);
	CHECK_U64(t[(key + 1) & 15].bytes, 500);
	CHECK_STR(t[(key + 1) & 15].name, "Real.method");
	gctop_pub_close(&p);
}

static void test_table_full_counts_dropped(void)
{
	struct gctop_pub p;
	if (!published(&p, "full", 4, 4))
		return;
	sample_frames(&p, 6, 1, 0);
	CHECK_U64(p.hdr->dropped, 2);
	CHECK_U64(p.hdr->samples, 6);
	gctop_pub_close(&p);
}

static void test_top_k_bounded(void)
{
	struct gctop_pub p;
	if (!published(&p, "topk", 256, 16))
		return;
	sample_frames(&p, 100, 3, 10);
	struct gt_error err;
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &err) == 0);
	CHECK_U64(reading.snap.by_frame.n, GT_ALLOC_SITES_MAX);
	CHECK(!reading.snap.by_frame.complete);
	CHECK_STR(reading.snap.by_frame.sites[0].name, "C.m099");
	CHECK_U64(reading.snap.by_frame.sites[GT_ALLOC_SITES_MAX - 1].bytes, (uint64_t)(100 - GT_ALLOC_SITES_MAX + 1) * 10);
	gctop_pub_close(&p);
}

/* A private copy of a fresh segment to break; NULL (a failed check) when
 * there is none. */
static uint8_t *crafted(size_t *len)
{
	struct gctop_pub p;
	if (!published(&p, "craft", 8, 8))
		return NULL;
	gctop_pub_sample(&p, "A.b", "byte[]", GCTOP_SEG_HEAP_UNKNOWN, 10);
	uint8_t *buf = aligned_alloc(64, (p.size + 63) / 64 * 64);
	CHECK(buf != NULL);
	if (buf)
		memcpy(buf, p.hdr, p.size);
	*len = p.size;
	gctop_pub_close(&p);
	return buf;
}

static int parse_crafted(uint8_t *buf, size_t len, struct gt_error *err)
{
	return gt_segment_parse(buf, len, &reading, err);
}

static void test_refuses_bad_layouts(void)
{
	size_t len;
	uint8_t *buf = crafted(&len);
	if (!buf)
		return;
	struct gctop_seg_header *h = (struct gctop_seg_header *)buf;
	struct gctop_seg_header orig = *h;
	struct gt_error err;

	CHECK(parse_crafted(buf, len, &err) == 0);
	h->magic[0] = 'X';
	CHECK(parse_crafted(buf, len, &err) == -1 && strstr(err.msg, "magic"));
	*h = orig;
	h->version = 2;
	CHECK(parse_crafted(buf, len, &err) == -1 && strstr(err.msg, "version 2"));
	*h = orig;
	h->file_size = len + 4096;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->frame_slots = 1u << 30;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->type_slots = 6; /* not a power of two */
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->type_offset = h->frame_offset; /* overlapping tables */
	CHECK(parse_crafted(buf, len, &err) == -1 && strstr(err.msg, "overlapping"));
	*h = orig;
	h->frame_offset = 0xfffffff8u;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->slot_size = 128;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	CHECK(parse_crafted(buf, 512, &err) == -1 && strstr(err.msg, "truncated"));
	free(buf);
}

static void test_torn_seqlock_reported(void)
{
	size_t len;
	uint8_t *buf = crafted(&len);
	if (!buf)
		return;
	struct gctop_seg_header *h = (struct gctop_seg_header *)buf;
	struct gt_error err;
	h->seq = 7; /* a writer that never finished */
	CHECK(parse_crafted(buf, len, &err) == GT_SEGMENT_TORN);
	h->seq = 8;
	h->flags |= GCTOP_SEG_F_PAUSES;
	h->pause_seq = 3;
	CHECK(parse_crafted(buf, len, &err) == GT_SEGMENT_TORN);
	h->pause_seq = 4;
	CHECK(parse_crafted(buf, len, &err) == 0);
	free(buf);
}

static void test_strings_bounded_and_cleaned(void)
{
	size_t len;
	uint8_t *buf = crafted(&len);
	if (!buf)
		return;
	struct gctop_seg_header *h = (struct gctop_seg_header *)buf;
	struct gctop_seg_site *t = (struct gctop_seg_site *)(buf + h->frame_offset);
	struct gctop_seg_site *s = NULL;
	for (unsigned i = 0; i < h->frame_slots; i++)
		if (t[i].key > 1)
			s = &t[i];
	CHECK(s != NULL);
	if (!s) {
		free(buf);
		return;
	}
	memset(s->name, 'A', sizeof(s->name)); /* no NUL at all */
	memset(h->source, 'S', sizeof(h->source));
	memset(h->message, 'M', sizeof(h->message));
	struct gt_error err;
	CHECK(parse_crafted(buf, len, &err) == 0);
	CHECK_U64(strlen(reading.snap.by_frame.sites[0].name), GCTOP_SEG_NAME_LEN - 1);
	/* the segment's field or gctop's, whichever is shorter */
	CHECK_U64(strlen(reading.snap.source),
		  GCTOP_SEG_SOURCE_LEN < sizeof(reading.snap.source) ? GCTOP_SEG_SOURCE_LEN : sizeof(reading.snap.source) - 1);
	CHECK(strlen(reading.snap.message) < sizeof(reading.snap.message));

	memcpy(s->name, "Bad\x01\n\xff\xc3(name", 13);
	s->name[13] = '\0';
	CHECK(parse_crafted(buf, len, &err) == 0);
	CHECK_STR(reading.snap.by_frame.sites[0].name, "Bad??" "??" "(name");
	memcpy(s->name, "Caf\xc3\xa9.m", 8); /* valid UTF-8 stays */
	CHECK(parse_crafted(buf, len, &err) == 0);
	CHECK_STR(reading.snap.by_frame.sites[0].name, "Caf\xc3\xa9.m");
	free(buf);
}

static void test_open_refuses_unsafe_files(void)
{
	struct gctop_pub p;
	if (!published(&p, "safe", 8, 8))
		return;
	struct gt_segment *s = NULL;
	struct gt_error err;
	char link[256];
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink(p.path, link) == 0);
	CHECK(gt_segment_open(link, getuid(), &s, &err) == -1 && strstr(err.msg, "symbolic link"));
	CHECK(gt_segment_open(p.path, getuid() + 1, &s, &err) == -1);
	CHECK(chmod(p.path, 0644) == 0);
	CHECK(gt_segment_open(p.path, getuid(), &s, &err) == -1 && strstr(err.msg, "0600"));
	CHECK(chmod(p.path, 0600) == 0);
	char missing[256];
	snprintf(missing, sizeof(missing), "%s/none", dir);
	CHECK(gt_segment_open(missing, getuid(), &s, &err) == -1 && errno == ENOENT);
	CHECK(gt_segment_open(p.path, getuid(), &s, &err) == 0);
	gt_segment_close(s);
	unlink(link);
	gctop_pub_close(&p);
	CHECK(access(p.path, F_OK) != 0);
}

/* A publisher replacing a stale file of the same name: O_EXCL temp + rename. */
/* The stacks behind sites (layout_minor 1): published per sample with
 * method ids, named once, read back per site, largest first; an id never
 * named reads as unknown; a segment without the table gives none. */
static void test_stacks_round_trip(void)
{
	static struct gt_alloc_stacks st;
	char path[256], err[200];
	snprintf(path, sizeof(path), "%s/stacks", dir);
	struct gctop_pub p;
	struct gctop_pub_config cfg = { 64, 32, 0, "test-sampled", 64, 64, false };
	CHECK(gctop_pub_create(&p, path, &cfg, err, sizeof(err)) == 0);
	if (!p.hdr)
		return;
	gctop_pub_set_state(&p, GCTOP_SEG_RUNNING, NULL);
	const uint64_t lib[] = { 0x1000, 0x2000, 0x3000, 0x4000 }, direct[] = { 0x3000, 0x4000 }, odd[] = { 0x9990 };
	CHECK(gctop_pub_method(&p, 0x1000, "java.util.Arrays.copyOf"));
	CHECK(gctop_pub_method(&p, 0x2000, "java.util.Formatter.format"));
	CHECK(gctop_pub_method(&p, 0x3000, "App.line"));
	CHECK(gctop_pub_method(&p, 0x3000, "ignored: named once"));
	CHECK(gctop_pub_method(&p, 0x4000, "App.main\x01"));
	for (int i = 0; i < 3; i++) {
		gctop_pub_sample(&p, "App.line", NULL, GCTOP_SEG_HEAP_UNKNOWN, 100);
		gctop_pub_stack(&p, "App.line", lib, 4, 100);
	}
	gctop_pub_sample(&p, "App.line", NULL, GCTOP_SEG_HEAP_UNKNOWN, 100);
	gctop_pub_stack(&p, "App.line", direct, 2, 100);
	gctop_pub_sample(&p, "Other.site", NULL, GCTOP_SEG_HEAP_UNKNOWN, 10);
	gctop_pub_stack(&p, "Other.site", odd, 1, 10);
	const uint64_t deep[] = { 0x1000, GCTOP_SEG_FRAME_ELIDED, 0x3000 };
	gctop_pub_sample(&p, "Deep.site", NULL, GCTOP_SEG_HEAP_UNKNOWN, 10);
	gctop_pub_stack(&p, "Deep.site", deep, 3, 10);
	struct gt_error e = { 0 };
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == 0);
	const struct gt_alloc_site_stacks *s = gt_alloc_stacks_find(&st, "App.line");
	CHECK(s && s->n == 2 && s->distinct == 2 && s->bytes == 400);
	if (s && s->n == 2) {
		CHECK_U64(s->stacks[0].bytes, 300);
		CHECK_U64(s->stacks[0].count, 3);
		CHECK_U64(s->stacks[0].n_frames, 4);
		CHECK_STR(gt_alloc_stacks_name(&st, s->stacks[0].frames[1]), "java.util.Formatter.format");
		CHECK_STR(gt_alloc_stacks_name(&st, s->stacks[0].frames[2]), "App.line");
		CHECK_STR(gt_alloc_stacks_name(&st, s->stacks[0].frames[3]), "App.main?");
		CHECK_U64(s->stacks[1].n_frames, 2);
	}
	s = gt_alloc_stacks_find(&st, "Other.site");
	CHECK(s && s->n == 1);
	if (s)
		CHECK_STR(gt_alloc_stacks_name(&st, s->stacks[0].frames[0]), "(unknown method)");
	s = gt_alloc_stacks_find(&st, "Deep.site");
	CHECK(s && s->n == 1);
	if (s)
		CHECK_STR(gt_alloc_stacks_name(&st, s->stacks[0].frames[1]), GT_ALLOC_FRAME_ELIDED);
	/* a hostile frame count is bounded */
	struct gctop_seg_stack *t = (struct gctop_seg_stack *)((char *)p.hdr + p.hdr->stack_offset);
	for (uint32_t i = 0; i < p.hdr->stack_slots; i++)
		t[i].n_frames = t[i].key > 1 ? 999 : 0;
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == 0);
	s = gt_alloc_stacks_find(&st, "App.line");
	CHECK(s && s->n > 0 && s->stacks[0].n_frames == GCTOP_SEG_STACK_FRAMES);
	/* tables outside the file, or an older layout: no stacks */
	p.hdr->stack_offset = (uint32_t)p.size;
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == -1 && st.n_sites == 0);
	p.hdr->layout_minor = 0;
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == -1);
	gctop_pub_close(&p);

	/* a full stack table: the site says how many of its samples lost their stack */
	snprintf(path, sizeof(path), "%s/stacks-full", dir);
	struct gctop_pub_config one = { 64, 32, 0, "test-sampled", 1, 64, false };
	CHECK(gctop_pub_create(&p, path, &one, err, sizeof(err)) == 0);
	if (!p.hdr)
		return;
	gctop_pub_set_state(&p, GCTOP_SEG_RUNNING, NULL);
	for (int i = 0; i < 3; i++) {
		gctop_pub_sample(&p, "App.line", NULL, GCTOP_SEG_HEAP_UNKNOWN, 100);
		gctop_pub_stack(&p, "App.line", i == 0 ? lib : direct, i == 0 ? 4 : 2, 100);
	}
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == 0);
	s = gt_alloc_stacks_find(&st, "App.line");
	CHECK(s && s->n == 1 && s->dropped == 2 && p.hdr->stacks_dropped == 2);
	gctop_pub_close(&p);

	/* a segment made without stacks: none, and publishing one is a no-op */
	CHECK(published(&p, "nostacks", 64, 32));
	if (!p.hdr)
		return;
	gctop_pub_stack(&p, "App.line", lib, 4, 100);
	CHECK(!gctop_pub_method(&p, 0x1000, "x"));
	CHECK(gt_segment_parse(p.hdr, p.size, &reading, &e) == 0);
	CHECK(gt_segment_parse_stacks(p.hdr, p.size, &reading.snap, &st) == -1);
	gctop_pub_close(&p);
}

/* A segment with an ops block (layout_minor 2), the reader's view. */
static bool published_opcount(struct gctop_pub *p, const char *name)
{
	char path[256], err[200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct gctop_pub_config cfg = { 8, 8, GCTOP_SEG_F_ALLOC_TOTAL, "test-sampled", 0, 0, true };
	CHECK(gctop_pub_create(p, path, &cfg, err, sizeof(err)) == 0);
	return p->hdr != NULL;
}

/* --ops jmx: through a real file: the reader's request reaches the
 * publisher, the publisher's answer the reader; a request being written, or
 * with a name that fills its field, is no request. */
static void test_opcount_round_trip(void)
{
	struct gctop_pub p;
	if (!published_opcount(&p, "ops"))
		return;
	CHECK(p.hdr->layout_minor >= 2 && p.hdr->ops_offset + sizeof(struct gctop_seg_ops) == p.size);
	struct gt_segment *s;
	struct gt_error err;
	CHECK(gt_segment_open(p.path, getuid(), &s, &err) == 0);
	CHECK(gt_segment_request_opcount(s, 42, "d:k=v", "Count") == -1); /* not read yet: no block known */
	CHECK(gt_segment_read(s, &reading, &err) == 0);
	CHECK(reading.opcount.present && reading.opcount.req_id == 0 && reading.opcount.answered && reading.opcount.answer_id == 0);
	struct gctop_pub_ops_request r;
	CHECK(!gctop_pub_ops_request(&p, &r) && r.id == 0);
	CHECK(gt_segment_request_opcount(s, 42, "d:type=Ops,*", "Count") == 0);
	gt_segment_opcount_beat(s, 777);
	CHECK(gctop_pub_ops_request(&p, &r) && r.id == 42 && r.beat == 777);
	CHECK_STR(r.name, "d:type=Ops,*");
	CHECK_STR(r.attr, "Count");
	CHECK(p.hdr->reader_heartbeat == 0); /* the ops block's beat is its own */

	gctop_pub_set_ops(&p, 42, GCTOP_SEG_OPS_OK, 1234, 2, 999, NULL);
	CHECK(gt_segment_read(s, &reading, &err) == 0);
	CHECK(reading.opcount.answered && reading.opcount.req_id == 42 && reading.opcount.answer_id == 42);
	CHECK(reading.opcount.status == GCTOP_SEG_OPS_OK && reading.opcount.value == 1234 && reading.opcount.matched == 2);
	CHECK(reading.opcount.read_ns == 999 && reading.opcount.reason[0] == '\0');
	/* the request as read: another gctop tells whether it asks for the same counter, and whether it is still beaten */
	CHECK(reading.opcount.req_beat == 777);
	CHECK_STR(reading.opcount.req_name, "d:type=Ops,*");
	CHECK_STR(reading.opcount.req_attr, "Count");
	gctop_pub_set_ops(&p, 42, GCTOP_SEG_OPS_NOT_NUMBER, 0, 1, 1000, "java.lang.String");
	CHECK(gt_segment_read(s, &reading, &err) == 0);
	CHECK(reading.opcount.status == GCTOP_SEG_OPS_NOT_NUMBER);
	CHECK_STR(reading.opcount.reason, "java.lang.String");

	struct gctop_seg_ops *o = (struct gctop_seg_ops *)((char *)p.hdr + p.hdr->ops_offset);
	o->req_seq++; /* a reader mid-write */
	CHECK(!gctop_pub_ops_request(&p, &r) && r.id == 0);
	o->req_seq++;
	memset(o->req_name, 'x', sizeof(o->req_name)); /* no NUL inside the field */
	CHECK(!gctop_pub_ops_request(&p, &r) && r.id == 0);
	gt_segment_close(s);
	gctop_pub_close(&p);

	/* a segment without the block: no request can be written */
	if (!published(&p, "no-ops", 8, 8))
		return;
	CHECK(gt_segment_open(p.path, getuid(), &s, &err) == 0);
	CHECK(gt_segment_read(s, &reading, &err) == 0 && !reading.opcount.present);
	CHECK(gt_segment_request_opcount(s, 42, "d:k=v", "Count") == -1);
	CHECK(!gctop_pub_ops_request(&p, &r));
	gt_segment_close(s);
	gctop_pub_close(&p);
}

/* Hostile ops blocks: outside the file, of another size or misaligned is a
 * refused segment; an unknown status, an unterminated reason with control
 * bytes, an answer being written are read bounded; an older layout's
 * fields are not looked at. */
static void test_opcount_hostile(void)
{
	struct gctop_pub p;
	if (!published_opcount(&p, "ops-hostile"))
		return;
	gctop_pub_set_ops(&p, 7, GCTOP_SEG_OPS_OK, 5, 1, 9, NULL);
	size_t len = p.size;
	uint8_t *buf = aligned_alloc(64, (len + 63) / 64 * 64);
	CHECK(buf != NULL);
	if (!buf) {
		gctop_pub_close(&p);
		return;
	}
	memcpy(buf, p.hdr, len);
	gctop_pub_close(&p);
	struct gctop_seg_header *h = (struct gctop_seg_header *)buf;
	struct gctop_seg_header orig = *h;
	struct gctop_seg_ops *o = (struct gctop_seg_ops *)(buf + h->ops_offset);
	struct gt_error err;
	CHECK(parse_crafted(buf, len, &err) == 0 && reading.opcount.present && reading.opcount.value == 5);
	h->ops_offset = (uint32_t)len - 512; /* runs past the end */
	CHECK(parse_crafted(buf, len, &err) == -1 && strstr(err.msg, "ops block"));
	h->ops_offset = 0xfffffff8u;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->ops_offset += 4;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->ops_size = 512;
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->ops_offset = 100; /* inside the header */
	CHECK(parse_crafted(buf, len, &err) == -1);
	*h = orig;
	h->layout_minor = 1; /* an older file: the fields are not looked at */
	h->ops_offset = 0xfffffff8u;
	CHECK(parse_crafted(buf, len, &err) == 0 && !reading.opcount.present);
	*h = orig;
	o->status = 999;
	memset(o->reason, '\n', sizeof(o->reason));
	CHECK(parse_crafted(buf, len, &err) == 0 && reading.opcount.status == GCTOP_SEG_OPS_FAILED);
	CHECK(strlen(reading.opcount.reason) == GCTOP_SEG_OPS_REASON_LEN - 1 && !strchr(reading.opcount.reason, '\n'));
	o->seq = 3; /* being written */
	CHECK(parse_crafted(buf, len, &err) == 0 && reading.opcount.present && !reading.opcount.answered);
	free(buf);
}

static void test_create_replaces_stale_file(void)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/stale", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, "junk", 4) == 4);
	close(fd);
	struct gctop_pub p;
	CHECK(publish(&p, "stale", 8, 8) == 0);
	struct gt_error err;
	CHECK(p.hdr && gt_segment_parse(p.hdr, p.size, &reading, &err) == 0);
	gctop_pub_close(&p);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/gctop-test-segment.XXXXXX");
	if (!mkdtemp(dir)) {
		printf("FAIL: test_segment: cannot create a temporary directory\n");
		return 1;
	}
	RUN_TEST(test_round_trip);
	RUN_TEST(test_region_objects);
	RUN_TEST(test_collision_keeps_names_apart);
	RUN_TEST(test_table_full_counts_dropped);
	RUN_TEST(test_top_k_bounded);
	RUN_TEST(test_refuses_bad_layouts);
	RUN_TEST(test_torn_seqlock_reported);
	RUN_TEST(test_strings_bounded_and_cleaned);
	RUN_TEST(test_open_refuses_unsafe_files);
	RUN_TEST(test_create_replaces_stale_file);
	RUN_TEST(test_stacks_round_trip);
	RUN_TEST(test_opcount_round_trip);
	RUN_TEST(test_opcount_hostile);
	rmdir(dir);
	return check_summary();
}
