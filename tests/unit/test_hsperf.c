/* The perf-data parser against the JDK's own reading of real files (the
 * .snap.txt oracles, printed by jstat -snap) and on crafted broken buffers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "collectors/hotspot/perfdata/hsperf.h"
#include "tests/unit/check.h"

#define DATA_DIR "tests/data/hsperfdata/"

static const char *const corpus_names[] = {
	"jdk17-G1", "jdk17-Parallel", "jdk17-Serial", "jdk17-Shenandoah", "jdk17-Z",
	"jdk25-G1", "jdk25-Parallel", "jdk25-Serial", "jdk25-Shenandoah", "jdk25-Z",
};

/* Reads a whole file into an 8-aligned buffer (malloc aligns to 16). */
static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			uint8_t *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

/* Compares every line name=value of the oracle with the parsed entry, and
 * checks the parser found no entry the oracle lacks. */
static void compare_with_oracle(const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), DATA_DIR "%s.hsperfdata", name);
	size_t len = 0;
	uint8_t *buf = read_file(path, &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	struct hsperf p;
	struct gt_error err = { 0 };
	int rc = hsperf_init(&p, buf, len, path, &err);
	CHECK(rc == 0);
	if (rc != 0) {
		check_fail(__FILE__, __LINE__, "%s: %s", name, err.msg);
		free(buf);
		return;
	}
	CHECK(p.complete);
	CHECK(hsperf_accessible(&p));
	struct hsperf_prologue pro;
	CHECK(hsperf_read_prologue(buf, len, path, &pro, &err) == 0);

	snprintf(path, sizeof(path), DATA_DIR "%s.snap.txt", name);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	size_t lines = 0, longs = 0, strings = 0;
	char line[4096];
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *key = line, *val = eq + 1;
		/* jvmstat adds these from the prologue; they are not entries. */
		if (strncmp(key, "sun.perfdata.", 13) == 0) {
			long long want = strtoll(val, NULL, 10), got = -1;
			const char *field = key + 13;
			if (!strcmp(field, "majorVersion")) got = pro.major;
			else if (!strcmp(field, "minorVersion")) got = pro.minor;
			else if (!strcmp(field, "overflow")) got = pro.overflow;
			else if (!strcmp(field, "size")) got = (long long)len;
			else if (!strcmp(field, "timestamp")) got = pro.mod_time_stamp;
			else if (!strcmp(field, "used")) got = pro.used;
			if (got != want)
				check_fail(__FILE__, __LINE__, "%s: %s == %lld, expected %lld", name, key, got, want);
			continue;
		}
		lines++;
		const struct hsperf_entry *e = hsperf_find(&p, key);
		if (!e) {
			check_fail(__FILE__, __LINE__, "%s: counter %s missing", name, key);
			continue;
		}
		size_t vl = strlen(val);
		if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
			char want[2048], got[2048];
			snprintf(want, sizeof(want), "%.*s", (int)(vl - 2), val + 1);
			if (hsperf_read_string_entry(&p, e, got, sizeof(got)) != 0 || strcmp(got, want) != 0)
				check_fail(__FILE__, __LINE__, "%s: %s == \"%s\", expected \"%s\"", name, key, got, want);
			strings++;
		} else {
			char *end;
			errno = 0;
			long long want = strtoll(val, &end, 10);
			int64_t got = 0;
			if (errno || *end || hsperf_read_long(&p, key, &got) != 0 || got != want)
				check_fail(__FILE__, __LINE__, "%s: %s == %lld, expected %s", name, key, (long long)got, val);
			longs++;
		}
	}
	if (f)
		fclose(f);
	if (p.count != lines)
		check_fail(__FILE__, __LINE__, "%s: parsed %zu entries, oracle lists %zu", name, p.count, lines);
	CHECK(longs > 100);
	CHECK(strings > 10);
	hsperf_free(&p);
	free(buf);
}

static void test_oracle_all_files(void)
{
	for (size_t i = 0; i < sizeof(corpus_names) / sizeof(corpus_names[0]); i++)
		compare_with_oracle(corpus_names[i]);
}

/* ---- crafted buffers, laid out as HotSpot's PerfData::create_entry does ---- */

struct craft {
	_Alignas(8) uint8_t buf[4096];
	uint32_t used, num;
};

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, int64_t v) { memcpy(p, &v, 8); }

