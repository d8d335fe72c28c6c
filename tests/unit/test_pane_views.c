/* The panes drawn from a crafted derived sample into real ncurses windows
 * (a terminal on /dev/null), read back with mvwinnstr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncurses.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "tui/keys.h"
#include "tui/dashboard.h"
#include "tui/layout.h"
#include "tui/picker.h"
#include "tui/theme.h"
#include "tui/panes/pane.h"
#include "tui/panes/pane_findings.h"
#include "tui/panes/pane_help.h"
#include "tui/panes/pane_stacks.h"
#include "model/alloc_stacks.h"
#include "model/findings.h"
#include "tui/panes/pane_picker.h"
#include "tests/unit/check.h"

static struct gt_history hist;
static struct gt_derived derived;
static struct gt_target_info info;
static struct gt_theme theme;

#define MIB (1024ull * 1024ull)

static void craft(void)
{
	memset(&derived, 0, sizeof(derived));
	memset(&info, 0, sizeof(info));
	struct gt_sample *s = &derived.cur;
	s->pid = 4242;
	s->n_generations = 2;
	snprintf(s->generations[0].name, sizeof(s->generations[0].name), "young");
	snprintf(s->generations[1].name, sizeof(s->generations[1].name), "old");
	gt_u64_set(&s->generations[0].collections, 120);
	gt_u64_set(&s->generations[1].collections, 3);
	gt_u64_set(&derived.generations[0].collections, 4);
	gt_u64_set(&derived.generations[1].collections, 0);
	/* 4 in a one-second interval */
	gt_f64_set(&derived.generations[0].per_minute, 240.0);
	gt_f64_set(&derived.generations[1].per_minute, 0.0);
	s->collections_since = GT_ALLOC_SINCE_PROCESS_START;
	snprintf(s->last_gc_cause, sizeof(s->last_gc_cause), "G1 Evacuation Pause");
	gt_u64_set(&s->alloc_bytes_total, 3 * 1024 * MIB);
	s->alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_f64_set(&derived.interval_s, 1.0);
	gt_f64_set(&derived.alloc_rate_bps, 10.0 * MIB);
	gt_u64_set(&derived.pause_ns, 123000000);
	gt_f64_set(&derived.pause_share, 0.123);
	gt_u64_set(&s->last_pause_ns, 45000000);
	gt_u64_set(&s->heap_used_bytes, 50 * MIB);
	gt_u64_set(&s->heap_committed_bytes, 100 * MIB);
	gt_u64_set(&s->heap_max_bytes, 128 * MIB);
	gt_u64_set(&s->rss_bytes, 200 * MIB);
	gt_u64_set(&s->cgroup_usage_bytes, 230 * MIB);
	gt_u64_set(&s->cgroup_limit_bytes, 256 * MIB);
	s->large_unavailable = "Parallel has no humongous regions";
	info.pid = 4242;
	info.runtime = &gt_hotspot_runtime;
	snprintf(info.runtime_version, sizeof(info.runtime_version), "17.0.9");
	snprintf(info.gc_name, sizeof(info.gc_name), "G1");
	snprintf(info.main_class, sizeof(info.main_class), "com.example.Shop");

	gt_history_clear(&hist);
	for (int i = 1; i <= 30; i++) {
		struct gt_derived d = derived;
		d.cur.mono_ns = (uint64_t)i * 1000000000ull;
		gt_history_push(&hist, &d);
	}
	derived.cur.mono_ns = 30ull * 1000000000ull;
}

static struct gt_view_ctx ctx_for(const struct gt_derived *d)
{
	struct gt_view_ctx c = {
		.d = d, .h = &hist, .info = &info, .theme = &theme, .status = GT_VIEW_LIVE,
		.interval_s = 1.0, .window_ns = 60000000000ull, .number = 2,
	};
	return c;
}

/* All text of a window, rows joined by '\n'. */
static const char *window_text(WINDOW *w)
{
	static char buf[16384];
	size_t at = 0;
	for (int y = 0; y < getmaxy(w) && at + 512 < sizeof(buf); y++) {
		char line[512];
		int n = mvwinnstr(w, y, 0, line, (int)sizeof(line) - 1);
		if (n < 0)
			n = 0;
		line[n] = '\0';
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s\n", line);
	}
	return buf;
}

static const char *draw_pane(const struct gt_pane_ops *p, const struct gt_derived *d, int rows, int cols)
{
	WINDOW *w = newwin(rows, cols, 0, 0);
	struct gt_view_ctx c = ctx_for(d);
	p->draw(w, &c);
	const char *t = window_text(w);
	delwin(w);
	return t;
}

#define CHECK_HAS(text, needle) do { const char *t_ = (text); \
	if (!strstr(t_, needle)) check_fail(__FILE__, __LINE__, "missing \"%s\" in:\n%s", needle, t_); } while (0)
#define CHECK_LACKS(text, needle) do { const char *t_ = (text); \
	if (strstr(t_, needle)) check_fail(__FILE__, __LINE__, "unexpected \"%s\" in:\n%s", needle, t_); } while (0)

static void test_alloc_pane(void)
{
	const char *t = draw_pane(&gt_pane_alloc, &derived, 7, 60);
	CHECK_HAS(t, "Allocation");
	CHECK_HAS(t, "rate 10.0 MiB/s");
	CHECK_HAS(t, "total 3.00 GiB since attach");
	CHECK_HAS(t, "(estimate)");
	CHECK_HAS(t, "per operation n/a (no operations counter)");
	CHECK_HAS(t, "##");   /* the graph, in ASCII */

	/* the target exited: its last interval is cut off by the death (a
	 * lower bound of 0), so the last whole interval's rate stays, said so;
	 * the total stays as it was */
	struct gt_derived gone = derived;
	gt_f64_set(&gone.alloc_rate_bps, 0);
	gone.cur.mono_ns = 31ull * 1000000000ull;
	gt_history_push(&hist, &gone);           /* the cut-off interval, in history too */
	WINDOW *w = newwin(7, 60, 0, 0);
	struct gt_view_ctx c = ctx_for(&gone);
	c.status = GT_VIEW_EXITED;
	gt_pane_alloc.draw(w, &c);
	t = window_text(w);
	delwin(w);
	CHECK_HAS(t, "rate 10.0 MiB/s before it exited");
	CHECK_LACKS(t, "0 B/s");
	CHECK_HAS(t, "total 3.00 GiB since attach");
	craft();
}

static void test_pauses_pane(void)
{
	const char *t = draw_pane(&gt_pane_pauses, &derived, 6, 60);
	CHECK_HAS(t, "share 12.3%");
	CHECK_HAS(t, "over 30s 12.3%");
	CHECK_HAS(t, "last 45.0 ms");
	CHECK_HAS(t, "longest in 30s 45.0 ms");
	CHECK_HAS(t, "GC CPU n/a");
}

/* Ten pauses a second, k ms for k = 1..10, logged one by one. */
static void craft_pause_log(void)
{
	craft();
	gt_history_clear(&hist);
	for (int i = 1; i <= 30; i++) {
		struct gt_derived *d = &derived;
		d->cur.mono_ns = (uint64_t)i * 1000000000ull;
		d->cur.pause_log.valid = true;
		d->cur.pause_log.count = (uint64_t)i * 10;
		for (uint64_t k = 0; k < 10; k++)
			d->cur.pause_log.ns[((uint64_t)i * 10 - 10 + k) % GT_PAUSE_RING] = (k + 1) * 1000000ull;
		gt_u64_set(&d->pause_count, 10);
		gt_u64_set(&d->pause_p50_ns, 5000000);
		gt_u64_set(&d->pause_p99_ns, 10000000);
		gt_u64_set(&d->pause_max_ns, 10000000);
		gt_history_push(&hist, d);
	}
}

static void test_pauses_pane_distribution(void)
{
	craft_pause_log();
	const char *t = draw_pane(&gt_pane_pauses, &derived, 7, 80);
	CHECK_HAS(t, "p50 5.0 ms");
	CHECK_HAS(t, "p99 10.0 ms");
	CHECK_HAS(t, "max 10.0 ms  of 10 pauses");   /* units on each, and what the count counts */
	/* over the window: 300 pauses, more than the log keeps */
	CHECK_HAS(t, "30s p99 10.0 ms");
	/* too narrow for the window's figure: the interval's only */
	t = draw_pane(&gt_pane_pauses, &derived, 7, 56);
	CHECK_HAS(t, "max 10.0 ms  of 10 pauses");
	CHECK_LACKS(t, "30s p99");
	/* at 39 columns the count goes, never a unit */
	t = draw_pane(&gt_pane_pauses, &derived, 7, 39);
	CHECK_HAS(t, "p50 5.0 ms  p99 10.0 ms  max 10.0 ms");
	CHECK_LACKS(t, "pauses");
	/* a collector that times no single pause: n/a, not 0 */
	craft();
	t = draw_pane(&gt_pane_pauses, &derived, 7, 80);
	CHECK_HAS(t, "p50 n/a");
	CHECK_HAS(t, "max n/a");
	CHECK_LACKS(t, "p99 0");
}

static void test_collections_pane(void)
{
	const char *t = draw_pane(&gt_pane_collections, &derived, 6, 50);
	CHECK_HAS(t, "young             120         4");
	CHECK_HAS(t, "old                 3         0");
	CHECK_HAS(t, "last cause G1 Evacuation Pause");
	/* 4 in the last one-second interval: 240 per minute, the figure JSON
	 * gives as collections_per_min */
	CHECK_HAS(t, "young             120         4     240.0");
	CHECK_HAS(t, "total");
	/* .NET counts from attach: the column says so */
	struct gt_derived dn = derived;
	dn.cur.collections_since = GT_ALLOC_SINCE_ATTACH;
	t = draw_pane(&gt_pane_collections, &dn, 6, 50);
	CHECK_HAS(t, "watched");
	CHECK_LACKS(t, "total");
	/* the title says what a count counts: a JVM's collectors, .NET's each
	 * GC once by the oldest generation collected */
	t = draw_pane(&gt_pane_collections, &derived, 6, 50);
	CHECK_HAS(t, " Collections, per collector ");
	info.runtime = &gt_dotnet_runtime;
	t = draw_pane(&gt_pane_collections, &dn, 6, 50);
	CHECK_HAS(t, " Collections, exclusive ");
	info.runtime = &gt_hotspot_runtime;
}

