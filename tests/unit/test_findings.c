/* The findings rules on crafted figures: each rule at and just below its
 * thresholds, and silent when its figures are n/a. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "collectors/registry.h"
#include "model/findings.h"
#include "model/findings_advice.h"
#include "model/live_set.h"
#include "views/findings_writer.h"
#include "tests/unit/check.h"

static struct gt_history hist; /* large: keep it off the stack */
static struct gt_target_info info;
static struct gt_derived newest;

/* A session with no figure at all: every rule must stay silent. */
static void reset(const char *gc_name, const struct gt_runtime_traits *rt)
{
	gt_history_clear(&hist);
	memset(&info, 0, sizeof(info));
	memset(&newest, 0, sizeof(newest));
	snprintf(info.gc_name, sizeof(info.gc_name), "%s", gc_name);
	info.runtime = rt;
	newest.cur.n_generations = 2;
	snprintf(newest.cur.generations[0].name, sizeof(newest.cur.generations[0].name), "young");
	snprintf(newest.cur.generations[1].name, sizeof(newest.cur.generations[1].name), "old");
}

/* One interval of dt s ending at t s; pause_ns UINT64_MAX: no pause figure. */
static struct gt_derived *interval(double t, double dt, uint64_t pause_ns)
{
	static struct gt_derived d;
	memset(&d, 0, sizeof(d));
	d.cur = newest.cur;
	d.cur.mono_ns = (uint64_t)(t * 1e9);
	gt_f64_set(&d.interval_s, dt);
	if (pause_ns != UINT64_MAX) {
		gt_u64_set(&d.pause_ns, pause_ns);
		gt_u64_set(&d.cur.pause_max_ns, pause_ns);
	}
	return &d;
}

static void push(struct gt_derived *d)
{
	gt_history_push(&hist, d);
	newest = *d;
}

static const struct gt_finding *find(const struct gt_findings *f, const char *id)
{
	for (unsigned i = 0; i < f->count; i++)
		if (strcmp(f->items[i].id, id) == 0)
			return &f->items[i];
	return NULL;
}

static double evidence(const struct gt_finding *f, const char *key)
{
	for (unsigned i = 0; f && i < f->n_evidence; i++)
		if (strcmp(f->evidence[i].key, key) == 0)
			return f->evidence[i].value;
	return -1;
}

/* The finding id of the figures so far, or NULL. */
static const struct gt_finding *finding(const char *id)
{
	static struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	return find(&f, id);
}

static enum gt_severity severity_of(const char *id)
{
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	const struct gt_finding *x = find(&f, id);
	return x ? x->severity : GT_SEVERITY_NONE;
}

/* Seconds of one-second intervals, each paused pause_ms. */
static void steady(int seconds, double pause_ms, double *t)
{
	for (int i = 0; i < seconds; i++) {
		*t += 1;
		push(interval(*t, 1.0, (uint64_t)(pause_ms * 1e6)));
	}
}

static void test_nothing_without_figures(void)
{
	struct gt_findings f;
	gt_findings_compute(&info, NULL, &hist, &f);
	CHECK_U64(f.count, 0);
	CHECK(f.worst == GT_SEVERITY_NONE);
	reset("G1", &gt_hotspot_runtime);
	/* intervals without pause, cause or memory figures: n/a is no finding */
	double t = 0;
	for (int i = 0; i < 120; i++) {
		t += 1;
		push(interval(t, 1.0, UINT64_MAX));
	}
	gt_findings_compute(&info, &newest, &hist, &f);
	CHECK_U64(f.count, 0);
	CHECK_STR(gt_severity_name(f.worst), "none");
}

static void test_pause_share_thresholds(void)
{
	double t = 0;
	reset("G1", &gt_hotspot_runtime);
	/* one interval each: the share is the pause time's own double, so the
	 * boundary is exact */
	steady(1, 49.9, &t);           /* 4.99% */
	CHECK(severity_of("pause-share") == GT_SEVERITY_NONE);
	reset("G1", &gt_hotspot_runtime);
	t = 0;
	steady(1, 50, &t);             /* 5%: info at the boundary */
	CHECK(severity_of("pause-share") == GT_SEVERITY_INFO);
	reset("G1", &gt_hotspot_runtime);
	t = 0;
	steady(1, 99.9, &t);
	CHECK(severity_of("pause-share") == GT_SEVERITY_INFO);
	reset("G1", &gt_hotspot_runtime);
	t = 0;
	steady(1, 100, &t);            /* 10%: warning */
	CHECK(severity_of("pause-share") == GT_SEVERITY_WARNING);
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	const struct gt_finding *x = find(&f, "pause-share");
	CHECK_NEAR(evidence(x, "pause_share"), 0.10, 1e-9);
	CHECK_NEAR(evidence(x, "window_s"), 1, 1e-9);
	/* a shorter history than a minute: the whole of it is the window */
	steady(29, 100, &t);
	gt_findings_compute(&info, &newest, &hist, &f);
	CHECK_NEAR(evidence(find(&f, "pause-share"), "window_s"), 30, 1e-9);
}

/* The worst minute counts, not the average: a bad minute long ago among
 * calm ones still gives the finding, with the window of that minute. */
static void test_pause_share_worst_window(void)
{
	double t = 0;
	reset("G1", &gt_hotspot_runtime);
	steady(120, 0, &t);
	steady(60, 120, &t);           /* 12% for one minute */
	steady(300, 1, &t);
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	const struct gt_finding *x = find(&f, "pause-share");
	CHECK(x && x->severity == GT_SEVERITY_WARNING);
	CHECK_NEAR(evidence(x, "pause_share"), 0.12, 1e-9);
	CHECK_NEAR(evidence(x, "window_s"), 60, 1e-9);
	/* the same pause time spread thinner over windows never reaching 5% */
	reset("G1", &gt_hotspot_runtime);
	t = 0;
	steady(480, 49, &t);
	CHECK(severity_of("pause-share") == GT_SEVERITY_NONE);
}