static void craft_init(struct craft *c)
{
	memset(c, 0, sizeof(*c));
	const uint8_t magic[4] = { 0xCA, 0xFE, 0xC0, 0xC0 };
	memcpy(c->buf, magic, 4);
	c->buf[4] = 1; /* little-endian */
	c->buf[5] = 2;
	c->buf[6] = 0;
	c->buf[7] = 1;
	put32(c->buf + 24, 32);
	c->used = 32;
}

static void craft_sync(struct craft *c)
{
	put32(c->buf + 8, c->used);
	put32(c->buf + 28, c->num);
}

/* Appends an entry; returns its offset. dsize 8 for 'J', 1 for 'B'. */
static uint32_t craft_add(struct craft *c, const char *name, char type, uint32_t vlen, const void *data, size_t dlen)
{
	uint32_t dsize = type == 'J' ? 8 : 1;
	uint32_t size = 20 + (uint32_t)strlen(name) + 1;
	uint32_t pad = size % dsize ? dsize - size % dsize : 0;
	uint32_t data_off = size + pad;
	size = data_off + dsize * (vlen ? vlen : 1);
	size = (size + 7) & ~7u;
	uint32_t off = c->used;
	uint8_t *e = c->buf + off;
	put32(e, size);
	put32(e + 4, 20);
	put32(e + 8, vlen);
	e[12] = (uint8_t)type;
	e[13] = 0;
	e[14] = type == 'J' ? HSPERF_U_BYTES : HSPERF_U_STRING;
	e[15] = type == 'J' ? 3 : 1;
	put32(e + 16, data_off);
	memcpy(e + 20, name, strlen(name) + 1);
	memcpy(e + data_off, data, dlen);
	c->used += size;
	c->num++;
	craft_sync(c);
	return off;
}

static uint32_t craft_long(struct craft *c, const char *name, int64_t v)
{
	uint8_t d[8];
	put64(d, v);
	return craft_add(c, name, 'J', 0, d, 8);
}

static uint32_t craft_string(struct craft *c, const char *name, const char *s, uint32_t cap)
{
	return craft_add(c, name, 'B', cap, s, strlen(s) + 1);
}

static int craft_parse(struct craft *c, size_t size, struct hsperf *p, struct gt_error *err)
{
	return hsperf_init(p, c->buf, size, "crafted", err);
}

static void test_crafted_valid(void)
{
	struct craft c;
	craft_init(&c);
	craft_long(&c, "sun.os.hrt.frequency", 1000000000);
	craft_string(&c, "sun.gc.cause", "No GC", 81);
	craft_long(&c, "a.negative", -42);
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(craft_parse(&c, sizeof(c.buf), &p, &err) == 0);
	CHECK_U64(p.count, 3);
	CHECK(p.complete);
	int64_t v = 0;
	CHECK(hsperf_read_long(&p, "sun.os.hrt.frequency", &v) == 0);
	CHECK_U64(v, 1000000000);
	CHECK(hsperf_read_long(&p, "a.negative", &v) == 0);
	CHECK(v == -42);
	char s[81];
	CHECK(hsperf_read_string(&p, "sun.gc.cause", s, sizeof(s)) == 0);
	CHECK_STR(s, "No GC");
	CHECK(hsperf_read_long(&p, "sun.gc.cause", &v) == -1);     /* a string is not a long */
	CHECK(hsperf_read_string(&p, "a.negative", s, sizeof(s)) == -1);
	CHECK(hsperf_read_long(&p, "missing", &v) == -1);
	CHECK(hsperf_resolve_long(&p, "missing") == NULL);
	/* Truncation to a small output buffer keeps the NUL. */
	char tiny[3];
	CHECK(hsperf_read_string(&p, "sun.gc.cause", tiny, sizeof(tiny)) == 0);
	CHECK_STR(tiny, "No");
	hsperf_free(&p);
}

/* --ops: the application's counter by name, its value read through the
 * copy; one it creates later is found after a refresh; a missing counter,
 * a string and a negative number give no operations, each with why. */
