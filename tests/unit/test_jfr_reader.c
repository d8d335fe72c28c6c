/* The JFR chunk reader on crafted chunks: LEB128's edges, a hand-built
 * chunk (metadata, checkpoints chained backwards, an event that names
 * constants written after it, strings in every encoding, arrays, simple
 * types, time annotations), and each way a chunk can be broken or hostile.
 *
 * GCTOP_JFR_CORPUS=DIR also writes the crafted chunks into DIR, which is
 * how tests/fuzz/corpus/jfr_reader/crafted-* were made. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/hotspot/jfr/jfr_internal.h"
#include "collectors/hotspot/jfr/jfr_reader.h"
#include "tests/unit/bytes.h"
#include "tests/unit/check.h"

/* ---- a small chunk writer ---- */

/* LEB128 as the JDK writes it: 7 bits a byte, the 9th byte whole. */
static void leb(struct bytes *b, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		if (v < 0x80) {
			bytes_u8(b, (uint8_t)v);
			return;
		}
		bytes_u8(b, (uint8_t)(0x80 | (v & 0x7F)));
		v >>= 7;
	}
	bytes_u8(b, (uint8_t)v);
}

static void be(struct bytes *b, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--)
		bytes_u8(b, (uint8_t)(v >> (8 * i)));
}

static void str_utf8(struct bytes *b, const char *s)
{
	bytes_u8(b, 3);
	leb(b, strlen(s));
	bytes_put(b, s, strlen(s));
}

/* A record: its size as a 4-byte padded LEB128 (as HotSpot writes event
 * sizes), then the body. */
static void record(struct bytes *out, const struct bytes *body)
{
	uint32_t n = (uint32_t)body->n + 4;
	bytes_u8(out, (uint8_t)(0x80 | (n & 0x7F)));
	bytes_u8(out, (uint8_t)(0x80 | ((n >> 7) & 0x7F)));
	bytes_u8(out, (uint8_t)(0x80 | ((n >> 14) & 0x7F)));
	bytes_u8(out, (uint8_t)((n >> 21) & 0x7F));
	bytes_put(out, body->d, body->n);
}

/* What makes a crafted chunk hostile; all false is the good chunk. */
struct craft {
	bool inline_cycle;    /* StackFrame holds a StackFrame inline */
	bool self_pool;       /* a simple type whose one field refers to its own pool */
	bool cp_forward;      /* the checkpoint chain points forwards */
	bool unknown_type;    /* a field names a class id the metadata lacks */
	bool cp_size_short;   /* a checkpoint's size ends before its content */
	bool event_size_past; /* an event's size passes the chunk's end */
	bool bomb;            /* elements nested past the depth limit */
	int chain;            /* classes each holding the next inline */
};

/* The metadata's string table: each string once, in order. */
struct strtab {
	const char *s[8192];
	int n;
};

static uint64_t sid(struct strtab *t, const char *s)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->s[i], s))
			return (uint64_t)i;
	t->s[t->n] = s;
	return (uint64_t)t->n++;
}

/* An element: its name, nattr attribute pairs, then the caller writes
 * the count of its children and them. */
static void el(struct bytes *b, struct strtab *t, const char *name, int nattr, const char *const *attrs)
{
	leb(b, sid(t, name));
	leb(b, (uint64_t)nattr);
	for (int i = 0; i < 2 * nattr; i++)
		leb(b, sid(t, attrs[i]));
}

static void class_el(struct bytes *b, struct strtab *t, const char *id, const char *name, const char *super,
		     int nfields)
{
	const char *a[] = { "id", id, "name", name, "superType", super };
	el(b, t, "class", super ? 3 : 2, a);
	leb(b, (uint64_t)nfields);
}

/* A field with no annotation, or with one time annotation. */
static void field_el(struct bytes *b, struct strtab *t, const char *name, const char *cls, bool pool, bool array,
		     const char *ann_class, const char *ann_value)
{
	const char *a[8] = { "name", name, "class", cls };
	int n = 2;
	if (pool) {
		a[2 * n] = "constantPool";
		a[2 * n + 1] = "true";
		n++;
	}
	if (array) {
		a[2 * n] = "dimension";
		a[2 * n + 1] = "1";
		n++;
	}
	el(b, t, "field", n, a);
	if (!ann_class) {
		leb(b, 0);
		return;
	}
	leb(b, 1);
	const char *an[] = { "class", ann_class, "value", ann_value };
	el(b, t, "annotation", 2, an);
	leb(b, 0);
}

