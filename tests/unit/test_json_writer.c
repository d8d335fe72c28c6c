/* The --json writer: the contract's keys, null for n/a, valid JSON always. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "views/json_writer.h"
#include "tests/unit/check.h"

static struct gt_target_info test_info(void)
{
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	info.pid = 1234;
	info.runtime = &gt_hotspot_runtime;
	strcpy(info.runtime_version, "17.0.15+6-Debian-1deb12u1");
	strcpy(info.gc_name, "G1");
	strcpy(info.cgroup_path, "/system.slice/app.service");
	return info;
}

static struct gt_sample test_sample(uint64_t mono_ns, uint64_t alloc, uint64_t young)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = 1234;
	s.mono_ns = mono_ns;
	s.wall_ms = 1796023541123LL; /* 2026-11-30T07:25:41.123Z */
	s.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_u64_set(&s.alloc_bytes_total, alloc);
	s.n_generations = 2;
	strcpy(s.generations[0].name, "young");
	strcpy(s.generations[1].name, "old");
	gt_u64_set(&s.generations[0].collections, young);
	gt_u64_set(&s.generations[1].collections, 0);
	gt_u64_set(&s.generations[0].used_bytes, 1);
	gt_u64_set(&s.pause_total_ns, 105000000ull);
	gt_u64_set(&s.last_pause_ns, 700000ull);
	gt_u64_set(&s.heap_max_bytes, 3);
	gt_u64_set(&s.rss_bytes, 4);
	s.large_unavailable = "Parallel has no separate large-object space";
	return s;
}

/* Serialises through the writer to a memory stream and parses it back strictly. */
static struct json_object *round_trip(const struct gt_target_info *info, const struct gt_derived *d, char *text, size_t cap)
{
	FILE *f = fmemopen(text, cap, "w");
	struct json_object *o = gt_json_sample(info, d);
	CHECK(gt_json_write_line(f, o) == 0);
	json_object_put(o);
	fclose(f);
	CHECK(strchr(text, '\n') == text + strlen(text) - 1); /* exactly one line */
	struct json_tokener *tok = json_tokener_new();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	struct json_object *parsed = json_tokener_parse_ex(tok, text, (int)strlen(text) - 1);
	CHECK(parsed != NULL);
	json_tokener_free(tok);
	return parsed;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok(buf, "."); k && o; k = strtok(NULL, ".")) {
		struct json_object *next = NULL;
		if (!json_object_object_get_ex(o, k, &next)) {
			check_fail(__FILE__, __LINE__, "key %s missing", path);
			return NULL;
		}
		o = next;
	}
	return o;
}

