/* The /metrics writer (gctop --serve): names, types, metadata, escaping,
 * n/a left out, counters with _created, histogram buckets that only grow,
 * and the two formats. With GCTOP_METRICS_EXAMPLE_DIR set it also leaves
 * its two outputs there for tests/integration/metrics_promtool.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "model/pause_hist.h"
#include "views/metrics_emit.h"
#include "views/metrics_writer.h"
#include "tests/unit/check.h"

#define WATCH_START_S 1796023500.0
#define JVM_START_MS 1796023000000ull

struct fixture {
	struct gt_target_info info[3];
	struct gt_sample sample[3];
	struct gt_derived derived[3];
	struct gt_pause_hist pauses[3];
	struct gt_metrics_target t[3];
};

static void jvm(struct fixture *f)
{
	struct gt_target_info *i = &f->info[0];
	struct gt_sample *s = &f->sample[0];
	i->pid = 100;
	i->runtime = &gt_hotspot_runtime;
	strcpy(i->gc_name, "G1");
	strcpy(i->main_class, "com.example.App");
	strcpy(i->command_line, "java -Dsecret=hunter2 com.example.App");
	gt_u64_set(&i->start_time_ms, JVM_START_MS);
	s->wall_ms = 1796023541123LL;
	s->alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_u64_set(&s->alloc_bytes_total, 123456789);
	s->collections_since = GT_ALLOC_SINCE_PROCESS_START;
	s->n_generations = 2;
	strcpy(s->generations[0].name, "young");
	strcpy(s->generations[1].name, "old");
	gt_u64_set(&s->generations[0].collections, 12);
	gt_u64_set(&s->generations[0].used_bytes, 1000);
	gt_u64_set(&s->generations[0].committed_bytes, 4000);
	gt_u64_set(&s->generations[1].used_bytes, 2000);
	gt_u64_set(&s->generations[1].max_bytes, 1 << 30);
	/* the pools and collectors as the collector names them */
	s->n_memory_pools = 2;
	s->memory_pools[0] = (struct gt_memory_pool){ .name = "G1 Eden Space", .heap = true };
	gt_u64_set(&s->memory_pools[0].used_bytes, 1000);
	gt_u64_set(&s->memory_pools[0].committed_bytes, 4000);
	s->memory_pools[1] = (struct gt_memory_pool){ .name = "G1 Old Gen", .heap = true };
	gt_u64_set(&s->memory_pools[1].used_bytes, 2000);
	gt_u64_set(&s->memory_pools[1].max_bytes, 1 << 30);
	gt_u64_set(&s->memory_pools[1].used_after_gc_bytes, 1500);
	s->n_collectors = 3;
	strcpy(s->collectors[0].name, "G1 young collection pauses");
	s->collectors[0].mx_name = "G1 Young Generation";
	s->collectors[0].mx_action = "end of minor GC";
	gt_u64_set(&s->collectors[0].invocations, 12);
	gt_u64_set(&s->collectors[0].time_ns, 1500000000ull);
	/* since gctop began watching: 5 ms, 5 ms, 50 ms, 2 s */
	gt_duration_hist_add(&s->collectors[0].durations, 10000000, 2);
	gt_duration_hist_add(&s->collectors[0].durations, 50000000, 1);
	gt_duration_hist_add(&s->collectors[0].durations, 2000000000, 1);
	s->collectors[0].durations.merged = 2;
	strcpy(s->collectors[1].name, "G1 full collection pauses");
	s->collectors[1].mx_name = "G1 Old Generation";
	s->collectors[1].mx_action = "end of major GC";
	gt_u64_set(&s->collectors[1].invocations, 1);
	gt_u64_set(&s->collectors[1].time_ns, 250000000ull);
	/* JDK 17's remark and cleanup: no bean names them */
	strcpy(s->collectors[2].name, "G1 concurrent cycle pauses");
	gt_u64_set(&s->collectors[2].invocations, 40);
	gt_duration_hist_add(&s->collectors[2].durations, 3000000, 2);
	gt_u64_set(&s->pause_total_ns, 1750000000ull);
	gt_u64_set(&s->cgroup_limit_bytes, 4ull << 30);
	/* watched with --ops jmx: and no agent: no operations, and why */
	s->opcount_counter = "jmx:requests";
	s->opcount_unavailable = "gctop's agent reads this attribute; --ops-agent loads it";
	/* metaspace, RSS and the rest stay n/a */
	static const uint64_t pauses[] = { 50000, 100000, 300000, 2000000, 20000000000ull };
	s->pause_log.valid = true;
	s->pause_log.count = 5;
	memcpy(s->pause_log.ns, pauses, sizeof(pauses));
}

