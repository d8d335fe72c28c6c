/* How the HotSpot collector reads each collector's counter layout, checked
 * on the real files against figures computed from the jstat -snap oracle
 * (the way jstat computes its columns, reference §2.8). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "collectors/hotspot/hotspot_internal.h"
#include "tests/unit/check.h"

#define DATA_DIR "tests/data/hsperfdata/"
#define MiB (1024ull * 1024)

struct oracle_line {
	char name[128];
	char value[1100];
};

struct oracle {
	struct oracle_line *lines;
	size_t count;
};

static int oracle_load(struct oracle *o, const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), DATA_DIR "%s.snap.txt", name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	o->lines = calloc(400, sizeof(*o->lines));
	o->count = 0;
	char line[2048];
	while (o->lines && o->count < 400 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		struct oracle_line *l = &o->lines[o->count++];
		snprintf(l->name, sizeof(l->name), "%.127s", line);
		const char *v = eq + 1;
		size_t vl = strlen(v);
		if (vl >= 2 && v[0] == '"')
			snprintf(l->value, sizeof(l->value), "%.*s", (int)(vl - 2 < 1099 ? vl - 2 : 1099), v + 1);
		else
			snprintf(l->value, sizeof(l->value), "%.1099s", v);
	}
	fclose(f);
	return o->lines ? 0 : -1;
}

static const char *oracle_str(const struct oracle *o, const char *name)
{
	for (size_t i = 0; i < o->count; i++)
		if (strcmp(o->lines[i].name, name) == 0)
			return o->lines[i].value;
	return NULL;
}

static unsigned long long oracle_u64(const struct oracle *o, const char *name)
{
	const char *v = oracle_str(o, name);
	return v ? strtoull(v, NULL, 10) : 0;
}

static unsigned long long oracle_sum_suffix(const struct oracle *o, const char *prefix, const char *suffix)
{
	unsigned long long sum = 0;
	size_t pl = strlen(prefix), sl = strlen(suffix);
	for (size_t i = 0; i < o->count; i++) {
		size_t nl = strlen(o->lines[i].name);
		if (nl > pl + sl && strncmp(o->lines[i].name, prefix, pl) == 0 &&
		    strcmp(o->lines[i].name + nl - sl, suffix) == 0)
			sum += strtoull(o->lines[i].value, NULL, 10);
	}
	return sum;
}

static uint8_t *load_file(const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof(path), DATA_DIR "%s.hsperfdata", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = malloc(1 << 16);
	*len = buf ? fread(buf, 1, 1 << 16, f) : 0;
	fclose(f);
	return buf;
}

struct expectation {
	const char *file;
	enum hotspot_gc gc;
	const char *gc_name, *gc_mode;
	unsigned generations;
	const char *gen_names[2];
	int gen_collector[2];      /* collector counting each generation */
	bool split_heap;           /* max = sum of generations */
	bool shenandoah;
};

static const struct expectation expectations[] = {
	{ "jdk17-G1", HOTSPOT_GC_G1, "G1", "", 2, { "young", "old" }, { 0, 1 }, false, false },
	{ "jdk25-G1", HOTSPOT_GC_G1, "G1", "", 2, { "young", "old" }, { 0, 1 }, false, false },
	{ "jdk17-Parallel", HOTSPOT_GC_PARALLEL, "Parallel", "", 2, { "young", "old" }, { 0, 1 }, true, false },
	{ "jdk25-Parallel", HOTSPOT_GC_PARALLEL, "Parallel", "", 2, { "young", "old" }, { 0, 1 }, true, false },
	{ "jdk17-Serial", HOTSPOT_GC_SERIAL, "Serial", "", 2, { "young", "old" }, { 0, 1 }, true, false },
	{ "jdk25-Serial", HOTSPOT_GC_SERIAL, "Serial", "", 2, { "young", "old" }, { 0, 1 }, true, false },
	{ "jdk17-Z", HOTSPOT_GC_Z, "Z", "single-generation", 1, { "old", NULL }, { 2, -1 }, false, false },
	{ "jdk25-Z", HOTSPOT_GC_Z_GENERATIONAL, "Z", "generational", 2, { "young", "old" }, { 0, 2 }, false, false },
	{ "jdk17-Shenandoah", HOTSPOT_GC_SHENANDOAH, "Shenandoah", "", 1, { "heap", NULL }, { 1, -1 }, false, true },
	{ "jdk25-Shenandoah", HOTSPOT_GC_SHENANDOAH, "Shenandoah", "", 1, { "heap", NULL }, { 1, -1 }, false, true },
};