static void test_long_pause(void)
{
	double t = 0;
	reset("G1", &gt_hotspot_runtime);
	steady(5, 99.999, &t);
	CHECK(severity_of("long-pause") == GT_SEVERITY_NONE);
	push(interval(t + 1, 1.0, 100000000ull));
	CHECK(severity_of("long-pause") == GT_SEVERITY_WARNING);
	push(interval(t + 3, 2.0, 999999999ull));
	CHECK(severity_of("long-pause") == GT_SEVERITY_WARNING);
	push(interval(t + 5, 2.0, 1000000000ull));
	CHECK(severity_of("long-pause") == GT_SEVERITY_CRITICAL);
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	CHECK_NEAR(evidence(find(&f, "long-pause"), "longest_pause_ms"), 1000, 1e-6);
	CHECK(f.worst == GT_SEVERITY_CRITICAL);
	/* worst first */
	CHECK(f.items[0].severity == GT_SEVERITY_CRITICAL);
}

/* The long pause says when it happened (UTC time of its interval's end and
 * seconds before the newest sample) and the cause the runtime gave, so
 * that an outside event at that moment can be recognised. */
static void test_long_pause_when_and_cause(void)
{
	json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL); /* as gctop's main */
	reset("G1", &gt_hotspot_runtime);
	const int64_t base_ms = 1764748800000; /* 2025-12-03T08:00:00Z */
	for (int i = 1; i <= 40; i++) {
		struct gt_derived *d = interval(i, 1.0, i == 10 ? 250000000ull : 5000000ull);
		d->cur.wall_ms = base_ms + i * 1000;
		snprintf(d->cur.last_gc_cause, sizeof(d->cur.last_gc_cause), "%s",
			 i == 10 ? "G1 Evacuation Pause" : "G1 Preventive Collection");
		push(d);
	}
	const struct gt_finding *f = finding("long-pause");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_STR(f->title, "a 250 ms GC pause at 08:00:10 UTC, 30 s ago (G1 Evacuation Pause)");
	CHECK_STR(f->cause, "G1 Evacuation Pause");
	CHECK_NEAR(evidence(f, "at_unix_ms"), (double)(base_ms + 10000), 0.5);
	CHECK_NEAR(evidence(f, "age_s"), 30, 1e-9);
	char ev[512];
	CHECK_STR(gt_findings_evidence_line(ev, sizeof(ev), f),
		  "longest pause 250.0 ms, at 2025-12-03T08:00:10Z, age 30 s, window 40 s, cause G1 Evacuation Pause");
	struct gt_findings all;
	gt_findings_compute(&info, &newest, &hist, &all);
	struct json_object *o = json_object_new_object();
	gt_json_add_findings(o, &all);
	CHECK(strstr(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
		     "\"evidence\":{\"longest_pause_ms\":250.0,\"at_unix_ms\":1764748810000,\"age_s\":30.0,"
		     "\"window_s\":40.0,\"cause\":\"G1 Evacuation Pause\"}") != NULL);
	json_object_put(o);

	/* HotSpot's "No GC" names no cause: none is given */
	struct gt_derived *nogc = interval(41, 1.0, 260000000ull);
	nogc->cur.wall_ms = base_ms + 41000;
	snprintf(nogc->cur.last_gc_cause, sizeof(nogc->cur.last_gc_cause), "%s", "No GC");
	push(nogc);
	f = finding("long-pause");
	CHECK_STR(f ? f->title : NULL, "a 260 ms GC pause at 08:00:41 UTC, 0 s ago");
	CHECK_STR(f ? f->cause : NULL, "");

	/* a cause is the target's string: no escape byte reaches a title */
	struct gt_derived *d = interval(42, 1.0, 300000000ull);
	d->cur.wall_ms = base_ms + 42000;
	snprintf(d->cur.last_gc_cause, sizeof(d->cur.last_gc_cause), "%s", "Allo\x1b]0;pwn\x07" "c");
	push(d);
	f = finding("long-pause");
	CHECK(f && strchr(f->title, 0x1b) == NULL && strchr(f->title, 0x07) == NULL);
	CHECK(f && strstr(f->title, "0 s ago (Allo?]0;pwn?c)") != NULL);
}

/* Each finding's advice is in its runtime's words: no young generation or
 * -XX flag for .NET, no gen0 or DOTNET_ variable for a JVM. */
static void test_advice_per_runtime(void)
{
	static const char *const both[] = { "pause-share", "long-pause", "induced-gc", "heap-near-limit",
					    "memory-near-limit", "heap-over-limit", "oom-kills", "alloc-per-op",
					    "live-set-growth" };
	static const char *const jvm_words[] = { "young generation", "-XX", "-Xm", "System.gc", "G1" };
	static const char *const dotnet_words[] = { "gen0", "gen2", "DOTNET_", "GC.Collect", "GCHeapHardLimit" };
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++) {
		char jvm[GT_FINDING_ADVICE_LEN], dn[GT_FINDING_ADVICE_LEN];
		gt_findings_advice(jvm, sizeof(jvm), both[i], &gt_hotspot_runtime, GT_FRONT_OPTIONS);
		gt_findings_advice(dn, sizeof(dn), both[i], &gt_dotnet_runtime, GT_FRONT_OPTIONS);
		CHECK(jvm[0] && dn[0]);
		for (size_t w = 0; w < sizeof(jvm_words) / sizeof(jvm_words[0]); w++)
			if (strstr(dn, jvm_words[w]))
				check_fail(__FILE__, __LINE__, ".NET advice for %s says \"%s\": %s", both[i], jvm_words[w], dn);
		for (size_t w = 0; w < sizeof(dotnet_words) / sizeof(dotnet_words[0]); w++)
			if (strstr(jvm, dotnet_words[w]))
				check_fail(__FILE__, __LINE__, "JVM advice for %s says \"%s\": %s", both[i], dotnet_words[w], jvm);
	}
	/* A runtime gctop does not know (a recording that names none) gets a
	 * step for each, in no runtime's words. */
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++) {
		char any[GT_FINDING_ADVICE_LEN];
		gt_findings_advice(any, sizeof(any), both[i], NULL, GT_FRONT_OPTIONS);
		if (!any[0])
			check_fail(__FILE__, __LINE__, "no advice for %s on an unknown runtime", both[i]);
		static const char *const flags[] = { "-XX", "-Xm", "DOTNET_", "System.gc", "GC.Collect", "GCHeap" };
		for (size_t w = 0; w < sizeof(flags) / sizeof(flags[0]); w++)
			if (strstr(any, flags[w]))
				check_fail(__FILE__, __LINE__, "advice for %s on an unknown runtime says \"%s\": %s",
					   both[i], flags[w], any);
	}
	/* through the rules: a .NET target's long pause */
	reset("Workstation", &gt_dotnet_runtime);
	steady(5, 150, &(double){ 0 });
	const struct gt_finding *f = finding("long-pause");
	CHECK(f && strstr(f->advice, "gen2") && !strstr(f->advice, "young generation") &&
	      !strstr(f->advice, "pause-time goal"));
	f = finding("pause-share");
	CHECK(f && strstr(f->advice, "Server GC") && !strstr(f->advice, "young generation"));
	reset("G1", &gt_hotspot_runtime);
	steady(5, 150, &(double){ 0 });
	f = finding("pause-share");
	CHECK(f && strstr(f->advice, "young generation"));
}