static void test_memory_pane(void)
{
	const char *t = draw_pane(&gt_pane_memory, &derived, 6, 70);
	CHECK_HAS(t, "used 50.0 MiB");
	CHECK_HAS(t, "committed 100 MiB");
	CHECK_HAS(t, "working set 200 MiB");
	CHECK_HAS(t, "limit 256 MiB");
	CHECK_HAS(t, "headroom 26.0 MiB (10%)");
	CHECK_HAS(t, "###");
	CHECK_HAS(t, "|");
}

static void test_large_pane_says_why(void)
{
	const char *t = draw_pane(&gt_pane_large, &derived, 3, 60);
	CHECK_HAS(t, "n/a: Parallel has no humongous regions");
	struct gt_derived d = derived;
	gt_u64_set(&d.cur.large_bytes, 8 * MIB);
	d.cur.large_source = "g1-humongous-estimate";
	t = draw_pane(&gt_pane_large, &d, 3, 60);
	CHECK_HAS(t, "live 8.00 MiB (g1-humongous-estimate)");
}

/* G1 humongous objects in whole regions: the allocation is an upper bound,
 * the large share a most, and a row gives the tails' bound and the least
 * share. */
static void test_whole_regions_bound(void)
{
	struct gt_derived d = derived;
	gt_u64_set(&d.cur.large_bytes, 8 * MIB);
	d.cur.large_source = "g1-humongous-estimate";
	gt_f64_set(&d.large_alloc_rate_bps, 4.0 * MIB);
	gt_f64_set(&d.large_alloc_share, 0.4);
	CHECK_U64(gt_pane_large.want_rows(&(struct gt_view_ctx){ .d = &d }), 3);
	const char *t = draw_pane(&gt_pane_large, &d, 4, 60);
	CHECK_LACKS(t, "region tails");
	CHECK_HAS(t, "(40.0% of all)");
	gt_f64_set(&d.large_waste_max_rate_bps, 2.0 * MIB);
	gt_f64_set(&d.large_alloc_share_min, 0.25);
	d.alloc_upper_bound = true;
	gt_f64_set(&d.alloc_excess_max_bps, 2.0 * MIB);
	CHECK_U64(gt_pane_large.want_rows(&(struct gt_view_ctx){ .d = &d }), 4);
	t = draw_pane(&gt_pane_large, &d, 4, 60);
	CHECK_HAS(t, "(<=40.0% of all)");
	CHECK_HAS(t, "region tails <=2.00 MiB/s (objects >=25.0%)");
	t = draw_pane(&gt_pane_alloc, &d, 7, 60);
	CHECK_HAS(t, "rate <=10.0 MiB/s");
	CHECK_HAS(t, "(estimate, at most)");
	/* with missed intervals too, neither bound is claimed */
	d.alloc_lower_bound = true;
	t = draw_pane(&gt_pane_alloc, &d, 7, 60);
	CHECK_HAS(t, "rate 10.0 MiB/s");
	CHECK_HAS(t, "(estimate)");
	/* the agent's samples: the tails measured, no bound */
	d.large_waste_max_rate_bps.valid = d.large_alloc_share_min.valid = false;
	gt_f64_set(&d.large_waste_rate_bps, 1.5 * MIB);
	CHECK_U64(gt_pane_large.want_rows(&(struct gt_view_ctx){ .d = &d }), 4);
	t = draw_pane(&gt_pane_large, &d, 4, 60);
	CHECK_HAS(t, "(40.0% of all)");
	CHECK_HAS(t, "region tails 1.50 MiB/s");
	CHECK_LACKS(t, "<=");
}

static const char *draw_allocators(const struct gt_alloc_derived *a, const char *message, int rows, int cols,
				   int scroll)
{
	WINDOW *w = newwin(rows, cols, 0, 0);
	struct gt_view_ctx c = ctx_for(&derived);
	c.number = 7;
	c.alloc = a;
	c.alloc_message = message;
	c.scroll = scroll;
	gt_pane_allocators.draw(w, &c);
	const char *t = window_text(w);
	delwin(w);
	return t;
}

static void test_allocators_pane_is_honest(void)
{
	const char *t = draw_allocators(NULL, "", 4, 60, 0);
	CHECK_HAS(t, "n/a: allocation sampling is off");
	CHECK_HAS(t, "key a");
	CHECK_HAS(t, "--allocators");
	CHECK_LACKS(t, "%");
	CHECK_LACKS(t, "by type");
	/* a JVM gets the agent loaded after a question; .NET loads nothing */
	const struct gt_runtime_traits *was = info.runtime;
	info.runtime = &gt_hotspot_runtime;
	CHECK_HAS(draw_allocators(NULL, "", 4, 70, 0), "loads gctop's agent (asks first)");
	info.runtime = &gt_dotnet_runtime;
	t = draw_allocators(NULL, "", 4, 70, 0);
	CHECK_LACKS(t, "agent");
	CHECK_HAS(t, "loads nothing");
	info.runtime = was;
}

static void add_site(struct gt_alloc_table *tb, const char *name, enum gt_alloc_heap heap, uint64_t bytes)
{
	struct gt_alloc_site *s = &tb->sites[tb->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->heap = heap;
	s->bytes = bytes;
	s->count = bytes / 1000;
}

/* Two readings 10 s apart whose deltas split 60/30/10 by frame and by
 * type, listed out of order, run through the real window derive. */
static void craft_allocators(struct gt_alloc_derived *out, const char *long_frame, bool heaps)
{
	static struct gt_alloc_window win;
	static struct gt_alloc_snapshot s[2];
	memset(&win, 0, sizeof(win));
	for (int i = 0; i < 2; i++) {
		uint64_t k = (uint64_t)i;   /* the first reading holds nothing yet */
		memset(&s[i], 0, sizeof(s[i]));
		s[i].mono_ns = 5000000000ull + k * 10000000000ull;
		s[i].generation = 7;
		snprintf(s[i].source, sizeof(s[i].source), "jvmti-sampled");
		s[i].state = GT_SAMPLER_RUNNING;
		s[i].samples = k * 5000;
		s[i].est_bytes = k * 100 * MIB;
		s[i].by_frame.complete = s[i].by_type.complete = true;
		add_site(&s[i].by_frame, "AllocSites.siteC", GT_ALLOC_HEAP_UNKNOWN, k * 10 * MIB);
		add_site(&s[i].by_frame, long_frame, GT_ALLOC_HEAP_UNKNOWN, k * 60 * MIB);
		add_site(&s[i].by_frame, "AllocSites.siteB", GT_ALLOC_HEAP_UNKNOWN, k * 30 * MIB);
		add_site(&s[i].by_type, "long[]", heaps ? GT_ALLOC_HEAP_LARGE : GT_ALLOC_HEAP_UNKNOWN, k * 30 * MIB);
		add_site(&s[i].by_type, "int[]", GT_ALLOC_HEAP_UNKNOWN, k * 10 * MIB);
		add_site(&s[i].by_type, "byte[]", heaps ? GT_ALLOC_HEAP_SMALL : GT_ALLOC_HEAP_UNKNOWN, k * 60 * MIB);
		gt_alloc_window_push(&win, &s[i]);
	}
	gt_alloc_window_derive(&win, GT_ALLOC_WINDOW_NS, out);
}

/* The line holding needle, or "" (for checks within one row). */
static const char *line_with(const char *text, const char *needle, char *buf, size_t len)
{
	const char *at = strstr(text, needle);
	buf[0] = '\0';
	if (!at)
		return buf;
	while (at > text && at[-1] != '\n')
		at--;
	size_t n = strcspn(at, "\n");
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), at);
	return buf;
}

/* With an allocators table on the screen the memory pane wishes for no
 * live-set rows, so the layout's extra rows reach the allocators' types
 * first (at 80x24 they took them all). */
static void test_memory_yields_to_allocators(void)
{
	static struct gt_alloc_derived a;
	static struct gt_derived d;
	d = derived;
	d.live_set.valid = true;
	d.live_set.bytes = 100u << 20;
	craft_allocators(&a, "AllocSites.siteA", false);
	struct gt_view_ctx c = ctx_for(&d);
	int alone = gt_pane_memory.want_rows(&c);
	c.alloc = &a;
	int beside = gt_pane_memory.want_rows(&c);
	CHECK_U64((uint64_t)(alone - beside), 5);   /* live set, growth, full in, old's two */
	CHECK(beside >= gt_pane_memory.need_rows(&c));
}

static void test_allocators_pane_table(void)
{
	static struct gt_alloc_derived a;
	char line[512];
	craft_allocators(&a, "AllocSites.siteA", false);
	CHECK(a.valid);
	const char *t = draw_allocators(&a, "", 14, 60, 0);
	CHECK_HAS(t, "Top allocators");
	CHECK_HAS(t, "JVMTI sampling");
	CHECK_HAS(t, "5000 samples in 10s");
	CHECK_LACKS(t, "few samples");
	CHECK_LACKS(t, "of each second");   /* the window's readings do not say */
	CHECK_HAS(t, "by first application frame");
	CHECK_HAS(t, "by type");
	CHECK_LACKS(t, "of 9 lines");   /* everything fits: no scroll position */
	CHECK_HAS(line_with(t, "AllocSites.siteA", line, sizeof(line)), "6.00 MiB/s  60.0%");
	CHECK_HAS(line_with(t, "AllocSites.siteB", line, sizeof(line)), "3.00 MiB/s  30.0%");
	CHECK_HAS(line_with(t, "AllocSites.siteC", line, sizeof(line)), "1.00 MiB/s  10.0%");
	CHECK_HAS(line_with(t, "byte[]", line, sizeof(line)), "60.0%");
	CHECK_HAS(line_with(t, "int[]", line, sizeof(line)), "10.0%");
	/* largest first, frames before types, whatever order the agent listed them in */
	const char *pa = strstr(t, "siteA"), *pb = strstr(t, "siteB"), *pc = strstr(t, "siteC");
	const char *ptype = strstr(t, "by type"), *pbyte = strstr(t, "byte[]"), *plong = strstr(t, "long[]"),
		   *pint = strstr(t, "int[]");
	CHECK(pa && pb && pc && pa < pb && pb < pc);
	CHECK(ptype && pc < ptype && pbyte && plong && pint && ptype < pbyte && pbyte < plong && plong < pint);
	/* a JVM gives no heap kind: no heap column */
	CHECK_LACKS(t, "heap");

	struct gt_view_ctx c = ctx_for(&derived);
	c.alloc = &a;
	CHECK_U64(gt_pane_allocators.content_rows(&c), 11);
	CHECK_U64(gt_pane_allocators.want_rows(&c), 11);
	/* under the table, what allocating less can win at most: the GC's
	 * share of the time over the window, the larger of its pauses' share
	 * of wall time and its threads' share of the process's CPU */
	CHECK_HAS(t, "at most ~");
	CHECK_HAS(t, "to gain by allocating less");
	/* a sampler on for part of each second says so: its bytes are scaled up */
	gt_f64_set(&a.sampled_share, 0.12);
	CHECK_HAS(draw_allocators(&a, "", 14, 80, 0), "sampled 12% of each second");
	gt_f64_set(&a.sampled_share, 1);
	CHECK_LACKS(draw_allocators(&a, "", 14, 80, 0), "of each second");
}