/* Writes str into the string entry name of buf; returns what was there. */
static bool patch_string(const struct hsperf *p, uint8_t *buf, const char *name, const char *str,
			 char *saved, size_t saved_len)
{
	const struct hsperf_entry *e = hsperf_find(p, name);
	if (!e || e->type != 'B' || e->vector_length < saved_len || strlen(str) >= saved_len)
		return false;
	if (saved)
		memcpy(saved, buf + e->data_offset, saved_len);
	memcpy(buf + e->data_offset, str, strlen(str) + 1);
	return true;
}

static void check_in_progress(const struct expectation *x, const struct hsperf *p, const struct hotspot_counters *c,
			      bool expected, const char *what)
{
	struct hotspot_alloc_reading r;
	hotspot_counters_alloc_reading(p, c, &r);
	if (r.in_progress != expected)
		check_fail(__FILE__, __LINE__, "%s: in_progress %d %s", x->file, (int)r.in_progress, what);
}

/* A reading taken inside a pause's VM operation, where sun.gc.cause names
 * the collection, or lastCause still reads "No GC" after collections (the
 * file's stamps settled, as they are once the collector has left and before
 * the operation ends), waits: for the collectors whose cause is set only for
 * a pause. ZGC and Shenandoah set it for concurrent cycles, where it says
 * nothing about the stamps. */
static void check_cause_set_mid_pause(const struct expectation *x, const struct hsperf *p,
				      const struct hotspot_counters *c, uint8_t *buf)
{
	char cause[sizeof("Allocation Failure")], last[sizeof("Allocation Failure")];
	bool pause_cause = x->gc == HOTSPOT_GC_G1 || x->gc == HOTSPOT_GC_PARALLEL || x->gc == HOTSPOT_GC_SERIAL;
	if (!patch_string(p, buf, "sun.gc.cause", "Allocation Failure", cause, sizeof(cause)) ||
	    !patch_string(p, buf, "sun.gc.lastCause", "Allocation Failure", last, sizeof(last))) {
		check_fail(__FILE__, __LINE__, "%s: no cause strings", x->file);
		return;
	}
	check_in_progress(x, p, c, pause_cause, "with the cause set");
	patch_string(p, buf, "sun.gc.cause", "No GC", NULL, sizeof(cause));
	check_in_progress(x, p, c, false, "between operations");
	patch_string(p, buf, "sun.gc.lastCause", "No GC", NULL, sizeof(last));
	check_in_progress(x, p, c, pause_cause, "with lastCause \"No GC\" after collections");
	memcpy(buf + hsperf_find(p, "sun.gc.cause")->data_offset, cause, sizeof(cause));
	memcpy(buf + hsperf_find(p, "sun.gc.lastCause")->data_offset, last, sizeof(last));
}