static void test_opcount_counter(void)
{
	struct craft c;
	craft_init(&c);
	craft_string(&c, "app.text", "x", 8);
	craft_long(&c, "app.negative", -1);
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(craft_parse(&c, sizeof(c.buf), &p, &err) == 0);

	struct hotspot_opcount opcount = { .name = "app.ops" };
	hotspot_opcount_resolve(&opcount, &p);
	struct gt_sample s = { 0 };
	hotspot_opcount_fill(&opcount, &s);
	CHECK(!s.opcount_total.valid);
	CHECK_STR(s.opcount_name, "operations");
	CHECK_STR(s.opcount_counter, "app.ops");
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "no perf-data counter of this name"));

	uint32_t at = craft_long(&c, "app.ops", 41);
	CHECK(hsperf_refresh(&p) == 1);
	hotspot_opcount_resolve(&opcount, &p);
	memset(&s, 0, sizeof(s));
	hotspot_opcount_fill(&opcount, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 41);
	/* the application counts on: the header (20) and "app.ops" with its
	 * NUL (8), padded to 8, put the value at 32 */
	put64(c.buf + at + 32, 42);
	hotspot_opcount_fill(&opcount, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 42);
	CHECK(s.opcount_unavailable == NULL);

	struct hotspot_opcount text = { .name = "app.text" }, negative = { .name = "app.negative" };
	hotspot_opcount_resolve(&text, &p);
	hotspot_opcount_resolve(&negative, &p);
	memset(&s, 0, sizeof(s));
	hotspot_opcount_fill(&text, &s);
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strstr(s.opcount_unavailable, "not one whole number"));
	memset(&s, 0, sizeof(s));
	hotspot_opcount_fill(&negative, &s);
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strstr(s.opcount_unavailable, "negative"));

	struct hotspot_opcount none = { 0 };
	memset(&s, 0, sizeof(s));
	hotspot_opcount_fill(&none, &s);
	CHECK(!s.opcount_total.valid && !s.opcount_name && !s.opcount_counter && !s.opcount_unavailable);
	hsperf_free(&p);
}

/* Checks that an open or parse failed with code and a sentence; true when
 * it succeeded instead (the caller frees what it opened). */
static bool expect_failure(int rc, const struct gt_error *err, enum gt_exit code, const char *what)
{
	if (rc != -1 || err->code != code || err->msg[0] == '\0')
		check_fail(__FILE__, __LINE__, "%s: rc %d code %d \"%s\"", what, rc, (int)err->code, err->msg);
	return rc == 0;
}

static void expect_bad(struct craft *c, size_t size, const char *what)
{
	struct hsperf p;
	struct gt_error err = { 0 };
	if (expect_failure(craft_parse(c, size, &p, &err), &err, GT_EXIT_BAD_DATA, what))
		hsperf_free(&p);
}

/* A fresh file with `width` bytes (4, or 1) of its prologue at `at` set to
 * value: refused. */
static void expect_bad_prologue(uint32_t at, unsigned width, uint32_t value, const char *what)
{
	struct craft c;
	craft_init(&c);
	if (width == 4)
		put32(c.buf + at, value);
	else
		c.buf[at] = (uint8_t)value;
	expect_bad(&c, sizeof(c.buf), what);
}

static void test_crafted_bad_prologue(void)
{
	struct craft c;
	craft_init(&c);
	craft_long(&c, "x", 1);
	expect_bad(&c, 16, "truncated prologue");
	expect_bad(&c, 0, "empty");
	c.buf[0] = 0xC0;
	expect_bad(&c, sizeof(c.buf), "wrong magic");
	expect_bad_prologue(4, 1, 0, "big-endian flag");
	expect_bad_prologue(4, 1, 7, "invalid byte order");
	expect_bad_prologue(5, 1, 1, "version 1");
	expect_bad_prologue(5, 1, 3, "version 3");
	expect_bad_prologue(24, 4, 8192, "entry offset past the end");
	expect_bad_prologue(24, 4, 36, "misaligned entry offset");
}

/* A broken entry: the parser keeps what precedes it and nothing after. */
static void expect_stops_after(struct craft *c, size_t keep, const char *what)
{
	struct hsperf p;
	struct gt_error err = { 0 };
	if (craft_parse(c, sizeof(c->buf), &p, &err) != 0) {
		check_fail(__FILE__, __LINE__, "%s: init failed: %s", what, err.msg);
		return;
	}
	if (p.count != keep || p.complete)
		check_fail(__FILE__, __LINE__, "%s: kept %zu entries (complete %d), expected %zu, incomplete",
			   what, p.count, (int)p.complete, keep);
	hsperf_free(&p);
}

/* One field of the entry after a good one set to a value the parser must
 * refuse: `width` bytes (4, or 1) at `at` from the entry's start. */
struct bad_field {
	const char *what, *name;
	uint32_t at;
	unsigned width;
	uint32_t value;
};