/* The focused pane marks the site Enter opens; an unfocused one marks none. */
static void test_allocators_pane_marks_selection(void)
{
	static struct gt_alloc_derived a;
	char line[512];
	craft_allocators(&a, "AllocSites.siteA", false);
	WINDOW *w = newwin(14, 60, 0, 0);
	struct gt_view_ctx c = ctx_for(&derived);
	c.alloc = &a;
	c.focused = true;
	c.alloc_selected = 1;
	gt_pane_allocators.draw(w, &c);
	const char *t = window_text(w);
	CHECK(line_with(t, "AllocSites.siteB", line, sizeof(line))[0] == '>');
	CHECK(line_with(t, "AllocSites.siteA", line, sizeof(line))[0] == ' ');
	werase(w);
	c.focused = false;
	gt_pane_allocators.draw(w, &c);
	CHECK_LACKS(window_text(w), ">");
	delwin(w);
}

/* st holds the stacks of AllocSites.siteA (1000 bytes): one stack of
 * frames f[0..n), `bytes` of them in 30 samples. */
static struct gt_alloc_site_stacks *craft_site_stacks(struct gt_alloc_stacks *st, const char *const *f, unsigned n,
						      uint64_t bytes)
{
	gt_alloc_stacks_clear(st);
	struct gt_alloc_site_stacks *s = &st->sites[st->n_sites++];
	snprintf(s->site, sizeof(s->site), "AllocSites.siteA");
	s->bytes = 1000;
	s->distinct = 1;
	s->n = 1;
	for (unsigned i = 0; i < n; i++)
		s->stacks[0].frames[i] = gt_alloc_stacks_intern(st, f[i]);
	s->stacks[0].n_frames = n;
	s->stacks[0].bytes = bytes;
	s->stacks[0].count = 30;
	return s;
}

static void test_stacks_overlay(void)
{
	static struct gt_alloc_derived a;
	static struct gt_alloc_stacks st;
	const char *f[] = { "java.util.Arrays.copyOf", "com.fasterxml.jackson.core.JsonGenerator.writeString",
			    "AllocSites.siteA", "AllocSites.main" };
	craft_allocators(&a, "AllocSites.siteA", false);
	struct gt_alloc_site_stacks *s = craft_site_stacks(&st, f, 4, 750);
	s->distinct = 2;
	s->dropped = 5;
	s->n = 2;
	s->stacks[1].frames[0] = gt_alloc_stacks_intern(&st, "AllocSites.siteA");
	s->stacks[1].n_frames = 1;
	s->stacks[1].bytes = 250;
	s->stacks[1].count = 10;
	struct gt_view_ctx c = ctx_for(&derived);
	c.alloc = &a;
	c.alloc_stacks = &st;
	WINDOW *w = newwin(30, 100, 0, 0);
	gt_stacks_overlay_draw(w, 0, &c, "AllocSites.siteA");
	const char *t = window_text(w);
	CHECK_HAS(t, "gctop stacks behind a site");
	CHECK_HAS(t, "AllocSites.siteA  (60.0% of sampled bytes in the window)");
	CHECK_HAS(t, "5 samples went to stacks gctop had no room for");
	CHECK_HAS(t, " 75.0%  stack 1 of 2, 30 samples");
	CHECK_HAS(t, "\n         com.fasterxml.jackson.core.JsonGenerator.writeString ");
	CHECK_HAS(t, " 25.0%  stack 2 of 2, 10 samples");
	/* title + every line counted */
	int lines = gt_stacks_overlay_lines(&c, "AllocSites.siteA", 100);
	CHECK_U64(lines, 5 + 1 + 4 + 1 + 1 + 1 + 1);
	werase(w);
	gt_stacks_overlay_draw(w, 0, &c, "AllocSites.siteB");
	CHECK_HAS(window_text(w), "n/a: no stack of this site was kept");
	werase(w);
	c.alloc_stacks = NULL;
	gt_stacks_overlay_draw(w, 0, &c, "AllocSites.siteA");
	CHECK_HAS(window_text(w), "n/a: this sampler takes no stacks");
	werase(w);
	c.alloc = NULL;
	gt_stacks_overlay_draw(w, 0, &c, "AllocSites.siteA");
	CHECK_HAS(window_text(w), "n/a: allocation sampling is off");
	delwin(w);
}

static void test_allocators_pane_heaps_and_long_names(void)
{
	static struct gt_alloc_derived a;
	char line[512];
	craft_allocators(&a, "com.example.shop.checkout.internal.PriceFormatter.lineFormat", true);
	const char *t = draw_allocators(&a, "", 14, 60, 0);
	/* the class and method identify the site: the namespace is shortened */
	CHECK_HAS(line_with(t, "PriceFormatter.lineFormat", line, sizeof(line)), "60.0%");
	CHECK_LACKS(t, "com.example.shop");
	CHECK_HAS(line_with(t, "by type", line, sizeof(line)), "heap");
	CHECK_HAS(line_with(t, "long[]", line, sizeof(line)), "large");
	CHECK_HAS(line_with(t, "byte[]", line, sizeof(line)), "small");
	CHECK_HAS(line_with(t, "int[]", line, sizeof(line)), "n/a");
}

/* A short pane shows fewer rows, says where it is, and scrolls. */
static void test_allocators_pane_scrolls(void)
{
	static struct gt_alloc_derived a;
	craft_allocators(&a, "AllocSites.siteA", false);
	const char *t = draw_allocators(&a, "", 5, 60, 0);
	CHECK_HAS(t, "1-3 of 9 lines");
	CHECK_HAS(t, "5000 samples");   /* the sample count never scrolls away */
	CHECK_HAS(t, "siteB");
	CHECK_LACKS(t, "siteC");
	t = draw_allocators(&a, "", 5, 60, 4);
	CHECK_HAS(t, "5-7 of 9 lines");
	CHECK_HAS(t, "5000 samples");
	CHECK_HAS(t, "by type");
	CHECK_LACKS(t, "siteA");
	/* past the end: the last lines, not blank rows */
	t = draw_allocators(&a, "", 5, 60, 99);
	CHECK_HAS(t, "7-9 of 9 lines");
	CHECK_HAS(t, "int[]");
	CHECK_HAS(t, "allocating less");
	t = draw_allocators(&a, "", 2, 40, 0);
	CHECK_HAS(t, "5000 samples");
}

static void test_allocators_pane_states(void)
{
	static struct gt_alloc_derived a;
	memset(&a, 0, sizeof(a));
	snprintf(a.source, sizeof(a.source), "jvmti-sampled");
	a.state = GT_SAMPLER_STARTING;
	const char *t = draw_allocators(&a, "", 4, 70, 0);
	CHECK_HAS(t, "waiting for a second reading");
	CHECK_LACKS(t, "%");
	a.state = GT_SAMPLER_BUSY;
	t = draw_allocators(&a, "the capability is held by async-profiler", 4, 70, 0);
	CHECK_HAS(t, "busy: another agent holds");
	CHECK_HAS(t, "held by async-profiler");
	a.state = GT_SAMPLER_STOPPED;
	t = draw_allocators(&a, "", 4, 70, 0);
	CHECK_HAS(t, "stopped");
	a.state = GT_SAMPLER_FAILED;
	t = draw_allocators(&a, "SetHeapSamplingInterval failed", 4, 70, 0);
	CHECK_HAS(t, "failed");
	CHECK_HAS(t, "SetHeapSamplingInterval failed");
	/* a thin sample is flagged, and a stopped sampler's last table says so */
	craft_allocators(&a, "AllocSites.siteA", false);
	a.samples = 40;
	a.state = GT_SAMPLER_STOPPED;
	t = draw_allocators(&a, "", 12, 90, 0);
	CHECK_HAS(t, "40 samples");
	CHECK_HAS(t, "few samples");
	CHECK_HAS(t, "stopped");
	CHECK_HAS(t, "siteA");
}

static void test_header_pane(void)
{
	WINDOW *w = newwin(2, 100, 0, 0);
	struct gt_view_ctx c = ctx_for(&derived);
	c.status = GT_VIEW_EXITED;
	gt_pane_header.draw(w, &c);
	const char *t = window_text(w);
	CHECK_HAS(t, "EXITED");
	CHECK_HAS(t, "PID 4242");
	CHECK_HAS(t, "com.example.Shop");
	CHECK_HAS(t, "hotspot 17.0.9");
	CHECK_HAS(t, "GC G1");
	CHECK_HAS(t, "every 1s");
	CHECK_HAS(t, "container limit 256 MiB");
	CHECK_HAS(t, "up n/a");
	delwin(w);

	/* 50 columns and a long main class: the class is cut with "...", the
	 * collector still shows */
	struct gt_target_info keep = info;
	snprintf(info.main_class, sizeof(info.main_class), "com.example.billing.export.StatementExporterMain");
	w = newwin(2, 50, 0, 0);
	c.status = GT_VIEW_FROZEN;
	gt_pane_header.draw(w, &c);
	t = window_text(w);
	CHECK_HAS(t, "FROZEN");
	CHECK_HAS(t, "GC G1");
	CHECK_HAS(t, "com.example.");
	CHECK_HAS(t, "...  GC G1");
	delwin(w);
	info = keep;
}

/* Before two samples exist, or when the runtime does not give a figure,
 * every figure says n/a and none says 0. */
/* The findings line shows the worst finding and how many more; the overlay
 * all of them, wrapped, with evidence and next step; nothing made up
 * before the first sample. */