static void check_one(const struct expectation *x)
{
	struct oracle o = { 0 };
	size_t len = 0;
	uint8_t *buf = load_file(x->file, &len);
	if (!buf || oracle_load(&o, x->file) != 0) {
		check_fail(__FILE__, __LINE__, "%s: cannot load", x->file);
		free(buf);
		free(o.lines);
		return;
	}
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(hsperf_init(&p, buf, len, x->file, &err) == 0);
	struct hotspot_counters c;
	hotspot_counters_resolve(&c, &p);
	if (c.gc != x->gc)
		check_fail(__FILE__, __LINE__, "%s: detected gc %d, expected %d", x->file, (int)c.gc, (int)x->gc);

	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	hotspot_info_fill(&p, c.gc, &info);
	CHECK(info.runtime == &gt_hotspot_runtime);
	CHECK_STR(info.gc_name, x->gc_name);
	CHECK_STR(info.gc_mode, x->gc_mode);
	CHECK_STR(info.runtime_version, oracle_str(&o, "java.property.java.vm.version"));
	CHECK_STR(info.main_class, "Churn");
	CHECK_STR(info.heap_flags, "-Xmx256m");
	CHECK_STR(info.source, "hsperfdata");

	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_counters_fill_sample(&p, &c, &s);
	if (s.n_generations != x->generations)
		check_fail(__FILE__, __LINE__, "%s: %u generations", x->file, s.n_generations);
	for (unsigned g = 0; g < s.n_generations && g < x->generations; g++) {
		CHECK_STR(s.generations[g].name, x->gen_names[g]);
		char key[64];
		snprintf(key, sizeof(key), "sun.gc.collector.%d.invocations", x->gen_collector[g]);
		CHECK(s.generations[g].collections.valid);
		if (s.generations[g].collections.value != oracle_u64(&o, key))
			check_fail(__FILE__, __LINE__, "%s: %s collections %llu, expected %s = %llu", x->file,
				   s.generations[g].name, (unsigned long long)s.generations[g].collections.value,
				   key, oracle_u64(&o, key));
		CHECK(s.generations[g].used_bytes.valid && s.generations[g].committed_bytes.valid);
		CHECK(s.generations[g].max_bytes.valid);
	}

	/* Heap used: every space (jstat S0U+S1U+EU+OU). */
	CHECK(s.heap_used_bytes.valid);
	CHECK_U64(s.heap_used_bytes.value, oracle_sum_suffix(&o, "sun.gc.generation.", ".used"));
	CHECK(s.heap_max_bytes.valid);
	if (x->split_heap)
		CHECK_U64(s.heap_max_bytes.value, oracle_u64(&o, "sun.gc.generation.0.maxCapacity") +
						  oracle_u64(&o, "sun.gc.generation.1.maxCapacity"));
	else
		CHECK_U64(s.heap_max_bytes.value, 256 * MiB); /* -Xmx256m, JDK 17 G1's padding removed */
	CHECK(s.heap_committed_bytes.valid);
	if (x->gc == HOTSPOT_GC_G1)
		CHECK_U64(s.heap_committed_bytes.value % MiB, 0);
	CHECK(s.heap_committed_bytes.value <= s.heap_max_bytes.value);

	/* Collectors: every sun.gc.collector.N present, with jstat's GCT. */
	unsigned expected_collectors = 0;
	unsigned long long gct = 0;
	for (int i = 0; i < 10; i++) {
		char key[64];
		snprintf(key, sizeof(key), "sun.gc.collector.%d.name", i);
		const char *name = oracle_str(&o, key);
		if (!name)
			continue;
		if (expected_collectors < s.n_collectors)
			CHECK_STR(s.collectors[expected_collectors].name, name);
		snprintf(key, sizeof(key), "sun.gc.collector.%d.time", i);
		gct += oracle_u64(&o, key);
		expected_collectors++;
	}
	CHECK_U64(s.n_collectors, expected_collectors);
	CHECK_U64(oracle_u64(&o, "sun.os.hrt.frequency"), 1000000000);
	CHECK(s.pause_total_ns.valid);
	unsigned long long safepoint_ns = oracle_u64(&o, "sun.rt.safepointTime") + oracle_u64(&o, "sun.rt.safepointSyncTime");
	CHECK_U64(s.pause_total_ns.value, x->shenandoah ? safepoint_ns : gct);
	CHECK_U64(s.safepoint_ns.value, safepoint_ns);
	CHECK_U64(s.safepoints.value, oracle_u64(&o, "sun.rt.safepoints"));
	CHECK(s.last_pause_ns.valid == !x->shenandoah);
	CHECK_STR(s.last_gc_cause, oracle_str(&o, "sun.gc.lastCause"));
	CHECK(!s.gc_in_progress);
	CHECK_U64(s.metaspace_used_bytes.value, oracle_u64(&o, "sun.gc.metaspace.used"));
	CHECK_U64(s.metaspace_committed_bytes.value, oracle_u64(&o, "sun.gc.metaspace.capacity"));
	bool has_cpu = oracle_str(&o, "sun.threads.total_gc_cpu_time") != NULL &&
		       x->gc != HOTSPOT_GC_Z && x->gc != HOTSPOT_GC_Z_GENERATIONAL;
	CHECK(s.gc_cpu_ns.valid == has_cpu);
	if (x->gc == HOTSPOT_GC_G1)
		CHECK_STR(s.large_source, "g1-humongous-estimate");
	else
		CHECK(s.large_unavailable != NULL && s.large_source == NULL);

	/* The estimator's view of the same counters. */
	struct hotspot_alloc_reading r;
	hotspot_counters_alloc_reading(&p, &c, &r);
	CHECK_U64(r.young_gcs, oracle_u64(&o, "sun.gc.collector.0.invocations"));
	CHECK_U64(r.heap_used, s.heap_used_bytes.value);
	CHECK(!r.in_progress);
	check_cause_set_mid_pause(x, &p, &c, buf);

	hsperf_free(&p);
	free(buf);
	free(o.lines);
}