/* A .NET process whose entry assembly has a hostile name. */
static void dotnet(struct fixture *f)
{
	struct gt_target_info *i = &f->info[1];
	struct gt_sample *s = &f->sample[1];
	static const char *const gens[] = { "gen0", "gen1", "gen2", "loh", "poh" };
	i->pid = 200;
	i->runtime = &gt_dotnet_runtime;
	strcpy(i->main_class, "We\"ird\\App\n\x1b[2J");
	s->alloc_source = GT_ALLOC_SOURCE_EXACT;
	s->alloc_since = GT_ALLOC_SINCE_ATTACH;
	s->collections_since = GT_ALLOC_SINCE_ATTACH;
	gt_u64_set(&s->alloc_bytes_total, 5000000);
	gt_u64_set(&s->pause_total_ns, 2500000);
	s->n_generations = 5;
	for (unsigned g = 0; g < 5; g++) {
		strcpy(s->generations[g].name, gens[g]);
		gt_u64_set(&s->generations[g].used_bytes, 100 * (g + 1));
	}
	s->n_collectors = 3;
	for (unsigned g = 0; g < 3; g++) {
		strcpy(s->collectors[g].name, gens[g]);
		gt_u64_set(&s->collectors[g].invocations, 7 - 3 * g);
	}
	gt_u64_set(&s->rss_bytes, 50000000);
	s->pause_log.valid = true;
	/* everything else known, so every family has a point */
	gt_u64_set(&s->threads, 17);
	gt_u64_set(&s->cpu_ticks, 250);
	gt_u64_set(&s->cpu_hz, 100);
	gt_u64_set(&s->heap_used_bytes, 1500);
	gt_u64_set(&s->heap_committed_bytes, 1 << 20);
	gt_u64_set(&s->gc_hard_limit_bytes, 1 << 28);
	gt_u64_set(&s->generations[1].fragmented_bytes, 64);
	gt_u64_set(&s->large_bytes, 400);
	gt_u64_set(&s->large_alloc_bytes_total, 90000);
	gt_u64_set(&s->large_waste_max_bytes_total, 45000);
	gt_u64_set(&s->alloc_excess_max_bytes_total, 36000);
	gt_u64_set(&s->large_waste_bytes_total, 30000);
	gt_u64_set(&s->opcount_total, 1000);
	gt_u64_set(&s->alloc_blind_collections, 0);
	gt_u64_set(&s->cgroup_limit_bytes, 1ull << 30);
	gt_u64_set(&s->cgroup_usage_bytes, 1ull << 29);
	gt_u64_set(&s->oom_kills, 0);
}

/* A process gctop could not read anything of yet: only its info line. */
static void blank(struct fixture *f)
{
	f->info[2].pid = 300;
	f->info[2].runtime = &gt_hotspot_runtime;
}

/* The .NET process's live set: 300 MB, growing 2.5 kB/s, full in an hour. */
static void live_set(struct gt_live_set *l)
{
	l->valid = true;
	l->bytes = 300000000;
	l->points = 9;
	gt_f64_set(&l->growth_bps, 2500);
	gt_f64_set(&l->exhaustion_s, 3600);
	l->limit_kind = GT_LIVE_LIMIT_CONTAINER;
}

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	jvm(f);
	dotnet(f);
	blank(f);
	for (int k = 0; k < 3; k++) {
		gt_pause_hist_add(&f->pauses[k], &f->sample[k]);
		gt_derive(NULL, &f->sample[k], &f->derived[k]);
		if (k == 1) {
			gt_f64_set(&f->derived[k].bytes_per_op, 5000.0);
			live_set(&f->derived[k].live_set);
		}
		f->t[k] = (struct gt_metrics_target){ &f->info[k], &f->sample[k], &f->derived[k], &f->pauses[k], WATCH_START_S,
						      NULL, 0 };
	}
	/* the JVM's findings, as the fleet keeps them */
	static const struct gt_finding_brief found[] = {
		{ "long-pause", GT_SEVERITY_CRITICAL }, { "induced-gc", GT_SEVERITY_INFO },
	};
	f->t[0].findings = found;
	f->t[0].n_findings = 2;
}