static void test_findings_pane_and_overlay(void)
{
	const char *t = draw_pane(&gt_pane_findings, &derived, 1, 100);
	CHECK_HAS(t, "Findings");
	CHECK_HAS(t, "warning GC pauses took 12.3% of the worst 30 s");
	CHECK_HAS(t, "f: evidence");
	t = draw_pane(&gt_pane_findings, NULL, 1, 60);
	CHECK_HAS(t, "n/a: no sample yet");
	/* a second finding: the working set near the container limit */
	gt_u64_set(&derived.cur.rss_bytes, 240 * MIB);
	t = draw_pane(&gt_pane_findings, &derived, 1, 80);
	CHECK_HAS(t, "+1 more, f: all");
	struct gt_view_ctx c = ctx_for(&derived);
	int n = gt_findings_overlay_lines(&c, 60);
	CHECK(n > gt_findings_overlay_lines(&c, 200));  /* narrower: wrapped onto more lines */
	WINDOW *w = newwin(n + 1, 60, 0, 0);
	gt_findings_overlay_draw(w, 0, &c);
	t = window_text(w);
	CHECK_HAS(t, "q, Esc or f: close");
	CHECK_HAS(t, "pause-share: GC pauses took 12.3%");
	CHECK_HAS(t, "evidence: pause share 12.3%, window 30 s");
	CHECK_HAS(t, "memory-near-limit: the working set is at 94%");
	CHECK_HAS(t, "next: raise the container's memory limit");
	/* the screen names its key, not the option -b and --json name */
	CHECK_HAS(t, "key a shows who allocates");
	CHECK(strstr(t, "--allocators") == NULL);
	delwin(w);
	craft();
	const struct gt_key_binding *kf = gt_keys_lookup('f', GT_KEYS_DASHBOARD);
	CHECK(kf && kf->action == GT_ACT_FINDINGS && kf->help);
}

static void test_invalid_is_na_not_zero(void)
{
	struct gt_derived d;
	memset(&d, 0, sizeof(d));
	d.first = true;
	gt_history_clear(&hist);
	const char *t = draw_pane(&gt_pane_alloc, &d, 5, 60);
	CHECK_HAS(t, "rate n/a");
	CHECK_HAS(t, "total n/a");
	CHECK_LACKS(t, "0 B");
	t = draw_pane(&gt_pane_pauses, &d, 5, 60);
	CHECK_HAS(t, "share n/a");
	CHECK_HAS(t, "last n/a");
	CHECK_LACKS(t, "0.00%");
	t = draw_pane(&gt_pane_memory, &d, 6, 70);
	CHECK_HAS(t, "used n/a");
	CHECK_HAS(t, "no container limit");
	t = draw_pane(&gt_pane_memory, NULL, 6, 70);
	CHECK_HAS(t, "n/a: no sample yet");
	t = draw_pane(&gt_pane_collections, NULL, 4, 50);
	CHECK_HAS(t, "n/a");
	craft();
}

/* Every pane at every small size: nothing may crash or write past its
 * window (ncurses would return ERR and the sanitizers catch overruns). */
static void test_every_pane_every_small_size(void)
{
	for (size_t p = 0; p < gt_pane_count; p++)
		for (int rows = 1; rows <= 12; rows++)
			for (int cols = 1; cols <= 70; cols += 3) {
				const char *t = draw_pane(gt_panes[p], &derived, rows, cols);
				CHECK(strlen(t) <= (size_t)rows * (size_t)(cols * 4 + 1));
			}
}

/* Lays the panes out as the dashboard does for a screen of rows x cols
 * (the footer's row taken) and checks that each is shown with at least the
 * rows it needs; returns each pane's text, drawn at its place. */
static void lay_out(const struct gt_view_ctx *c, int rows, int cols, const char **texts)
{
	static char store[GT_LAYOUT_MAX_PANES][16384];
	struct gt_layout_req req[GT_LAYOUT_MAX_PANES] = { { 0 } };
	bool visible[GT_LAYOUT_MAX_PANES] = { false };
	int n = (int)gt_pane_count;
	for (int i = 0; i < n; i++)
		visible[i] = true;
	struct gt_layout l;
	gt_dashboard_lay_out(c, visible, rows - 1, cols, req, &l);
	CHECK(l.usable);
	for (int i = 0; i < n; i++) {
		texts[i] = "";
		if (!l.shown[i]) {
			check_fail(__FILE__, __LINE__, "%dx%d: pane %s is not shown", cols, rows, gt_panes[i]->name);
			continue;
		}
		CHECK(l.rects[i].rows >= req[i].min_rows);
		/* a pane of fixed figures gets no blank rows inside it, a graph
		 * none past its cap */
		if (!req[i].stretch)
			CHECK(l.rects[i].rows <= req[i].want_rows);
		else
			CHECK(l.rects[i].rows <= req[i].max_rows);
		WINDOW *w = newwin(l.rects[i].rows, l.rects[i].cols, 0, 0);
		struct gt_view_ctx pc = *c;
		pc.number = i + 1;
		pc.cols = l.rects[i].cols;
		gt_panes[i]->draw(w, &pc);
		snprintf(store[i], sizeof(store[i]), "%s", window_text(w));
		texts[i] = store[i];
		delwin(w);
	}
}

/* The size of a default SSH terminal: every pane with its essential rows
 * (every generation; share, last and longest pause; what lives on the
 * large object heap; used, committed, working set and heap max; five
 * allocation sites), on a JVM and on .NET with sampling on. */
static void test_essentials_at_80x24(void)
{
	const char *t[GT_LAYOUT_MAX_PANES];
	struct gt_view_ctx c = ctx_for(&derived);
	lay_out(&c, 24, 80, t);
	CHECK_HAS(t[1], "rate ");
	CHECK_HAS(t[1], "total ");
	CHECK_HAS(t[2], "young");
	CHECK_HAS(t[2], "old");
	CHECK_HAS(t[2], "last cause");
	CHECK_HAS(t[3], "share ");
	CHECK_HAS(t[3], "longest in");
	CHECK_HAS(t[4], "Parallel has no humongous");
	CHECK_HAS(t[5], "used 50.0 MiB");
	CHECK_HAS(t[5], "working set 200 MiB");
	CHECK_HAS(t[5], "heap max 128 MiB");
	CHECK_HAS(t[5], "headroom");
	CHECK_HAS(t[6], "--allocators");

	struct gt_derived dn = derived;
	static const char *const gens[] = { "gen0", "gen1", "gen2", "loh", "poh" };
	dn.cur.n_generations = 5;
	for (unsigned i = 0; i < 5; i++) {
		snprintf(dn.cur.generations[i].name, sizeof(dn.cur.generations[i].name), "%s", gens[i]);
		gt_u64_set(&dn.cur.generations[i].collections, 10 + i);
	}
	gt_u64_set(&dn.cur.large_bytes, 60 * MIB);
	gt_u64_set(&dn.cur.pinned_bytes, 1 * MIB);
	dn.cur.large_source = "loh";
	gt_f64_set(&dn.large_alloc_rate_bps, 30 * MIB);
	gt_u64_set(&dn.cur.cgroup_processes, 1);
	static struct gt_alloc_derived a;
	craft_allocators(&a, "Program.BuildCsv", true);
	c = ctx_for(&dn);
	c.alloc = &a;
	lay_out(&c, 24, 80, t);
	for (unsigned i = 0; i < 5; i++)
		CHECK_HAS(t[2], gens[i]);
	CHECK_HAS(t[4], "live 60.0 MiB");
	CHECK_HAS(t[4], "allocated 30.0 MiB/s");
	CHECK_HAS(t[5], "cgroup 230 MiB");
	CHECK_HAS(t[5], "limit 256 MiB");
	CHECK_HAS(t[5], "heap max");
	CHECK_HAS(t[6], "Program.BuildCsv");
	CHECK_HAS(t[6], "AllocSites.siteB");
	CHECK_HAS(t[6], "AllocSites.siteC");
}

/* Panes ask for the rows their content fills: the top allocators one per
 * site and heading and one for the GC's ceiling (and no more: it is no
 * graph), the findings one per
 * finding. At 140x45 the list gets every row it asks for. */
static void test_panes_ask_for_their_content(void)
{
	static struct gt_alloc_derived a;
	int need, want;
	craft_allocators(&a, "AllocSites.siteA", false);
	struct gt_view_ctx c = ctx_for(&derived);
	c.alloc = &a;
	gt_pane_rows(&gt_pane_allocators, &c, &need, &want);
	CHECK_U64(want, 2 + (1 + a.n_frames) + (1 + a.n_types) + 1);   /* and the GC's ceiling */
	CHECK_U64(a.n_frames, 3);
	CHECK(!gt_pane_allocators.stretch);
	const char *t[GT_LAYOUT_MAX_PANES];
	lay_out(&c, 45, 140, t);
	CHECK_HAS(t[6], "int[]");   /* the last site of the last section */
	CHECK_HAS(t[6], "allocating less");
	CHECK_LACKS(t[6], " of 11 lines");

	gt_pane_rows(&gt_pane_findings, &c, &need, &want);
	CHECK_U64(want, 1);
	gt_u64_set(&derived.cur.rss_bytes, 240 * MIB);   /* a second finding */
	gt_pane_rows(&gt_pane_findings, &c, &need, &want);
	CHECK_U64(need, 1);
	CHECK_U64(want, 2);
	const char *f = draw_pane(&gt_pane_findings, &derived, 2, 100);
	CHECK_HAS(f, "warning GC pauses took 12.3%");
	CHECK_HAS(f, "the working set is at 94%");
	CHECK_LACKS(f, "more, f: all");
	craft();
}

/* The row of a window that holds needle, or "". */
static const char *row_with(const char *text, const char *needle)
{
	static char line[512];
	return line_with(text, needle, line, sizeof(line));
}

/* At 80 columns the pauses pane is 39 wide: the distribution line was cut
 * to "p50 0.830 ms  p99 1.1 ms  max 1.1 ms (", then said the unit once
 * ("p50 0.830  p99 1.1  max 1.1 ms (22)"). Now each figure has its unit
 * and the count, whole, says what it counts, or goes. */
static void test_pause_line_at_80(void)
{
	craft();
	gt_u64_set(&derived.pause_p50_ns, 830000);
	gt_u64_set(&derived.pause_p99_ns, 1100000);
	gt_u64_set(&derived.pause_max_ns, 1100000);
	gt_u64_set(&derived.pause_count, 22);
	const char *t = draw_pane(&gt_pane_pauses, &derived, 8, 39);
	CHECK_HAS(row_with(t, "p50 "), "p50 0.830 ms  p99 1.1 ms  max 1.1 ms");
	CHECK(!strstr(row_with(t, "p50 "), "of 2"));
	/* narrower than the three with units: the shared unit once, whole */
	const char *line = row_with(draw_pane(&gt_pane_pauses, &derived, 8, 36), "p50 ");
	CHECK_HAS(line, "p50 0.830  p99 1.1  max 1.1 ms");
	/* wide enough: every figure with its unit and the count */
	t = draw_pane(&gt_pane_pauses, &derived, 8, 60);
	CHECK_HAS(t, "p50 0.830 ms  p99 1.1 ms  max 1.1 ms  of 22 pauses");
	craft();
}