static void test_first_sample_contract(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample s = test_sample(1000000000ull, 123, 55);
	struct gt_derived d;
	char text[8192];
	gt_derive(NULL, &s, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK_STR(json_object_get_string(get(o, "time")), "2026-11-30T07:25:41.123Z");
	CHECK_U64(json_object_get_int64(get(o, "pid")), 1234);
	CHECK_STR(json_object_get_string(get(o, "runtime")), "hotspot");
	CHECK_STR(json_object_get_string(get(o, "runtime_version")), "17.0.15+6-Debian-1deb12u1");
	CHECK_STR(json_object_get_string(get(o, "gc")), "G1");
	CHECK(get(o, "interval_s") == NULL);                 /* first sample: null */
	CHECK(get(o, "alloc.rate_bps") == NULL);
	CHECK_U64(json_object_get_int64(get(o, "alloc.bytes_total")), 123);
	CHECK_STR(json_object_get_string(get(o, "alloc.source")), "estimate");
	CHECK(get(o, "large_objects") == NULL);
	CHECK_STR(json_object_get_string(get(o, "large_objects_unavailable")), "Parallel has no separate large-object space");
	CHECK(get(o, "memory.cgroup_limit_bytes") == NULL);  /* not given: null, never 0 */
	CHECK(get(o, "memory.oom_kills") == NULL);
	CHECK_U64(json_object_get_int64(get(o, "memory.working_set_bytes")), 4);
	CHECK_NEAR(json_object_get_double(get(o, "pause.total_s")), 0.105, 1e-12);
	CHECK_NEAR(json_object_get_double(get(o, "pause.last_ms")), 0.7, 1e-12);
	CHECK(strstr(text, "\\/") == NULL);                  /* no escaped slashes */
	CHECK(strstr(text, "/system.slice/app.service") != NULL);
	json_object_put(o);
}

/* target.container_id and target.k8s_pod_uid: the ids when the cgroup path
 * named them, null (never "") when it did not. */
static void test_container_ids(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample s = test_sample(1000000000ull, 123, 55);
	struct gt_derived d;
	char text[8192];
	gt_derive(NULL, &s, &d);
	for (int named = 0; named < 2; named++) {
		if (named) {
			strcpy(info.container_id, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
			strcpy(info.k8s_pod_uid, "471203d1-984f-477e-9c35-db96487ffe5e");
		}
		struct json_object *o = round_trip(&info, &d, text, sizeof(text));
		if (!o)
			continue;
		struct json_object *id = get(o, "target.container_id"), *uid = get(o, "target.k8s_pod_uid");
		CHECK(named ? id && !strcmp(json_object_get_string(id), info.container_id) : id == NULL);
		CHECK(named ? uid && !strcmp(json_object_get_string(uid), info.k8s_pod_uid) : uid == NULL);
		json_object_put(o);
	}
}

static void test_generations_youngest_first_with_deltas(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample a = test_sample(1000000000ull, 100, 47), b = test_sample(2002000000ull, 556, 55);
	struct gt_derived d;
	char text[8192];
	gt_derive(&a, &b, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	struct json_object *gens = get(o, "generations");
	CHECK(json_object_array_length(gens) == 2);
	struct json_object *young = json_object_array_get_idx(gens, 0);
	CHECK_STR(json_object_get_string(get(young, "name")), "young");
	CHECK_U64(json_object_get_int64(get(young, "collections")), 55);
	CHECK_U64(json_object_get_int64(get(young, "collections_delta")), 8);
	CHECK(get(young, "max_bytes") == NULL);
	CHECK_NEAR(json_object_get_double(get(o, "interval_s")), 1.002, 1e-9);
	CHECK_NEAR(json_object_get_double(get(o, "alloc.rate_bps")), 456 / 1.002, 1e-3);
	CHECK(!json_object_get_boolean(get(o, "alloc.lower_bound")));
	CHECK(get(o, "alloc.bound_reason") == NULL);
	json_object_put(o);
	/* Collections the estimate did not see: a lower bound, with why. */
	gt_u64_set(&a.alloc_blind_collections, 1);
	gt_u64_set(&b.alloc_blind_collections, 2);
	b.alloc_bound_reason = "because";
	gt_derive(&a, &b, &d);
	o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK(json_object_get_boolean(get(o, "alloc.lower_bound")));
	CHECK_STR(json_object_get_string(get(o, "alloc.bound_reason")), "because");
	json_object_put(o);
}

static void test_pause_distribution_and_alloc_age(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample a = test_sample(1000000000ull, 100, 47), b = test_sample(2000000000ull, 556, 55);
	struct gt_derived d;
	char text[8192];
	/* no pause log: the distribution is null, the collector's max stays */
	gt_u64_set(&b.pause_max_ns, 3000000ull);
	gt_derive(&a, &b, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK(get(o, "pause.count") == NULL);
	CHECK(get(o, "pause.p99_ms") == NULL);
	CHECK(get(o, "pause.partial") == NULL);
	CHECK_NEAR(json_object_get_double(get(o, "pause.max_ms")), 3.0, 1e-12);
	CHECK(get(o, "alloc.age_s") == NULL);
	json_object_put(o);
	/* three pauses of 1, 2 and 4 ms; the total counted 0.25 s before b */
	a.pause_log.valid = b.pause_log.valid = true;
	a.pause_log.count = 7;
	b.pause_log.count = 10;
	b.pause_log.ns[7] = 1000000ull;
	b.pause_log.ns[8] = 4000000ull;
	b.pause_log.ns[9] = 2000000ull;
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_EXACT;
	a.alloc_at.valid = b.alloc_at.valid = true;
	a.alloc_at.ns = 750000000ull;
	b.alloc_at.ns = 1750000000ull;
	gt_derive(&a, &b, &d);
	o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK_U64(json_object_get_int64(get(o, "pause.count")), 3);
	CHECK_NEAR(json_object_get_double(get(o, "pause.p50_ms")), 2.0, 1e-12);
	CHECK_NEAR(json_object_get_double(get(o, "pause.p99_ms")), 4.0, 1e-12);
	CHECK_NEAR(json_object_get_double(get(o, "pause.max_ms")), 4.0, 1e-12);
	CHECK(json_object_is_type(get(o, "pause.partial"), json_type_boolean) &&
	      !json_object_get_boolean(get(o, "pause.partial")));
	CHECK_NEAR(json_object_get_double(get(o, "alloc.age_s")), 0.25, 1e-12);
	CHECK_NEAR(json_object_get_double(get(o, "alloc.rate_bps")), 456.0, 1e-9);
	CHECK_NEAR(json_object_get_double(get(o, "alloc.rate_span_s")), 1.0, 1e-12);
	json_object_put(o);
}

/* An interval without a pause has a count of 0 and no distribution: its
 * p50, p99 and longest are all n/a, null, never 0 (the collector's own
 * window maximum is 0 then). With no pause log, a maximum of 0 is the
 * longest of no pauses: null too. */
static void test_pause_none_in_interval_is_null(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample a = test_sample(1000000000ull, 100, 47), b = test_sample(2000000000ull, 556, 47);
	struct gt_derived d;
	char text[8192];
	a.pause_log.valid = b.pause_log.valid = true;
	a.pause_log.count = b.pause_log.count = 7;
	gt_u64_set(&b.pause_max_ns, 0);
	gt_derive(&a, &b, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK_U64(json_object_get_int64(get(o, "pause.count")), 0);
	CHECK(get(o, "pause.p50_ms") == NULL);
	CHECK(get(o, "pause.p99_ms") == NULL);
	CHECK(get(o, "pause.max_ms") == NULL);
	json_object_put(o);
	a.pause_log.valid = b.pause_log.valid = false;
	gt_derive(&a, &b, &d);
	o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK(get(o, "pause.count") == NULL);
	CHECK(get(o, "pause.max_ms") == NULL);
	json_object_put(o);
}

static void test_non_finite_becomes_null(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample s = test_sample(1000000000ull, 1, 1);
	struct gt_derived d;
	char text[8192];
	gt_derive(NULL, &s, &d);
	gt_f64_set(&d.pause_share, NAN);
	gt_f64_set(&d.alloc_rate_bps, INFINITY);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK(get(o, "pause.share") == NULL);
	CHECK(get(o, "alloc.rate_bps") == NULL);
	CHECK(strstr(text, "NaN") == NULL && strstr(text, "Infinity") == NULL);
	json_object_put(o);
}

static void test_large_objects_object(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample a = test_sample(1000000000ull, 0, 1), b = test_sample(2000000000ull, 1000, 1);
	struct gt_derived d;
	char text[8192];
	a.large_source = b.large_source = "g1-humongous-estimate";
	gt_u64_set(&a.large_alloc_bytes_total, 0);
	gt_u64_set(&b.large_alloc_bytes_total, 400);
	gt_u64_set(&b.large_bytes, 4194304);
	gt_derive(&a, &b, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK_STR(json_object_get_string(get(o, "large_objects.source")), "g1-humongous-estimate");
	CHECK_U64(json_object_get_int64(get(o, "large_objects.bytes")), 4194304);
	CHECK_NEAR(json_object_get_double(get(o, "large_objects.alloc_share")), 0.4, 1e-12);
	CHECK(get(o, "large_objects_unavailable") == NULL);
	json_object_put(o);
}

/* live_set: the figures with their bounds and limit; n/a is null with why;
 * old is jstat's occupancy, O = used / committed. */
static void test_live_set_object(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample s = test_sample(1000000000ull, 123, 55);
	struct gt_derived d;
	char text[8192];
	gt_derive(NULL, &s, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	CHECK(get(o, "live_set.bytes") == NULL);
	CHECK(get(o, "live_set.growth_bps") == NULL);
	CHECK(get(o, "live_set.exhaustion_s") == NULL);
	CHECK_STR(json_object_get_string(get(o, "live_set.why")), "the live set is not tracked");
	CHECK(get(o, "live_set.old.used_share") == NULL);
	json_object_put(o);

	gt_u64_set(&s.old_used_bytes, 300);
	gt_u64_set(&s.old_committed_bytes, 400);
	gt_u64_set(&s.old_max_bytes, 1000);
	gt_derive(NULL, &s, &d);
	struct gt_live_set *l = &d.live_set;
	l->valid = true;
	l->why = NULL;
	l->bytes = 250;
	l->kind = "full GC";
	l->points = 12;
	l->missed = 2;
	gt_f64_set(&l->span_s, 600);
	gt_f64_set(&l->growth_bps, 1.5);
	gt_f64_set(&l->growth_low_bps, 1.25);
	gt_f64_set(&l->growth_high_bps, 1.75);
	gt_f64_set(&l->exhaustion_s, 500);
	gt_u64_set(&l->limit_bytes, 1000);
	l->limit_kind = GT_LIVE_LIMIT_HEAP_MAX;
	o = round_trip(&info, &d, text, sizeof(text));
	CHECK_U64(json_object_get_int64(get(o, "live_set.bytes")), 250);
	CHECK_STR(json_object_get_string(get(o, "live_set.kind")), "full GC");
	CHECK_U64(json_object_get_int64(get(o, "live_set.points")), 12);
	CHECK_U64(json_object_get_int64(get(o, "live_set.missed")), 2);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.span_s")), 600, 0);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.growth_bps")), 1.5, 0);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.growth_low_bps")), 1.25, 0);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.growth_high_bps")), 1.75, 0);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.confidence")), 0.9, 0);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.exhaustion_s")), 500, 0);
	CHECK_U64(json_object_get_int64(get(o, "live_set.limit_bytes")), 1000);
	CHECK_STR(json_object_get_string(get(o, "live_set.limit")), "heap-max");
	CHECK(get(o, "live_set.why") == NULL);
	CHECK_U64(json_object_get_int64(get(o, "live_set.old.used_bytes")), 300);
	CHECK_U64(json_object_get_int64(get(o, "live_set.old.committed_bytes")), 400);
	CHECK_U64(json_object_get_int64(get(o, "live_set.old.max_bytes")), 1000);
	CHECK_NEAR(json_object_get_double(get(o, "live_set.old.used_share")), 0.75, 1e-12);
	json_object_put(o);

	l->exhaustion_s.valid = false;
	l->exhaustion_why = "the live set is not growing";
	o = round_trip(&info, &d, text, sizeof(text));
	CHECK(get(o, "live_set.exhaustion_s") == NULL);
	CHECK_STR(json_object_get_string(get(o, "live_set.why")), "the live set is not growing");
	json_object_put(o);
}