static void prim_el(struct bytes *b, struct strtab *t, const char *id, const char *name)
{
	const char *a[] = { "id", id, "name", name };
	el(b, t, "class", 2, a);
	leb(b, 0);
}

/* The classes: primitives 20-22 and 29-30, Symbol 23 (simple), Class 24,
 * Thread 25, StackFrame 26, Method 27, StackTrace 28, the annotations
 * 200-201 and the event test.Alloc 100. */
static void meta_classes(struct bytes *b, struct strtab *t, const struct craft *c)
{
	prim_el(b, t, "20", "long");
	prim_el(b, t, "21", "int");
	prim_el(b, t, "22", "java.lang.String");
	prim_el(b, t, "29", "boolean");
	prim_el(b, t, "30", "double");
	prim_el(b, t, "200", "jdk.jfr.Timestamp");
	prim_el(b, t, "201", "jdk.jfr.Timespan");
	const char *sym[] = { "id", "23", "name", "jdk.types.Symbol", "simpleType", "true" };
	el(b, t, "class", 3, sym);
	leb(b, 1);
	field_el(b, t, "string", c->self_pool ? "23" : "22", c->self_pool, false, NULL, NULL);
	class_el(b, t, "24", "java.lang.Class", NULL, 1);
	field_el(b, t, "name", "23", true, false, NULL, NULL);
	class_el(b, t, "25", "java.lang.Thread", NULL, 1);
	field_el(b, t, "javaName", "22", false, false, NULL, NULL);
	class_el(b, t, "26", "jdk.types.StackFrame", NULL, c->inline_cycle ? 3 : 2);
	field_el(b, t, "method", "27", true, false, NULL, NULL);
	field_el(b, t, "lineNumber", c->unknown_type ? "77" : "21", false, false, NULL, NULL);
	if (c->inline_cycle)
		field_el(b, t, "caller", "26", false, false, NULL, NULL);
	class_el(b, t, "27", "jdk.types.Method", NULL, 2);
	field_el(b, t, "type", "24", true, false, NULL, NULL);
	field_el(b, t, "name", "23", true, false, NULL, NULL);
	class_el(b, t, "28", "jdk.types.StackTrace", NULL, 2);
	field_el(b, t, "truncated", "29", false, false, NULL, NULL);
	field_el(b, t, "frames", "26", false, true, NULL, NULL);
	class_el(b, t, "100", "test.Alloc", "jdk.jfr.Event", 8);
	field_el(b, t, "startTime", "20", false, false, "200", "TICKS");
	field_el(b, t, "duration", "20", false, false, "201", "TICKS");
	field_el(b, t, "eventThread", "25", true, false, NULL, NULL);
	field_el(b, t, "stackTrace", "28", true, false, NULL, NULL);
	field_el(b, t, "objectClass", "24", true, false, NULL, NULL);
	field_el(b, t, "weight", "20", false, false, NULL, NULL);
	field_el(b, t, "ratio", "30", false, false, NULL, NULL);
	field_el(b, t, "label", "22", false, false, NULL, NULL);
}

static const int n_meta_classes = 14;

/* c->chain classes "chain.N", each holding "chain.N+1" inline, the last
 * a long; their names and ids live as long as the test. */
static void meta_chain(struct bytes *b, struct strtab *t, const struct craft *c)
{
	static char names[2][4096][24];
	for (int i = 0; i < c->chain; i++) {
		snprintf(names[0][i], sizeof(names[0][i]), "%d", 1000 + i);
		snprintf(names[1][i], sizeof(names[1][i]), "chain.%d", i);
	}
	for (int i = 0; i < c->chain; i++) {
		class_el(b, t, names[0][i], names[1][i], NULL, 1);
		field_el(b, t, "next", i + 1 < c->chain ? names[0][i + 1] : "20", false, false, NULL, NULL);
	}
}

