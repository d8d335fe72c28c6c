/* The screen, -b and --json render the same derived sample: one figure,
 * one value and one name in all three, and n/a (JSON null) in all three
 * where the runtime gave nothing. Two samples go through the real derive
 * step, then through the panes, the text writer and the JSON writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <ncurses.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "model/derive.h"
#include "model/history.h"
#include "model/live_set.h"
#include "tui/theme.h"
#include "views/json_writer.h"
#include "tui/panes/pane.h"
#include "views/text_writer.h"
#include "tests/unit/check.h"

#define MIB (1024ull * 1024ull)
#define SEC 1000000000ull

static struct gt_theme theme;
static struct gt_history hist;
static struct gt_target_info info;

static const char *gens[] = { "gen0", "gen1", "gen2" };

/* A .NET sample at t seconds: 100 MiB/s, 10 gen0 collections a second, one
 * 20 ms pause a second, 60 MiB live on the LOH. */
static struct gt_sample dotnet_sample(unsigned t)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = 777;
	s.mono_ns = (uint64_t)t * SEC;
	s.wall_ms = 1796023541000LL + (int64_t)t * 1000;
	gt_u64_set(&s.alloc_bytes_total, (uint64_t)t * 100 * MIB);
	s.alloc_source = GT_ALLOC_SOURCE_EXACT;
	s.collections_since = GT_ALLOC_SINCE_ATTACH;
	s.n_generations = 3;
	for (unsigned g = 0; g < 3; g++) {
		snprintf(s.generations[g].name, sizeof(s.generations[g].name), "%s", gens[g]);
		gt_u64_set(&s.generations[g].collections, (uint64_t)t * (g == 0 ? 10 : 1));
	}
	gt_u64_set(&s.pause_total_ns, (uint64_t)t * 20000000ull);
	gt_u64_set(&s.last_pause_ns, 20000000ull);
	s.pause_log.valid = true;
	s.pause_log.count = t;
	for (unsigned k = 0; k < t; k++)
		s.pause_log.ns[k % GT_PAUSE_RING] = 20000000ull;
	gt_u64_set(&s.large_bytes, 60 * MIB);
	gt_u64_set(&s.large_alloc_bytes_total, (uint64_t)t * 30 * MIB);
	s.large_source = "loh";
	gt_u64_set(&s.heap_used_bytes, 200 * MIB);
	gt_u64_set(&s.rss_bytes, 400 * MIB);
	return s;
}

static char *text_of(const struct gt_derived *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	gt_text_write_sample(f, &info, d);
	fclose(f);
	return buf;
}

static const char *pane_text(const struct gt_pane_ops *p, const struct gt_derived *d, int rows, int cols)
{
	static char buf[8192];
	WINDOW *w = newwin(rows, cols, 0, 0);
	struct gt_view_ctx c = { .d = d, .h = &hist, .info = &info, .theme = &theme, .interval_s = 1.0,
				 .window_ns = 60 * SEC, .number = 1 };
	p->draw(w, &c);
	size_t at = 0;
	for (int y = 0; y < rows && at + 256 < sizeof(buf); y++) {
		char line[256];
		int n = mvwinnstr(w, y, 0, line, (int)sizeof(line) - 1);
		line[n > 0 ? n : 0] = '\0';
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s\n", line);
	}
	delwin(w);
	return buf;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char copy[128];
	snprintf(copy, sizeof(copy), "%s", path);
	for (char *k = strtok(copy, "."); k && o; k = strtok(NULL, "."))
		if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	return o;
}

#define HAS(text, s) CHECK(strstr((text), (s)) != NULL)