static char *render(const struct fixture *f, enum gt_metrics_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(m != NULL);
	CHECK(gt_metrics_write(m, fmt, NULL, f->t, 3) == 0);
	fclose(m);
	return buf;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

#define CHECK_LINE(text, line) do { if (!has_line(text, line)) check_fail(__FILE__, __LINE__, "no line: %s", line); } while (0)
#define CHECK_NO(text, s) do { if (strstr(text, s)) check_fail(__FILE__, __LINE__, "unexpected: %s", s); } while (0)

#define JVM_LABELS "pid=\"100\",runtime=\"hotspot\",main=\"com.example.App\""
#define NET_LABELS "pid=\"200\",runtime=\"dotnet\",main=\"We\\\"ird\\\\App??[2J\""

static void test_openmetrics_names_and_metadata(void)
{
	struct fixture f;
	fixture_init(&f);
	char *om = render(&f, GT_METRICS_OPENMETRICS);
	CHECK_LINE(om, "# TYPE dotnet_gc_collections counter");
	CHECK_LINE(om, "# HELP dotnet_gc_collections Garbage collections by the oldest generation collected, since gctop began watching.");
	CHECK_LINE(om, "# TYPE dotnet_gc_heap_total_allocated_bytes counter");
	CHECK_LINE(om, "# UNIT dotnet_gc_heap_total_allocated_bytes bytes");
	CHECK_LINE(om, "dotnet_gc_heap_total_allocated_bytes_total{" NET_LABELS "} 5000000");
	CHECK_LINE(om, "dotnet_gc_heap_total_allocated_bytes_created{" NET_LABELS "} 1796023500");
	CHECK_LINE(om, "dotnet_gc_collections_total{" NET_LABELS ",dotnet_gc_heap_generation=\"gen1\"} 4");
	CHECK_LINE(om, "dotnet_gc_pause_time_seconds_total{" NET_LABELS "} 0.0025");
	CHECK_LINE(om, "dotnet_gc_last_collection_heap_size_bytes{" NET_LABELS ",dotnet_gc_heap_generation=\"poh\"} 500");
	CHECK_LINE(om, "jvm_memory_used_bytes{" JVM_LABELS ",jvm_memory_pool_name=\"G1 Old Gen\",jvm_memory_type=\"heap\"} 2000");
	CHECK_LINE(om, "jvm_memory_limit_bytes{" JVM_LABELS ",jvm_memory_pool_name=\"G1 Old Gen\",jvm_memory_type=\"heap\"} 1073741824");
	CHECK_LINE(om, "jvm_memory_used_after_last_gc_bytes{" JVM_LABELS ",jvm_memory_pool_name=\"G1 Old Gen\",jvm_memory_type=\"heap\"} 1500");
	CHECK_NO(om, "jvm_memory_used_after_last_gc_bytes{" JVM_LABELS ",jvm_memory_pool_name=\"G1 Eden Space\"");
	CHECK_LINE(om, "# TYPE jvm_gc_duration_seconds histogram");
	/* seen one by one since gctop began watching: OpenTelemetry's buckets */
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\",le=\"0.01\"} 2");
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\",le=\"0.1\"} 3");
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\",le=\"1\"} 3");
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\",le=\"10\"} 4");
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\",le=\"+Inf\"} 4");
	CHECK_LINE(om, "jvm_gc_duration_seconds_count{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\"} 4");
	CHECK_LINE(om, "jvm_gc_duration_seconds_sum{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\"} 2.06");
	CHECK_LINE(om, "jvm_gc_duration_seconds_created{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\"} 1796023500");
	CHECK_LINE(om, "gctop_gc_duration_merged_total{" JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\"} 2");
	CHECK_LINE(om, "gctop_gc_duration_merged_total{" JVM_LABELS ",collector=\"G1 concurrent cycle pauses\"} 0");
	CHECK_NO(om, "gctop_gc_duration_merged_total{" JVM_LABELS ",jvm_gc_name=\"G1 Old Generation\"");
	/* not seen one by one: the runtime's count from its start, +Inf only */
	CHECK_LINE(om, "jvm_gc_duration_seconds_sum{" JVM_LABELS ",jvm_gc_name=\"G1 Old Generation\",jvm_gc_action=\"end of major GC\"} 0.25");
	CHECK_LINE(om, "jvm_gc_duration_seconds_bucket{" JVM_LABELS ",jvm_gc_name=\"G1 Old Generation\",jvm_gc_action=\"end of major GC\",le=\"+Inf\"} 1");
	CHECK_NO(om, "jvm_gc_name=\"G1 Old Generation\",jvm_gc_action=\"end of major GC\",le=\"10\"");
	/* a collector no bean names: not in jvm_*, in gctop's family */
	CHECK_NO(om, "jvm_gc_name=\"G1 concurrent cycle pauses\"");
	CHECK_LINE(om, "gctop_gc_collector_duration_seconds_bucket{" JVM_LABELS ",collector=\"G1 concurrent cycle pauses\",le=\"0.01\"} 2");
	CHECK_LINE(om, "gctop_gc_collector_duration_seconds_count{" JVM_LABELS ",collector=\"G1 concurrent cycle pauses\"} 2");
	/* .NET has no jvm_* series, though its sample has collectors */
	CHECK_NO(om, "jvm_gc_duration_seconds_count{" NET_LABELS);
	/* what holds, by id and severity; nothing for a process with none */
	CHECK_LINE(om, "# TYPE gctop_finding gauge");
	CHECK_LINE(om, "gctop_finding{" JVM_LABELS ",id=\"long-pause\",severity=\"critical\"} 1");
	CHECK_LINE(om, "gctop_finding{" JVM_LABELS ",id=\"induced-gc\",severity=\"info\"} 1");
	CHECK_NO(om, "gctop_finding{" NET_LABELS);
	/* HotSpot's counters run from the JVM's start */
	CHECK_LINE(om, "gctop_gc_pause_time_seconds_created{" JVM_LABELS "} 1796023000");
	CHECK_LINE(om, "gctop_container_memory_limit_bytes{" JVM_LABELS "} 4294967296");
	CHECK_LINE(om, "gctop_sample_timestamp_seconds{" JVM_LABELS "} 1796023541.123");
	CHECK_LINE(om, "gctop_requests_unavailable_info{" JVM_LABELS ",counter=\"jmx:requests\","
		       "reason=\"gctop's agent reads this attribute; --ops-agent loads it\"} 1");
	CHECK_NO(om, "gctop_requests_unavailable_info{" NET_LABELS); /* .NET has its requests */
	CHECK_LINE(om, "# TYPE gctop_target info");
	CHECK_LINE(om, "gctop_target_info{pid=\"300\",runtime=\"hotspot\",main=\"\",gc=\"\",runtime_version=\"\",allocation_source=\"none\"} 1");
	CHECK_NO(om, "hunter2");
	/* one TYPE line per family: points of a family are never split */
	CHECK(strstr(strstr(om, "# TYPE jvm_memory_used_bytes gauge") + 1, "# TYPE jvm_memory_used_bytes") == NULL);
	size_t len = strlen(om);
	CHECK(len > 6 && strcmp(om + len - 6, "# EOF\n") == 0);
	free(om);
}

