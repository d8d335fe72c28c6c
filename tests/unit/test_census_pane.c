/* The census overlay (tui/panes/pane_census.c) and the --census text
 * (views/census_writer.c) from a crafted pair of censuses: the growth
 * table sorted by bytes grown with new and gone types marked, the top types
 * by bytes, when each census was taken, hostile names drawn without their
 * control bytes, and the line count that scrolling uses agreeing with what
 * is drawn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ncurses.h>

#include "collectors/hotspot/hotspot_runtime.h"
#include "tui/panes/pane_census.h"
#include "tui/theme.h"
#include "tests/unit/check.h"
#include "views/census_writer.h"

static struct gt_theme theme;

static const char *window_text(WINDOW *w)
{
	static char buf[16384];
	size_t at = 0;
	for (int y = 0; y < getmaxy(w) && at + 512 < sizeof(buf); y++) {
		char line[512];
		int n = mvwinnstr(w, y, 0, line, (int)sizeof(line) - 1);
		line[n < 0 ? 0 : n] = '\0';
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s\n", line);
	}
	return buf;
}

#define CHECK_HAS(text, needle) do { const char *t_ = (text); \
	if (!strstr(t_, needle)) check_fail(__FILE__, __LINE__, "missing \"%s\" in:\n%s", needle, t_); } while (0)

static void add(struct gt_census *c, size_t *cap, const char *name, uint64_t count, uint64_t bytes)
{
	CHECK(gt_census_add(c, cap, name, strlen(name), count, bytes) == 0);
	c->total_count += count;
	c->total_bytes += bytes;
}

/* 2026-12-03T14:00:00Z and five seconds later */
#define T0_MS 1796306400000LL

static void craft(struct gt_session_census *k)
{
	memset(k, 0, sizeof(*k));
	size_t pc = 0, cc = 0;
	add(&k->prev, &pc, "com.example.LeakNode", 1000, 64000);
	add(&k->prev, &pc, "byte[]", 500, 90000);
	add(&k->prev, &pc, "com.example.Gone", 3, 72);
	add(&k->cur, &cc, "com.example.LeakNode", 11000, 704000);
	add(&k->cur, &cc, "byte[]", 400, 80000);
	add(&k->cur, &cc, "\x1b]0;PWNED\x07\x1b[2JEvil", 2, 64);
	k->prev.wall_ms = T0_MS;
	k->cur.wall_ms = T0_MS + 5000;
	k->cur.pause_valid = true;
	k->cur.pause_ns = 250000000;
	k->cur.took_ns = 300000000;
	gt_census_sort(&k->prev);
	gt_census_sort(&k->cur);
	k->have_prev = k->have_cur = true;
	k->taken = 2;
	CHECK(gt_census_diff(&k->prev, &k->cur, &k->diff) == 0);
}

static void overlay_shows_growth_then_top(void)
{
	struct gt_session_census k;
	craft(&k);
	struct gt_target_info info = { .pid = 4242, .runtime = &gt_hotspot_runtime };
	int n = gt_census_overlay_lines(&k, &info, &theme, 100);
	WINDOW *w = newwin(n + 1, 100, 0, 0);
	gt_census_overlay_draw(w, 0, &k, &info, &theme);
	const char *t = window_text(w);
	CHECK_HAS(t, "Census 2 of PID 4242, 2026-12-03T14:00:05Z: 11402 objects");
	CHECK_HAS(t, "paused 250.0 ms");
	CHECK_HAS(t, "the one before: 2026-12-03T14:00:00Z");
	CHECK_HAS(t, "Grown since the census before, 5.0 s earlier");
	/* the growth table's first row is the leak, the vanished type is marked */
	const char *grown = strstr(t, "GROWN");
	CHECK(grown != NULL);
	const char *first = grown ? strchr(grown, '\n') : NULL;
	CHECK(first && strstr(first, "com.example.LeakNode") && strstr(first, "com.example.LeakNode") < strstr(first, "byte[]"));
	CHECK_HAS(t, "+625 KiB");
	CHECK_HAS(t, "+10000");
	CHECK_HAS(t, "com.example.Gone gone");
	CHECK_HAS(t, "Evil new");
	CHECK_HAS(t, "Top types by bytes");
	CHECK(strchr(t, '\x1b') == NULL && strchr(t, '\x07') == NULL);
	/* the count the scroll uses is what was drawn: the last line is there */
	CHECK(n > 10 && mvwinch(w, n, 1) != (chtype)ERR);
	delwin(w);
	gt_census_diff_free(&k.diff);
	gt_census_free(&k.prev);
	gt_census_free(&k.cur);
}

static void overlay_before_any_census(void)
{
	struct gt_target_info info = { .pid = 7 };
	WINDOW *w = newwin(5, 80, 0, 0);
	gt_census_overlay_draw(w, 0, NULL, &info, &theme);
	CHECK_HAS(window_text(w), "no census yet: press c on the dashboard");
	delwin(w);
}

static void text_table_is_clean(void)
{
	struct gt_session_census k;
	craft(&k);
	struct gt_target_info info = { .pid = 4242, .runtime = &gt_hotspot_runtime };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CHECK(f && gt_census_write_text(f, &k.cur, &info) == 0);
	fclose(f);
	CHECK_HAS(text, "Census of the live objects of JVM 4242");
	CHECK_HAS(text, "com.example.LeakNode");
	CHECK(memchr(text, '\x1b', len) == NULL && memchr(text, '\x07', len) == NULL);
	free(text);
	gt_census_diff_free(&k.diff);
	gt_census_free(&k.prev);
	gt_census_free(&k.cur);
}

int main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in || !newterm("xterm", out, in)) {
		printf("FAIL: test_census_pane: cannot open a terminal on /dev/null (terminfo for xterm missing?)\n");
		return 1;
	}
	gt_theme_mono(&theme, false);
	RUN_TEST(overlay_shows_growth_then_top);
	RUN_TEST(overlay_before_any_census);
	RUN_TEST(text_table_is_clean);
	endwin();
	return check_summary();
}