/* The worst finding under the header ends at a word ("..."), never in one. */
static void test_finding_line_cut_at_a_word(void)
{
	gt_u64_set(&derived.cur.rss_bytes, 240 * MIB);   /* a second, longer finding */
	struct gt_findings f;
	gt_findings_compute(&info, &derived, &hist, &f);
	CHECK(f.count == 2);
	for (int cols = 40; cols <= 100; cols++) {
		const char *t = draw_pane(&gt_pane_findings, &derived, 1, cols);
		const char *title = f.items[0].title;
		const char *at = strstr(t, gt_severity_name(f.items[0].severity));
		if (!at) {
			check_fail(__FILE__, __LINE__, "no finding at %d columns: %s", cols, t);
			continue;
		}
		at += strlen(gt_severity_name(f.items[0].severity)) + 1;
		size_t n = strlen(title);
		if (strncmp(at, title, n) == 0)
			continue;   /* whole */
		const char *dots = strstr(at, "...");
		size_t k = dots ? (size_t)(dots - at) : 0;
		if (strncmp(at + strspn(at, " "), "+1 more", 7) == 0)
			continue;   /* no word of it fits: the hint alone */
		/* what is shown is the title up to the end of a word */
		if (!dots || k == 0 || strncmp(at, title, k) != 0 || title[k] != ' ')
			check_fail(__FILE__, __LINE__, "%d columns: the title is cut inside a word: %s", cols, t);
	}
	craft();
}

/* "per op 797 KiB/operations  1437.2 operatio" at 100 columns (a pane of
 * 49): now it reads "per operation" and fits whole. */
static void test_per_op_line_at_100(void)
{
	craft();
	gt_f64_set(&derived.bytes_per_op, 797.0 * 1024);
	gt_f64_set(&derived.opcount_rate, 1437.2);
	derived.cur.opcount_name = "operations";
	const char *t = draw_pane(&gt_pane_alloc, &derived, 7, 49);
	CHECK_HAS(t, "per operation 797 KiB  1437.2 operations/s");
	/* at 80 columns (39) the rate's unit is shortened, never cut */
	t = draw_pane(&gt_pane_alloc, &derived, 7, 39);
	CHECK_HAS(t, "per operation 797 KiB  1437.2/s");
	derived.cur.opcount_name = "requests";
	CHECK_HAS(draw_pane(&gt_pane_alloc, &derived, 7, 49), "per request 797 KiB  1437.2 requests/s");
	craft();
}

/* Two types whose names end alike: cut from the left both read
 * "..$CharsSpliterator"; shortened by namespace they stay two. */
static void test_allocators_names_stay_distinct(void)
{
	static struct gt_alloc_derived a;
	craft_allocators(&a, "System.Text.Json.Foo+CharsSpliterator", false);
	for (unsigned i = 0; i < a.n_frames; i++)
		if (strcmp(a.by_frame[i].name, "AllocSites.siteB") == 0)
			snprintf(a.by_frame[i].name, sizeof(a.by_frame[i].name), "Other.Ns.Bar+CharsSpliterator");
	for (int cols = 36; cols <= 70; cols++) {
		const char *t = draw_allocators(&a, "", 14, cols, 0);
		char one[512], two[512];
		line_with(t, "60.0%", one, sizeof(one));
		line_with(t, "30.0%", two, sizeof(two));
		/* the names: the text before the rate column */
		char *r1 = strstr(one, " MiB/s"), *r2 = strstr(two, " MiB/s");
		if (!r1 || !r2) {
			check_fail(__FILE__, __LINE__, "%d columns: rows missing:\n%s", cols, t);
			continue;
		}
		while (r1 > one && r1[-1] != ' ')
			r1--;
		while (r2 > two && r2[-1] != ' ')
			r2--;
		*r1 = *r2 = '\0';
		if (strcmp(one, two) == 0 || !strstr(one, "CharsSp") || !strstr(two, "CharsSp"))
			check_fail(__FILE__, __LINE__, "%d columns: \"%s\" and \"%s\"", cols, one, two);
	}
}

/* The method line of a .NET sampler on for part of each second, with few
 * samples, at 80 columns (a pane of 40): each item whole, in a shorter
 * form, or left out; it was cut at the edge. */
static void test_allocators_method_line(void)
{
	static struct gt_alloc_derived a;
	char line[512];
	craft_allocators(&a, "AllocSites.siteA", false);
	gt_f64_set(&a.sampled_share, 0.5);
	a.samples = 120;
	snprintf(a.source, sizeof(a.source), "dotnet-allocation-sampled");
	for (int cols = 36; cols <= 90; cols++) {
		const char *t = draw_allocators(&a, "", 14, cols, 0);
		line_with(t, " samples in ", line, sizeof(line));
		size_t n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		bool whole = strstr(line, "sampled 50%") && (!strstr(line, " of") || strstr(line, "of each second")) &&
			     (!strstr(line, "few") || strstr(line, "few samples")) &&
			     (!strstr(line, "few samples:") || strstr(line, "few samples: rough shares"));
		if (!whole && cols >= 52)
			check_fail(__FILE__, __LINE__, "%d columns: %s", cols, line);
		/* never a piece of a word at the end */
		const char *end = line + n;
		static const char *const ends[] = { "120 samples in 10s", "second", "50%", "few samples", "shares" };
		bool ok = false;
		for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++)
			ok |= n >= strlen(ends[k]) && strcmp(end - strlen(ends[k]), ends[k]) == 0;
		if (!ok && cols >= 40)
			check_fail(__FILE__, __LINE__, "%d columns: the line ends inside an item: %s", cols, line);
	}
	CHECK_HAS(draw_allocators(&a, "", 14, 40, 0), "AllocationSampled 120 samples in 10s");
}

/* The stacks overlay at 80 columns: its sentences wrap at a word (the
 * first was cut at "first,"), a long frame is shortened by its namespace. */
static void test_stacks_overlay_at_80(void)
{
	static struct gt_alloc_derived a;
	static struct gt_alloc_stacks st;
	const char *f[] = { "System.Text.Json.Serialization.Converters.SomeVeryLongConverterName+Inner.WriteCore",
			    "AllocSites.siteA" };
	craft_allocators(&a, "AllocSites.siteA", false);
	craft_site_stacks(&st, f, 2, 1000);
	struct gt_view_ctx c = ctx_for(&derived);
	c.alloc = &a;
	c.alloc_stacks = &st;
	WINDOW *w = newwin(24, 80, 0, 0);
	gt_stacks_overlay_draw(w, 0, &c, "AllocSites.siteA");
	const char *t = window_text(w);
	/* broken at spaces: every word of the explanation whole on some row */
	CHECK_HAS(row_with(t, "shares of the site"), "since sampling started; innermost frame ");
	CHECK_HAS(row_with(t, "first, up to"), "[native]: code no ");
	CHECK_HAS(t, "\n method covers ");
	CHECK_HAS(t, "SomeVeryLongConverterName+Inner.WriteCore");
	CHECK_LACKS(t, "System.Text.Json.Serialization");
	/* the explanation on three lines at 80 columns, one at 200 */
	CHECK_U64(gt_stacks_overlay_lines(&c, "AllocSites.siteA", 80), gt_stacks_overlay_lines(&c, "AllocSites.siteA", 200) + 2);
	delwin(w);
}

/* Rows whose figure the runtime never has are not shown (.NET: no loh/poh
 * collection counts, no safepoints, no GC CPU time, no metaspace), and the
 * room goes to what it has: the process CPU beside the pause graph. */
static void test_rows_never_na(void)
{
	craft();
	struct gt_derived dn = derived;
	static const char *const gens[] = { "gen0", "gen1", "gen2", "loh", "poh" };
	dn.cur.n_generations = 5;
	for (unsigned i = 0; i < 5; i++) {
		snprintf(dn.cur.generations[i].name, sizeof(dn.cur.generations[i].name), "%s", gens[i]);
		dn.cur.generations[i].collections = (struct gt_u64){ 10 + i, i < 3 };
	}
	gt_f64_set(&dn.cpu_share, 0.25);
	gt_u64_set(&dn.cur.metaspace_used_bytes, 0);
	dn.cur.metaspace_used_bytes.valid = false;
	info.runtime = &gt_dotnet_runtime;
	struct gt_view_ctx c = ctx_for(&dn);
	int need, want;
	gt_pane_rows(&gt_pane_collections, &c, &need, &want);
	CHECK_U64(want, 3 + 3);
	const char *t = draw_pane(&gt_pane_collections, &dn, 6, 39);
	CHECK_HAS(t, "gen2");
	CHECK_LACKS(t, "loh");
	CHECK_LACKS(t, "poh");
	CHECK_HAS(t, "last cause");
	t = draw_pane(&gt_pane_pauses, &dn, 9, 39);
	CHECK_HAS(t, "process CPU 25.0%");
	CHECK_LACKS(t, "safepoints");
	CHECK_LACKS(t, "GC CPU");
	/* the two rows over its wish it had before the live set's rows came:
	 * at 39 columns heap max and headroom take two lines */
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	t = draw_pane(&gt_pane_memory, &dn, want + 2, 39);
	CHECK_LACKS(t, "metaspace");
	CHECK_HAS(t, "OOM kills");
	/* and the memory pane asks for no row it would leave blank (the
	 * dashboard's case of a .NET target without a container limit) */
	dn.cur.cgroup_limit_bytes.valid = false;
	dn.cur.cgroup_usage_bytes.valid = false;
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	const char *mem = draw_pane(&gt_pane_memory, &dn, want, 39);
	char *last = strstr(mem, "pressure");
	if (!last || strchr(last, '\n')[1])
		check_fail(__FILE__, __LINE__, "%d rows wanted:\n%s", want, mem);
	/* 80x24: the pause graph and the process CPU are on the screen */
	const char *lt[GT_LAYOUT_MAX_PANES];
	lay_out(&c, 24, 80, lt);
	CHECK_HAS(lt[3], "process CPU 25.0%");
	CHECK_HAS(lt[3], "####");
	/* a JVM keeps its own rows, the process CPU first (at 39 columns it
	 * was the one dropped) */
	info.runtime = &gt_hotspot_runtime;
	derived.cpu_share = dn.cpu_share;
	t = draw_pane(&gt_pane_pauses, &derived, 9, 39);
	CHECK_HAS(t, "process CPU 25.0%");
	CHECK_HAS(t, "GC CPU n/a");
	c = ctx_for(&derived);
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	CHECK_HAS(draw_pane(&gt_pane_memory, &derived, want, 39), "metaspace n/a");
	craft();
}

