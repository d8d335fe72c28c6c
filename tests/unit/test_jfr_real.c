/* The JFR chunk reader on real chunks of JDK 17 and Temurin 25 (the fuzz
 * corpus's real-jdk*-finished, recorded with the events gctop reads),
 * against what the JDK's own reader says of the same files: the counts of
 * `jfr summary`, and the fields `jfr print --json --stack-depth 64` shows
 * of the first allocation sample, the first collection, the first heap
 * summary after a collection, and the sums of the weights and of the
 * threads' allocation totals.
 *
 * `test_jfr_real --dump FILE` instead prints, one JSON line an event, the
 * fields gctop reads of each event of those types in every chunk of
 * FILE; tests/integration/jfr_reader_truth.sh compares them with `jfr
 * print --json` of a recording made fresh. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/hotspot/jfr/jfr_reader.h"
#include "tests/unit/check.h"

#define CORPUS "tests/fuzz/corpus/jfr_reader/"

/* What the JDK's reader said of one file (jfr summary, jfr print --json). */
struct truth {
	const char *file;
	uint64_t allocs, gcs, heaps, thread_stats, pauses;
	int64_t alloc_start_ns, alloc_weight;
	const char *alloc_class, *alloc_top_type, *alloc_top_method;
	int64_t alloc_top_line;
	uint32_t alloc_frames;
	int64_t gc_start_ns, gc_id, gc_sum_ns;
	const char *gc_name, *gc_cause;
	int64_t heap_gc_id, heap_used;
	int64_t weight_sum, allocated_sum;
};

static const struct truth truths[] = {
	{ CORPUS "real-jdk17-finished", 311, 451, 902, 52, 438,
	  1796605191428124786, 17455648, "java/lang/String", "java/lang/StringConcatHelper", "newString", 387, 14,
	  1796605193039098672, 2, 55031187, "G1New", "G1 Evacuation Pause", 2, 5164544, 1422477824, 1007406536 },
	{ CORPUS "real-jdk25-finished", 418, 222, 444, 36, 221,
	  1796605197001392394, 12685416, "java/lang/String", "java/lang/StringBuilder", "toString", 478, 14,
	  1796605197171416308, 0, 136864903, "G1New", "G1 Evacuation Pause", 0, 3548912, 694718144, 575258184 },
};

/* What the reader found in one file; the first events by time (`jfr
 * print` orders them by time, and JDK 25 writes threads' buffers out of
 * order). */
struct found {
	uint64_t allocs, gcs, heaps, thread_stats, pauses;
	bool alloc_seen, gc_seen, heap_seen;
	struct gt_jfr_event first_alloc, first_gc, first_heap;
	int64_t weight_sum, allocated_sum;
};

/* Keeps ev in *first when it is the earliest so far. */
static void keep_first(bool *seen, struct gt_jfr_event *first, const struct gt_jfr_event *ev)
{
	if (!*seen || ev->start_ns < first->start_ns)
		*first = *ev;
	*seen = true;
}