/* n/a is left out: never a 0 or NaN standing in for it. */
static void test_not_available_is_omitted(void)
{
	struct fixture f;
	fixture_init(&f);
	char *om = render(&f, GT_METRICS_OPENMETRICS);
	CHECK_NO(om, "jvm_memory_pool_name=\"Metaspace\"");
	CHECK_NO(om, "process_memory_usage_bytes{" JVM_LABELS);
	CHECK_LINE(om, "process_memory_usage_bytes{" NET_LABELS "} 50000000");
	CHECK_NO(om, "gctop_container_memory_limit_bytes{pid=\"300\"");
	CHECK_NO(om, "NaN");
	/* the blank process: its info line and nothing else */
	const char *p = om;
	int n = 0;
	while ((p = strstr(p, "pid=\"300\"")) != NULL) {
		n++;
		p++;
	}
	CHECK_U64(n, 1);
	free(om);
	/* n/a families write no metadata either: the blank process alone */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(gt_metrics_write(m, GT_METRICS_OPENMETRICS, NULL, &f.t[2], 1) == 0);
	fclose(m);
	CHECK_STR(buf, "# TYPE gctop_target info\n"
		       "# HELP gctop_target A watched process: its collector, runtime version and allocation source.\n"
		       "gctop_target_info{pid=\"300\",runtime=\"hotspot\",main=\"\",gc=\"\",runtime_version=\"\",allocation_source=\"none\"} 1\n"
		       "# EOF\n");
	free(buf);
}

static uint64_t bucket_value(const char *text, const char *le)
{
	char key[256];
	snprintf(key, sizeof(key), "gctop_gc_pause_seconds_bucket{" JVM_LABELS ",le=\"%s\"} ", le);
	const char *p = strstr(text, key);
	return p ? strtoull(p + strlen(key), NULL, 10) : UINT64_MAX;
}