static void test_corpus_layouts(void)
{
	for (size_t i = 0; i < sizeof(expectations) / sizeof(expectations[0]); i++)
		check_one(&expectations[i]);
}

/* ---- the MXBeans' names (collectors/hotspot/hotspot_mx_names.c) ---- */

/* What ManagementFactory reported in JVMs of each collector and JDK
 * (GarbageCollectorMXBean names, their notifications' gcAction, heap and
 * non-heap MemoryPoolMXBean names): per sample collector in slot order,
 * NULL where no bean counts what the perf counter counts. */
struct mx_expectation {
	const char *file;
	const char *gc_names[3], *gc_actions[3];
	const char *pools[GT_MAX_MEMORY_POOLS];  /* in order, NULL after the last */
};

#define NON_HEAP "Metaspace", "Compressed Class Space"
static const struct mx_expectation mx_expectations[] = {
	{ "jdk17-G1", { "G1 Young Generation", "G1 Old Generation", NULL }, { "end of minor GC", "end of major GC", NULL },
	  { "G1 Eden Space", "G1 Survivor Space", "G1 Old Gen", NON_HEAP } },
	{ "jdk25-G1", { "G1 Young Generation", "G1 Old Generation", "G1 Concurrent GC" },
	  { "end of minor GC", "end of major GC", "end of concurrent GC pause" },
	  { "G1 Eden Space", "G1 Survivor Space", "G1 Old Gen", NON_HEAP } },
	{ "jdk17-Parallel", { "PS Scavenge", "PS MarkSweep" }, { "end of minor GC", "end of major GC" },
	  { "PS Eden Space", "PS Survivor Space", "PS Old Gen", NON_HEAP } },
	{ "jdk25-Parallel", { "PS Scavenge", "PS MarkSweep" }, { "end of minor GC", "end of major GC" },
	  { "PS Eden Space", "PS Survivor Space", "PS Old Gen", NON_HEAP } },
	{ "jdk17-Serial", { "Copy", "MarkSweepCompact" }, { "end of minor GC", "end of major GC" },
	  { "Eden Space", "Survivor Space", "Tenured Gen", NON_HEAP } },
	{ "jdk25-Serial", { "Copy", "MarkSweepCompact" }, { "end of minor GC", "end of major GC" },
	  { "Eden Space", "Survivor Space", "Tenured Gen", NON_HEAP } },
	{ "jdk17-Z", { "ZGC Pauses" }, { "end of GC pause" }, { "ZHeap", NON_HEAP } },
	{ "jdk25-Z", { "ZGC Minor Pauses", "ZGC Major Pauses" }, { "end of GC pause", "end of GC pause" },
	  { "ZGC Young Generation", "ZGC Old Generation", NON_HEAP } },
	/* "Shenandoah full" counts phases: no bean counts the same */
	{ "jdk17-Shenandoah", { NULL, NULL }, { NULL, NULL }, { "Shenandoah", NON_HEAP } },
	{ "jdk25-Shenandoah", { NULL, NULL }, { NULL, NULL }, { "Shenandoah", NON_HEAP } },
};

static void check_str_or_null(const char *file, int line, const char *what, const char *got, const char *want)
{
	if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0))
		check_fail(__FILE__, line, "%s: %s \"%s\", expected \"%s\"", file, what, got ? got : "(none)",
			   want ? want : "(none)");
}

/* The sample of a perf-data file as loaded (buf patched by the caller). */
static void mx_sample(uint8_t *buf, size_t len, const char *file, struct gt_sample *s)
{
	struct hsperf p;
	struct gt_error err = { 0 };
	memset(s, 0, sizeof(*s));
	if (hsperf_init(&p, buf, len, file, &err) != 0) {
		check_fail(__FILE__, __LINE__, "%s: %s", file, err.msg);
		return;
	}
	struct hotspot_counters c;
	hotspot_counters_resolve(&c, &p);
	hotspot_counters_fill_sample(&p, &c, s);
	hotspot_mx_fill(&c, s);
	hsperf_free(&p);
}

