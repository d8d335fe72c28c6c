/* --metrics-include and --metrics-exclude's lists (views/metrics_filter.c):
 * names as /metrics writes them (a counter also with _total, an info with
 * _info), prefixes ending in *, include then exclude; and each malformed
 * list refused with the clause that says why. */
#include <string.h>

#include "views/metrics_emit.h"
#include "views/metrics_filter.h"
#include "tests/unit/check.h"

static bool keeps(const struct gt_metrics_filter *f, const char *family)
{
	for (size_t k = 0; k < gt_metrics_family_count; k++)
		if (!strcmp(gt_metrics_families[k].name, family))
			return gt_metrics_filter_keeps(f, family, gt_metrics_family_suffix(&gt_metrics_families[k]));
	check_fail(__FILE__, __LINE__, "no family %s", family);
	return false;
}

static int parse(struct gt_metrics_filter *f, const char *list, bool include, char *why)
{
	return gt_metrics_filter_parse(f, list, include, why, 200);
}

static void test_names_and_prefixes(void)
{
	struct gt_metrics_filter f = { 0 };
	char why[200];
	CHECK(keeps(NULL, "jvm_memory_used_bytes"));
	CHECK(parse(&f, "jvm_*,dotnet_gc_collections_total,gctop_target_info,gctop_live_set_bytes", true, why) == 0);
	CHECK_U64(f.n_include, 4);
	CHECK(keeps(&f, "jvm_memory_used_bytes"));
	CHECK(keeps(&f, "jvm_gc_duration_seconds"));
	CHECK(keeps(&f, "dotnet_gc_collections"));      /* the counter by its sample name */
	CHECK(keeps(&f, "gctop_target"));               /* the info by its sample name */
	CHECK(keeps(&f, "gctop_live_set_bytes"));
	CHECK(!keeps(&f, "gctop_live_set_growth_bytes_per_second"));  /* a name, not a prefix */
	CHECK(!keeps(&f, "dotnet_gc_pause_time_seconds"));
	CHECK(!keeps(&f, "process_threads"));
	/* exclude after include */
	CHECK(parse(&f, "jvm_memory_*", false, why) == 0);
	CHECK(!keeps(&f, "jvm_memory_used_bytes"));
	CHECK(keeps(&f, "jvm_gc_duration_seconds"));
	/* exclude alone: everything else */
	struct gt_metrics_filter e = { 0 };
	CHECK(parse(&e, "gctop_gc_*,process_cpu_time_seconds", false, why) == 0);
	CHECK(!keeps(&e, "gctop_gc_pause_seconds"));
	CHECK(!keeps(&e, "gctop_gc_collections"));
	CHECK(!keeps(&e, "process_cpu_time_seconds"));
	CHECK(keeps(&e, "process_threads"));
	CHECK(keeps(&e, "gctop_allocated_bytes"));
	/* a prefix reaching into a counter's _total, and the family's name with its _total */
	struct gt_metrics_filter t = { 0 };
	CHECK(parse(&t, "gctop_requests_t*,gctop_oom*", true, why) != 0);  /* gctop_oom* names none */
	struct gt_metrics_filter u = { 0 };
	CHECK(parse(&u, "gctop_requests_t*", true, why) == 0);
	CHECK(keeps(&u, "gctop_requests"));
	CHECK(!keeps(&u, "gctop_requests_unavailable"));
	/* two options add up */
	CHECK(parse(&u, "process_threads", true, why) == 0 && u.n_include == 2 && keeps(&u, "process_threads"));
}

static void refused(const char *list, const char *want)
{
	struct gt_metrics_filter f = { 0 };
	char why[200] = "";
	if (parse(&f, list, true, why) != -1 || !strstr(why, want))
		check_fail(__FILE__, __LINE__, "'%s' gave '%s', not a refusal with '%s'", list, why, want);
}

static void test_malformed_lists(void)
{
	refused("", "empty entry");
	refused("jvm_*,", "empty entry");
	refused(",jvm_*", "empty entry");
	refused("jvm_*,,process_threads", "empty entry");
	refused("jvm*_memory", "neither a family's name nor a prefix");
	refused("jvm_**", "neither a family's name nor a prefix");
	refused("jvm memory", "neither a family's name nor a prefix");
	refused("jvm_memory_used_bytes{pid=\"1\"}", "neither a family's name nor a prefix");
	refused("jvm.memory.used", "neither a family's name nor a prefix");
	refused("jvm_memory_used", "matches no family");       /* OpenTelemetry's name, not the exposition's */
	refused("gctop_gc_pause_seconds_bucket", "matches no family");
	refused("node_*", "matches no family");
	/* more entries than a list takes */
	char many[2048] = "";
	for (int i = 0; i <= GT_METRICS_FILTER_MAX; i++)
		strcat(many, i ? ",jvm_*" : "jvm_*");
	refused(many, "more than");
}

int main(void)
{
	RUN_TEST(test_names_and_prefixes);
	RUN_TEST(test_malformed_lists);
	return check_summary();
}