static void test_pause_histogram(void)
{
	struct fixture f;
	fixture_init(&f);
	char *om = render(&f, GT_METRICS_OPENMETRICS);
	static const char *const les[] = { "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
					   "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf" };
	uint64_t prev = 0;
	for (size_t i = 0; i < sizeof(les) / sizeof(les[0]); i++) {
		uint64_t v = bucket_value(om, les[i]);
		CHECK(v != UINT64_MAX);
		CHECK(v >= prev);
		prev = v;
	}
	CHECK_U64(bucket_value(om, "0.0001"), 2);   /* 50 us, and 100 us on the bound */
	CHECK_U64(bucket_value(om, "0.0005"), 3);
	CHECK_U64(bucket_value(om, "0.0025"), 4);
	CHECK_U64(bucket_value(om, "10"), 4);
	CHECK_U64(bucket_value(om, "+Inf"), 5);
	CHECK_LINE(om, "gctop_gc_pause_seconds_count{" JVM_LABELS "} 5");
	CHECK_LINE(om, "gctop_gc_pause_seconds_sum{" JVM_LABELS "} 20.00245");
	CHECK_LINE(om, "gctop_gc_pause_seconds_created{" JVM_LABELS "} 1796023500");
	/* .NET timed no pause yet: empty buckets, still a histogram */
	CHECK_LINE(om, "gctop_gc_pause_seconds_bucket{" NET_LABELS ",le=\"+Inf\"} 0");
	free(om);
}

/* Pauses are counted once each, and those the ring lost are counted as missed. */
/* The written-once labels say what the bounds are, as %g would. */
static void test_pause_labels_match_bounds(void)
{
	char want[64];
	for (unsigned b = 0; b < GT_PAUSE_HIST_BOUNDS; b++) {
		snprintf(want, sizeof(want), "le=\"%g\"", gt_pause_hist_bounds_s[b]);
		CHECK_STR(gt_metrics_pause_le[b], want);
	}
	CHECK_STR(gt_metrics_pause_le[GT_PAUSE_HIST_BOUNDS], "le=\"+Inf\"");
}

static void test_pause_hist_accumulates(void)
{
	struct gt_sample s;
	struct gt_pause_hist h;
	memset(&s, 0, sizeof(s));
	memset(&h, 0, sizeof(h));
	s.pause_log.valid = true;
	for (int k = 0; k < 3; k++)
		s.pause_log.ns[k] = 1000000;
	s.pause_log.count = 3;
	gt_pause_hist_add(&h, &s);
	gt_pause_hist_add(&h, &s);
	CHECK_U64(h.count, 3);
	CHECK_U64(h.buckets[3], 3);  /* 1 ms, on the 0.001 bound */
	s.pause_log.count = 3 + GT_PAUSE_RING + 10;
	gt_pause_hist_add(&h, &s);
	CHECK_U64(h.missed, 10);
	CHECK_U64(h.count, 3 + GT_PAUSE_RING);
	CHECK_U64(h.next, 3 + GT_PAUSE_RING + 10);
	struct gt_sample none;
	memset(&none, 0, sizeof(none));
	struct gt_pause_hist h2;
	memset(&h2, 0, sizeof(h2));
	gt_pause_hist_add(&h2, &none);
	CHECK(!h2.valid);
}

/* The fixture knows every figure of some process: every family is written
 * (so the promtool check sees them all). */
static void test_every_family_written(void)
{
	struct fixture f;
	fixture_init(&f);
	char *om = render(&f, GT_METRICS_OPENMETRICS);
	for (size_t k = 0; k < gt_metrics_family_count; k++) {
		char line[256];
		snprintf(line, sizeof(line), "# TYPE %s ", gt_metrics_families[k].name);
		if (!strstr(om, line))
			check_fail(__FILE__, __LINE__, "family %s not written", gt_metrics_families[k].name);
	}
	free(om);
}

/* man/gctop.1 (METRICS) names every family as its samples are named. */
/* OpenMetrics: a family with a unit ends in _UNIT; counters do not end in
 * _total (the sample adds it). */
static void test_family_names(void)
{
	for (size_t k = 0; k < gt_metrics_family_count; k++) {
		const struct gt_metrics_family *m = &gt_metrics_families[k];
		size_t n = strlen(m->name), u = strlen(m->unit);
		if (u && (n <= u + 1 || m->name[n - u - 1] != '_' || strcmp(m->name + n - u, m->unit) != 0))
			check_fail(__FILE__, __LINE__, "%s has unit %s but not as its suffix", m->name, m->unit);
		if (n > 6 && strcmp(m->name + n - 6, "_total") == 0)
			check_fail(__FILE__, __LINE__, "family %s ends in _total", m->name);
	}
}