static void check_mx_names(const struct mx_expectation *x, const struct gt_sample *s)
{
	for (unsigned i = 0; i < s->n_collectors && i < 3; i++) {
		check_str_or_null(x->file, __LINE__, "collector", s->collectors[i].mx_name, x->gc_names[i]);
		check_str_or_null(x->file, __LINE__, "action", s->collectors[i].mx_action, x->gc_actions[i]);
	}
	unsigned n = 0;
	while (n < GT_MAX_MEMORY_POOLS && x->pools[n])
		n++;
	if (s->n_memory_pools != n)
		check_fail(__FILE__, __LINE__, "%s: %u pools, expected %u", x->file, s->n_memory_pools, n);
	for (unsigned i = 0; i < s->n_memory_pools && i < n; i++) {
		check_str_or_null(x->file, __LINE__, "pool", s->memory_pools[i].name, x->pools[i]);
		CHECK(s->memory_pools[i].heap == (i + 2 < n));
		CHECK(s->memory_pools[i].used_bytes.valid && s->memory_pools[i].committed_bytes.valid);
	}
}

/* The pools' figures as the MXBeans give them: the survivor pool holds
 * both survivor spaces' used, and one space's capacity as committed. */
static void check_mx_sizes(const struct mx_expectation *x, const struct oracle *o, const struct gt_sample *s)
{
	if (s->n_memory_pools < 4)
		return;
	const struct gt_memory_pool *first = &s->memory_pools[0], *ccs = &s->memory_pools[s->n_memory_pools - 1];
	bool two_young = strstr(x->pools[1], "Survivor") != NULL;
	CHECK_U64(first->used_bytes.value, oracle_u64(o, "sun.gc.generation.0.space.0.used"));
	CHECK_U64(ccs->used_bytes.value, oracle_u64(o, "sun.gc.compressedclassspace.used"));
	CHECK_U64(ccs->committed_bytes.value, oracle_u64(o, "sun.gc.compressedclassspace.capacity"));
	if (!two_young)
		return;
	const struct gt_memory_pool *surv = &s->memory_pools[1];
	CHECK_U64(surv->used_bytes.value, oracle_u64(o, "sun.gc.generation.0.space.1.used") +
						  oracle_u64(o, "sun.gc.generation.0.space.2.used"));
	unsigned long long s0 = oracle_u64(o, "sun.gc.generation.0.space.1.capacity");
	unsigned long long s1 = oracle_u64(o, "sun.gc.generation.0.space.2.capacity");
	unsigned long long one = s0 > s1 ? s0 : s1;
	CHECK_U64(surv->committed_bytes.value, strstr(x->file, "G1") ? one - one % MiB : one);
	/* G1's eden and survivor pools have no max (-1); the others have one,
	 * Parallel's as its beans compute it (the young max less both
	 * survivors now; one survivor now) */
	CHECK(first->max_bytes.valid == (strstr(x->file, "G1") == NULL));
	if (strstr(x->file, "Parallel")) {
		CHECK_U64(first->max_bytes.value, oracle_u64(o, "sun.gc.generation.0.maxCapacity") - s0 - s1);
		CHECK_U64(surv->max_bytes.value, one);
	}
	CHECK(s->memory_pools[2].max_bytes.valid);
}

static void test_mx_names(void)
{
	for (size_t i = 0; i < sizeof(mx_expectations) / sizeof(mx_expectations[0]); i++) {
		const struct mx_expectation *x = &mx_expectations[i];
		struct oracle o = { 0 };
		size_t len = 0;
		uint8_t *buf = load_file(x->file, &len);
		CHECK(buf != NULL && oracle_load(&o, x->file) == 0);
		if (buf) {
			struct gt_sample s;
			mx_sample(buf, len, x->file, &s);
			check_mx_names(x, &s);
			check_mx_sizes(x, &o, &s);
			CHECK(!s.memory_pools[2].used_after_gc_bytes.valid); /* no full GC in any file */
		}
		free(buf);
		free(o.lines);
	}
}

/* Writes v into the long entry name of buf. */
static bool patch_long(const struct hsperf *p, uint8_t *buf, const char *name, int64_t v)
{
	const struct hsperf_entry *e = hsperf_find(p, name);
	if (!e || e->type != 'J')
		return false;
	memcpy(buf + e->data_offset, &v, sizeof(v));
	return true;
}