static void test_list_entry(void)
{
	struct gt_list_entry e;
	memset(&e, 0, sizeof(e));
	e.info = test_info();
	gt_u64_set(&e.info.start_time_ms, 1000);
	gt_u64_set(&e.sample.heap_used_bytes, 77);
	struct json_object *o = gt_json_list_entry(&e, 61000);
	CHECK_NEAR(json_object_get_double(get(o, "uptime_s")), 60.0, 1e-9);
	CHECK_U64(json_object_get_int64(get(o, "heap_used_bytes")), 77);
	CHECK(get(o, "heap_max_bytes") == NULL);
	json_object_put(o);
}

/* Every key the writer can emit, with every figure valid, is named in
 * man/gctop.1 (JSON OUTPUT): the man page is the schema users read. */
static const char *man_text(void)
{
	static char buf[1 << 18];
	FILE *f = fopen("man/gctop.1", "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static bool man_names(const char *man, const char *key)
{
	size_t len = strlen(key);
	for (const char *p = strstr(man, key); p; p = strstr(p + 1, key)) {
		char before = p == man ? ' ' : p[-1], after = p[len];
		bool word_before = before == '_' || (before >= 'a' && before <= 'z');
		bool word_after = after == '_' || (after >= 'a' && after <= 'z');
		if (!word_before && !word_after)
			return true;
	}
	return false;
}

static void check_keys_documented(const char *man, struct json_object *o)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			check_keys_documented(man, json_object_array_get_idx(o, i));
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val) {
		if (!man_names(man, key))
			check_fail(__FILE__, __LINE__, "JSON key \"%s\" is not documented in man/gctop.1", key);
		check_keys_documented(man, val);
	}
}