/* The live set's gauges where it is known, none where it is n/a (the JVM). */
static void test_live_set_families(void)
{
	struct fixture f;
	fixture_init(&f);
	char *om = render(&f, GT_METRICS_OPENMETRICS);
	CHECK_LINE(om, "gctop_live_set_bytes{" NET_LABELS "} 300000000");
	CHECK_LINE(om, "gctop_live_set_growth_bytes_per_second{" NET_LABELS "} 2500");
	CHECK_LINE(om, "gctop_live_set_exhaustion_seconds{" NET_LABELS ",limit=\"container\"} 3600");
	CHECK_NO(om, "gctop_live_set_bytes{" JVM_LABELS);
	CHECK_NO(om, "gctop_live_set_exhaustion_seconds{" JVM_LABELS);
	free(om);
}

static void test_man_page_lists_every_family(void)
{
	FILE *f = fopen("man/gctop.1", "r");
	CHECK(f != NULL);
	if (!f)
		return;
	size_t size = 1 << 20;
	char *man = malloc(size);
	CHECK(man != NULL);
	if (!man) {
		fclose(f);
		return;
	}
	size_t n = fread(man, 1, size - 1, f);
	man[n] = '\0';
	fclose(f);
	for (size_t k = 0; k < gt_metrics_family_count; k++) {
		const struct gt_metrics_family *m = &gt_metrics_families[k];
		char name[128];
		snprintf(name, sizeof(name), "%s%s", m->name,
			 m->type == GT_METRICS_COUNTER ? "_total" : m->type == GT_METRICS_INFO ? "_info" : "");
		if (!strstr(man, name))
			check_fail(__FILE__, __LINE__, "man/gctop.1 does not list %s", name);
	}
	free(man);
}

static void test_classic_text(void)
{
	struct fixture f;
	fixture_init(&f);
	char *t = render(&f, GT_METRICS_TEXT);
	CHECK_LINE(t, "# TYPE dotnet_gc_collections_total counter");
	CHECK_LINE(t, "# HELP dotnet_gc_collections_total Garbage collections by the oldest generation collected, since gctop began watching.");
	CHECK_LINE(t, "# TYPE gctop_target_info gauge");
	CHECK_LINE(t, "dotnet_gc_collections_total{" NET_LABELS ",dotnet_gc_heap_generation=\"gen0\"} 7");
	CHECK_NO(t, "_created");
	CHECK_NO(t, "# UNIT");
	CHECK_NO(t, "# EOF");
	free(t);
}

/* issue 25: a main class of 101 double quotes and then euro signs, 255
 * bytes in all, as a JVM's perf data or a .NET entry assembly can name it.
 * Escaped it takes 356 bytes; the old writer cut it at 316, inside a euro
 * sign, and promtool then refused the whole exposition, every target's. */
#define QUOTES 101
#define EUROS 51
static void hostile_main(char *main_class, const char *tail)
{
	char *p = main_class;
	memset(p, '"', QUOTES);
	p += QUOTES;
	for (int k = 0; k < EUROS; k++, p += 3)
		memcpy(p, "\xe2\x82\xac", 3);
	strcpy(p, tail);
}

static void test_long_escaped_main_kept_whole(void)
{
	struct fixture f;
	fixture_init(&f);
	hostile_main(f.info[0].main_class, "J");
	hostile_main(f.info[1].main_class, "N");
	CHECK_U64(strlen(f.info[0].main_class), 255);
	char want[1024], *w = want;
	for (int k = 0; k < QUOTES; k++, w += 2)
		memcpy(w, "\\\"", 2);
	for (int k = 0; k < EUROS; k++, w += 3)
		memcpy(w, "\xe2\x82\xac", 3);
	*w = '\0';
	char line[1200];
	for (int fmt = 0; fmt < 2; fmt++) {
		char *text = render(&f, fmt ? GT_METRICS_TEXT : GT_METRICS_OPENMETRICS);
		snprintf(line, sizeof(line), "gctop_target_info{pid=\"100\",runtime=\"hotspot\",main=\"%sJ\",gc=\"G1\","
			 "runtime_version=\"\",allocation_source=\"estimate\"} 1", want);
		CHECK_LINE(text, line);
		snprintf(line, sizeof(line), "gctop_target_info{pid=\"200\",runtime=\"dotnet\",main=\"%sN\",gc=\"\","
			 "runtime_version=\"\",allocation_source=\"exact\"} 1", want);
		CHECK_LINE(text, line);
		free(text);
	}
}

/* A target in a Kubernetes container carries its container's and pod's ids
 * on every series, after the longest escaped main class, whole; one outside
 * any container carries neither label (not an empty one). */