/* One file, patched: apply(p, buf) edits the loaded bytes, then its sample. */
static void mx_patched(const char *file, bool (*apply)(const struct hsperf *, uint8_t *), struct gt_sample *s)
{
	size_t len = 0;
	uint8_t *buf = load_file(file, &len);
	struct hsperf p;
	struct gt_error err = { 0 };
	memset(s, 0, sizeof(*s));
	if (!buf || hsperf_init(&p, buf, len, file, &err) != 0) {
		check_fail(__FILE__, __LINE__, "%s: cannot load", file);
		free(buf);
		return;
	}
	CHECK(apply(&p, buf));
	hsperf_free(&p);
	mx_sample(buf, len, file, s);
	free(buf);
}

static bool as_jdk20(const struct hsperf *p, uint8_t *buf)
{
	return patch_string(p, buf, "java.property.java.version", "20.0.15", NULL, sizeof("17.0.15"));
}

static bool as_jdk19(const struct hsperf *p, uint8_t *buf)
{
	return patch_string(p, buf, "java.property.java.version", "19.0.3", NULL, sizeof("25.0.3"));
}

static bool as_unknown_jdk(const struct hsperf *p, uint8_t *buf)
{
	return patch_string(p, buf, "java.property.java.version", "", NULL, sizeof("25.0.3"));
}

static bool as_generational(const struct hsperf *p, uint8_t *buf)
{
	return patch_string(p, buf, "java.rt.vmArgs", "-Xmx256m -XX:+UseShenandoahGC -XX:ShenandoahGCMode=generational",
			    NULL, 80);
}

static bool after_full_gc(const struct hsperf *p, uint8_t *buf)
{
	return patch_long(p, buf, "sun.gc.collector.1.invocations", 1) &&
	       patch_long(p, buf, "sun.gc.policy.liveAtLastFullGc", 12345678);
}

/* G1's "G1 Concurrent GC" bean came with JDK 20: the JDK decides, not the
 * file's layout (the same counters on 17 and 25). Generational Shenandoah's
 * young and old pools are not in perf data: none is guessed. Parallel's old
 * pool after a full GC is its liveAtLastFullGc, and only after one. */
static void test_mx_names_by_version_and_mode(void)
{
	struct gt_sample s;
	mx_patched("jdk17-G1", as_jdk20, &s);
	check_str_or_null("jdk17-G1 as 20", __LINE__, "collector 2", s.collectors[2].mx_name, "G1 Concurrent GC");
	mx_patched("jdk25-G1", as_jdk19, &s);
	check_str_or_null("jdk25-G1 as 19", __LINE__, "collector 2", s.collectors[2].mx_name, NULL);
	check_str_or_null("jdk25-G1 as 19", __LINE__, "collector 0", s.collectors[0].mx_name, "G1 Young Generation");
	mx_patched("jdk25-G1", as_unknown_jdk, &s);
	check_str_or_null("jdk25-G1, no version", __LINE__, "collector 2", s.collectors[2].mx_name, NULL);
	mx_patched("jdk25-Shenandoah", as_generational, &s);
	CHECK_U64(s.n_memory_pools, 2);
	check_str_or_null("jdk25-Shenandoah generational", __LINE__, "pool 0", s.memory_pools[0].name, "Metaspace");
	mx_patched("jdk25-Parallel", after_full_gc, &s);
	CHECK_STR(s.memory_pools[2].name, "PS Old Gen");
	CHECK(s.memory_pools[2].used_after_gc_bytes.valid);
	CHECK_U64(s.memory_pools[2].used_after_gc_bytes.value, 12345678);
	CHECK(!s.memory_pools[0].used_after_gc_bytes.valid);
}

/* A poll copies only hotspot_watch_ranges (hsperf_map_watch): with every
 * other byte after the prologue wiped, a sample and the estimator's
 * reading come out the same, so nothing they read is left out. */