/* What grew is one keypress: live-set-growth points to gctop's census
 * first (key c on the screen, --census elsewhere), the runtime's own tool
 * after it, and fits the advice's room whole. */
static void test_advice_census_first(void)
{
	static const struct {
		const struct gt_runtime_traits *rt;
		const char *tool;
	} runtimes[] = { { &gt_hotspot_runtime, "GC.class_histogram" }, { &gt_dotnet_runtime, "dotnet-gcdump" } };
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		char opt[GT_FINDING_ADVICE_LEN], keys[GT_FINDING_ADVICE_LEN];
		gt_findings_advice(opt, sizeof(opt), "live-set-growth", runtimes[i].rt, GT_FRONT_OPTIONS);
		gt_findings_advice(keys, sizeof(keys), "live-set-growth", runtimes[i].rt, GT_FRONT_SCREEN);
		const char *o_census = strstr(opt, "gctop --census"), *o_tool = strstr(opt, runtimes[i].tool);
		const char *k_census = strstr(keys, "key c"), *k_tool = strstr(keys, runtimes[i].tool);
		CHECK(o_census && o_tool && o_census < o_tool && !strstr(opt, "key "));
		CHECK(k_census && k_tool && k_census < k_tool && !strstr(keys, "--census"));
		CHECK(strlen(opt) < sizeof(opt) - 1 && strlen(keys) < sizeof(keys) - 1);
	}
}

/* Whether runtime rt has advice for finding id. */
static bool has_advice(const char *id, const struct gt_runtime_traits *rt)
{
	char buf[GT_FINDING_ADVICE_LEN];
	gt_findings_advice(buf, sizeof(buf), id, rt, GT_FRONT_OPTIONS);
	return buf[0] != '\0';
}

/* Keys on the screen, options everywhere else: -b, --json and --doctor
 * have no key a. */
static void test_advice_per_front_end(void)
{
	/* the shared rows for every runtime, and a runtime's own where it has
	 * them (loh-gen2 .NET's, g1-humongous the JVM's) */
	static const char *const ids[] = { "pause-share", "loh-gen2", "g1-humongous", "alloc-per-op" };
	CHECK(has_advice("loh-gen2", &gt_dotnet_runtime) && has_advice("g1-humongous", &gt_hotspot_runtime));
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct gt_runtime_traits *rt;
		for (size_t k = 0; (rt = gt_registry_at(k)); k++) {
			if (!has_advice(ids[i], rt))
				continue;
			char opt[GT_FINDING_ADVICE_LEN], keys[GT_FINDING_ADVICE_LEN];
			gt_findings_advice(opt, sizeof(opt), ids[i], rt, GT_FRONT_OPTIONS);
			gt_findings_advice(keys, sizeof(keys), ids[i], rt, GT_FRONT_SCREEN);
			CHECK(strstr(opt, "gctop --allocators shows who allocates") && !strstr(opt, "key "));
			CHECK(strstr(keys, "key a shows who allocates") && !strstr(keys, "--allocators"));
		}
	}
	reset("Workstation", &gt_dotnet_runtime);
	steady(30, 150, &(double){ 0 });
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	char buf[4096] = "";
	FILE *out = fmemopen(buf, sizeof(buf) - 1, "w");
	gt_text_write_findings(out, &f);
	fclose(out);
	CHECK(strstr(buf, "gctop --allocators shows who allocates") != NULL);
	CHECK(strstr(buf, "key a") == NULL);
	struct json_object *o = json_object_new_object();
	gt_json_add_findings(o, &f);
	const char *js = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	CHECK(strstr(js, "gctop --allocators shows who allocates") != NULL && strstr(js, "key a") == NULL);
	json_object_put(o);
	const struct gt_finding *x = find(&f, "pause-share");
	CHECK(x && strstr(x->advice_keys, "key a shows who allocates"));
}

static void push_collections(double t, uint64_t young, uint64_t old)
{
	struct gt_derived *d = interval(t, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, young);
	gt_u64_set(&d->generations[1].collections, old);
	push(d);
}

static void test_g1_full(void)
{
	reset("G1", &gt_hotspot_runtime);
	push_collections(1, 5, 0);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	push_collections(2, 5, 1);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_WARNING);
	/* Parallel's old collections are its normal way of working */
	snprintf(info.gc_name, sizeof(info.gc_name), "Parallel");
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	/* an n/a collection count says nothing */
	reset("G1", &gt_hotspot_runtime);
	struct gt_derived *d = interval(1, 1.0, UINT64_MAX);
	d->generations[1].collections.value = 3; /* not valid */
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
}

static void push_causes(double t, struct gt_collection_causes c)
{
	struct gt_derived *d = interval(t, 1.0, UINT64_MAX);
	d->causes = c;
	push(d);
}

/* One more interval with collections by cause, then rule id's severity. */
#define CAUSES_GIVE(id, t, c, want) do { push_causes(t, c); CHECK(severity_of(id) == (want)); } while (0)

static struct gt_collection_causes causes(uint64_t seen, uint64_t induced, uint64_t humongous, uint64_t gen2,
					  uint64_t alloc_large)
{
	struct gt_collection_causes c;
	memset(&c, 0, sizeof(c));
	gt_u64_set(&c.seen, seen);
	gt_u64_set(&c.induced, induced);
	gt_u64_set(&c.humongous, humongous);
	gt_u64_set(&c.gen2, gen2);
	gt_u64_set(&c.gen2_alloc_large, alloc_large);
	return c;
}