/* Whether a row of the window's text holds nothing but spaces. */
static bool blank_row(const char *text)
{
	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		size_t n = strcspn(line, "\n");
		if (n && strspn(line, " ") >= n)
			return true;
		if (!line[n])
			break;
	}
	return false;
}

/* The memory pane at 80 columns: the live set, its deadline and growth
 * with the interval, and old's occupancy as jstat; n/a says why. */
static void test_memory_live_set(void)
{
	craft();
	struct gt_derived d = derived;
	struct gt_live_set *l = &d.live_set;
	memset(l, 0, sizeof(*l));
	l->valid = true;
	l->bytes = 302 * MIB;
	l->kind = "full GC";
	l->points = 12;
	gt_f64_set(&l->growth_bps, 1 * MIB);
	gt_f64_set(&l->growth_low_bps, 0.9 * MIB);
	gt_f64_set(&l->growth_high_bps, 1.1 * MIB);
	gt_f64_set(&l->exhaustion_s, 192);
	gt_u64_set(&l->limit_bytes, 512 * MIB);
	l->limit_kind = GT_LIVE_LIMIT_HEAP_MAX;
	gt_u64_set(&d.cur.old_used_bytes, 300 * MIB);
	gt_u64_set(&d.cur.old_committed_bytes, 400 * MIB);
	gt_u64_set(&d.cur.old_max_bytes, 512 * MIB);
	/* no container: its legend's rows, which the pane counts as at 40
	 * columns, are not this test's */
	d.cur.cgroup_limit_bytes.valid = d.cur.cgroup_usage_bytes.valid = false;
	struct gt_view_ctx c = ctx_for(&d);
	int need, want;
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	const char *t = draw_pane(&gt_pane_memory, &d, want, 80);
	CHECK_HAS(t, "live set 302 MiB");
	CHECK_HAS(t, "full in 3.2 min to heap max");
	CHECK_HAS(t, "growth +60.0 MiB/min (90%: 54.0..66.0)");
	CHECK_HAS(t, "old used 300 MiB  committed 400 MiB");
	CHECK_HAS(t, "max 512 MiB  used 75.0% of committed");
	CHECK_HAS(t, "pressure");    /* the rows it asks for hold everything */
	if (blank_row(t))             /* and it leaves none blank */
		check_fail(__FILE__, __LINE__, "a blank row in:\n%s", t);
	/* as many rows at 200 columns, none blank */
	CHECK(!blank_row(draw_pane(&gt_pane_memory, &d, want, 200)));
	/* at 40 columns (beside another pane at 80) too */
	t = draw_pane(&gt_pane_memory, &d, want, 40);
	CHECK_HAS(t, "live set 302 MiB");
	CHECK_HAS(t, "growth +60.0 MiB/min (90%: 54.0..66.0)");
	CHECK_HAS(t, "full in 3.2 min to heap max");
	CHECK_HAS(t, "old used 300 MiB  committed 400 MiB");
	CHECK_HAS(t, "max 512 MiB  used 75.0% of committed");

	l->exhaustion_s.valid = false;
	l->exhaustion_why = "the live set is not growing";
	gt_f64_set(&l->growth_bps, -1.0 * (double)MIB);
	gt_f64_set(&l->growth_low_bps, -1.5 * (double)MIB);
	t = draw_pane(&gt_pane_memory, &d, want, 80);
	CHECK_HAS(t, "growth -60.0 MiB/min (90%: -90.0..66.0)");
	CHECK_HAS(t, "full in n/a  the live set is not growing");

	memset(l, 0, sizeof(*l));
	l->why = "too few points";
	c = ctx_for(&d);
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	t = draw_pane(&gt_pane_memory, &d, want, 80);
	CHECK_HAS(t, "live set n/a  too few points");
	CHECK_LACKS(t, "growth");
	CHECK_HAS(t, "pressure");
	CHECK(!blank_row(t));
	craft();
}

/* A pane drawn into rows x cols with the width it counts its rows at. */
static WINDOW *draw_at(const struct gt_pane_ops *p, const struct gt_derived *d, int rows, int cols)
{
	WINDOW *w = newwin(rows, cols, 0, 0);
	struct gt_view_ctx c = ctx_for(d);
	c.cols = cols;
	p->draw(w, &c);
	return w;
}

/* The rows the memory pane asks for at cols columns. */
static int memory_want(const struct gt_derived *d, int cols)
{
	struct gt_view_ctx c = ctx_for(d);
	int need, want;
	c.cols = cols;
	gt_pane_rows(&gt_pane_memory, &c, &need, &want);
	return want;
}

/* The window's text with its rows joined by one space each, runs of
 * spaces as one: a sentence wrapped onto several rows reads whole. */
static const char *joined_text(WINDOW *w)
{
	static char out[16384];
	const char *t = window_text(w);
	size_t at = 0;
	for (; *t && at + 1 < sizeof(out); t++) {
		char c = *t == '\n' ? ' ' : *t;
		if (c == ' ' && at > 0 && out[at - 1] == ' ')
			continue;
		out[at++] = c;
	}
	out[at] = '\0';
	return out;
}

/* The window's text below its title and bar. */
static const char *below_bar(WINDOW *w)
{
	const char *t = window_text(w);
	for (int k = 0; k < 2 && strchr(t, '\n'); k++)
		t = strchr(t, '\n') + 1;
	return t;
}

/* No text in a window's last column below its title: a pane draws up to
 * its last column but one, so a character there is a word cut at the edge. */
static bool edge_clear(WINDOW *w)
{
	for (int y = 1; y < getmaxy(w); y++)
		if ((mvwinch(w, y, getmaxx(w) - 1) & A_CHARTEXT) != ' ')
			return false;
	return true;
}

/* Issue 35: at 39 columns (a column of 80x24 or 120x40) the memory pane
 * cut its reasons ("no collection has..."): they wrap onto the rows
 * below, which the pane asks for at the width it is given, and a wide
 * pane asks for fewer. */
static void test_memory_reason_wraps(void)
{
	static const char why[] = "no collection has reached the old generation yet";
	static const char full_why[] = "too short a span: the trend needs points over at least a minute";
	craft();
	struct gt_derived d = derived;
	memset(&d.live_set, 0, sizeof(d.live_set));
	d.live_set.why = why;
	int narrow = memory_want(&d, 39), wide = memory_want(&d, 120);
	CHECK(narrow > wide);   /* the reason's second line, and the legend's */
	WINDOW *w = draw_at(&gt_pane_memory, &d, narrow, 39);
	CHECK_HAS(joined_text(w), "live set n/a no collection has reached the old generation yet");
	CHECK_LACKS(below_bar(w), "...");
	CHECK_HAS(window_text(w), "pressure");   /* the rows it asked for hold everything */
	CHECK(!blank_row(window_text(w)));
	CHECK(edge_clear(w));
	delwin(w);
	w = draw_at(&gt_pane_memory, &d, wide, 120);
	CHECK_HAS(window_text(w), "live set n/a  no collection has reached the old generation yet");
	CHECK(!blank_row(window_text(w)));
	delwin(w);

	/* the deadline's reason, the live set known */
	d.live_set.valid = true;
	d.live_set.bytes = 30 * MIB;
	d.live_set.exhaustion_why = full_why;
	narrow = memory_want(&d, 39);
	w = draw_at(&gt_pane_memory, &d, narrow, 39);
	CHECK_HAS(joined_text(w), "full in n/a too short a span: the trend needs points over at least a minute");
	CHECK_LACKS(below_bar(w), "...");
	CHECK_HAS(window_text(w), "pressure");
	CHECK(edge_clear(w));
	delwin(w);
	/* too few rows for all of the reason: it is left out, never cut */
	w = draw_at(&gt_pane_memory, &d, 7, 39);
	CHECK_LACKS(window_text(w), "too short");
	CHECK_LACKS(below_bar(w), "...");
	delwin(w);
	craft();
}

/* Issue 35: the dashboard asks each pane again at the width the layout
 * gave it, so at 80x24 the memory pane shows its reason whole. */
static void test_layout_wraps_reason_at_80x24(void)
{
	const char *t[GT_LAYOUT_MAX_PANES];
	craft();
	struct gt_derived d = derived;
	memset(&d.live_set, 0, sizeof(d.live_set));
	d.live_set.why = "no collection has reached the old generation yet";
	struct gt_view_ctx c = ctx_for(&d);
	lay_out(&c, 24, 80, t);
	CHECK_HAS(t[5], "no collection has");
	CHECK_HAS(t[5], "reached the old generation yet");
	CHECK_LACKS(strstr(t[5], "used"), "...");   /* below the bar, whose ASCII free cells are dots */
	lay_out(&c, 40, 120, t);
	CHECK_HAS(t[5], "reached the old generation yet");
	craft();
}

/* Issue 35: every item whole at the narrowest widths a pane gets ("longest
 * in 1min 163.9 m", "last cause Heap Inspection Initiated G", "(objects
 * >=45.5"): shortened by design or left out, never cut at the edge. */
static void test_items_whole_at_narrow_widths(void)
{
	craft();
	struct gt_derived d = derived;
	snprintf(d.cur.last_gc_cause, sizeof(d.cur.last_gc_cause), "Heap Inspection Initiated GC");
	d.cur.gc_in_progress = true;
	gt_u64_set(&d.cur.large_bytes, 60 * MIB);
	d.cur.large_source = "g1-humongous-estimate";
	gt_f64_set(&d.large_alloc_rate_bps, 152 * MIB);
	gt_f64_set(&d.large_alloc_share, 0.628);
	gt_f64_set(&d.large_waste_max_rate_bps, 75.9 * MIB);
	gt_f64_set(&d.large_alloc_share_min, 0.457);
	d.alloc_upper_bound = true;
	gt_history_clear(&hist);
	for (int i = 1; i <= 60; i++) {
		struct gt_derived p = d;
		p.cur.mono_ns = (uint64_t)i * 1000000000ull;
		gt_u64_set(&p.cur.last_pause_ns, 163900000);
		gt_history_push(&hist, &p);
	}
	d.cur.mono_ns = 60ull * 1000000000ull;
	gt_u64_set(&d.cur.last_pause_ns, 163900000);
	/* the widths a split gives (39 and 40 at 80 columns, 39 at 120) and
	 * a few more */
	const struct gt_pane_ops *panes[] = { &gt_pane_alloc, &gt_pane_collections, &gt_pane_pauses, &gt_pane_large };
	for (size_t i = 0; i < sizeof(panes) / sizeof(panes[0]); i++)
		for (int cols = GT_PANE_NARROW_COLS; cols <= 44; cols++) {
			WINDOW *w = draw_at(panes[i], &d, 8, cols);
			if (!edge_clear(w))
				check_fail(__FILE__, __LINE__, "%s at %d columns: text in its last column:\n%s", panes[i]->name,
					   cols, window_text(w));
			delwin(w);
		}
	WINDOW *w = draw_at(&gt_pane_collections, &d, 8, 39);
	CHECK_HAS(window_text(w), "cause Heap Inspection Initiated GC");
	delwin(w);
	w = draw_at(&gt_pane_pauses, &d, 8, 39);
	CHECK_HAS(window_text(w), "longest");
	CHECK_HAS(window_text(w), "163.9 ms");
	delwin(w);
	craft();
}

