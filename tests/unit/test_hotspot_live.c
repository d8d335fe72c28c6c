/* The live set's rules per collector (collectors/hotspot/hotspot_live.c),
 * on sequences crafted from real perf-data files: each step writes the
 * counters a collection changes (invocations, old used, the cause,
 * Parallel's liveAtLastFullGc) into the file's bytes and polls as the
 * collector does (the allocation reading, then the live reading). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "tests/unit/check.h"

#define DATA_DIR "tests/data/hsperfdata/"
#define MiB (1024ull * 1024)
#define SEC 1000000000ull

struct seq {
	uint8_t *buf;
	struct hsperf p;
	struct hotspot_counters c;
	struct hotspot_live live;
	uint64_t now;
};

static bool seq_open(struct seq *s, const char *file)
{
	memset(s, 0, sizeof(*s));
	char path[256];
	snprintf(path, sizeof(path), DATA_DIR "%s.hsperfdata", file);
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	s->buf = malloc(1 << 16);
	size_t len = s->buf ? fread(s->buf, 1, 1 << 16, f) : 0;
	fclose(f);
	struct gt_error err = { 0 };
	if (!s->buf || hsperf_init(&s->p, s->buf, len, file, &err) != 0) {
		free(s->buf);
		return false;
	}
	hotspot_counters_resolve(&s->c, &s->p);
	hotspot_live_init(&s->live, s->c.gc, s->c.shenandoah_generational);
	s->now = 1000 * SEC;
	return true;
}

static void seq_close(struct seq *s)
{
	hsperf_free(&s->p);
	free(s->buf);
}

static int64_t *seq_long(struct seq *s, const char *name)
{
	const struct hsperf_entry *e = hsperf_find(&s->p, name);
	if (!e || e->type != 'J') {
		check_fail(__FILE__, __LINE__, "no long %s", name);
		static int64_t scratch;
		return &scratch;
	}
	return (int64_t *)(void *)(s->buf + e->data_offset);
}

static void seq_set_cause(struct seq *s, const char *cause)
{
	const struct hsperf_entry *e = hsperf_find(&s->p, "sun.gc.cause");
	CHECK(e && e->type == 'B' && strlen(cause) < e->vector_length);
	if (e && e->type == 'B' && strlen(cause) < e->vector_length)
		memcpy(s->buf + e->data_offset, cause, strlen(cause) + 1);
}

/* Collector n ran once more (its stamps stay settled). */
static void seq_collect(struct seq *s, int n)
{
	char name[64];
	snprintf(name, sizeof(name), "sun.gc.collector.%d.invocations", n);
	(*seq_long(s, name))++;
}

static void seq_old(struct seq *s, uint64_t bytes)
{
	*seq_long(s, "sun.gc.generation.1.space.0.used") = (int64_t)bytes;
}

/* One poll, a second after the last. */
static void seq_poll(struct seq *s)
{
	s->now += SEC;
	struct hotspot_alloc_reading a;
	hotspot_counters_alloc_reading(&s->p, &s->c, &a);
	a.mono_ns = s->now;
	struct hotspot_live_reading r;
	hotspot_counters_live_reading(&s->p, &s->c, &a, &r);
	hotspot_live_note(&s->live, &r);
}

/* Collector n ran and left old at old_bytes; then a poll. */
static void seq_gc(struct seq *s, int n, uint64_t old_bytes)
{
	seq_collect(s, n);
	seq_old(s, old_bytes);
	seq_poll(s);
}

static void check_point(const struct seq *s, uint64_t k, uint64_t bytes, uint64_t at, const char *kind_start)
{
	const struct gt_live_point *pt = &s->live.log.points[k % GT_LIVE_RING];
	CHECK_U64(pt->bytes, bytes);
	CHECK_U64(pt->at_ns, at);
	CHECK(pt->kind && strncmp(pt->kind, kind_start, strlen(kind_start)) == 0);
}

/* Serial: old used after each full collection, none for young ones, none
 * for the collections before gctop watched, none while one is under way. */
static void test_serial_full(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk17-Serial"));
	CHECK(s.live.log.valid);
	seq_poll(&s); /* the base: 6 full GCs already ran */
	CHECK_U64(s.live.log.count, 0);
	seq_gc(&s, 0, 40 * MiB);
	CHECK_U64(s.live.log.count, 0);
	seq_collect(&s, 1);
	seq_old(&s, 30 * MiB);
	seq_set_cause(&s, "Allocation Failure"); /* the pause's operation is not over */
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 0);
	seq_set_cause(&s, HOTSPOT_CAUSE_NONE);
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 1);
	check_point(&s, 0, 30 * MiB, s.now, "full GC");
	struct gt_sample out;
	memset(&out, 0, sizeof(out));
	hotspot_live_fill(&s.live, &out);
	CHECK(out.live_log.valid && out.live_log.count == 1 && out.live_unavailable == NULL);
	seq_close(&s);
}