static void test_container_labels(void)
{
	struct fixture f;
	fixture_init(&f);
	hostile_main(f.info[0].main_class, "J");
	static const char cid[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	static const char uid[] = "471203d1-984f-477e-9c35-db96487ffe5e";
	strcpy(f.info[0].container_id, cid);
	strcpy(f.info[0].k8s_pod_uid, uid);
	char ids[160];
	snprintf(ids, sizeof(ids), "J\",container_id=\"%s\",k8s_pod_uid=\"%s\"", cid, uid);
	for (int fmt = 0; fmt < 2; fmt++) {
		char *text = render(&f, fmt ? GT_METRICS_TEXT : GT_METRICS_OPENMETRICS);
		int with = 0, of_pid = 0;
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			if (line[0] == '#')
				continue;
			of_pid += strstr(line, "{pid=\"100\"") != NULL;
			with += strstr(line, "{pid=\"100\"") != NULL && strstr(line, ids) != NULL;
			CHECK(strstr(line, "{pid=\"100\"") || !strstr(line, "container_id"));
			CHECK(strstr(line, "{pid=\"100\"") || !strstr(line, "k8s_pod_uid"));
		}
		CHECK(of_pid > 10);
		CHECK_U64(with, of_pid);
		free(text);
	}
}

/* A label that does not fit is cut after escaping, on a character's
 * boundary, and keeps its closing quote: never half a euro sign, never a
 * backslash without what it escapes. */
static void test_label_cut_on_boundaries(void)
{
	char buf[16];
	gt_metrics_label(buf, 11, "k", "a\"\xe2\x82\xac\xe2\x82\xac");
	CHECK_STR(buf, "k=\"a\\\"\xe2\x82\xac\"");
	gt_metrics_label(buf, 10, "k", "a\"\xe2\x82\xac\xe2\x82\xac");
	CHECK_STR(buf, "k=\"a\\\"\"");
	gt_metrics_label(buf, 7, "k", "a\"b");
	CHECK_STR(buf, "k=\"a\"");
	gt_metrics_label(buf, 7, "k", "a\\b");
	CHECK_STR(buf, "k=\"a\"");
	/* a second label with no room even for k="" is left out whole */
	gt_metrics_label(buf, 9, "k", "ab");
	gt_metrics_label_add(buf, 9, "j", "c");
	CHECK_STR(buf, "k=\"ab\"");
}

static void test_negotiate(void)
{
	/* what Prometheus 2.42 sends */
	const char *prom = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
			   "text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
	CHECK(gt_metrics_negotiate(prom) == GT_METRICS_OPENMETRICS);
	CHECK(gt_metrics_negotiate("text/plain;version=0.0.4") == GT_METRICS_TEXT);
	CHECK(gt_metrics_negotiate(NULL) == GT_METRICS_TEXT);
	CHECK(strstr(gt_metrics_content_type(GT_METRICS_OPENMETRICS), "application/openmetrics-text; version=1.0.0") != NULL);
	CHECK(strstr(gt_metrics_content_type(GT_METRICS_TEXT), "text/plain; version=0.0.4") != NULL);
}
/* --gc-duration-buckets: the bounds chosen from the grid, each bucket exact
 * (two pauses of 5 ms, one of 50 ms, one of 2 s); a bound off the grid, out
 * of order, repeated or malformed is refused with the grid in the reason. */
static void test_duration_buckets_chosen(void)
{
	struct gt_duration_bounds b;
	const char *why = NULL;
	CHECK(gt_duration_bounds_parse("0.001,0.005,0.025,0.05", &b, &why) == 0 && b.n == 4);
	struct fixture f;
	fixture_init(&f);
	struct gt_metrics_config cfg = { .durations = &b };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(gt_metrics_write(m, GT_METRICS_OPENMETRICS, &cfg, f.t, 3) == 0);
	fclose(m);
#define YOUNG JVM_LABELS ",jvm_gc_name=\"G1 Young Generation\",jvm_gc_action=\"end of minor GC\""
	CHECK_LINE(buf, "jvm_gc_duration_seconds_bucket{" YOUNG ",le=\"0.001\"} 0");
	CHECK_LINE(buf, "jvm_gc_duration_seconds_bucket{" YOUNG ",le=\"0.005\"} 2");
	CHECK_LINE(buf, "jvm_gc_duration_seconds_bucket{" YOUNG ",le=\"0.025\"} 2");
	CHECK_LINE(buf, "jvm_gc_duration_seconds_bucket{" YOUNG ",le=\"0.05\"} 3");
	CHECK_LINE(buf, "jvm_gc_duration_seconds_bucket{" YOUNG ",le=\"+Inf\"} 4");
	CHECK_NO(buf, YOUNG ",le=\"0.01\"}");
#undef YOUNG
	free(buf);
	static const char *const bad[] = { "", "0.003", "0.01,0.001", "0.01,0.01", "0.01,", ",0.01", "0.01;0.1",
					   "1e-2x", "nan", "-0.01", "0.01,0.1,1,10,20" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		if (gt_duration_bounds_parse(bad[i], &b, &why) != -1 || !why || !strstr(why, "0.00025"))
			check_fail(__FILE__, __LINE__, "--gc-duration-buckets '%s' was not refused with the grid", bad[i]);
	}
	/* every bound of the grid at once, and OpenTelemetry's written as numbers */
	CHECK(gt_duration_bounds_parse("0.0001,0.00025,0.0005,0.001,0.0025,0.005,0.01,0.025,0.05,0.1,0.25,0.5,1,2.5,5,10",
				       &b, &why) == 0 && b.n == GT_PAUSE_HIST_BOUNDS);
	CHECK(gt_duration_bounds_parse("1e-2,0.1,1,10", &b, &why) == 0 && b.n == gt_duration_bounds_otel.n &&
	      memcmp(b.at, gt_duration_bounds_otel.at, sizeof(b.at[0]) * b.n) == 0);
}