/* A process that exited: its last whole rate says so, and the pane keeps
 * the last figures (the average, the total). */
static void test_alloc_exited_keeps_figures(void)
{
	craft();
	WINDOW *w = newwin(8, 60, 0, 0);
	struct gt_view_ctx c = ctx_for(&derived);
	c.status = GT_VIEW_EXITED;
	c.cols = 60;
	gt_pane_alloc.draw(w, &c);
	const char *t = window_text(w);
	CHECK_HAS(t, "before it exited  avg");
	CHECK_LACKS(t, "exited)n/a");
	CHECK_HAS(t, "total 3.00 GiB");
	delwin(w);
}

static void test_spark_levels(void)
{
	struct gt_f64 v[5] = { { 0, true }, { 1, true }, { 2, true }, { 0, false }, { 4, true } };
	int l[5];
	gt_spark_levels(v, 5, 8, l);
	CHECK_U64(l[0], 0);
	CHECK_U64(l[1], 2);   /* ceil(1/4 * 7) */
	CHECK_U64(l[2], 4);
	CHECK(l[3] == -1);
	CHECK_U64(l[4], 7);
	/* a tiny non-zero value is still visible */
	struct gt_f64 w[2] = { { 1e-9, true }, { 1e9, true } };
	gt_spark_levels(w, 2, 8, l);
	CHECK_U64(l[0], 1);
	/* one spike among twenty: more than 4 times the 90th percentile, it is
	 * clipped (level 8) and the rest keep the scale */
	struct gt_f64 x[20];
	int lx[20];
	for (int i = 0; i < 20; i++)
		x[i] = (struct gt_f64){ i == 10 ? 1000.0 : 10.0 + i % 2, true };
	CHECK_NEAR(gt_spark_levels(x, 20, 8, lx), 11.0, 0);
	CHECK_U64(lx[10], 8);
	CHECK_U64(lx[1], 7);
	CHECK_U64(lx[0], 7);   /* ceil(10/11 * 7) */
	/* no spike without one: twice the rest is drawn to scale */
	x[10].value = 22.0;
	CHECK_NEAR(gt_spark_levels(x, 20, 8, lx), 22.0, 0);
}

/* Every graph says its top and its span in its title row, never grows past
 * GT_GRAPH_MAX_ROWS, and a spike is clipped and marked instead of
 * flattening the rest. */