static const struct bad_field bad_fields[] = {
	{ "entry_length past the end", "bad", 0, 4, 4000 },
	{ "entry_length overflow", "bad", 0, 4, 0xFFFFFFF8u },
	{ "entry_length not a multiple of 4", "bad", 0, 4, 34 },
	{ "name_offset not 20", "bad", 4, 4, 24 },
	{ "data_offset past the entry", "bad", 16, 4, 200 },
	{ "data_offset at the name", "bad", 16, 4, 20 },
	{ "misaligned long data", "bad", 16, 4, 28 },
	{ "empty name", "empty", 20, 1, 0 },
	{ "units out of range", "units", 14, 1, 7 },
	{ "variability out of range", "variability", 15, 1, 0 },
};

static void expect_bad_field(const struct bad_field *b)
{
	struct craft c;
	craft_init(&c);
	craft_long(&c, "good", 1);
	uint32_t off = craft_long(&c, b->name, 2);
	if (b->width == 4)
		put32(c.buf + off + b->at, b->value);
	else
		c.buf[off + b->at] = (uint8_t)b->value;
	expect_stops_after(&c, 1, b->what);
}

static void test_crafted_bad_entries(void)
{
	struct craft c;
	uint32_t off;

	for (size_t i = 0; i < sizeof(bad_fields) / sizeof(bad_fields[0]); i++)
		expect_bad_field(&bad_fields[i]);

	craft_init(&c);
	craft_long(&c, "good", 1);
	off = craft_long(&c, "unterminated", 2);
	memset(c.buf + off + 20, 'x', 20); /* name fills everything up to data_offset */
	expect_stops_after(&c, 1, "name without NUL");

	craft_init(&c);
	craft_long(&c, "good", 1);
	off = craft_string(&c, "vector", "abc", 4);
	put32(c.buf + off + 8, 1000);
	expect_stops_after(&c, 1, "vector longer than its entry");

	/* num_entries counts an entry whose header is still zero. */
	craft_init(&c);
	craft_long(&c, "good", 1);
	c.num++;
	c.used += 64;
	craft_sync(&c);
	expect_stops_after(&c, 1, "counted but unwritten entry");
}

static void test_crafted_zero_entries(void)
{
	struct craft c;
	craft_init(&c);
	craft_sync(&c);
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(craft_parse(&c, sizeof(c.buf), &p, &err) == 0);
	CHECK_U64(p.count, 0);
	CHECK(p.complete);
	CHECK(hsperf_find(&p, "anything") == NULL);
	hsperf_free(&p);
}

static void test_crafted_unknown_type_skipped(void)
{
	struct craft c;
	craft_init(&c);
	uint32_t off = craft_long(&c, "float", 1);
	c.buf[off + 12] = 'F';
	craft_long(&c, "after", 5);
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(craft_parse(&c, sizeof(c.buf), &p, &err) == 0);
	CHECK_U64(p.count, 1);
	CHECK(p.complete);
	int64_t v = 0;
	CHECK(hsperf_read_long(&p, "after", &v) == 0 && v == 5);
	CHECK(hsperf_find(&p, "float") == NULL);
	hsperf_free(&p);
}

/* A JVM still starting: accessible is 0 and entries appear over time; the
 * parser resumes where it stopped and resolved pointers stay valid. */
static void test_crafted_incremental(void)
{
	struct craft c;
	craft_init(&c);
	c.buf[7] = 0;
	craft_long(&c, "first", 1);
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(craft_parse(&c, sizeof(c.buf), &p, &err) == 0);
	CHECK(!hsperf_accessible(&p));
	CHECK_U64(p.count, 1);
	hsperf_long first = hsperf_resolve_long(&p, "first");
	CHECK(first != NULL);

	CHECK(hsperf_refresh(&p) == 0); /* nothing changed */

	/* An allocation counted before its header is written. */
	uint32_t off = c.used;
	craft_long(&c, "second", 2);
	uint8_t saved[8];
	memcpy(saved, c.buf + off, 8);
	memset(c.buf + off, 0, 8);
	CHECK(hsperf_refresh(&p) == 0);
	CHECK(!p.complete);
	memcpy(c.buf + off, saved, 8);
	CHECK(hsperf_refresh(&p) == 1); /* same prologue, but the scan was incomplete */
	CHECK(p.complete);
	craft_string(&c, "third", "x", 2);
	c.buf[7] = 1;
	CHECK(hsperf_refresh(&p) == 1);
	CHECK(hsperf_accessible(&p));
	CHECK_U64(p.count, 3);
	put64(c.buf + ((const uint8_t *)first - c.buf), 99);
	CHECK(hsperf_load(first) == 99);
	CHECK(hsperf_find(&p, "second") != NULL);
	hsperf_free(&p);
}