static void check_watch_covers(const char *file)
{
	size_t len = 0;
	uint8_t *buf = load_file(file, &len);
	CHECK(buf != NULL);
	if (!buf)
		return;
	struct hsperf p;
	struct gt_error err = { 0 };
	CHECK(hsperf_init(&p, buf, len, file, &err) == 0);
	struct hotspot_counters c;
	hotspot_counters_resolve(&c, &p);
	struct hotspot_opcount o = { .name = "sun.rt.safepoints" };
	hotspot_opcount_resolve(&o, &p);
	struct hsperf_range r[HOTSPOT_WATCH_MAX];
	size_t n = hotspot_watch_ranges(&p, &c, &o, r, HOTSPOT_WATCH_MAX);
	if (n < 20 || n >= HOTSPOT_WATCH_MAX)   /* a few dozen counters: not the whole file */
		check_fail(__FILE__, __LINE__, "%s: %zu ranges", file, n);

	struct gt_sample before, after;
	struct hotspot_alloc_reading ra, rb;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	hotspot_counters_fill_sample(&p, &c, &before);
	hotspot_mx_fill(&c, &before);
	hotspot_opcount_fill(&o, &before);
	hotspot_counters_alloc_reading(&p, &c, &ra);

	uint8_t *keep = calloc(1, len);
	CHECK(keep != NULL);
	if (keep) {
		memset(keep, 1, HSPERF_PROLOGUE_SIZE);
		size_t covered = 0;
		for (size_t i = 0; i < n; i++) {
			CHECK(r[i].off + (size_t)r[i].len <= len);
			memset(keep + r[i].off, 1, r[i].len);
			covered += r[i].len;
		}
		CHECK(covered < len / 8);
		for (size_t i = 0; i < len; i++)
			if (!keep[i])
				buf[i] = 0;
		free(keep);
	}
	hotspot_counters_fill_sample(&p, &c, &after);
	hotspot_mx_fill(&c, &after);
	hotspot_opcount_fill(&o, &after);
	hotspot_counters_alloc_reading(&p, &c, &rb);
	CHECK(before.opcount_total.valid && before.heap_used_bytes.valid);
	CHECK(memcmp(&before, &after, sizeof(before)) == 0);
	CHECK(memcmp(&ra, &rb, sizeof(ra)) == 0);
	hsperf_free(&p);
	free(buf);
}

static void test_watch_covers_every_read(void)
{
	for (size_t i = 0; i < sizeof(expectations) / sizeof(expectations[0]); i++)
		check_watch_covers(expectations[i].file);
}

static void test_heap_flags(void)
{
	char out[512] = "";
	hotspot_info_heap_flags("-Xss1m -Xms64m -Xmx256m -XX:+UseG1GC -XX:MaxRAMPercentage=75.0 "
				"-XX:NewRatio=3 -Dfoo=-Xmx1g -XX:MaxNewSizeX -XX:SurvivorRatio=6 -XX:-UseContainerSupport",
				out, sizeof(out));
	CHECK_STR(out, "-Xms64m -Xmx256m -XX:MaxRAMPercentage=75.0 -XX:NewRatio=3 -XX:SurvivorRatio=6 -XX:-UseContainerSupport");
	/* Appends, and never writes a cut option. */
	char small[20] = "-Xmx1g";
	hotspot_info_heap_flags("-Xms512m -XX:MaxHeapSize=1073741824", small, sizeof(small));
	CHECK_STR(small, "-Xmx1g -Xms512m");
	char empty[8] = "";
	hotspot_info_heap_flags("", empty, sizeof(empty));
	CHECK_STR(empty, "");
}

static void test_ticks_to_ns(void)
{
	struct hotspot_counters c;
	memset(&c, 0, sizeof(c));
	c.frequency = 1000000000;
	CHECK_U64(hotspot_ticks_to_ns(&c, 123456789), 123456789);
	c.frequency = 1000000; /* microsecond ticks */
	CHECK_U64(hotspot_ticks_to_ns(&c, 1500), 1500000);
	c.frequency = 3;
	CHECK_U64(hotspot_ticks_to_ns(&c, 3000000000ll), 1000000000000000000ull);
	CHECK_U64(hotspot_ticks_to_ns(&c, INT64_MAX), UINT64_MAX); /* saturates */
	CHECK_U64(hotspot_ticks_to_ns(&c, -5), 0);
}

int main(void)
{
	RUN_TEST(test_corpus_layouts);
	RUN_TEST(test_mx_names);
	RUN_TEST(test_mx_names_by_version_and_mode);
	RUN_TEST(test_watch_covers_every_read);
	RUN_TEST(test_heap_flags);
	RUN_TEST(test_ticks_to_ns);
	return check_summary();
}