static void test_induced(void)
{
	reset("Workstation", &gt_dotnet_runtime);
	CAUSES_GIVE("induced-gc", 1, causes(10, 0, 0, 1, 0), GT_SEVERITY_NONE);
	CAUSES_GIVE("induced-gc", 2, causes(10, 1, 0, 1, 0), GT_SEVERITY_INFO);
	const struct gt_finding *x = finding("induced-gc");
	CHECK(x && strstr(x->title, "GC.Collect") != NULL);
	CHECK_NEAR(evidence(x, "collections"), 20, 0);
	/* no cause figures: nothing */
	reset("G1", &gt_hotspot_runtime);
	push_causes(1, (struct gt_collection_causes){ .induced = { 5, false } });
	CHECK(severity_of("induced-gc") == GT_SEVERITY_NONE);
}

/* A G1 session's one interval of 5 young and 2 full collections, of which
 * inspection the JVM named heap inspections and census this gctop asked
 * for. */
static void push_two_full(uint64_t inspection, uint64_t census)
{
	reset("G1", &gt_hotspot_runtime);
	struct gt_derived *d = interval(1, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 5);
	gt_u64_set(&d->generations[1].collections, 2);
	d->causes = causes(7, 0, 0, 0, 0);
	gt_u64_set(&d->causes.inspection, inspection);
	gt_u64_set(&d->causes.census, census);
	push(d);
}

/* The collections gctop's own censuses asked for are neither G1 falling
 * back nor the program asking (causes.census). */
static void test_census_own(void)
{
	reset("G1", &gt_hotspot_runtime);
	struct gt_derived *d = interval(1, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 5);
	gt_u64_set(&d->generations[1].collections, 1);
	d->causes = causes(6, 0, 0, 0, 0);
	gt_u64_set(&d->causes.census, 1);
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	push_collections(2, 5, 1); /* one the census did not ask for */
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_WARNING);
	CHECK_NEAR(evidence(finding("g1-full-gc"), "full_collections"), 1, 0);
	/* another gctop's census (or jmap -histo:live): this gctop asked for
	 * nothing, the JVM names the cause (causes.inspection); one census
	 * that is both counts once */
	push_two_full(2, 0);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	push_two_full(1, 1);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_WARNING);
	/* a poll during another tool's inspection: the full collection is
	 * counted, its cause not yet named (seen 0); the next poll names it */
	reset("G1", &gt_hotspot_runtime);
	d = interval(1, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 0);
	gt_u64_set(&d->generations[1].collections, 1);
	d->causes = causes(0, 0, 0, 0, 0);
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	d = interval(2, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 0);
	gt_u64_set(&d->generations[1].collections, 0);
	d->causes = causes(1, 0, 0, 0, 0);
	gt_u64_set(&d->causes.inspection, 1);
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	/* one G1 chose: named at the next poll, and then a finding */
	d = interval(3, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 0);
	gt_u64_set(&d->generations[1].collections, 1);
	d->causes = causes(0, 0, 0, 0, 0);
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_NONE);
	d = interval(4, 1.0, UINT64_MAX);
	gt_u64_set(&d->generations[0].collections, 0);
	gt_u64_set(&d->generations[1].collections, 0);
	d->causes = causes(1, 0, 0, 0, 0);
	push(d);
	CHECK(severity_of("g1-full-gc") == GT_SEVERITY_WARNING);
	/* HotSpot names the census's cause itself: a System.gc() beside a
	 * census stays the program's */
	reset("G1", &gt_hotspot_runtime);
	struct gt_collection_causes c = causes(10, 1, 0, 0, 0);
	gt_u64_set(&c.census, 1);
	CAUSES_GIVE("induced-gc", 1, c, GT_SEVERITY_INFO);
	/* .NET reports the census's gen2 as induced: it is left out */
	reset("Workstation", &gt_dotnet_runtime);
	CAUSES_GIVE("induced-gc", 1, c, GT_SEVERITY_NONE);
	CAUSES_GIVE("induced-gc", 2, causes(10, 1, 0, 1, 0), GT_SEVERITY_INFO);
	CHECK_NEAR(evidence(finding("induced-gc"), "induced_collections"), 1, 0);
}

static void test_alloc_large(void)
{
	reset("Workstation", &gt_dotnet_runtime);
	CAUSES_GIVE("loh-gen2", 1, causes(20, 0, 0, 1, 1), GT_SEVERITY_NONE); /* one gen2 is too few */
	reset("Workstation", &gt_dotnet_runtime);
	CAUSES_GIVE("loh-gen2", 1, causes(20, 0, 0, 10, 1), GT_SEVERITY_NONE);   /* 10% */
	CAUSES_GIVE("loh-gen2", 2, causes(20, 0, 0, 0, 1), GT_SEVERITY_INFO);    /* 2 of 10: 20% */
	CAUSES_GIVE("loh-gen2", 3, causes(20, 0, 0, 0, 3), GT_SEVERITY_WARNING); /* 5 of 10: 50% */
	const struct gt_finding *x = finding("loh-gen2");
	CHECK_NEAR(evidence(x, "gen2_collections"), 10, 0);
	CHECK_NEAR(evidence(x, "alloc_large_gen2_collections"), 5, 0);
	CHECK_NEAR(evidence(x, "alloc_large_share"), 0.5, 1e-12);
	CHECK_NEAR(evidence(x, "window_s"), 3, 1e-12);
	/* a HotSpot session has no gen2 figure: nothing */
	reset("G1", &gt_hotspot_runtime);
	struct gt_collection_causes c = causes(20, 0, 0, 10, 10);
	c.gen2.valid = c.gen2_alloc_large.valid = false;
	push_causes(1, c);
	CHECK(severity_of("loh-gen2") == GT_SEVERITY_NONE);
}

