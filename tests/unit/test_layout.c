/* The layout for every terminal size from 20x5 to 300x100: nothing outside
 * the screen, no overlap, no pane below its minimum, panes dropped strictly
 * by priority, and the "too small" message only when it must be. */
#include <stdio.h>
#include <string.h>

#include "tui/layout.h"
#include "tui/wrap.h"
#include "tests/unit/check.h"

/* The panes gctop shows, with their real minimums (views/pane_*.c). */
static const struct gt_layout_req real_panes[] = {
	{ true, true, 1, 40, 2, 0, false },   /* header */
	{ true, false, 3, 32, 7, 1, true },  /* allocation */
	{ true, false, 3, 44, 5, 4, false },  /* collections */
	{ true, false, 3, 36, 7, 2, true },  /* pauses */
	{ true, false, 2, 32, 3, 6, false },  /* large objects */
	{ true, false, 3, 36, 6, 3, false },  /* memory */
	{ true, false, 2, 32, 4, 5, true },  /* allocators */
};
#define N_REAL ((int)(sizeof(real_panes) / sizeof(real_panes[0])))

static bool overlap(struct gt_rect a, struct gt_rect b)
{
	return a.x < b.x + b.cols && b.x < a.x + a.cols && a.y < b.y + b.rows && b.y < a.y + a.rows;
}

/* Every invariant for one size; returns the number of violations so the
 * sweep reports the first few sizes that break rather than thousands. */
static int check_one(int rows, int cols, const struct gt_layout_req *req, int n)
{
	struct gt_layout lay;
	int bad = 0;
#define EXPECT(cond) do { if (!(cond)) { bad++; check_fail(__FILE__, __LINE__, "%dx%d: %s", cols, rows, #cond); return bad; } } while (0)

	gt_layout_compute(rows, cols, req, n, &lay);
	int visible = 0, shown = 0;
	for (int i = 0; i < n; i++) {
		visible += req[i].visible;
		if (!lay.shown[i])
			continue;
		shown++;
		struct gt_rect r = lay.rects[i];
		EXPECT(req[i].visible);
		EXPECT(r.rows >= 1 && r.cols >= 1);
		EXPECT(r.y >= 0 && r.x >= 0);
		EXPECT(r.y + r.rows <= rows && r.x + r.cols <= cols);
		EXPECT(r.rows >= req[i].min_rows && r.cols >= req[i].min_cols);
		if (req[i].full_width)
			EXPECT(r.x == 0 && r.cols == cols);
		for (int j = 0; j < i; j++)
			if (lay.shown[j])
				EXPECT(!overlap(r, lay.rects[j]));
	}
	/* Full-width panes sit above every other pane. */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (lay.shown[i] && lay.shown[j] && req[i].full_width && !req[j].full_width)
				EXPECT(lay.rects[j].y >= lay.rects[i].y + lay.rects[i].rows);
	if (!lay.usable)
		EXPECT(shown == 0);
	if (rows >= lay.need_rows && cols >= lay.need_cols)
		EXPECT(lay.usable);
	if (lay.usable && visible > 0)
		EXPECT(shown >= (visible < 2 ? visible : 2));
	/* A visible pane is only dropped for a less important one being kept if
	 * it could not fit across the screen at all. */
	for (int i = 0; i < n; i++) {
		if (!lay.usable || !req[i].visible || lay.shown[i] || req[i].min_cols > cols)
			continue;
		for (int j = 0; j < n; j++)
			if (lay.shown[j])
				EXPECT(req[j].priority <= req[i].priority);
	}
	return bad;
#undef EXPECT
}

static void sweep(const struct gt_layout_req *req, int n)
{
	int bad = 0;
	for (int rows = 5; rows <= 100 && bad < 5; rows++)
		for (int cols = 20; cols <= 300 && bad < 5; cols++)
			bad += check_one(rows, cols, req, n);
}

static void test_sweep_all_panes(void)
{
	sweep(real_panes, N_REAL);
}

static void test_sweep_some_hidden(void)
{
	struct gt_layout_req req[N_REAL];
	/* every subset of visible panes, on a coarser grid of sizes */
	for (unsigned mask = 0; mask < (1u << N_REAL); mask++) {
		memcpy(req, real_panes, sizeof(req));
		for (int i = 0; i < N_REAL; i++)
			req[i].visible = (mask >> i) & 1;
		int bad = 0;
		for (int rows = 5; rows <= 100 && bad == 0; rows += 7)
			for (int cols = 20; cols <= 300 && bad == 0; cols += 13)
				bad += check_one(rows, cols, req, N_REAL);
	}
}

static void test_sweep_no_full_width(void)
{
	struct gt_layout_req req[N_REAL];
	memcpy(req, real_panes, sizeof(req));
	req[0].full_width = false;
	req[0].min_rows = 3;
	sweep(req, N_REAL);
}

static void test_sweep_one_pane(void)
{
	struct gt_layout_req one = { true, false, 4, 30, 10, 0, false };
	sweep(&one, 1);
}

static void test_tiny_is_a_message(void)
{
	struct gt_layout lay;
	gt_layout_compute(5, 20, real_panes, N_REAL, &lay);
	CHECK(!lay.usable);
	CHECK_U64(lay.need_cols, 40);
	CHECK_U64(lay.need_rows, 4);  /* header row and the allocation pane */
	for (int i = 0; i < N_REAL; i++)
		CHECK(!lay.shown[i]);
	gt_layout_compute(0, 0, real_panes, N_REAL, &lay);
	CHECK(!lay.usable);
	gt_layout_compute(-3, 80, real_panes, N_REAL, &lay);
	CHECK(!lay.usable);
}