/* --metrics-include/--metrics-exclude: a family left out has no line at
 * all, its metadata included; the others are written as without a filter. */
static void test_families_filtered(void)
{
	struct gt_metrics_filter filter = { 0 };
	char why[200];
	CHECK(gt_metrics_filter_parse(&filter, "jvm_*,gctop_allocated_bytes_total,gctop_target_info", true, why,
				      sizeof(why)) == 0);
	CHECK(gt_metrics_filter_parse(&filter, "jvm_memory_limit_bytes", false, why, sizeof(why)) == 0);
	struct fixture f;
	fixture_init(&f);
	struct gt_metrics_config cfg = { .filter = &filter };
	for (int k = 0; k < 2; k++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		CHECK(gt_metrics_write(m, k ? GT_METRICS_TEXT : GT_METRICS_OPENMETRICS, &cfg, f.t, 3) == 0);
		fclose(m);
		CHECK(strstr(buf, "\njvm_memory_used_bytes{" JVM_LABELS) != NULL);
		CHECK(strstr(buf, "# TYPE jvm_gc_duration_seconds histogram") != NULL);
		CHECK(strstr(buf, "\ngctop_allocated_bytes_total{" JVM_LABELS) != NULL);
		CHECK(strstr(buf, "\ngctop_target_info{" JVM_LABELS) != NULL);
		CHECK_NO(buf, "jvm_memory_limit_bytes");
		CHECK_NO(buf, "dotnet_");
		CHECK_NO(buf, "gctop_gc_pause");
		CHECK_NO(buf, "process_");
		CHECK_NO(buf, "gctop_heap_used_bytes");
		if (k == 0)
			CHECK(len > 6 && strcmp(buf + len - 6, "# EOF\n") == 0);
		free(buf);
	}
}

static void write_examples(void)
{
	const char *dir = getenv("GCTOP_METRICS_EXAMPLE_DIR");
	if (!dir)
		return;
	struct fixture f;
	fixture_init(&f);
	static const char *const names[] = { "openmetrics.txt", "text.txt" };
	for (int k = 0; k < 2; k++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
		FILE *out = fopen(path, "w");
		CHECK(out != NULL);
		if (!out)
			continue;
		CHECK(gt_metrics_write(out, k == 0 ? GT_METRICS_OPENMETRICS : GT_METRICS_TEXT, NULL, f.t, 3) == 0);
		fclose(out);
	}
}

int main(void)
{
	RUN_TEST(test_openmetrics_names_and_metadata);
	RUN_TEST(test_not_available_is_omitted);
	RUN_TEST(test_pause_histogram);
	RUN_TEST(test_pause_labels_match_bounds);
	RUN_TEST(test_pause_hist_accumulates);
	RUN_TEST(test_duration_buckets_chosen);
	RUN_TEST(test_families_filtered);
	RUN_TEST(test_every_family_written);
	RUN_TEST(test_live_set_families);
	RUN_TEST(test_family_names);
	RUN_TEST(test_man_page_lists_every_family);
	RUN_TEST(test_classic_text);
	RUN_TEST(test_negotiate);
	RUN_TEST(test_container_labels);
	RUN_TEST(test_long_escaped_main_kept_whole);
	RUN_TEST(test_label_cut_on_boundaries);
	RUN_TEST(write_examples);
	return check_summary();
}