static void test_humongous(void)
{
	reset("G1", &gt_hotspot_runtime);
	snprintf(info.heap_flags, sizeof(info.heap_flags), "-Xmx512m -XX:G1HeapRegionSize=1m");
	CAUSES_GIVE("g1-humongous", 1, causes(100, 0, 1, 0, 0), GT_SEVERITY_NONE);   /* one is too few */
	CAUSES_GIVE("g1-humongous", 2, causes(100, 0, 8, 0, 0), GT_SEVERITY_NONE);   /* 9 of 200: 4.5% */
	CAUSES_GIVE("g1-humongous", 3, causes(0, 0, 6, 0, 0), GT_SEVERITY_INFO);     /* 15 of 200: 7.5% */
	CAUSES_GIVE("g1-humongous", 4, causes(0, 0, 35, 0, 0), GT_SEVERITY_WARNING); /* 50 of 200: 25% */
	const struct gt_finding *x = finding("g1-humongous");
	CHECK_NEAR(evidence(x, "region_bytes"), 1 << 20, 0);
	CHECK_NEAR(evidence(x, "humongous_from_bytes"), 1 << 19, 0);
	CHECK_NEAR(evidence(x, "humongous_share"), 0.25, 1e-12);
	CHECK_STR(x ? x->title : NULL, "25% of G1's collections were started by humongous allocation");
}

/* Humongous objects' unused region tails against all allocation, at and
 * just below each threshold. From perf data only their bound (over the
 * totals since attach, or with the agent's total from the process start the
 * newest interval's rates), which is never more than info; measured by the
 * agent's samples, info and warning. */
static void test_region_waste(void)
{
	reset("G1", &gt_hotspot_runtime);
	snprintf(info.heap_flags, sizeof(info.heap_flags), "-Xmx256m");
	gt_u64_set(&info.heap_max_bytes, 256ull << 20);
	push(interval(1, 1.0, UINT64_MAX));
	struct gt_sample *c = &newest.cur;
	c->alloc_since = GT_ALLOC_SINCE_ATTACH;
	gt_u64_set(&c->alloc_bytes_total, 1000000);
	gt_u64_set(&c->large_alloc_bytes_total, 99998);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_NONE); /* n/a: no bound */
	gt_u64_set(&c->large_waste_max_bytes_total, 49999);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_NONE);
	gt_u64_set(&c->large_waste_max_bytes_total, 50000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_INFO);
	gt_u64_set(&c->large_waste_max_bytes_total, 400000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_INFO);  /* a bound only */
	const struct gt_finding *x = finding("g1-region-waste");
	CHECK_NEAR(evidence(x, "region_waste_max_share"), 0.40, 1e-12);
	CHECK_NEAR(evidence(x, "region_waste_max_bytes"), 400000, 0);
	CHECK_NEAR(evidence(x, "humongous_region_bytes"), 99998, 0);
	CHECK_NEAR(evidence(x, "region_bytes"), 1 << 20, 0);
	CHECK(x && strstr(x->title, "up to 40% of allocation may be"));
	/* The agent's total counts from the process start: the interval's rates. */
	c->alloc_since = GT_ALLOC_SINCE_PROCESS_START;
	gt_u64_set(&c->alloc_bytes_total, 1000000000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_NONE);
	gt_f64_set(&newest.alloc_rate_bps, 1000000);
	gt_f64_set(&newest.large_waste_max_rate_bps, 60000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_INFO);
	/* Measured by the agent's samples: the tails themselves. */
	c->large_waste_max_bytes_total.valid = false;
	newest.large_waste_max_rate_bps.valid = false;
	gt_f64_set(&newest.large_waste_rate_bps, 49999);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_NONE);
	gt_f64_set(&newest.large_waste_rate_bps, 50000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_INFO);
	gt_f64_set(&newest.large_waste_rate_bps, 199999);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_INFO);
	gt_f64_set(&newest.large_waste_rate_bps, 200000);
	gt_u64_set(&c->large_waste_bytes_total, 7000000);
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_WARNING);
	x = finding("g1-region-waste");
	CHECK_NEAR(evidence(x, "region_waste_share"), 0.20, 1e-12);
	CHECK_NEAR(evidence(x, "region_waste_bytes"), 7000000, 0);
	CHECK(x && strstr(x->title, ": 20% of allocation is their last regions' unused tails"));
	/* .NET and the other collectors give neither: silent. */
	newest.large_waste_rate_bps.valid = false;
	CHECK(severity_of("g1-region-waste") == GT_SEVERITY_NONE);
}

static void test_region_size(void)
{
	const struct gt_runtime_traits *g1 = &gt_hotspot_runtime;
	struct gt_u64 none = { 0, false }, max = { 0, true };
	CHECK_U64(gt_findings_region_bytes(g1, "-XX:G1HeapRegionSize=4m", none), 4 << 20);
	CHECK_U64(gt_findings_region_bytes(g1, "-Xmx1g -XX:G1HeapRegionSize=8388608", none), 8 << 20);
	CHECK_U64(gt_findings_region_bytes(g1, "", none), 0);
	max.value = 256ull << 20;   /* 128 KiB wanted: the 1 MiB floor */
	CHECK_U64(gt_findings_region_bytes(g1, "", max), 1 << 20);
	max.value = 4ull << 30;     /* 2 MiB */
	CHECK_U64(gt_findings_region_bytes(g1, "-Xmx4g", max), 2 << 20);
	max.value = 6ull << 30;     /* 3 MiB, down to 2 */
	CHECK_U64(gt_findings_region_bytes(g1, NULL, max), 2 << 20);
	max.value = 1ull << 40;     /* capped at 32 MiB */
	CHECK_U64(gt_findings_region_bytes(g1, NULL, max), 32 << 20);
	/* a runtime without such regions, or none known: no size */
	CHECK_U64(gt_findings_region_bytes(&gt_dotnet_runtime, "-XX:G1HeapRegionSize=4m", max), 0);
	CHECK_U64(gt_findings_region_bytes(NULL, "-XX:G1HeapRegionSize=4m", max), 0);
}