/* The metadata event: header fields, string table, root element. */
static void metadata(struct bytes *out, const struct craft *c)
{
	static struct bytes tree, body;
	struct strtab t = { .n = 0 };
	tree.n = body.n = 0;
	el(&tree, &t, "root", 0, NULL);
	leb(&tree, 2);
	el(&tree, &t, "metadata", 0, NULL);
	leb(&tree, (uint64_t)(n_meta_classes + c->chain));
	meta_classes(&tree, &t, c);
	meta_chain(&tree, &t, c);
	el(&tree, &t, "region", 0, NULL);
	int depth = c->bomb ? 40 : 1;
	for (int i = 0; i < depth; i++) {
		leb(&tree, 1);
		el(&tree, &t, "deeper", 0, NULL);
	}
	leb(&tree, 0);
	leb(&body, 0);        /* type: metadata */
	leb(&body, 1000);     /* start */
	leb(&body, 0);        /* duration */
	leb(&body, 1);        /* metadata id */
	leb(&body, (uint64_t)t.n);
	for (int i = 0; i < t.n; i++)
		str_utf8(&body, t.s[i]);
	bytes_put(&body, tree.d, tree.n);
	record(out, &body);
}

/* Checkpoint A: the Symbol pool (and, hostile, a Symbol that refers to
 * itself). */
static void checkpoint_a(struct bytes *out, const struct craft *c)
{
	struct bytes body = { .n = 0 };
	leb(&body, 1);
	leb(&body, 1000);
	leb(&body, 0);
	leb(&body, 0); /* delta 0: the first */
	bytes_u8(&body, 1);
	leb(&body, 1); /* one pool */
	leb(&body, 23);
	if (c->self_pool) {
		leb(&body, 1);
		leb(&body, 1); /* key 1 */
		leb(&body, 1); /* its one field: a reference to key 1 */
	} else {
		leb(&body, 3);
		leb(&body, 1);
		str_utf8(&body, "Foo");
		leb(&body, 2);
		bytes_u8(&body, 5); /* Latin-1 */
		leb(&body, 5);
		bytes_put(&body, "alloc", 5);
		leb(&body, 3);
		bytes_u8(&body, 4); /* UTF-16 code units: "é" and U+1F600 as a pair */
		leb(&body, 3);
		leb(&body, 0xE9);
		leb(&body, 0xD83D);
		leb(&body, 0xDE00);
	}
	record(out, &body);
}

/* Checkpoint B: Class, Method, Thread, StackTrace and String pools,
 * chained to checkpoint A (delta). */
static void checkpoint_b(struct bytes *out, int64_t delta, const struct craft *c)
{
	struct bytes body = { .n = 0 };
	leb(&body, 1);
	leb(&body, 2000);
	leb(&body, 0);
	leb(&body, (uint64_t)delta);
	bytes_u8(&body, 1);
	leb(&body, 5);
	leb(&body, 24); leb(&body, 1); leb(&body, 5); leb(&body, 1);            /* Class 5: name Symbol 1 */
	leb(&body, 27); leb(&body, 1); leb(&body, 7); leb(&body, 5); leb(&body, 2); /* Method 7 */
	leb(&body, 25); leb(&body, 1); leb(&body, 9); str_utf8(&body, "main");  /* Thread 9 */
	leb(&body, 28); leb(&body, 1); leb(&body, 11);                           /* StackTrace 11 */
	bytes_u8(&body, 0);
	leb(&body, 2);
	leb(&body, 7); leb(&body, 42);
	leb(&body, 7); leb(&body, 43);
	leb(&body, 22); leb(&body, 1); leb(&body, 13); str_utf8(&body, "pooled"); /* String 13 */
	if (c->cp_size_short)
		body.n -= 2;
	record(out, &body);
}

static void event(struct bytes *out, uint64_t type, int64_t ticks, uint64_t stack, bool null_label)
{
	struct bytes body = { .n = 0 };
	leb(&body, type);
	leb(&body, (uint64_t)ticks);
	leb(&body, 500);  /* duration */
	leb(&body, 9);    /* eventThread */
	leb(&body, stack);
	leb(&body, 5);    /* objectClass */
	leb(&body, 4096); /* weight */
	be(&body, 0x3FE0000000000000ull, 8); /* ratio 0.5 */
	if (null_label) {
		bytes_u8(&body, 0);
	} else {
		bytes_u8(&body, 2); /* a reference into the string pool */
		leb(&body, 13);
	}
	record(out, &body);
}