/* The stacks behind the site "Main.run"... of 1000 bytes: two stacks, 750
 * and 200 bytes, and 3 samples whose stack was not kept. */
static struct gt_alloc_stacks *crafted_stacks(const char *site)
{
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_alloc_stacks_clear(st);
	struct gt_alloc_site_stacks *s = &st->sites[st->n_sites++];
	memset(s, 0, sizeof(*s));
	snprintf(s->site, sizeof(s->site), "%s", site);
	s->bytes = 1000;
	s->distinct = 2;
	s->dropped = 3;
	s->n = 2;
	const char *a[] = { "[native]", "System.Text.Json.JsonSerializer.WriteString", "Main.run", "Main.main" };
	for (unsigned i = 0; i < 4; i++)
		s->stacks[0].frames[i] = gt_alloc_stacks_intern(st, a[i]);
	s->stacks[0].n_frames = 4;
	s->stacks[0].bytes = 750;
	s->stacks[0].count = 30;
	s->stacks[1].frames[0] = gt_alloc_stacks_intern(st, "Main.run");
	s->stacks[1].n_frames = 1;
	s->stacks[1].bytes = 200;
	s->stacks[1].count = 8;
	return st;
}

static void test_every_key_is_in_the_man_page(void)
{
	const char *man = man_text();
	CHECK(man != NULL);
	if (!man)
		return;
	struct gt_target_info info = test_info();
	strcpy(info.main_class, "Main");
	strcpy(info.command_line, "java Main");
	strcpy(info.user, "root");
	strcpy(info.gc_mode, "generational");
	strcpy(info.heap_flags, "-Xmx1g");
	strcpy(info.source, "hsperfdata");
	info.cgroup_version = 2;
	gt_u64_set(&info.start_time_ms, 1000);
	struct gt_sample a = test_sample(1000000000ull, 0, 1), b = test_sample(2000000000ull, 1000, 2);
	a.large_source = b.large_source = "loh";
	b.opcount_name = "requests";
	gt_u64_set(&a.opcount_total, 1);
	gt_u64_set(&b.opcount_total, 9);
	struct gt_derived d;
	gt_derive(&a, &b, &d);
	struct json_object *o = gt_json_sample(&info, &d);
	struct gt_alloc_derived alloc;
	memset(&alloc, 0, sizeof(alloc));
	alloc.valid = true;
	snprintf(alloc.source, sizeof(alloc.source), "jvmti-sampled");
	alloc.n_frames = alloc.n_types = 1;
	snprintf(alloc.by_frame[0].name, sizeof(alloc.by_frame[0].name), "Main.run");
	snprintf(alloc.by_type[0].name, sizeof(alloc.by_type[0].name), "byte[]");
	struct gt_alloc_stacks *st = crafted_stacks("Main.run");
	gt_json_add_allocators_stacks(o, &alloc, st);
	free(st);
	check_keys_documented(man, o);
	json_object_put(o);

	struct gt_list_entry e;
	memset(&e, 0, sizeof(e));
	e.info = info;
	o = gt_json_list_entry(&e, 5000);
	check_keys_documented(man, o);
	json_object_put(o);
}