static void test_container(void)
{
	reset("G1", &gt_hotspot_runtime);
	struct gt_derived *d = interval(1, 1.0, UINT64_MAX);
	gt_u64_set(&d->cur.cgroup_limit_bytes, 1000000);
	gt_u64_set(&d->cur.heap_committed_bytes, 899999);
	gt_u64_set(&d->cur.rss_bytes, 899999);
	push(d);
	CHECK(severity_of("heap-near-limit") == GT_SEVERITY_NONE);
	CHECK(severity_of("memory-near-limit") == GT_SEVERITY_NONE);
	gt_u64_set(&newest.cur.heap_committed_bytes, 900000);
	CHECK(severity_of("heap-near-limit") == GT_SEVERITY_WARNING);
	gt_u64_set(&newest.cur.rss_bytes, 950000);
	CHECK(severity_of("memory-near-limit") == GT_SEVERITY_WARNING);
	/* no limit: nothing, however large the figures */
	newest.cur.cgroup_limit_bytes.valid = false;
	CHECK(severity_of("heap-near-limit") == GT_SEVERITY_NONE);
	CHECK(severity_of("memory-near-limit") == GT_SEVERITY_NONE);
	CHECK(severity_of("oom-kills") == GT_SEVERITY_NONE);
	gt_u64_set(&newest.cur.oom_kills, 0);
	CHECK(severity_of("oom-kills") == GT_SEVERITY_NONE);
	gt_u64_set(&newest.cur.oom_kills, 2);
	CHECK(severity_of("oom-kills") == GT_SEVERITY_WARNING);
}

static void test_config(void)
{
	reset("G1", &gt_hotspot_runtime);
	push(interval(1, 1.0, UINT64_MAX));
	gt_f64_set(&newest.heap_max_share_of_limit, 1.0);
	CHECK(severity_of("heap-over-limit") == GT_SEVERITY_NONE);
	gt_f64_set(&newest.heap_max_share_of_limit, 1.01);
	CHECK(severity_of("heap-over-limit") == GT_SEVERITY_WARNING);

	reset("Server", &gt_dotnet_runtime);
	snprintf(info.gc_mode, sizeof(info.gc_mode), "concurrent");
	push(interval(1, 1.0, UINT64_MAX));
	CHECK(severity_of("server-gc-one-heap") == GT_SEVERITY_NONE);  /* heap count n/a */
	gt_u64_set(&newest.cur.gc_heap_count, 2);
	CHECK(severity_of("server-gc-one-heap") == GT_SEVERITY_NONE);
	gt_u64_set(&newest.cur.gc_heap_count, 1);
	CHECK(severity_of("server-gc-one-heap") == GT_SEVERITY_WARNING);
	/* DATAS runs Server GC on one heap on purpose */
	snprintf(info.gc_mode, sizeof(info.gc_mode), "concurrent, DATAS");
	CHECK(severity_of("server-gc-one-heap") == GT_SEVERITY_NONE);
	snprintf(info.gc_name, sizeof(info.gc_name), "Workstation");
	snprintf(info.gc_mode, sizeof(info.gc_mode), "concurrent");
	CHECK(severity_of("server-gc-one-heap") == GT_SEVERITY_NONE);
}

/* One interval with opcount operations of bytes_per_op and young/old
 * collections (UINT64_MAX: n/a). */
static void push_opcount(double t, uint64_t opcount, double bytes_per_op, uint64_t young, uint64_t old)
{
	struct gt_derived *d = interval(t, 1.0, UINT64_MAX);
	gt_u64_set(&d->opcount, opcount);
	gt_f64_set(&d->bytes_per_op, bytes_per_op);
	if (young != UINT64_MAX)
		gt_u64_set(&d->generations[0].collections, young);
	if (old != UINT64_MAX)
		gt_u64_set(&d->generations[1].collections, old);
	push(d);
}

/* Collections per operation over the history: info from one every ten
 * operations, warning from one per operation; at least 10 operations. */
static void test_alloc_per_op(void)
{
	reset("G1", &gt_hotspot_runtime);
	newest.cur.opcount_name = "operations";
	push_opcount(1, 9, 4e6, 9, 0);             /* 9 operations are too few */
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_NONE);
	push_opcount(2, 91, 1e5, 0, 0);            /* 9 collections in 100: 0.09 */
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_NONE);
	push_opcount(3, 100, 1e5, 11, 0);          /* 20 in 200: 0.10 */
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_INFO);
	reset("G1", &gt_hotspot_runtime);
	newest.cur.opcount_name = "operations";
	push_opcount(1, 10, 16.0 * 1048576, 9, 1); /* young and full: 10 in 10 */
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_WARNING);
	const struct gt_finding *x = finding("alloc-per-op");
	CHECK(x && strcmp(x->title, "each operation allocates 16.0 MiB: 1.00 collections per operation") == 0);
	CHECK_NEAR(evidence(x, "bytes_per_op"), 16.0 * 1048576, 1e-6);
	CHECK_NEAR(evidence(x, "operations"), 10, 0);
	CHECK_NEAR(evidence(x, "collections"), 10, 0);
	CHECK_NEAR(evidence(x, "collections_per_op"), 1.0, 1e-12);
	CHECK_NEAR(evidence(x, "window_s"), 1, 1e-12);
	/* collections faster than the estimate's tick: the bytes are a lower
	 * bound, the collections exact */
	struct gt_derived *d = interval(2, 1.0, UINT64_MAX);
	gt_u64_set(&d->opcount, 10);
	gt_f64_set(&d->bytes_per_op, 4.0 * 1048576);
	gt_u64_set(&d->generations[0].collections, 30);
	d->alloc_lower_bound = true;
	push(d);
	x = finding("alloc-per-op");
	CHECK(x && strcmp(x->title, "each operation allocates at least 10.0 MiB: 2.00 collections per operation") == 0);
	/* humongous objects in whole G1 regions as well: neither bound holds */
	d = interval(3, 1.0, UINT64_MAX);
	gt_u64_set(&d->opcount, 10);
	gt_f64_set(&d->bytes_per_op, 4.0 * 1048576);
	d->alloc_upper_bound = true;
	push(d);
	x = finding("alloc-per-op");
	CHECK(x && strstr(x->title, "each operation allocates 8.0 MiB:"));
	/* whole regions alone: at most */
	reset("G1", &gt_hotspot_runtime);
	newest.cur.opcount_name = "operations";
	d = interval(1, 1.0, UINT64_MAX);
	gt_u64_set(&d->opcount, 10);
	gt_f64_set(&d->bytes_per_op, 4.0 * 1048576);
	gt_u64_set(&d->generations[0].collections, 10);
	d->alloc_upper_bound = true;
	push(d);
	x = finding("alloc-per-op");
	CHECK(x && strcmp(x->title, "each operation allocates at most 4.0 MiB: 1.00 collections per operation") == 0);
	/* .NET counts each GC once, by the oldest generation collected: 6
	 * gen0 and 4 gen1 GCs are 10 (before, gen0 counted every GC and the
	 * rule read gen0 alone, which here would give 6) */
	reset("Workstation", &gt_dotnet_runtime);
	newest.cur.opcount_name = "requests";
	push_opcount(1, 20, 60e6, 6, 4);
	x = finding("alloc-per-op");
	CHECK(x && x->severity == GT_SEVERITY_INFO && strstr(x->title, "each request allocates 57.2 MiB: 0.50 "
								"collections per request"));
	/* no collection figures, or no operations: nothing */
	reset("G1", &gt_hotspot_runtime);
	push_opcount(1, 100, 1e6, UINT64_MAX, UINT64_MAX);
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_NONE);
	reset("G1", &gt_hotspot_runtime);
	steady(30, 0, &(double){ 0 });
	CHECK(severity_of("alloc-per-op") == GT_SEVERITY_NONE);
}