enum { START_TICKS = 5000, TICKS_PER_S = 2000000000 };
static const int64_t start_ns = 1700000000000000000;

/* The whole chunk: header, events (before the constants they name), an
 * event of an unknown type, metadata, checkpoint A, checkpoint B. */
static void chunk(struct bytes *b, const struct craft *c)
{
	b->n = 0;
	bytes_put(b, "FLR", 4);
	be(b, 2, 2);
	be(b, 1, 2);
	size_t sizes = b->n;
	for (int i = 0; i < 3; i++)
		be(b, 0, 8); /* size, cp, metadata: patched below */
	be(b, (uint64_t)start_ns, 8);
	be(b, 1000000, 8);
	be(b, START_TICKS, 8);
	be(b, TICKS_PER_S, 8);
	bytes_u8(b, 0); /* generation: finished */
	bytes_u8(b, 0);
	be(b, 3, 2);    /* compressed integers, final chunk */
	event(b, 100, START_TICKS + 2000, 11, false);
	event(b, 999, START_TICKS + 2100, 11, false);
	event(b, 100, START_TICKS + 4000, 99, true);
	size_t meta = b->n;
	metadata(b, c);
	size_t cp_a = b->n;
	checkpoint_a(b, c);
	size_t cp_b = b->n;
	checkpoint_b(b, c->cp_forward ? 8 : (int64_t)cp_a - (int64_t)cp_b, c);
	uint64_t size = b->n + (c->event_size_past ? 100 : 0);
	uint8_t *h = b->d + sizes;
	for (int i = 0; i < 8; i++) {
		h[i] = (uint8_t)(size >> (56 - 8 * i));
		h[8 + i] = (uint8_t)((uint64_t)cp_b >> (56 - 8 * i));
		h[16 + i] = (uint8_t)((uint64_t)meta >> (56 - 8 * i));
	}
}

/* Writes a crafted chunk into $GCTOP_JFR_CORPUS, when set. */
static void corpus_out(const char *name, const struct bytes *b)
{
	const char *dir = getenv("GCTOP_JFR_CORPUS");
	if (!dir)
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/crafted-%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(b->d, 1, b->n, f);
		fclose(f);
	}
}

static struct bytes chunk_buf;

/* Opens the chunk c makes: the reader, or NULL with err set. */
static struct gt_jfr_reader *open_crafted(const struct craft *c, const char *name, struct gt_error *err)
{
	chunk(&chunk_buf, c);
	corpus_out(name, &chunk_buf);
	struct gt_jfr_reader *r = NULL;
	memset(err, 0, sizeof(*err));
	if (gt_jfr_open(chunk_buf.d, chunk_buf.n, NULL, &r, err) != GT_JFR_OK)
		return NULL;
	return r;
}

/* ---- the tests ---- */

static uint64_t leb_of(const uint8_t *p, size_t n, bool *bad)
{
	struct jfr_in in = { p, 0, n, false };
	uint64_t v = jfr_in_long(&in);
	*bad = in.bad;
	return v;
}