static void test_common_sizes(void)
{
	struct gt_layout lay;

	/* 100x30: two columns, everything shown, the header its full two rows */
	gt_layout_compute(30, 100, real_panes, N_REAL, &lay);
	CHECK(lay.usable);
	CHECK_U64(lay.columns, 2);
	for (int i = 0; i < N_REAL; i++)
		CHECK(lay.shown[i]);
	CHECK_U64(lay.rects[0].rows, 2);

	/* 80x24: one column, everything at or above its minimum */
	gt_layout_compute(24, 80, real_panes, N_REAL, &lay);
	CHECK(lay.usable);
	CHECK_U64(lay.columns, 1);
	for (int i = 0; i < N_REAL; i++)
		CHECK(lay.shown[i]);

	/* 80x12: the least important panes go first */
	gt_layout_compute(12, 80, real_panes, N_REAL, &lay);
	CHECK(lay.usable);
	CHECK(lay.shown[0] && lay.shown[1] && lay.shown[3] && lay.shown[5]);
	CHECK(!lay.shown[2] && !lay.shown[4] && !lay.shown[6]);

	/* 40 columns: collections (44 wide) cannot fit, narrower panes still do */
	gt_layout_compute(60, 40, real_panes, N_REAL, &lay);
	CHECK(lay.usable);
	CHECK(!lay.shown[2]);
	CHECK(lay.shown[4] && lay.shown[6]);

	/* 300x100: three columns */
	gt_layout_compute(100, 300, real_panes, N_REAL, &lay);
	CHECK_U64(lay.columns, 3);
}

/* Sampling on: the allocators pane wants its whole table (two sections of
 * 8 rows); the layout still holds everywhere, and at 100x30 the pane gets
 * room for a three-site table without taking the memory pane's. */
static void test_allocators_on(void)
{
	struct gt_layout_req req[N_REAL];
	struct gt_layout lay;
	memcpy(req, real_panes, sizeof(req));
	req[6].want_rows = 20;
	sweep(req, N_REAL);

	gt_layout_compute(30, 100, req, N_REAL, &lay);
	CHECK(lay.usable);
	for (int i = 0; i < N_REAL; i++)
		CHECK(lay.shown[i]);
	CHECK(lay.rects[6].rows >= 10);
	CHECK(lay.rects[5].rows >= 6);
	/* short screens drop it before the more important panes, as before */
	gt_layout_compute(12, 80, req, N_REAL, &lay);
	CHECK(lay.usable);
	CHECK(!lay.shown[6]);
	CHECK(lay.shown[1] && lay.shown[3] && lay.shown[5]);
}

static const char *wrap_line(const char *text, const struct gt_wrap_line *l)
{
	static char buf[256];
	snprintf(buf, sizeof(buf), "%.*s", (int)l->len, text + l->start);
	return buf;
}

static void test_footer_wrap(void)
{
	struct gt_wrap_line l[3];
	const char *q = "load gctop's sampling agent into PID 4242? it stays loaded (dormant) after gctop exits; y/N";
	CHECK_U64(gt_wrap(q, 100, 3, l), 1);
	CHECK_STR(wrap_line(q, &l[0]), q);
	/* at 60 columns: two lines broken at a space, nothing lost */
	CHECK_U64(gt_wrap(q, 60, 3, l), 2);
	CHECK_STR(wrap_line(q, &l[0]), "load gctop's sampling agent into PID 4242? it stays loaded");
	CHECK_STR(wrap_line(q, &l[1]), "(dormant) after gctop exits; y/N");
	/* one line allowed: the rest stays on it, to be clipped */
	CHECK_U64(gt_wrap(q, 20, 1, l), 1);
	CHECK_U64(l[0].len, strlen(q));
	/* a word longer than the line is cut, not lost */
	const char *w = "abcdefghij klm";
	CHECK_U64(gt_wrap(w, 4, 3, l), 3);
	CHECK_STR(wrap_line(w, &l[0]), "abcd");
	CHECK_STR(wrap_line(w, &l[1]), "efgh");
	CHECK_STR(wrap_line(w, &l[2]), "ij klm");
	/* a multi-byte character counts as one column and is not split */
	const char *u = "\xc3\xa9\xc3\xa9\xc3\xa9 ab";
	CHECK_U64(gt_wrap(u, 3, 3, l), 2);
	CHECK_U64(l[0].len, 6);
	CHECK_STR(wrap_line(u, &l[1]), "ab");
	CHECK_U64(gt_wrap("", 10, 3, l), 1);
	CHECK_U64(l[0].len, 0);
}

static void test_nothing_visible(void)
{
	struct gt_layout_req req[N_REAL];
	struct gt_layout lay;
	memcpy(req, real_panes, sizeof(req));
	for (int i = 0; i < N_REAL; i++)
		req[i].visible = false;
	gt_layout_compute(30, 100, req, N_REAL, &lay);
	CHECK(lay.usable);
	for (int i = 0; i < N_REAL; i++)
		CHECK(!lay.shown[i]);
}

int main(void)
{
	RUN_TEST(test_sweep_all_panes);
	RUN_TEST(test_sweep_some_hidden);
	RUN_TEST(test_sweep_no_full_width);
	RUN_TEST(test_sweep_one_pane);
	RUN_TEST(test_tiny_is_a_message);
	RUN_TEST(test_common_sizes);
	RUN_TEST(test_nothing_visible);
	RUN_TEST(test_allocators_on);
	RUN_TEST(test_footer_wrap);
	return check_summary();
}