static void test_crafted_unaligned_buffer(void)
{
	struct craft c;
	craft_init(&c);
	struct hsperf p;
	struct gt_error err = { 0 };
	memmove(c.buf + 4, c.buf, 64);
	CHECK(hsperf_init(&p, c.buf + 4, 64, "crafted", &err) == -1);
	CHECK(err.code == GT_EXIT_BAD_DATA);
}

/* ---- opening files: the checks done on the descriptor ---- */

static char tmpdir[64];

static void write_file(const char *path, const uint8_t *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		check_fail(__FILE__, __LINE__, "cannot write %s", path);
	if (fd >= 0)
		close(fd);
	chmod(path, mode);
}

static void expect_map_error(const char *path, uid_t uid, enum gt_exit code, const char *what)
{
	struct hsperf_map m;
	struct gt_error err = { 0 };
	if (expect_failure(hsperf_map_open(path, uid, &m, &err), &err, code, what))
		hsperf_map_close(&m);
}

static void test_map_open(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/gctop-test-hsperf.XXXXXX");
	CHECK(mkdtemp(tmpdir) != NULL);
	size_t len = 0;
	uint8_t *buf = read_file(DATA_DIR "jdk17-G1.hsperfdata", &len);
	CHECK(buf && len == 32768);
	if (!buf)
		return;
	char good[128], slink[128], writable[128], trunc[128], fifo[128], huge[128], hard[128];
	snprintf(good, sizeof(good), "%s/good", tmpdir);
	snprintf(slink, sizeof(slink), "%s/link", tmpdir);
	snprintf(writable, sizeof(writable), "%s/writable", tmpdir);
	snprintf(trunc, sizeof(trunc), "%s/trunc", tmpdir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	snprintf(huge, sizeof(huge), "%s/huge", tmpdir);
	snprintf(hard, sizeof(hard), "%s/hard", tmpdir);
	write_file(good, buf, len, 0600);
	write_file(writable, buf, len, 0666);
	write_file(trunc, buf, 1000, 0600);
	CHECK(symlink(good, slink) == 0);
	CHECK(mkfifo(fifo, 0600) == 0);

	uid_t me = geteuid();
	struct hsperf_map m;
	struct gt_error err = { 0 };
	CHECK(hsperf_map_open(good, me, &m, &err) == 0);
	CHECK_U64(m.size, 32768);
	struct hsperf p;
	CHECK(hsperf_init(&p, m.base, m.size, good, &err) == 0);
	CHECK(p.count > 100);
	hsperf_free(&p);
	hsperf_map_close(&m);

	expect_map_error(slink, me, GT_EXIT_BAD_DATA, "symlink");
	expect_map_error(writable, me, GT_EXIT_BAD_DATA, "world-writable");
	expect_map_error(trunc, me, GT_EXIT_BAD_DATA, "truncated");
	expect_map_error(fifo, me, GT_EXIT_BAD_DATA, "fifo");
	expect_map_error(tmpdir, me, GT_EXIT_BAD_DATA, "directory");
	expect_map_error(good, me + 1, GT_EXIT_BAD_DATA, "owned by someone else");
	char missing[160];
	snprintf(missing, sizeof(missing), "%s/missing", tmpdir);
	expect_map_error(missing, me, GT_EXIT_NO_DATA, "missing");

	/* An oversized file, made sparse so the test writes almost nothing. */
	int fd = open(huge, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)HSPERF_MAX_FILE_SIZE + 4096) == 0);
	if (fd >= 0)
		close(fd);
	expect_map_error(huge, me, GT_EXIT_BAD_DATA, "oversized");

	CHECK(link(good, hard) == 0);
	expect_map_error(good, me, GT_EXIT_BAD_DATA, "hard-linked");

	unlink(good);
	unlink(slink);
	unlink(writable);
	unlink(trunc);
	unlink(fifo);
	unlink(huge);
	unlink(hard);
	rmdir(tmpdir);
	free(buf);
}

int main(void)
{
	RUN_TEST(test_oracle_all_files);
	RUN_TEST(test_crafted_valid);
	RUN_TEST(test_opcount_counter);
	RUN_TEST(test_crafted_bad_prologue);
	RUN_TEST(test_crafted_bad_entries);
	RUN_TEST(test_crafted_zero_entries);
	RUN_TEST(test_crafted_unknown_type_skipped);
	RUN_TEST(test_crafted_incremental);
	RUN_TEST(test_crafted_unaligned_buffer);
	RUN_TEST(test_map_open);
	return check_summary();
}