static void test_same_figures_same_names(void)
{
	struct gt_sample a = dotnet_sample(10), b = dotnet_sample(11);
	struct gt_derived d;
	gt_derive(&a, &b, &d);
	gt_history_clear(&hist);
	gt_history_push(&hist, &d);
	char *text = text_of(&d);
	struct json_object *j = gt_json_sample(&info, &d);

	/* allocation: 100 MiB/s, exact */
	HAS(text, "Alloc:   100 MiB/s (exact)");
	HAS(pane_text(&gt_pane_alloc, &d, 6, 60), "rate 100 MiB/s");
	CHECK_NEAR(json_object_get_double(get(j, "alloc.rate_bps")), 100.0 * MIB, 1);
	/* collections: gen0 110 in total (since attach), 10 in the interval, 600 per minute */
	HAS(text, "gen0 110 (+10)");
	HAS(text, "since attach");
	const char *coll = pane_text(&gt_pane_collections, &d, 7, 50);
	HAS(coll, "gen0              110        10     600.0");
	HAS(coll, "watched");
	struct json_object *g0 = json_object_array_get_idx(get(j, "generations"), 0);
	CHECK_U64(json_object_get_int64(get(g0, "collections")), 110);
	CHECK_U64(json_object_get_int64(get(g0, "collections_delta")), 10);
	CHECK_NEAR(json_object_get_double(get(g0, "collections_per_min")), 600.0, 1e-6);
	CHECK(strcmp(json_object_get_string(get(g0, "collections_since")), "attach") == 0);
	/* pauses: 2.00% of the interval, last 20 ms, one pause: p50 = p99 = max */
	HAS(text, "Pause:   2.00% of interval, last 20.0 ms, longest in interval 20.0 ms");
	HAS(text, "Pauses:  1 in interval, p50 20.0 ms, p99 20.0 ms, max 20.0 ms");
	const char *pz = pane_text(&gt_pane_pauses, &d, 6, 60);
	HAS(pz, "share 2.00%");
	HAS(pz, "last 20.0 ms");
	HAS(pz, "p50 20.0 ms  p99 20.0 ms  max 20.0 ms  of 1 pause");
	CHECK_NEAR(json_object_get_double(get(j, "pause.share")), 0.02, 1e-9);
	CHECK_NEAR(json_object_get_double(get(j, "pause.last_ms")), 20.0, 1e-9);
	CHECK_NEAR(json_object_get_double(get(j, "pause.max_ms")), 20.0, 1e-9);
	CHECK_NEAR(json_object_get_double(get(j, "pause.p99_ms")), 20.0, 1e-9);
	/* large objects: 60 MiB live, 30 MiB/s, 30% of the allocation */
	HAS(text, "Large:   60.0 MiB now, 30.0 MiB/s allocated (30.0% of alloc)  [loh]");
	const char *lg = pane_text(&gt_pane_large, &d, 3, 60);
	HAS(lg, "live 60.0 MiB (loh)");
	HAS(lg, "allocated 30.0 MiB/s (30.0% of all)");
	CHECK_NEAR(json_object_get_double(get(j, "large_objects.alloc_share")), 0.30, 1e-9);
	CHECK_U64(json_object_get_int64(get(j, "large_objects.bytes")), 60 * MIB);
	json_object_put(j);
	free(text);
}

/* G1 from perf data, 100 MiB/s estimated of which 40 MiB/s humongous
 * regions, their tails at most 20 MiB/s: the same upper bound, excess, tails
 * and share range on the screen, in -b and in JSON. */
static void test_whole_regions_same_everywhere(void)
{
	struct gt_sample a = dotnet_sample(10), b = dotnet_sample(11);
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	a.large_source = b.large_source = "g1-humongous-estimate";
	gt_u64_set(&a.large_alloc_bytes_total, 400 * MIB);
	gt_u64_set(&b.large_alloc_bytes_total, 440 * MIB);
	gt_u64_set(&a.large_waste_max_bytes_total, 200 * MIB);
	gt_u64_set(&b.large_waste_max_bytes_total, 220 * MIB);
	struct gt_derived d;
	gt_derive(&a, &b, &d);
	char *text = text_of(&d);
	struct json_object *j = gt_json_sample(&info, &d);
	HAS(text, "Alloc:   at most 100 MiB/s (estimate)");
	HAS(text, "over by at most 20.0 MiB/s");
	HAS(pane_text(&gt_pane_alloc, &d, 6, 60), "rate <=100 MiB/s");
	CHECK(json_object_get_boolean(get(j, "alloc.upper_bound")));
	CHECK_NEAR(json_object_get_double(get(j, "alloc.excess_max_bps")), 20.0 * MIB, 1);
	/* the objects' share: at least (40 - 20) / (100 - 20), at most 40 / 100 */
	HAS(text, "40.0 MiB/s allocated in whole regions (25.0% to 40.0% of alloc), unused region tails at most 20.0 MiB/s");
	const char *lg = pane_text(&gt_pane_large, &d, 4, 60);
	HAS(lg, "allocated 40.0 MiB/s (<=40.0% of all)");
	HAS(lg, "region tails <=20.0 MiB/s (objects >=25.0%)");
	CHECK_NEAR(json_object_get_double(get(j, "large_objects.alloc_share")), 0.40, 1e-9);
	CHECK_NEAR(json_object_get_double(get(j, "large_objects.alloc_share_min")), 0.25, 1e-9);
	CHECK_NEAR(json_object_get_double(get(j, "large_objects.waste_max_rate_bps")), 20.0 * MIB, 1);
	CHECK_U64(json_object_get_int64(get(j, "large_objects.waste_max_bytes_total")), 220 * MIB);
	json_object_put(j);
	free(text);
}

/* The live set as a tracker folds it (ten gen2 points 30 s apart, 200 MiB
 * growing 512 KiB/s, a 1 GiB GC hard limit; old 300 of 400 MiB): the same
 * figures and their n/a on the screen, in -b and in JSON. */