static void test_leb128_edges(void)
{
	bool bad;
	CHECK_U64(leb_of((const uint8_t[]){ 0x00 }, 1, &bad), 0);
	CHECK(!bad);
	CHECK_U64(leb_of((const uint8_t[]){ 0x7F }, 1, &bad), 0x7F);
	CHECK_U64(leb_of((const uint8_t[]){ 0x80, 0x01 }, 2, &bad), 0x80);
	/* HotSpot's padded sizes: 5 written in 4 bytes */
	CHECK_U64(leb_of((const uint8_t[]){ 0x85, 0x80, 0x80, 0x00 }, 4, &bad), 5);
	CHECK(!bad);
	/* nine bytes, the 9th whole: all 64 bits set */
	const uint8_t max[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	CHECK_U64(leb_of(max, 9, &bad), UINT64_MAX);
	CHECK(!bad);
	/* the 9th byte's top bit is data, not a continuation: a 10th is not read */
	const uint8_t ten[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x01 };
	CHECK_U64(leb_of(ten, 10, &bad), 0x81ull << 56);
	CHECK(!bad);
	/* cut short: bad, 0 */
	CHECK_U64(leb_of((const uint8_t[]){ 0x80, 0x80 }, 2, &bad), 0);
	CHECK(bad);
	CHECK_U64(leb_of(max, 8, &bad), 0);
	CHECK(bad);
	CHECK_U64(leb_of(max, 0, &bad), 0);
	CHECK(bad);
	/* a count refuses negative and past its maximum */
	struct jfr_in in = { (const uint8_t[]){ 0xFF, 0xFF, 0xFF, 0xFF, 0x0F }, 0, 5, false };
	jfr_in_count(&in, INT32_MAX);
	CHECK(in.bad);
	in = (struct jfr_in){ (const uint8_t[]){ 0x10 }, 0, 1, false };
	jfr_in_count(&in, 15);
	CHECK(in.bad);
}

static void test_header(void)
{
	struct craft c = { 0 };
	chunk(&chunk_buf, &c);
	struct gt_jfr_header h;
	struct gt_error err = { 0 };
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_OK);
	CHECK_U64(h.major, 2);
	CHECK_U64(h.minor, 1);
	CHECK_U64(h.chunk_size, chunk_buf.n);
	CHECK(h.finished && h.final_chunk && h.compressed_ints && !h.compressed_ticks);
	CHECK_U64(h.ticks_per_second, TICKS_PER_S);
	/* generation 255: the JVM is rewriting it */
	chunk_buf.d[64] = 255;
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_AGAIN);
	chunk_buf.d[64] = 7;
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_OK);
	CHECK(!h.finished);
	/* a chunk just begun: no metadata yet, read again later; once
	 * finished, a chunk without metadata is broken */
	uint8_t meta[8];
	memcpy(meta, chunk_buf.d + 24, 8);
	memset(chunk_buf.d + 24, 0, 8);
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_AGAIN);
	chunk_buf.d[64] = 0;
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "metadata offset 0") != NULL);
	memcpy(chunk_buf.d + 24, meta, 8);
	CHECK(gt_jfr_header_read(chunk_buf.d, 67, &h, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "shorter than its 68-byte header") != NULL);
	chunk_buf.d[0] = 'X';
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "not a flight recording") != NULL);
	chunk_buf.d[0] = 'F';
	chunk_buf.d[5] = 3; /* version 3.1 */
	CHECK(gt_jfr_header_read(chunk_buf.d, chunk_buf.n, &h, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "version 3.1") != NULL);
}