/* Collections per request through derive, as a .NET run gives them: one GC
 * and 4 requests a second, the requests read as of the runtime's counter
 * poll, and in 11 of 60 intervals that poll not yet arrived (the sample
 * then reads the poll before). Those intervals' collections belong to the
 * span as much as the requests the next interval counts: 0.25, where
 * dropping them read 49 in 240, 0.20. */
static void test_alloc_per_op_over_intervals_without_a_poll(void)
{
	reset("Server", &gt_dotnet_runtime);
	static struct gt_sample prev, cur;
	static struct gt_derived d;
	const uint64_t s = 1000000000ull;
	for (uint64_t k = 1; k <= 61; k++) {
		memset(&cur, 0, sizeof(cur));
		cur.mono_ns = k * s;
		cur.n_generations = 2;
		snprintf(cur.generations[0].name, sizeof(cur.generations[0].name), "young");
		snprintf(cur.generations[1].name, sizeof(cur.generations[1].name), "old");
		gt_u64_set(&cur.generations[0].collections, k);   /* GC j at j - 0.2 s */
		gt_u64_set(&cur.generations[1].collections, 0);
		uint64_t poll = k % 5 == 0 && k < 60 ? k - 1 : k;  /* poll j at j - 0.5 s */
		cur.alloc_source = GT_ALLOC_SOURCE_EXACT;
		cur.alloc_at.valid = true;
		cur.alloc_at.ns = poll * s - s / 2;
		cur.alloc_at.prev_ns = cur.alloc_at.ns - s;
		gt_u64_set(&cur.alloc_bytes_total, poll * 4000000);
		gt_u64_set(&cur.opcount_total, poll * 4);
		gt_u64_set(&cur.opcount_collections_total, poll - 1);
		cur.opcount_name = "requests";
		gt_derive(k > 1 ? &prev : NULL, &cur, &d);
		push(&d);
		prev = cur;
	}
	const struct gt_finding *x = finding("alloc-per-op");
	CHECK(x != NULL);
	CHECK_NEAR(evidence(x, "operations"), 240, 0);
	CHECK_NEAR(evidence(x, "collections"), 60, 0);
	CHECK_NEAR(evidence(x, "collections_per_op"), 0.25, 1e-12);
	CHECK_NEAR(evidence(x, "bytes_per_op"), 1e6, 1e-6);
}

/* -b's section and --json's key carry every finding with its evidence. */
/* ---- live-set-growth: the live set as a tracker folds it ---- */

#define LIVE_MB 1e6
static struct gt_sample live_sample;
static struct gt_live_tracker live_tracker;