/* Parallel: liveAtLastFullGc, not old used (which may hold objects
 * promoted since). */
static void test_parallel_live_at_full(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk25-Parallel"));
	seq_poll(&s);
	seq_collect(&s, 1);
	seq_old(&s, 90 * MiB);
	*seq_long(&s, "sun.gc.policy.liveAtLastFullGc") = (int64_t)(70 * MiB);
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 1);
	check_point(&s, 0, 70 * MiB, s.now, "full GC");
	seq_close(&s);
}

/* G1: nothing before a concurrent cycle; then the least old used from one
 * Remark to the next, once a young or mixed collection came between; a
 * full collection is exact and closes the window. */
static void test_g1_mixed_window(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk17-G1"));
	seq_poll(&s);
	seq_gc(&s, 0, 50 * MiB); /* young before any cycle: old holds unmarked garbage */
	seq_gc(&s, 2, 100 * MiB); /* Remark */
	seq_gc(&s, 2, 96 * MiB); /* Cleanup: a separate poll, the same window */
	CHECK_U64(s.live.log.count, 0);
	seq_gc(&s, 0, 98 * MiB); /* Prepare Mixed */
	seq_gc(&s, 0, 80 * MiB); /* Mixed */
	uint64_t least_at = s.now;
	seq_gc(&s, 0, 85 * MiB); /* young: promotion */
	CHECK_U64(s.live.log.count, 0);
	seq_collect(&s, 0);
	seq_gc(&s, 2, 88 * MiB); /* Concurrent Start and Remark in one poll */
	CHECK_U64(s.live.log.count, 1);
	check_point(&s, 0, 80 * MiB, least_at, "G1 mixed");
	CHECK(strstr(s.live.log.points[0].kind, "upper bound") != NULL);
	seq_gc(&s, 1, 60 * MiB); /* a full GC right after the Remark: no young came, no mixed point */
	CHECK_U64(s.live.log.count, 2);
	check_point(&s, 1, 60 * MiB, s.now, "full GC");
	seq_gc(&s, 0, 65 * MiB);
	seq_collect(&s, 2);
	seq_poll(&s); /* the window after a full GC waits for a cycle */
	CHECK_U64(s.live.log.count, 2);
	seq_close(&s);
}

/* Generational ZGC: the least old used from a major cycle's end (the
 * cause back to "No GC") to the next one's start, at the minor pauses in
 * between; minor collections before any major one give nothing. */
static void test_zgc_major(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk25-Z"));
	seq_poll(&s);
	seq_gc(&s, 0, 90 * MiB);
	CHECK_U64(s.live.log.count, 0);
	seq_set_cause(&s, "Proactive");
	seq_gc(&s, 2, 110 * MiB); /* Mark Start: old before the cycle */
	seq_gc(&s, 0, 108 * MiB); /* a minor pause within the major cycle */
	seq_set_cause(&s, HOTSPOT_CAUSE_NONE);
	seq_gc(&s, 2, 106 * MiB); /* Relocate Start, and the cycle is over */
	uint64_t end_at = s.now;
	seq_poll(&s);
	seq_gc(&s, 0, 107 * MiB); /* a minor pause: promotion outweighs relocation */
	CHECK_U64(s.live.log.count, 0);
	seq_set_cause(&s, "Proactive");
	seq_gc(&s, 2, 108 * MiB); /* the next major cycle gives the last one's point */
	CHECK_U64(s.live.log.count, 1);
	check_point(&s, 0, 106 * MiB, end_at, "ZGC major");
	CHECK(strstr(s.live.log.points[0].kind, "may include garbage") != NULL);
	seq_set_cause(&s, HOTSPOT_CAUSE_NONE);
	seq_gc(&s, 2, 112 * MiB);
	seq_gc(&s, 0, 104 * MiB); /* after relocation */
	uint64_t least_at = s.now;
	seq_gc(&s, 0, 105 * MiB);
	seq_gc(&s, 2, 109 * MiB); /* the next cycle began and ended within one poll */
	CHECK_U64(s.live.log.count, 2);
	check_point(&s, 1, 104 * MiB, least_at, "ZGC major");
	seq_gc(&s, 2, 111 * MiB);
	CHECK_U64(s.live.log.count, 3);
	check_point(&s, 2, 109 * MiB, least_at + 2 * SEC, "ZGC major");
	seq_close(&s);
}

/* Shenandoah: the heap used at the first poll that sees "No GC" again. */
static void test_shenandoah_cycle_end(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk17-Shenandoah"));
	seq_poll(&s);
	seq_collect(&s, 1);
	seq_set_cause(&s, "Concurrent GC");
	seq_old(&s, 140 * MiB);
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 0);
	seq_set_cause(&s, HOTSPOT_CAUSE_NONE);
	seq_old(&s, 66 * MiB);
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 1);
	check_point(&s, 0, 66 * MiB, s.now, "Shenandoah cycle");
	seq_poll(&s);
	CHECK_U64(s.live.log.count, 1);
	seq_close(&s);
}