static void check_first_alloc(const struct truth *t, const struct gt_jfr_event *ev)
{
	struct gt_error err;
	char s[256];
	int64_t v;
	uint32_t n = 0;
	CHECK_U64(ev->start_ns, t->alloc_start_ns);
	CHECK(gt_jfr_get_string(&ev->value, "objectClass.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, t->alloc_class);
	CHECK(gt_jfr_get_int(&ev->value, "weight", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, t->alloc_weight);
	CHECK(gt_jfr_get_string(&ev->value, "eventThread.javaName", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, "main");
	CHECK(gt_jfr_get_count(&ev->value, "stackTrace.frames", &n, &err) == GT_JFR_OK);
	CHECK_U64(n, t->alloc_frames);
	CHECK(gt_jfr_get_string(&ev->value, "stackTrace.frames[0].method.type.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, t->alloc_top_type);
	CHECK(gt_jfr_get_string(&ev->value, "stackTrace.frames[0].method.name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, t->alloc_top_method);
	CHECK(gt_jfr_get_int(&ev->value, "stackTrace.frames[0].lineNumber", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, t->alloc_top_line);
}

static void check_first_gc(const struct truth *t, const struct gt_jfr_event *ev)
{
	struct gt_error err;
	char s[256];
	int64_t v;
	CHECK_U64(ev->start_ns, t->gc_start_ns);
	CHECK(gt_jfr_get_int(&ev->value, "gcId", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, t->gc_id);
	CHECK(gt_jfr_get_string(&ev->value, "name", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, t->gc_name);
	CHECK(gt_jfr_get_string(&ev->value, "cause", s, sizeof(s), &err) == GT_JFR_OK);
	CHECK_STR(s, t->gc_cause);
	CHECK(gt_jfr_get_ns(&ev->value, "sumOfPauses", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, t->gc_sum_ns);
	CHECK(gt_jfr_get_ns(&ev->value, "longestPause", &v, &err) == GT_JFR_OK);
	CHECK_U64(v, t->gc_sum_ns); /* one pause: the longest is the sum */
}

static void tally(const struct gt_jfr_event *ev, struct found *f)
{
	struct gt_error err;
	char s[64];
	int64_t v = 0;
	if (!strcmp(ev->type_name, "jdk.ObjectAllocationSample")) {
		keep_first(&f->alloc_seen, &f->first_alloc, ev);
		f->allocs++;
		CHECK(gt_jfr_get_int(&ev->value, "weight", &v, &err) == GT_JFR_OK);
		f->weight_sum += v;
	} else if (!strcmp(ev->type_name, "jdk.GarbageCollection")) {
		keep_first(&f->gc_seen, &f->first_gc, ev);
		f->gcs++;
	} else if (!strcmp(ev->type_name, "jdk.GCHeapSummary")) {
		f->heaps++;
		if (gt_jfr_get_string(&ev->value, "when", s, sizeof(s), &err) == GT_JFR_OK && !strcmp(s, "After GC"))
			keep_first(&f->heap_seen, &f->first_heap, ev);
	} else if (!strcmp(ev->type_name, "jdk.ThreadAllocationStatistics")) {
		f->thread_stats++;
		CHECK(gt_jfr_get_int(&ev->value, "allocated", &v, &err) == GT_JFR_OK);
		f->allocated_sum += v;
	} else if (!strcmp(ev->type_name, "jdk.GCPhasePause")) {
		f->pauses++;
	}
}

static void check_file(const struct truth *t)
{
	int fd = open(t->file, O_RDONLY);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	struct gt_jfr_reader *r = NULL;
	struct gt_error err = { 0 };
	int rc = gt_jfr_open_fd(fd, 0, NULL, &r, &err);
	close(fd);
	CHECK(rc == GT_JFR_OK);
	if (rc != GT_JFR_OK) {
		printf("# %s: %s\n", t->file, err.msg);
		return;
	}
	struct found f = { 0 };
	struct gt_jfr_event ev;
	while ((rc = gt_jfr_next(r, &ev, &err)) == GT_JFR_OK)
		tally(&ev, &f);
	CHECK(rc == GT_JFR_END);
	CHECK(f.alloc_seen && f.gc_seen && f.heap_seen);
	if (f.alloc_seen)
		check_first_alloc(t, &f.first_alloc);
	if (f.gc_seen)
		check_first_gc(t, &f.first_gc);
	int64_t v = 0;
	if (f.heap_seen) {
		CHECK(gt_jfr_get_int(&f.first_heap.value, "gcId", &v, &err) == GT_JFR_OK);
		CHECK_U64(v, t->heap_gc_id);
		CHECK(gt_jfr_get_int(&f.first_heap.value, "heapUsed", &v, &err) == GT_JFR_OK);
		CHECK_U64(v, t->heap_used);
	}
	CHECK_U64(f.allocs, t->allocs);
	CHECK_U64(f.gcs, t->gcs);
	CHECK_U64(f.heaps, t->heaps);
	CHECK_U64(f.thread_stats, t->thread_stats);
	CHECK_U64(f.pauses, t->pauses);
	CHECK_U64(f.weight_sum, t->weight_sum);
	CHECK_U64(f.allocated_sum, t->allocated_sum);
	struct gt_jfr_stats st;
	gt_jfr_stats(r, &st);
	CHECK_U64(st.unknown_events, 0);
	printf("# %s: %llu events, %u classes, %u constants, %u checkpoints, %zu bytes held\n", t->file,
	       (unsigned long long)st.events, st.classes, st.pool_entries, st.checkpoints, st.bytes_held);
	gt_jfr_close(r);
}

static void test_jdk17_chunk(void)
{
	check_file(&truths[0]);
}

static void test_jdk25_chunk(void)
{
	check_file(&truths[1]);
}

/* All the events of a chunk file from offset from (0: the first). */
static uint64_t count_events(const char *path, size_t from, size_t *end)
{
	int fd = open(path, O_RDONLY);
	struct gt_jfr_reader *r = NULL;
	struct gt_error err;
	uint64_t n = 0;
	int rc = fd < 0 ? GT_JFR_ERROR : gt_jfr_open_fd(fd, 0, NULL, &r, &err);
	if (fd >= 0)
		close(fd);
	CHECK(rc == GT_JFR_OK);
	if (rc != GT_JFR_OK)
		return 0;
	CHECK(!gt_jfr_header_of(r)->finished);
	if (from)
		CHECK(gt_jfr_seek(r, from, &err) == GT_JFR_OK);
	struct gt_jfr_event ev;
	while ((rc = gt_jfr_next(r, &ev, &err)) == GT_JFR_OK)
		n++;
	CHECK(rc == GT_JFR_END);
	*end = gt_jfr_position(r);
	gt_jfr_close(r);
	return n;
}

/* The same chunk of a running JDK 25 copied from its repository at two
 * flushes (generations 2 and 3; the second's bytes after the header
 * extend the first's): read up to the first's end, then on in a reader
 * of the second from there, the events are the second's, each once. */
static void test_live_chunk_read_on(void)
{
	size_t end2 = 0, end3 = 0, end_on = 0;
	uint64_t gen2 = count_events(CORPUS "real-jdk25-live-gen2", 0, &end2);
	uint64_t gen3 = count_events(CORPUS "real-jdk25-live-gen3", 0, &end3);
	uint64_t on = count_events(CORPUS "real-jdk25-live-gen3", end2, &end_on);
	CHECK_U64(gen2, 30); /* jfr summary of the copy: 14 + 12 + 2 + 1 + 1 */
	CHECK_U64(gen3, 44);
	CHECK_U64(gen2 + on, gen3);
	CHECK_U64(end2, 136122);
	CHECK_U64(end_on, end3);
}

/* ---- --dump ---- */

static void json_str(const char *key, const char *s)
{
	printf(",\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void dump_str(const struct gt_jfr_value *v, const char *key, const char *path)
{
	char s[1024];
	struct gt_error err;
	int rc = gt_jfr_get_string(v, path, s, sizeof(s), &err);
	if (rc == GT_JFR_OK)
		json_str(key, s);
	else
		printf(",\"%s\":null", key);
}

static void dump_int(const struct gt_jfr_value *v, const char *key, const char *path, bool ns)
{
	int64_t x;
	struct gt_error err;
	int rc = ns ? gt_jfr_get_ns(v, path, &x, &err) : gt_jfr_get_int(v, path, &x, &err);
	if (rc == GT_JFR_OK)
		printf(",\"%s\":%lld", key, (long long)x);
	else
		printf(",\"%s\":null", key);
}

static void dump_frames(const struct gt_jfr_value *v)
{
	uint32_t n = 0;
	struct gt_error err;
	printf(",\"frames\":[");
	if (gt_jfr_get_count(v, "stackTrace.frames", &n, &err) == GT_JFR_OK)
		for (uint32_t i = 0; i < n; i++) {
			struct gt_jfr_value f;
			char path[48];
			printf("%s{\"i\":%u", i ? "," : "", i);
			snprintf(path, sizeof(path), "stackTrace.frames[%u]", i);
			if (gt_jfr_get(v, path, &f, &err) == GT_JFR_OK) {
				dump_str(&f, "type", "method.type.name");
				dump_str(&f, "method", "method.name");
				dump_int(&f, "line", "lineNumber", false);
			}
			printf("}");
		}
	printf("]");
}

static void dump_event(const struct gt_jfr_event *ev)
{
	const struct gt_jfr_value *v = &ev->value;
	const char *t = ev->type_name;
	bool alloc = !strcmp(t, "jdk.ObjectAllocationSample"), gc = !strcmp(t, "jdk.GarbageCollection");
	bool heap = !strcmp(t, "jdk.GCHeapSummary"), tas = !strcmp(t, "jdk.ThreadAllocationStatistics");
	bool pause = !strcmp(t, "jdk.GCPhasePause");
	if (!alloc && !gc && !heap && !tas && !pause)
		return;
	printf("{\"type\":\"%s\",\"startTime\":%lld", t, (long long)ev->start_ns);
	if (alloc) {
		dump_str(v, "objectClass", "objectClass.name");
		dump_int(v, "weight", "weight", false);
		dump_str(v, "thread", "eventThread.javaName");
		dump_frames(v);
	} else if (gc || pause) {
		dump_int(v, "gcId", "gcId", false);
		dump_str(v, "name", "name");
		dump_int(v, "duration", "duration", true);
		if (gc) {
			dump_str(v, "cause", "cause");
			dump_int(v, "sumOfPauses", "sumOfPauses", true);
			dump_int(v, "longestPause", "longestPause", true);
		}
	} else if (heap) {
		dump_int(v, "gcId", "gcId", false);
		dump_str(v, "when", "when");
		dump_int(v, "heapUsed", "heapUsed", false);
	} else {
		dump_str(v, "thread", "thread.javaName");
		dump_int(v, "allocated", "allocated", false);
	}
	printf("}\n");
}

/* Every chunk of path, one after another. */
static int dump(const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	for (uint64_t off = 0; off < (uint64_t)st.st_size;) {
		struct gt_jfr_reader *r;
		struct gt_error err;
		int rc = gt_jfr_open_fd(fd, off, NULL, &r, &err);
		if (rc != GT_JFR_OK) {
			fprintf(stderr, "chunk at %llu: %s\n", (unsigned long long)off, err.msg);
			close(fd);
			return 1;
		}
		struct gt_jfr_event ev;
		while ((rc = gt_jfr_next(r, &ev, &err)) == GT_JFR_OK)
			dump_event(&ev);
		if (rc != GT_JFR_END) {
			fprintf(stderr, "chunk at %llu: %s\n", (unsigned long long)off, err.msg);
			gt_jfr_close(r);
			close(fd);
			return 1;
		}
		off += gt_jfr_header_of(r)->chunk_size;
		gt_jfr_close(r);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2]);
	RUN_TEST(test_jdk17_chunk);
	RUN_TEST(test_jdk25_chunk);
	RUN_TEST(test_live_chunk_read_on);
	return check_summary();
}