static void test_minimal_chunk(void)
{
	struct craft c = { 0 };
	struct gt_error err;
	struct gt_jfr_reader *r = open_crafted(&c, "good", &err);
	CHECK(r != NULL);
	if (!r) {
		printf("# %s\n", err.msg);
		return;
	}
	uint64_t id = 0;
	CHECK(gt_jfr_type_id(r, "test.Alloc", &id) == GT_JFR_OK);
	CHECK_U64(id, 100);
	CHECK(gt_jfr_type_id(r, "jdk.types.Symbol", &id) == GT_JFR_ABSENT);
	struct gt_jfr_event ev;
	CHECK(gt_jfr_next(r, &ev, &err) == GT_JFR_OK);
	CHECK_STR(ev.type_name, "test.Alloc");
	CHECK(ev.has_start);
	CHECK_U64(ev.start_ticks, START_TICKS + 2000);
	CHECK_U64(ev.start_ns, start_ns + 1000); /* 2000 ticks at 2 GHz */
	char s[64];
	int64_t v;
	double d;
	CHECK(gt_jfr_get_string(&ev.value, "objectClass.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "Foo");
	CHECK(gt_jfr_get_string(&ev.value, "eventThread.javaName", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "main");
	CHECK(gt_jfr_get_string(&ev.value, "stackTrace.frames[1].method.type.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "Foo");
	CHECK(gt_jfr_get_string(&ev.value, "stackTrace.frames[0].method.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "alloc");
	CHECK(gt_jfr_get_int(&ev.value, "stackTrace.frames[1].lineNumber", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, 43);
	CHECK(gt_jfr_get_int(&ev.value, "stackTrace.frames[2].lineNumber", &v, &err) == GT_JFR_ABSENT);
	uint32_t n = 0;
	CHECK(gt_jfr_get_count(&ev.value, "stackTrace.frames", &n, &err) == GT_JFR_OK);
	CHECK_U64(n, 2);
	uint64_t key = 0;
	CHECK(gt_jfr_get_ref(&ev.value, "stackTrace", &key, &err) == GT_JFR_OK);
	CHECK_U64(key, 11);
	CHECK(gt_jfr_get_int(&ev.value, "weight", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, 4096);
	CHECK(gt_jfr_get_double(&ev.value, "ratio", &d, &err) == GT_JFR_OK);
	CHECK_NEAR(d, 0.5, 0);
	CHECK(gt_jfr_get_double(&ev.value, "weight", &d, &err) == GT_JFR_OK);
	CHECK_NEAR(d, 4096, 0);
	CHECK(gt_jfr_get_string(&ev.value, "label", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "pooled");
	CHECK(gt_jfr_get_ns(&ev.value, "duration", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, 250);
	CHECK(gt_jfr_get_ns(&ev.value, "startTime", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, start_ns + 1000);
	CHECK(gt_jfr_get_ns(&ev.value, "weight", &v, &err) == GT_JFR_ABSENT);
	CHECK(gt_jfr_get_int(&ev.value, "noSuchField", &v, &err) == GT_JFR_ABSENT);
	CHECK(gt_jfr_get_int(&ev.value, "objectClass.name", &v, &err) == GT_JFR_ERROR);
	CHECK(gt_jfr_get_int(&ev.value, "stackTrace.frames.lineNumber", &v, &err) == GT_JFR_ERROR);
	CHECK(gt_jfr_get_int(&ev.value, "stackTrace.frames[x]", &v, &err) == GT_JFR_ERROR);
	struct gt_jfr_value frame;
	CHECK(gt_jfr_get(&ev.value, "stackTrace.frames[0]", &frame, &err) == GT_JFR_OK);
	CHECK_STR(gt_jfr_value_type(&frame), "jdk.types.StackFrame");
	CHECK(gt_jfr_get_int(&frame, "lineNumber", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, 42);
	/* a string cut to the buffer, never past it */
	char small[3];
	CHECK(gt_jfr_get_string(&ev.value, "label", small, sizeof(small), &err) == GT_JFR_OK);
	CHECK_STR(small, "po");
	/* the next event of a known type: the one of type 999 is passed over */
	size_t after_first = gt_jfr_position(r);
	CHECK(gt_jfr_next(r, &ev, &err) == GT_JFR_OK);
	CHECK(gt_jfr_get_string(&ev.value, "label", s, sizeof(s), &err) == GT_JFR_ABSENT);
	CHECK(gt_jfr_get_string(&ev.value, "stackTrace.frames[0].method.name", s, sizeof(s), &err) == GT_JFR_ABSENT);
	CHECK(gt_jfr_get_ref(&ev.value, "stackTrace", &key, &err) == GT_JFR_ABSENT);
	CHECK(gt_jfr_next(r, &ev, &err) == GT_JFR_END);
	struct gt_jfr_stats st;
	gt_jfr_stats(r, &st);
	CHECK_U64(st.events, 2);
	CHECK_U64(st.unknown_events, 1);
	CHECK_U64(st.checkpoints, 2);
	CHECK_U64(st.pool_entries, 8);
	CHECK_U64(st.classes, n_meta_classes);
	CHECK(st.bytes_held <= gt_jfr_memory_bound(NULL));
	/* going on from a place given before */
	CHECK(gt_jfr_seek(r, after_first, &err) == GT_JFR_OK);
	CHECK(gt_jfr_next(r, &ev, &err) == GT_JFR_OK);
	CHECK_U64(ev.start_ticks, START_TICKS + 4000);
	CHECK(gt_jfr_seek(r, 3, &err) == GT_JFR_ERROR);
	gt_jfr_close(r);
}

static void test_string_encodings(void)
{
	struct craft c = { 0 };
	struct gt_error err;
	struct gt_jfr_reader *r = open_crafted(&c, "good", &err);
	struct gt_jfr_event ev;
	CHECK(r && gt_jfr_next(r, &ev, &err) == GT_JFR_OK);
	if (!r)
		return;
	/* Symbol 3 is UTF-16 code units: reach it through a crafted value */
	const struct jfr_const *k = jfr_const_find(r, jfr_class_by_id(r, 23), 3);
	CHECK(k != NULL);
	if (k) {
		struct gt_jfr_value sym = { r, jfr_class_by_id(r, 22), 0, k->off, k->end };
		char s[16];
		CHECK(gt_jfr_get_string(&sym, "", s, sizeof(s), &err) == GT_JFR_OK);
		CHECK_STR(s, "\xC3\xA9\xF0\x9F\x98\x80");
		char four[5];
		/* a character that does not fit whole is left out */
		CHECK(gt_jfr_get_string(&sym, "", four, sizeof(four), &err) == GT_JFR_OK);
		CHECK_STR(four, "\xC3\xA9");
	}
	gt_jfr_close(r);
}

/* Each hostile chunk: refused with a sentence, or read with the harm
 * contained. */
static void expect_refused(const struct craft *c, const char *name, const char *why)
{
	struct gt_error err;
	struct gt_jfr_reader *r = open_crafted(c, name, &err);
	CHECK(r == NULL);
	CHECK_U64(err.code, GT_EXIT_BAD_DATA);
	if (!strstr(err.msg, why))
		check_fail(__FILE__, __LINE__, "%s: \"%s\" lacks \"%s\"", name, err.msg, why);
	gt_jfr_close(r);
}

static void test_hostile_metadata(void)
{
	expect_refused(&(struct craft){ .inline_cycle = true }, "inline-cycle", "holds itself inline");
	expect_refused(&(struct craft){ .unknown_type = true }, "unknown-type", "which its metadata lacks");
	expect_refused(&(struct craft){ .bomb = true }, "nesting-bomb", "nests deeper than gctop's limit");
	/* a chain of classes inline: refused at the limit, the check's
	 * recursion no deeper than it (a chain of 1,200 would otherwise take
	 * 1,200 frames) */
	expect_refused(&(struct craft){ .chain = 1200 }, "inline-chain-1200", "nests deeper than 32");
	struct gt_error err;
	struct gt_jfr_reader *ok = open_crafted(&(struct craft){ .chain = 32 }, "inline-chain-32", &err);
	CHECK(ok != NULL);
	gt_jfr_close(ok);
	/* a metadata whose element count passes the limit */
	struct gt_jfr_limits lim = gt_jfr_default_limits;
	lim.max_elements = 10;
	struct craft c = { 0 };
	chunk(&chunk_buf, &c);
	struct gt_jfr_reader *r = NULL;
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n, &lim, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "more elements than gctop's limit of 10") != NULL);
	lim = gt_jfr_default_limits;
	lim.max_pool_entries = 3;
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n, &lim, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "more constants than gctop's limit of 3") != NULL);
	lim = gt_jfr_default_limits;
	lim.max_metadata_bytes = 100;
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n, &lim, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "over gctop's limit of 100") != NULL);
}

static void test_hostile_pools(void)
{
	expect_refused(&(struct craft){ .cp_forward = true }, "checkpoint-forward", "not back into the chunk");
	expect_refused(&(struct craft){ .cp_size_short = true }, "checkpoint-size-short", "truncated or malformed");
	/* a simple type whose constant refers to itself: a path through it
	 * ends at the depth limit */
	struct gt_error err;
	struct gt_jfr_reader *r = open_crafted(&(struct craft){ .self_pool = true }, "self-pool", &err);
	CHECK(r != NULL);
	struct gt_jfr_event ev;
	if (r && gt_jfr_next(r, &ev, &err) == GT_JFR_OK) {
		char s[16];
		CHECK(gt_jfr_get_string(&ev.value, "objectClass.name", s, sizeof(s), &err) == GT_JFR_ERROR);
		CHECK(strstr(err.msg, "deeper than 32") != NULL);
	}
	gt_jfr_close(r);
}

static void test_truncated_and_oversized(void)
{
	struct craft c = { 0 };
	chunk(&chunk_buf, &c);
	struct gt_jfr_reader *r = NULL;
	struct gt_error err;
	/* fewer bytes than the header states */
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n - 1, NULL, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "past the") != NULL);
	/* a chunk over the reader's limit */
	struct gt_jfr_limits lim = gt_jfr_default_limits;
	lim.max_chunk_bytes = 1000;
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n, &lim, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "over gctop's limit of 1000") != NULL);
	/* every cut of the chunk, with its size patched to the cut: an error
	 * or a clean end, never a read past the cut (ASan watches) */
	for (size_t cut = GT_JFR_HEADER_SIZE; cut < chunk_buf.n; cut++) {
		uint8_t *copy = malloc(cut);
		memcpy(copy, chunk_buf.d, cut);
		for (int i = 0; i < 8; i++)
			copy[8 + i] = (uint8_t)((uint64_t)cut >> (56 - 8 * i));
		if (gt_jfr_open(copy, cut, NULL, &r, &err) == GT_JFR_OK) {
			struct gt_jfr_event ev;
			while (gt_jfr_next(r, &ev, &err) == GT_JFR_OK)
				;
			gt_jfr_close(r);
		}
		free(copy);
	}
	/* an event whose size passes the chunk's end */
	c.event_size_past = true;
	chunk(&chunk_buf, &c);
	corpus_out("size-past-end", &chunk_buf);
	CHECK(gt_jfr_open(chunk_buf.d, chunk_buf.n, NULL, &r, &err) == GT_JFR_ERROR);
}

static void test_open_fd(void)
{
	struct craft c = { 0 };
	chunk(&chunk_buf, &c);
	char path[] = "/tmp/gctop-jfr-test-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	/* two chunks back to back, as a file of a recording holds them */
	CHECK(write(fd, chunk_buf.d, chunk_buf.n) == (ssize_t)chunk_buf.n);
	CHECK(write(fd, chunk_buf.d, chunk_buf.n) == (ssize_t)chunk_buf.n);
	struct gt_jfr_reader *r = NULL;
	struct gt_error err;
	CHECK(gt_jfr_open_fd(fd, chunk_buf.n, NULL, &r, &err) == GT_JFR_OK);
	struct gt_jfr_event ev;
	CHECK(r && gt_jfr_next(r, &ev, &err) == GT_JFR_OK);
	struct gt_jfr_stats st;
	if (r) {
		gt_jfr_stats(r, &st);
		CHECK(st.bytes_held > chunk_buf.n);
	}
	gt_jfr_close(r);
	/* a header that states more than the file holds */
	CHECK(gt_jfr_open_fd(fd, chunk_buf.n + 10, NULL, &r, &err) == GT_JFR_ERROR);
	uint8_t big[8] = { 0, 0, 0, 0, 0x01, 0, 0, 0 }; /* 16 MiB */
	CHECK(pwrite(fd, big, 8, 8) == 8);
	CHECK(gt_jfr_open_fd(fd, 0, NULL, &r, &err) == GT_JFR_ERROR);
	CHECK(strstr(err.msg, "past the file's end") != NULL);
	/* a header being rewritten */
	uint8_t busy = 255;
	CHECK(pwrite(fd, &busy, 1, 64) == 1);
	CHECK(gt_jfr_open_fd(fd, 0, NULL, &r, &err) == GT_JFR_AGAIN);
	close(fd);
}

static void test_memory_bound(void)
{
	size_t b = gt_jfr_memory_bound(NULL);
	/* the default bound, stated in the report and jfr_reader.h */
	CHECK(b > gt_jfr_default_limits.max_chunk_bytes);
	CHECK(b < 256u << 20);
	printf("# memory bound with the default limits: %zu bytes\n", b);
}

int main(void)
{
	RUN_TEST(test_leb128_edges);
	RUN_TEST(test_header);
	RUN_TEST(test_minimal_chunk);
	RUN_TEST(test_string_encodings);
	RUN_TEST(test_hostile_metadata);
	RUN_TEST(test_hostile_pools);
	RUN_TEST(test_truncated_and_oversized);
	RUN_TEST(test_open_fd);
	RUN_TEST(test_memory_bound);
	return check_summary();
}