/* ops names what is counted and the counter; a counter asked for that
 * gives nothing makes ops null and ops_unavailable say which and why. */
static void test_opcount_and_why_not(void)
{
	struct gt_target_info info = test_info();
	struct gt_sample a = test_sample(1000000000ull, 0, 1), b = test_sample(2000000000ull, 64000, 1);
	struct gt_derived d;
	char text[8192];
	a.opcount_name = b.opcount_name = "operations";
	a.opcount_counter = b.opcount_counter = "com.example.ops";
	gt_u64_set(&a.opcount_total, 100);
	gt_u64_set(&b.opcount_total, 132);
	gt_derive(&a, &b, &d);
	struct json_object *o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK_STR(json_object_get_string(get(o, "ops.name")), "operations");
	CHECK_STR(json_object_get_string(get(o, "ops.counter")), "com.example.ops");
	CHECK_U64(json_object_get_int64(get(o, "ops.total")), 132);
	CHECK_NEAR(json_object_get_double(get(o, "ops.bytes_per_op")), 2000.0, 1e-9);
	CHECK(get(o, "ops_unavailable") == NULL);
	json_object_put(o);

	a.opcount_total.valid = b.opcount_total.valid = false;
	a.opcount_unavailable = b.opcount_unavailable = "the JVM publishes no perf-data counter of this name (yet)";
	gt_derive(&a, &b, &d);
	o = round_trip(&info, &d, text, sizeof(text));
	if (!o)
		return;
	CHECK(get(o, "ops") == NULL);
	CHECK_STR(json_object_get_string(get(o, "ops_unavailable.counter")), "com.example.ops");
	CHECK_STR(json_object_get_string(get(o, "ops_unavailable.reason")), b.opcount_unavailable);
	const char *man = man_text();
	if (man)
		check_keys_documented(man, o);
	json_object_put(o);
}