static void test_live_set_same_everywhere(void)
{
	static struct gt_live_tracker t;
	gt_live_tracker_clear(&t);
	struct gt_sample a = dotnet_sample(10), b = dotnet_sample(311);
	for (uint64_t k = 0; k < 10; k++)
		b.live_log.points[k] = (struct gt_live_point){ 200 * MIB + k * 15 * MIB, (20 + 30 * k) * SEC, "gen2" };
	b.live_log.valid = true;
	b.live_log.count = 10;
	gt_u64_set(&b.gc_hard_limit_bytes, 1024 * MIB);
	gt_u64_set(&b.old_used_bytes, 300 * MIB);
	gt_u64_set(&b.old_committed_bytes, 400 * MIB);
	struct gt_derived d;
	gt_derive(&a, &b, &d);
	gt_live_tracker_fold(&t, &b);
	gt_live_set_figures(&t, &b, &d.live_set);
	char *text = text_of(&d);
	struct json_object *j = gt_json_sample(&info, &d);
	/* at 311 s the line is at 200 + 0.5 x 291 = 345.5 MiB: (1024 - 345.5) x 2 s = 1357 s */
	HAS(text, "Live:    335 MiB after gen2, 10 points over 4.5 min   growth +30.0 MiB/min (90%: 30.0..30.0)   "
		  "exhaustion in 22.6 min to heap max (1.00 GiB)");
	HAS(text, "Old:     used 300 MiB / committed 400 MiB / max n/a, 75.0% of committed used (jstat's O)");
	const char *mem = pane_text(&gt_pane_memory, &d, 16, 80);
	HAS(mem, "live set 335 MiB");
	HAS(mem, "growth +30.0 MiB/min (90%: 30.0..30.0)");
	HAS(mem, "full in 22.6 min to heap max");
	HAS(mem, "old used 300 MiB  committed 400 MiB");
	HAS(mem, "max n/a  used 75.0% of committed");
	CHECK_U64(json_object_get_int64(get(j, "live_set.bytes")), 335 * MIB);
	CHECK_NEAR(json_object_get_double(get(j, "live_set.growth_bps")), 0.5 * MIB, 1e-6);
	CHECK_NEAR(json_object_get_double(get(j, "live_set.exhaustion_s")), 1357, 1e-6);
	CHECK(get(j, "live_set.old.max_bytes") == NULL);
	json_object_put(j);
	free(text);
}

/* Nothing given: n/a on the screen and in -b, null in JSON, never 0. */
static void test_na_everywhere(void)
{
	struct gt_sample a = dotnet_sample(10), b = dotnet_sample(11);
	b.alloc_bytes_total.valid = false;
	b.last_pause_ns.valid = false;
	b.pause_log.valid = false;
	b.large_bytes.valid = false;
	b.large_alloc_bytes_total.valid = false;
	b.large_source = NULL;
	b.large_unavailable = "the runtime has not reported its heap yet";
	for (unsigned g = 0; g < 3; g++)
		b.generations[g].collections.valid = false;
	struct gt_derived d;
	gt_derive(&a, &b, &d);
	char *text = text_of(&d);
	struct json_object *j = gt_json_sample(&info, &d);

	HAS(text, "Alloc:   n/a");
	HAS(pane_text(&gt_pane_alloc, &d, 6, 60), "rate n/a");
	CHECK(get(j, "alloc.rate_bps") == NULL);
	HAS(text, "gen0 n/a");
	HAS(pane_text(&gt_pane_collections, &d, 7, 50), "gen0              n/a       n/a       n/a");
	struct json_object *g0 = json_object_array_get_idx(get(j, "generations"), 0);
	CHECK(get(g0, "collections") == NULL && get(g0, "collections_per_min") == NULL);
	HAS(text, "last n/a");
	HAS(pane_text(&gt_pane_pauses, &d, 6, 60), "last n/a");
	CHECK(get(j, "pause.last_ms") == NULL && get(j, "pause.p99_ms") == NULL);
	HAS(text, "Large:   n/a (the runtime has not reported its heap yet)");
	HAS(pane_text(&gt_pane_large, &d, 3, 70), "n/a: the runtime has not reported its heap yet");
	CHECK(get(j, "large_objects") == NULL);
	json_object_put(j);
	free(text);
}

int main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in || !newterm("xterm", out, in)) {
		printf("FAIL: test_outputs_agree: cannot open a terminal on /dev/null (terminfo for xterm missing?)\n");
		return 1;
	}
	gt_theme_mono(&theme, false);
	info.pid = 777;
	info.runtime = &gt_dotnet_runtime;
	snprintf(info.runtime_version, sizeof(info.runtime_version), "10.0.12");
	snprintf(info.gc_name, sizeof(info.gc_name), "Server");
	RUN_TEST(test_same_figures_same_names);
	RUN_TEST(test_na_everywhere);
	RUN_TEST(test_whole_regions_same_everywhere);
	RUN_TEST(test_live_set_same_everywhere);
	endwin();
	return check_summary();
}