/* No point was logged, and the sample says why, with because in it. */
static void check_no_point(struct seq *s, const char *because)
{
	CHECK_U64(s->live.log.count, 0);
	struct gt_sample out;
	memset(&out, 0, sizeof(out));
	hotspot_live_fill(&s->live, &out);
	CHECK(!out.live_log.valid);
	CHECK(out.live_unavailable && strstr(out.live_unavailable, because));
}

/* Generational Shenandoah (its JVM arguments say so): a young cycle moves
 * collector.1 as a global one does, and whole-heap used after it holds old
 * garbage, so no point, and one sentence why. */
static void test_shenandoah_generational_unavailable(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk25-Shenandoah"));
	const struct hsperf_entry *e = hsperf_find(&s.p, "java.rt.vmArgs");
	static const char args[] = "-Xmx256m -XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational";
	CHECK(e && e->type == 'B' && sizeof(args) <= e->vector_length);
	if (e && e->type == 'B' && sizeof(args) <= e->vector_length)
		memcpy(s.buf + e->data_offset, args, sizeof(args));
	hotspot_counters_resolve(&s.c, &s.p);
	CHECK(s.c.shenandoah_generational);
	hotspot_live_init(&s.live, s.c.gc, s.c.shenandoah_generational);
	seq_poll(&s);
	seq_collect(&s, 1);
	seq_set_cause(&s, "Concurrent GC");
	seq_poll(&s);
	seq_set_cause(&s, HOTSPOT_CAUSE_NONE);
	seq_old(&s, 66 * MiB);
	seq_poll(&s);
	check_no_point(&s, "generational Shenandoah");
	seq_close(&s);
}

/* ZGC on JDK 17: no usable point, and one sentence why. */
static void test_zgc17_unavailable(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk17-Z"));
	CHECK(!s.live.log.valid);
	seq_poll(&s);
	seq_collect(&s, 2);
	seq_poll(&s);
	check_no_point(&s, "ZGC");
	seq_close(&s);
}

/* More points than the ring holds: the count runs on, the newest overwrite. */
static void test_ring_wraps(void)
{
	struct seq s;
	CHECK(seq_open(&s, "jdk17-Serial"));
	seq_poll(&s);
	for (uint64_t i = 0; i < GT_LIVE_RING + 3; i++) {
		seq_collect(&s, 1);
		seq_old(&s, (10 + i) * MiB);
		seq_poll(&s);
	}
	CHECK_U64(s.live.log.count, GT_LIVE_RING + 3);
	check_point(&s, GT_LIVE_RING + 2, (12 + GT_LIVE_RING) * MiB, s.now, "full GC");
	seq_close(&s);
}

/* Old occupancy as jstat -gc computes OU, OC and OGCMX from the same
 * counters (reference §2.8), for a split heap and for G1 (whose JDK 17
 * capacities carry 8 bytes of padding, which gctop drops). */
static void check_old_like_jstat(const char *file, uint64_t pad)
{
	struct seq s;
	CHECK(seq_open(&s, file));
	struct gt_sample out;
	memset(&out, 0, sizeof(out));
	hotspot_counters_fill_old(&s.c, &out);
	CHECK(out.old_used_bytes.valid && out.old_committed_bytes.valid && out.old_max_bytes.valid);
	CHECK_U64(out.old_used_bytes.value, (uint64_t)*seq_long(&s, "sun.gc.generation.1.space.0.used"));
	CHECK_U64(out.old_committed_bytes.value + pad, (uint64_t)*seq_long(&s, "sun.gc.generation.1.space.0.capacity"));
	CHECK_U64(out.old_max_bytes.value + pad, (uint64_t)*seq_long(&s, "sun.gc.generation.1.maxCapacity"));
	seq_close(&s);
}

static void test_old_occupancy(void)
{
	check_old_like_jstat("jdk17-Parallel", 0);
	check_old_like_jstat("jdk25-G1", 0);
	check_old_like_jstat("jdk17-G1", 8);
}

int main(void)
{
	RUN_TEST(test_serial_full);
	RUN_TEST(test_parallel_live_at_full);
	RUN_TEST(test_g1_mixed_window);
	RUN_TEST(test_zgc_major);
	RUN_TEST(test_shenandoah_cycle_end);
	RUN_TEST(test_shenandoah_generational_unavailable);
	RUN_TEST(test_zgc17_unavailable);
	RUN_TEST(test_ring_wraps);
	RUN_TEST(test_old_occupancy);
	return check_summary();
}