static void test_allocator_stacks(void)
{
	struct gt_alloc_derived alloc;
	memset(&alloc, 0, sizeof(alloc));
	alloc.valid = true;
	alloc.n_frames = 2;
	gt_f64_set(&alloc.sampled_share, 0.25);
	snprintf(alloc.by_frame[0].name, sizeof(alloc.by_frame[0].name), "Main.run");
	snprintf(alloc.by_frame[1].name, sizeof(alloc.by_frame[1].name), "Other.site");
	struct gt_alloc_stacks *st = crafted_stacks("Main.run");
	struct json_object *o = json_object_new_object();
	gt_json_add_allocators_stacks(o, &alloc, st);
	CHECK_STR(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
		  "{\"top_allocators\":{\"source\":null,\"state\":\"off\",\"samples\":0,\"window_s\":0.0,\"sampled_share\":0.25,"
		  "\"by_frame\":[{\"frame\":\"Main.run\",\"bytes_per_s\":null,\"share\":null,"
		  "\"stacks_distinct\":2,\"stacks_dropped\":3,\"stacks\":["
		  "{\"frames\":[\"[native]\",\"System.Text.Json.JsonSerializer.WriteString\",\"Main.run\",\"Main.main\"],"
		  "\"share\":0.75,\"samples\":30},{\"frames\":[\"Main.run\"],\"share\":0.2,\"samples\":8}]},"
		  "{\"frame\":\"Other.site\",\"bytes_per_s\":null,\"share\":null,\"stacks\":null}],\"by_type\":[]}}");
	json_object_put(o);
	/* a sampler without stacks: null, not an empty list */
	o = json_object_new_object();
	gt_json_add_allocators(o, &alloc);
	struct json_object *top, *frames, *row, *stacks;
	CHECK(json_object_object_get_ex(o, "top_allocators", &top) && json_object_object_get_ex(top, "by_frame", &frames));
	row = json_object_array_get_idx(frames, 0);
	CHECK(json_object_object_get_ex(row, "stacks", &stacks) && stacks == NULL);
	json_object_put(o);
	free(st);
}

int main(void)
{
	json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL);
	RUN_TEST(test_first_sample_contract);
	RUN_TEST(test_container_ids);
	RUN_TEST(test_generations_youngest_first_with_deltas);
	RUN_TEST(test_pause_distribution_and_alloc_age);
	RUN_TEST(test_pause_none_in_interval_is_null);
	RUN_TEST(test_non_finite_becomes_null);
	RUN_TEST(test_large_objects_object);
	RUN_TEST(test_opcount_and_why_not);
	RUN_TEST(test_live_set_object);
	RUN_TEST(test_list_entry);
	RUN_TEST(test_allocator_stacks);
	RUN_TEST(test_every_key_is_in_the_man_page);
	return check_summary();
}