static double live_noise(unsigned *st)
{
	*st = *st * 1103515245u + 12345u;
	return (double)((*st >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* points live-set points every step_s seconds, the k-th at bytes(k) MB
 * plus noise of +-noise_mb, folded as the samples bring them; newest's
 * live set becomes the tracker's figures, with a heap max of max_mb. */
static void live_points(int points, double step_s, double (*bytes)(int k), double noise_mb, double max_mb)
{
	unsigned st = 5;
	memset(&live_sample, 0, sizeof(live_sample));
	gt_live_tracker_clear(&live_tracker);
	for (int k = 0; k < points; k++) {
		struct gt_live_log *l = &live_sample.live_log;
		uint64_t at = (uint64_t)((1 + k * step_s) * 1e9);
		l->valid = true;
		l->points[l->count++ % GT_LIVE_RING] =
			(struct gt_live_point){ (uint64_t)((bytes(k) + noise_mb * live_noise(&st)) * LIVE_MB), at, "full GC" };
		live_sample.mono_ns = at + 1000000000ull;
		gt_live_tracker_fold(&live_tracker, &live_sample);
	}
	gt_u64_set(&live_sample.heap_max_bytes, (uint64_t)(max_mb * LIVE_MB));
	newest.cur.mono_ns = live_sample.mono_ns;
	gt_live_set_figures(&live_tracker, &live_sample, &newest.live_set);
}

/* 0.5 MB/s on 500 MB: a leak; a big cache: 3 GB, flat; a warm-up: to 2 GB
 * in 8 minutes, then flat; a sawtooth: a cache filled from 200 MB to
 * 1.2 GB over 10 minutes and emptied, three times. Points every 30 s. */
static double leak(int k) { return 500 + 0.5 * 30 * k; }
static double big_cache(int k) { (void)k; return 3000; }
static double warm_up(int k) { return k < 16 ? 2000.0 * k / 16 : 2000; }
static double sawtooth(int k) { return 200 + 1000.0 * (k % 20) / 20; }
/* 1 MB/s from 500 MB, at 10 s steps; to 400 MB in 50 s, then flat. */
static double fast_leak(int k) { return 500 + 10.0 * k; }
static double short_warm_up(int k) { return k < 5 ? 80.0 * k : 400; }

static void test_live_set_growth(void)
{
	reset("G1", &gt_hotspot_runtime);
	/* a leak among noise of +-20 MB, over 30 minutes: info far from the
	 * heap's max, warning within the hour, critical within ten minutes */
	live_points(60, 30, leak, 20, 8000);
	const struct gt_finding *f = finding("live-set-growth");
	CHECK(f && f->severity == GT_SEVERITY_INFO);
	CHECK_U64((uint64_t)evidence(f, "points"), 60);
	CHECK_NEAR(evidence(f, "growth_per_min_bytes"), 30 * LIVE_MB, 3 * LIVE_MB);
	CHECK_NEAR(evidence(f, "span_s"), 59 * 30, 0);
	CHECK(evidence(f, "exhaustion_s") > 3600);
	CHECK(f && strstr(f->advice, "GC.class_histogram"));
	live_points(60, 30, leak, 20, 2800);     /* ~1400 MB at 0.5 MB/s: ~47 min */
	CHECK(severity_of("live-set-growth") == GT_SEVERITY_WARNING);
	live_points(60, 30, leak, 20, 1600);     /* ~4 min */
	CHECK(severity_of("live-set-growth") == GT_SEVERITY_CRITICAL);
	f = finding("live-set-growth");
	CHECK_NEAR(evidence(f, "limit_bytes"), 1600 * LIVE_MB, 0);
	/* beside the leak, a finding whose step is more room names the leak
	 * first (G1 falling back to full collections as the heap fills) */
	struct gt_live_set leaking = newest.live_set;
	push_collections(1, 5, 2);
	newest.live_set = leaking;
	const struct gt_finding *full = finding("g1-full-gc");
	CHECK(full && strncmp(full->advice, "the live set grows (live-set-growth)", 36) == 0 &&
	      strstr(full->advice, "raise -Xmx") && strncmp(full->advice_keys, "the live set grows", 18) == 0);
	newest.live_set.valid = false;             /* without the leak, the step alone */
	full = finding("g1-full-gc");
	CHECK(full && strncmp(full->advice, "G1 ran out of room", 18) == 0);

	/* none on a steady service with a big cache, a warm-up, a sawtooth */
	live_points(60, 30, big_cache, 100, 4000);
	CHECK(!finding("live-set-growth"));
	live_points(60, 30, warm_up, 30, 4000);
	CHECK(newest.live_set.growth_low_bps.value > 0);   /* the trend alone would call it */
	CHECK(!finding("live-set-growth"));
	live_points(60, 30, sawtooth, 10, 4000);
	CHECK(newest.live_set.growth_low_bps.value > 0);
	CHECK(!finding("live-set-growth"));

	/* the leak, too soon to call where its end is far: seven points, or
	 * four minutes (2.5 MB/s, 30 GB of heap: over three hours left) */
	live_points(7, 30, leak, 20, 30000);
	CHECK(!finding("live-set-growth"));
	live_points(40, 6, leak, 20, 30000);
	CHECK(newest.live_set.growth_bps.valid && !finding("live-set-growth"));
	/* the same four minutes in 6 GB: 33 minutes left, within the hour
	 * (and within ten times the trend's span, past which gctop projects
	 * nothing) */
	live_points(40, 6, leak, 20, 6000);
	CHECK(severity_of("live-set-growth") == GT_SEVERITY_WARNING);
	/* a leak that fills its heap within minutes is called once the trend
	 * has its minimum (5 points over a minute) and projects the end
	 * within the hour, long before 8 points over 5 minutes: 1 MB/s from
	 * 500 MB, 10 points 10 s apart, a 700 MB heap (about 100 s left) */
	live_points(10, 10, fast_leak, 5, 700);
	CHECK(severity_of("live-set-growth") == GT_SEVERITY_CRITICAL);
	/* but not a warm-up that levelled off in such a heap, nor that leak
	 * while its trend is still n/a (four points) */
	live_points(10, 10, short_warm_up, 5, 500);
	CHECK(!finding("live-set-growth"));
	live_points(4, 10, fast_leak, 5, 700);
	CHECK(!finding("live-set-growth"));
	/* and none when the collector measures no live set */
	memset(&newest.live_set, 0, sizeof(newest.live_set));
	CHECK(!finding("live-set-growth"));
}

static void test_outputs(void)
{
	double t = 0;
	json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL); /* as gctop's main */
	reset("G1", &gt_hotspot_runtime);
	struct gt_findings f;
	gt_findings_compute(&info, &newest, &hist, &f);
	struct json_object *o = json_object_new_object();
	gt_json_add_findings(o, &f);
	CHECK_STR(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), "{\"findings\":[]}");
	json_object_put(o);

	steady(30, 150, &t);   /* 15% paused, the longest 150 ms */
	gt_findings_compute(&info, &newest, &hist, &f);
	CHECK_U64(f.count, 2);
	o = json_object_new_object();
	gt_json_add_findings(o, &f);
	const char *js = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	CHECK(strstr(js, "{\"id\":\"pause-share\",\"severity\":\"warning\",\"title\":\"GC pauses took 15.0% of the worst 30 s\","
			 "\"evidence\":{\"pause_share\":0.15") != NULL);
	CHECK(strstr(js, "\"longest_pause_ms\":150") != NULL);
	CHECK(strstr(js, "\"advice\":\"") != NULL);
	json_object_put(o);

	char buf[4096] = "";
	FILE *out = fmemopen(buf, sizeof(buf) - 1, "w");
	gt_text_write_findings(out, &f);
	fclose(out);
	CHECK(strstr(buf, "Findings: 2, worst warning\n") == buf);
	CHECK(strstr(buf, "  warning  pause-share: GC pauses took 15.0% of the worst 30 s\n"
			  "           evidence: pause share 15.0%, window 30 s\n           next: ") != NULL);
	CHECK(strstr(buf, "evidence: longest pause 150.0 ms, age 0 s, window 30 s") != NULL);
}

int main(void)
{
	RUN_TEST(test_nothing_without_figures);
	RUN_TEST(test_pause_share_thresholds);
	RUN_TEST(test_pause_share_worst_window);
	RUN_TEST(test_long_pause);
	RUN_TEST(test_long_pause_when_and_cause);
	RUN_TEST(test_advice_per_runtime);
	RUN_TEST(test_advice_per_front_end);
	RUN_TEST(test_advice_census_first);
	RUN_TEST(test_g1_full);
	RUN_TEST(test_induced);
	RUN_TEST(test_census_own);
	RUN_TEST(test_alloc_large);
	RUN_TEST(test_humongous);
	RUN_TEST(test_region_waste);
	RUN_TEST(test_region_size);
	RUN_TEST(test_container);
	RUN_TEST(test_config);
	RUN_TEST(test_alloc_per_op);
	RUN_TEST(test_alloc_per_op_over_intervals_without_a_poll);
	RUN_TEST(test_live_set_growth);
	RUN_TEST(test_outputs);
	return check_summary();
}