static void test_graph_scale_and_span(void)
{
	craft();
	struct gt_derived spike = derived;
	spike.cur.mono_ns = 31ull * 1000000000ull;
	gt_f64_set(&spike.alloc_rate_bps, 1000.0 * MIB);
	gt_history_push(&hist, &spike);
	const char *t = draw_pane(&gt_pane_alloc, &derived, 30, 60);
	char line[512];
	line_with(t, "Allocation", line, sizeof(line));
	CHECK_HAS(line, "graph 31s, top 10.0 MiB/s, ^ above");
	/* the graph: 10 rows at most, every row of it filled by the 30 steady
	 * points, the spike's column marked at the top */
	int graph_rows = 0;
	for (const char *p = strchr(t, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
		if (strstr(p, "rate ") == p + 1)
			continue;
		if (strncmp(p + 1, "##########", 10) != 0 && strncmp(p + 28, "##########", 10) != 0)
			break;
		graph_rows++;
	}
	CHECK_U64(graph_rows, GT_GRAPH_MAX_ROWS);
	CHECK_HAS(t, "#^ \n");
	CHECK_HAS(t, "total 3.00 GiB");
	/* the pauses graph: its share's top */
	t = draw_pane(&gt_pane_pauses, &derived, 12, 60);
	CHECK_HAS(line_with(t, "Pauses", line, sizeof(line)), "graph 31s, top 12.3%");
	/* narrow: the shorter forms */
	t = draw_pane(&gt_pane_pauses, &derived, 12, 36);
	CHECK_HAS(line_with(t, "Pauses", line, sizeof(line)), "top 12.3%");
	/* no pause in what the graph shows (one 60 intervals ago): its first
	 * row says so instead of standing blank */
	craft();
	gt_history_clear(&hist);
	for (int i = 1; i <= 60; i++) {
		struct gt_derived d = derived;
		d.cur.mono_ns = (uint64_t)i * 1000000000ull;
		gt_f64_set(&d.pause_share, i == 1 ? 0.5 : 0.0);
		gt_history_push(&hist, &d);
	}
	t = draw_pane(&gt_pane_pauses, &derived, 9, 39);
	CHECK_HAS(t, "\n no pause in 37s ");
	craft();
}

static void test_membar_cells(void)
{
	struct gt_membar_input in = { .heap_used = { 20, true }, .heap_committed = { 40, true },
				      .heap_max = { 50, true }, .rss = { 60, true },
				      .cgroup_usage = { 80, true }, .limit = { 100, true } };
	enum gt_membar_cell c[11];
	double per = gt_membar_cells(&in, 11, c);
	CHECK_NEAR(per, 10, 1e-9);
	enum gt_membar_cell want[11] = { GT_MEMBAR_USED, GT_MEMBAR_USED, GT_MEMBAR_COMMITTED, GT_MEMBAR_COMMITTED,
		GT_MEMBAR_RSS, GT_MEMBAR_RSS, GT_MEMBAR_CGROUP, GT_MEMBAR_CGROUP, GT_MEMBAR_FREE, GT_MEMBAR_FREE,
		GT_MEMBAR_LIMIT };
	for (int i = 0; i < 11; i++)
		CHECK_U64(c[i], want[i]);
	/* no limit: the largest of the process's figures is the scale (the
	 * working set here), not the group's usage, and no limit cell */
	in.limit.valid = false;
	per = gt_membar_cells(&in, 6, c);
	CHECK_NEAR(per, 10, 1e-9);
	enum gt_membar_cell own[6] = { GT_MEMBAR_USED, GT_MEMBAR_USED, GT_MEMBAR_COMMITTED, GT_MEMBAR_COMMITTED,
		GT_MEMBAR_RSS, GT_MEMBAR_RSS };
	for (int i = 0; i < 6; i++)
		CHECK_U64(c[i], own[i]);
	/* the report: a group's usage of 1.87 GiB (its page cache, say) beside
	 * a heap of 20 MiB used in 64 MiB max and a working set of 90 MiB: the
	 * scale is the working set, the heap keeps its cells */
	struct gt_membar_input big = { .heap_used = { 20 * MIB, true }, .heap_committed = { 40 * MIB, true },
				       .heap_max = { 64 * MIB, true }, .rss = { 90 * MIB, true },
				       .cgroup_usage = { 1915 * MIB, true } };
	enum gt_membar_cell b[9];
	per = gt_membar_cells(&big, 9, b);
	CHECK_NEAR(per, 10 * MIB, 1);
	CHECK_U64(b[0], GT_MEMBAR_USED);
	CHECK_U64(b[1], GT_MEMBAR_USED);
	CHECK_U64(b[2], GT_MEMBAR_COMMITTED);
	CHECK_U64(b[8], GT_MEMBAR_RSS);
	/* the group's usage shows where it lies under the scale: past the
	 * working set, short of the heap max */
	in.heap_max.value = 120;
	per = gt_membar_cells(&in, 6, c);
	CHECK_NEAR(per, 20, 1e-9);
	CHECK_U64(c[2], GT_MEMBAR_RSS);
	CHECK_U64(c[3], GT_MEMBAR_CGROUP);
	CHECK_U64(c[4], GT_MEMBAR_FREE);
	/* nothing known: all free, never a made-up fill */
	struct gt_membar_input none = { 0 };
	CHECK_NEAR(gt_membar_cells(&none, 8, c), 0, 0);
	for (int i = 0; i < 8; i++)
		CHECK_U64(c[i], GT_MEMBAR_FREE);
	/* no limit and no group usage: the heap max is the scale when it is
	 * the largest, so the heap keeps its cells */
	in.cgroup_usage.valid = false;
	in.heap_max.value = 120;
	per = gt_membar_cells(&in, 6, c);
	CHECK_NEAR(per, 20, 1e-9);
	CHECK_U64(c[0], GT_MEMBAR_USED);
	CHECK_U64(c[1], GT_MEMBAR_COMMITTED);
}

/* A group's usage is shown beside the process's own figures only where it
 * says something about the process: its own group, or any group under a
 * limit. A login session's group of 1.87 GiB without a limit squeezed the
 * heap to no cell. */
static void test_membar_group_usage(void)
{
	struct gt_sample s = { 0 };
	gt_u64_set(&s.cgroup_usage_bytes, 2000);
	gt_u64_set(&s.cgroup_processes, 300);
	CHECK(!gt_membar_group_usage(&s).valid);
	gt_u64_set(&s.cgroup_processes, 1);
	CHECK_U64(gt_membar_group_usage(&s).value, 2000);
	CHECK(gt_membar_group_usage(&s).valid);
	gt_u64_set(&s.cgroup_processes, 3);
	gt_u64_set(&s.cgroup_limit_bytes, 4000);
	CHECK(gt_membar_group_usage(&s).valid);
	/* unknown process count and no limit: not shown */
	s.cgroup_processes.valid = false;
	s.cgroup_limit_bytes.valid = false;
	CHECK(!gt_membar_group_usage(&s).valid);
}

/* The help names the panes there are (1-8 for eight, not 1-9) and shows
 * each key as it is typed: one backslash, not the C source's two. */
static void test_help_names_true_keys(void)
{
	char want[16];
	snprintf(want, sizeof(want), "1-%zu", gt_pane_count);
	const struct gt_key_binding *b = gt_keys_lookup('1', GT_KEYS_DASHBOARD);
	CHECK(b && b->action == GT_ACT_TOGGLE_PANE);
	CHECK_STR(b ? b->name : NULL, want);
	int n = gt_help_lines(160);
	WINDOW *w = newwin(n + 1, 160, 0, 0);
	gt_help_draw(w, 0, &theme);
	const char *t = window_text(w);
	CHECK(strstr(t, "\\\\") == NULL);
	CHECK_HAS(t, "(\\ too, as in htop)");
	delwin(w);
}

static void test_help_lists_every_key(void)
{
	int n = gt_help_lines(160);
	WINDOW *w = newwin(n + 1, 160, 0, 0);
	gt_help_draw(w, 0, &theme);
	const char *t = window_text(w);
	for (size_t k = 0; k < gt_key_table_len; k++) {
		if (!gt_key_table[k].help)
			continue;
		char want[160];
		snprintf(want, sizeof(want), "  %-7s %s", gt_key_table[k].name, gt_key_table[k].help);
		CHECK_HAS(t, want);
	}
	for (size_t p = 0; p < gt_pane_count; p++)
		CHECK_HAS(t, gt_panes[p]->title);
	delwin(w);
	/* at 80 columns the long lines wrap: every word of every help text is
	 * on screen, none cut at the edge */
	int n80 = gt_help_lines(80);
	CHECK(n80 > n);
	w = newwin(n80 + 1, 80, 0, 0);
	gt_help_draw(w, 0, &theme);
	t = window_text(w);
	CHECK_HAS(t, "again to stop");
	CHECK_HAS(t, "back to the picker)");
	CHECK_HAS(t, "(never shown as 0).");
	delwin(w);
	/* the keys the issue asks for are all bound */
	const int required[] = { 'q', ' ', 'd', 'p', '+', '-', 's', '\t', 'h', '?', KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, '1', '9' };
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		CHECK(gt_keys_lookup(required[i], GT_KEYS_DASHBOARD | GT_KEYS_PICKER) != NULL);
	CHECK(gt_keys_lookup('\n', GT_KEYS_PICKER)->action == GT_ACT_OPEN);
	CHECK(gt_keys_lookup('s', GT_KEYS_DASHBOARD) == NULL);
	/* a is in the table (so help lists it) and says that it asks first */
	const struct gt_key_binding *ka = gt_keys_lookup('a', GT_KEYS_DASHBOARD);
	CHECK(ka && ka->action == GT_ACT_ALLOCATORS && ka->help && strstr(ka->help, "asks"));
	CHECK(gt_keys_lookup('a', GT_KEYS_PICKER) == NULL);
}

/* The picker drawn into a fresh window of rows x cols: its text. */
static const char *picker_text(struct gt_picker *p, int rows, int cols)
{
	WINDOW *w = newwin(rows, cols, 0, 0);
	gt_picker_draw(w, p, &theme);
	const char *t = window_text(w);
	delwin(w);
	return t;
}

/* At 80 columns PROGRAM keeps its place and at least 20 columns (two
 * services are told apart by it; the runtime and collector columns take
 * the rest of what it had); columns of lesser use go first, the heads
 * with them. */
static void test_picker_program_at_80(void)
{
	struct gt_picker_slot s[1];
	memset(s, 0, sizeof(s));
	s[0].row.pid = 31337;
	snprintf(s[0].row.user, sizeof(s[0].row.user), "billing");
	snprintf(s[0].row.program, sizeof(s[0].row.program), "StatementExporter --tenant acme");
	snprintf(s[0].row.gc, sizeof(s[0].row.gc), "Server");
	gt_f64_set(&s[0].row.alloc_rate_bps, 1.5e9);
	struct gt_picker p;
	gt_picker_init(&p);
	p.slots = s;
	p.count = 1;
	const char *t = picker_text(&p, 5, 80);
	CHECK_HAS(t, "PROGRAM");
	CHECK_HAS(t, "StatementExporter --ten");
	CHECK_HAS(t, "31337");
	CHECK_HAS(t, "ALLOC/s");
	CHECK_HAS(t, "billing");
	CHECK_LACKS(t, "HEAP MAX");
	/* wide: every column */
	t = picker_text(&p, 5, 140);
	CHECK_HAS(t, "HEAP MAX");
	CHECK_HAS(t, "billing");
	CHECK_HAS(t, "Server");
	CHECK_HAS(t, "StatementExporter --tenant acme");
}

/* The runtime and the collector at every width: RUNTIME with its
 * release where there is room, its label alone (under RT) at 80 columns;
 * collectors named whole where the column holds them, brief (never cut
 * inside a word) where it does not; the interval on the title line. */
static void test_picker_runtime_and_gc_columns(void)
{
	struct gt_picker_slot s[3];
	memset(s, 0, sizeof(s));
	const struct { int pid; const struct gt_runtime_traits *rt; const char *version, *gc, *program, *sampler; } rows[3] = {
		{ 301, &gt_dotnet_runtime, "10.0.0", "Workstation", "Orders.Api", "" },
		{ 302, &gt_hotspot_runtime, "17.0.13", "Shenandoah", "StatementExporter", "jfr" },
		{ 303, &gt_hotspot_runtime, "25.0.1", "Z", "Ledger", "agent" },
	};
	for (int i = 0; i < 3; i++) {
		s[i].row.pid = rows[i].pid;
		s[i].row.runtime = rows[i].rt;
		snprintf(s[i].row.user, sizeof(s[i].row.user), "billing");
		snprintf(s[i].row.version, sizeof(s[i].row.version), "%s", rows[i].version);
		snprintf(s[i].row.gc, sizeof(s[i].row.gc), "%s", rows[i].gc);
		snprintf(s[i].row.program, sizeof(s[i].row.program), "%s", rows[i].program);
		snprintf(s[i].row.sampler, sizeof(s[i].row.sampler), "%s", rows[i].sampler);
	}
	struct gt_picker p;
	gt_picker_init(&p);
	p.slots = s;
	p.count = 3;
	p.schedule.interval_ns = 2000000000ull;

	const char *t = picker_text(&p, 6, 200);
	CHECK_HAS(t, "RUNTIME");
	CHECK_HAS(t, ".NET 10.0.0");
	CHECK_HAS(t, "JVM 17.0.13");
	CHECK_HAS(t, "Workstation ");
	CHECK_HAS(t, "Shenandoah");
	CHECK_HAS(t, "ZGC");
	CHECK_HAS(t, "HEAP MAX");
	CHECK_HAS(t, "every 2s");
	/* --allocators' default source, "-" where the listing cannot tell */
	CHECK_HAS(t, "SAMPLER");
	CHECK_HAS(t, " jfr ");
	CHECK_HAS(t, " agent ");
	CHECK_HAS(t, " -       Orders.Api");

	/* 100 columns: HEAP MAX and SAMPLER give way, the names stay whole */
	t = picker_text(&p, 6, 100);
	CHECK_LACKS(t, "SAMPLER");
	CHECK_LACKS(t, " jfr ");
	CHECK_HAS(t, "Workstation ");
	CHECK_HAS(t, "JVM 17.0.13");
	CHECK_LACKS(t, "HEAP MAX");
	CHECK_HAS(t, "StatementExporter");

	t = picker_text(&p, 6, 80);
	CHECK_HAS(t, " RT ");
	CHECK_HAS(t, ".NET ");
	CHECK_HAS(t, "JVM ");
	CHECK_HAS(t, "Wkstn");
	CHECK_HAS(t, "Shen ");
	CHECK_HAS(t, "ZGC");
	CHECK_LACKS(t, "Workstatio");
	CHECK_LACKS(t, "Shenand");
	CHECK_HAS(t, "billing");
	CHECK_HAS(t, "StatementExporter");
	CHECK_HAS(t, "every 2s");

	/* a filter as long as it can be cuts the title, never the interval */
	memset(p.filter, 'x', sizeof(p.filter) - 1);
	CHECK_HAS(picker_text(&p, 6, 80), "every 2s");
}

int main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in || !newterm("xterm", out, in)) {
		printf("FAIL: test_pane_views: cannot open a terminal on /dev/null (terminfo for xterm missing?)\n");
		return 1;
	}
	gt_theme_mono(&theme, false);
	craft();
	RUN_TEST(test_alloc_pane);
	RUN_TEST(test_pauses_pane);
	RUN_TEST(test_pauses_pane_distribution);
	RUN_TEST(test_collections_pane);
	RUN_TEST(test_memory_pane);
	RUN_TEST(test_memory_yields_to_allocators);
	RUN_TEST(test_large_pane_says_why);
	RUN_TEST(test_whole_regions_bound);
	RUN_TEST(test_allocators_pane_is_honest);
	RUN_TEST(test_allocators_pane_table);
	RUN_TEST(test_allocators_pane_heaps_and_long_names);
	RUN_TEST(test_allocators_pane_scrolls);
	RUN_TEST(test_allocators_pane_states);
	RUN_TEST(test_header_pane);
	RUN_TEST(test_findings_pane_and_overlay);
	RUN_TEST(test_invalid_is_na_not_zero);
	RUN_TEST(test_every_pane_every_small_size);
	RUN_TEST(test_essentials_at_80x24);
	RUN_TEST(test_panes_ask_for_their_content);
	RUN_TEST(test_rows_never_na);
	RUN_TEST(test_spark_levels);
	RUN_TEST(test_graph_scale_and_span);
	RUN_TEST(test_membar_cells);
	RUN_TEST(test_membar_group_usage);
	RUN_TEST(test_help_lists_every_key);
	RUN_TEST(test_allocators_pane_marks_selection);
	RUN_TEST(test_stacks_overlay);
	RUN_TEST(test_pause_line_at_80);
	RUN_TEST(test_finding_line_cut_at_a_word);
	RUN_TEST(test_per_op_line_at_100);
	RUN_TEST(test_allocators_names_stay_distinct);
	RUN_TEST(test_stacks_overlay_at_80);
	RUN_TEST(test_allocators_method_line);
	RUN_TEST(test_picker_program_at_80);
	RUN_TEST(test_picker_runtime_and_gc_columns);
	RUN_TEST(test_help_names_true_keys);
	RUN_TEST(test_memory_live_set);
	RUN_TEST(test_memory_reason_wraps);
	RUN_TEST(test_alloc_exited_keeps_figures);
	RUN_TEST(test_layout_wraps_reason_at_80x24);
	RUN_TEST(test_items_whole_at_narrow_widths);
	endwin();
	return check_summary();
}
