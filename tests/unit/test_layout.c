/* The layout for every terminal size from 20x5 to 300x100: nothing outside
 * the screen, no overlap, no pane below its minimum, panes dropped strictly
 * by priority, and the "too small" message only when it must be. */
#include <stdio.h>
#include <string.h>

#include "tui/layout.h"
#include "tui/wrap.h"
#include "tests/unit/check.h"

/* The panes gctop shows, with their real minimums (tui/panes/pane_*.c). */
static const struct gt_layout_req real_panes[] = {
	{ true, true, 1, 40, 2, 0, false, 0 },   /* header */
	{ true, false, 3, 32, 7, 1, true, 0 },  /* allocation */
	{ true, false, 3, 44, 5, 4, false, 0 },  /* collections */
	{ true, false, 3, 36, 7, 2, true, 0 },  /* pauses */
	{ true, false, 2, 32, 3, 6, false, 0 },  /* large objects */
	{ true, false, 3, 36, 6, 3, false, 0 },  /* memory */
	{ true, false, 2, 32, 4, 5, false, 0 },  /* allocators */
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
	struct gt_layout_req one = { true, false, 4, 30, 10, 0, false, 0 };
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

/* ---- panes sized by what they hold ---- */

/* The panes as they ask for rows with a target's content (tui/panes/pane_*.c,
 * need and wish): a .NET target with five generations and allocation
 * sampling on, its list of sites 20 rows long (12 by frame, 8 by type:
 * 2 + 13 + 9 = 24 rows with the headings), two findings; and a JVM whose
 * collector has two generations, sampling off, one finding. */
enum { P_HEADER, P_ALLOC, P_COLL, P_PAUSES, P_LARGE, P_MEMORY, P_ALLOCATORS, P_FINDINGS, N_CONTENT };
static const struct gt_layout_req dotnet_panes[N_CONTENT] = {
	{ true, true, 1, 40, 2, 0, false, 0 },    /* header */
	{ true, false, 4, 32, 7, 1, true, 0 },    /* allocation: a graph */
	{ true, false, 8, 38, 8, 4, false, 0 },   /* collections: 5 generations */
	{ true, false, 4, 36, 8, 2, true, 0 },    /* pauses: a graph */
	{ true, false, 3, 32, 3, 6, false, 0 },   /* large objects */
	{ true, false, 5, 36, 7, 3, false, 0 },   /* memory */
	{ true, false, 8, 32, 24, 5, false, 0 },  /* top allocators: 5 sites needed, all 20 wished */
	{ true, true, 1, 30, 2, 2, false, 0 },    /* findings: two */
};
static const struct gt_layout_req jvm_panes[N_CONTENT] = {
	{ true, true, 1, 40, 2, 0, false, 0 },
	{ true, false, 4, 32, 7, 1, true, 0 },
	{ true, false, 5, 38, 5, 4, false, 0 },   /* collections: young and old */
	{ true, false, 4, 36, 8, 2, true, 0 },
	{ true, false, 3, 32, 3, 6, false, 0 },
	{ true, false, 5, 36, 7, 3, false, 0 },
	{ true, false, 4, 32, 4, 5, false, 0 },   /* top allocators: how to turn sampling on */
	{ true, true, 1, 30, 1, 2, false, 0 },
};

/* Rows the panes below the full-width ones start at. */
static int body_top(const struct gt_layout *lay, const struct gt_layout_req *req, int n)
{
	int top = 0;
	for (int i = 0; i < n; i++)
		if (lay->shown[i] && req[i].full_width && lay->rects[i].y + lay->rects[i].rows > top)
			top = lay->rects[i].y + lay->rects[i].rows;
	return top;
}

/* The rows of column x (the body panes at that x) the panes take. */
static int column_taken(const struct gt_layout *lay, const struct gt_layout_req *req, int n, int x)
{
	int taken = 0;
	for (int i = 0; i < n; i++)
		if (lay->shown[i] && !req[i].full_width && lay->rects[i].x == x)
			taken += lay->rects[i].rows;
	return taken;
}

/* Whether any shown pane has fewer rows than its content fills. */
static bool any_cut(const struct gt_layout *lay, const struct gt_layout_req *req, int n)
{
	for (int i = 0; i < n; i++)
		if (lay->shown[i] && lay->rects[i].rows < req[i].want_rows)
			return true;
	return false;
}

/* At rows x cols (the dashboard's rows: the footer's taken), every pane is
 * shown; and while any pane's content is cut, no pane has a row beyond its
 * content (no blank row in a list, no graph taller than its wish) and no
 * column has a row left over. */
static void check_no_blank_while_cut(int rows, int cols, const struct gt_layout_req *req, int n,
				     struct gt_layout *lay)
{
	gt_layout_compute(rows, cols, req, n, lay);
	CHECK(lay->usable);
	for (int i = 0; i < n; i++)
		if (!lay->shown[i])
			check_fail(__FILE__, __LINE__, "%dx%d: pane %d is not shown", cols, rows, i);
	if (!any_cut(lay, req, n))
		return;
	int body = rows - body_top(lay, req, n);
	for (int i = 0; i < n; i++) {
		if (!lay->shown[i])
			continue;
		if (lay->rects[i].rows > req[i].want_rows)
			check_fail(__FILE__, __LINE__, "%dx%d: pane %d has %d rows past its content while another is cut",
				   cols, rows, i, lay->rects[i].rows - req[i].want_rows);
		if (!req[i].full_width && column_taken(lay, req, n, lay->rects[i].x) != body)
			check_fail(__FILE__, __LINE__, "%dx%d: the column at x=%d has %d blank rows while a pane is cut",
				   cols, rows, lay->rects[i].x, body - column_taken(lay, req, n, lay->rects[i].x));
	}
}

/* 80x24, 140x45 and 200x60 on .NET and on a JVM: the footer takes a row. */
static void test_no_blank_while_cut(void)
{
	static const int sizes[][2] = { { 24, 80 }, { 45, 140 }, { 60, 200 } };
	struct gt_layout lay;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		check_no_blank_while_cut(sizes[s][0] - 1, sizes[s][1], dotnet_panes, N_CONTENT, &lay);
		check_no_blank_while_cut(sizes[s][0] - 1, sizes[s][1], jvm_panes, N_CONTENT, &lay);
	}
	/* 80x24 on .NET: 55 rows of content in two columns of 19, so some is
	 * cut; both columns are full to the footer. */
	gt_layout_compute(23, 80, dotnet_panes, N_CONTENT, &lay);
	CHECK(any_cut(&lay, dotnet_panes, N_CONTENT));
	/* 140x45 and 200x60 on .NET: everything is shown whole, the 20 sites too */
	gt_layout_compute(44, 140, dotnet_panes, N_CONTENT, &lay);
	CHECK(!any_cut(&lay, dotnet_panes, N_CONTENT));
	CHECK_U64(lay.rects[P_ALLOCATORS].rows, 24);
	CHECK_U64(lay.rects[P_FINDINGS].rows, 2);
	gt_layout_compute(59, 200, dotnet_panes, N_CONTENT, &lay);
	CHECK(!any_cut(&lay, dotnet_panes, N_CONTENT));
	/* a JVM at 80x24: its content fits, every pane whole */
	gt_layout_compute(23, 80, jvm_panes, N_CONTENT, &lay);
	CHECK(!any_cut(&lay, jvm_panes, N_CONTENT));
}

/* A graph grows to its cap and no further (panes: GT_GRAPH_MAX_ROWS rows
 * of graph and its figures): at 200x60 the graphs stretched to 45 rows and
 * one spike flattened the rest. Rows no pane takes stay below the panes. */
static void test_graphs_capped(void)
{
	struct gt_layout_req req[N_CONTENT];
	struct gt_layout lay;
	const struct gt_layout_req *sets[] = { jvm_panes, dotnet_panes };
	for (size_t k = 0; k < 2; k++) {
		memcpy(req, sets[k], sizeof(req));
		req[P_ALLOC].max_rows = 14;
		req[P_PAUSES].max_rows = 15;
		gt_layout_compute(59, 200, req, N_CONTENT, &lay);
		CHECK(lay.usable);
		CHECK(!any_cut(&lay, req, N_CONTENT));
		for (int i = 0; i < N_CONTENT; i++) {
			int most = req[i].stretch ? req[i].max_rows : req[i].want_rows;
			if (!lay.shown[i] || lay.rects[i].rows > most)
				check_fail(__FILE__, __LINE__, "set %zu: pane %d has %d rows, at most %d", k, i,
					   lay.rects[i].rows, most);
		}
		CHECK_U64(lay.rects[P_ALLOC].rows, 14);
		CHECK_U64(lay.rects[P_PAUSES].rows, 15);
	}
	/* short of the cap, a graph still takes the rows left (80x24) */
	memcpy(req, jvm_panes, sizeof(req));
	req[P_ALLOC].max_rows = 14;
	req[P_PAUSES].max_rows = 15;
	gt_layout_compute(23, 80, req, N_CONTENT, &lay);
	int body = 23 - body_top(&lay, req, N_CONTENT);
	CHECK_U64(column_taken(&lay, req, N_CONTENT, lay.rects[P_ALLOC].x), body);
}

/* The case of the report: at 140x45 on .NET a list longer than the room
 * its column leaves beside the memory pane. The plain flow (memory and
 * the allocators in the third column) would cut it; the panes move along
 * one place so it has the column to itself, and the rows under the
 * memory pane are not left blank but go to the pauses graph's column. */
static void test_long_list_gets_a_column(void)
{
	struct gt_layout_req req[N_CONTENT];
	struct gt_layout lay;
	memcpy(req, dotnet_panes, sizeof(req));
	req[P_ALLOCATORS].want_rows = 38;
	gt_layout_compute(44, 140, req, N_CONTENT, &lay);
	CHECK(lay.usable);
	CHECK_U64(lay.columns, 3);
	int body = 44 - body_top(&lay, req, N_CONTENT);
	/* the premise: memory and the list do not fit one column */
	CHECK(req[P_MEMORY].want_rows + req[P_ALLOCATORS].want_rows > body);
	CHECK(!any_cut(&lay, req, N_CONTENT));
	CHECK_U64(lay.rects[P_ALLOCATORS].rows, 38);
	for (int i = 0; i < N_CONTENT; i++)
		if (i != P_ALLOCATORS && !req[i].full_width)
			CHECK(lay.rects[i].x != lay.rects[P_ALLOCATORS].x);
	/* screen order kept: memory still above or left of the list */
	CHECK(lay.rects[P_MEMORY].x < lay.rects[P_ALLOCATORS].x);
	/* the memory pane shares its column with the pauses graph, which takes
	 * the rows the memory pane leaves */
	CHECK_U64(lay.rects[P_MEMORY].x, lay.rects[P_PAUSES].x);
	CHECK_U64(column_taken(&lay, req, N_CONTENT, lay.rects[P_MEMORY].x), body);
	/* longer than any column: cut, alone in its column, which it fills */
	req[P_ALLOCATORS].want_rows = 100;
	gt_layout_compute(44, 140, req, N_CONTENT, &lay);
	CHECK_U64(lay.rects[P_ALLOCATORS].rows, body);
	for (int i = 0; i < N_CONTENT; i++)
		if (i != P_ALLOCATORS && !req[i].full_width)
			CHECK(lay.rects[i].x != lay.rects[P_ALLOCATORS].x);
}

/* While every pane's content fits the plain flow, panes keep its places
 * (pane j in column j * k / n), so a list that grows by a row does not
 * move the panes around. */
static void test_plain_flow_while_it_fits(void)
{
	struct gt_layout lay;
	gt_layout_compute(59, 200, jvm_panes, N_CONTENT, &lay);
	CHECK_U64(lay.columns, 3);
	CHECK(lay.rects[P_ALLOC].x == lay.rects[P_COLL].x);
	CHECK(lay.rects[P_PAUSES].x == lay.rects[P_LARGE].x);
	CHECK(lay.rects[P_MEMORY].x == lay.rects[P_ALLOCATORS].x);
	CHECK(lay.rects[P_ALLOC].x < lay.rects[P_PAUSES].x && lay.rects[P_PAUSES].x < lay.rects[P_MEMORY].x);
}

/* Over every size, with lists of several lengths: a pane is cut only when
 * its column has no row to give it (none blank, no pane of its column
 * past its wish). */
static void test_sweep_cut_only_when_full(void)
{
	static const int lists[] = { 4, 12, 24, 40, 100 };
	struct gt_layout_req req[N_CONTENT];
	struct gt_layout lay;
	int bad = 0;
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		memcpy(req, dotnet_panes, sizeof(req));
		req[P_ALLOCATORS].want_rows = lists[l];
		if (req[P_ALLOCATORS].min_rows > lists[l])
			req[P_ALLOCATORS].min_rows = lists[l];   /* a short list needs what it has */
		for (int rows = 5; rows <= 100 && bad < 5; rows++) {
			for (int cols = 20; cols <= 300 && bad < 5; cols += 3) {
				bad += check_one(rows, cols, req, N_CONTENT);
				gt_layout_compute(rows, cols, req, N_CONTENT, &lay);
				int body = rows - body_top(&lay, req, N_CONTENT);
				for (int i = 0; i < N_CONTENT && bad < 5; i++) {
					if (!lay.shown[i] || req[i].full_width || lay.rects[i].rows >= req[i].want_rows)
						continue;
					int x = lay.rects[i].x;
					if (column_taken(&lay, req, N_CONTENT, x) != body) {
						check_fail(__FILE__, __LINE__, "%dx%d list %d: pane %d cut, its column not full",
							   cols, rows, lists[l], i);
						bad++;
					}
					for (int j = 0; j < N_CONTENT; j++)
						if (lay.shown[j] && !req[j].full_width && lay.rects[j].x == x &&
						    lay.rects[j].rows > req[j].want_rows) {
							check_fail(__FILE__, __LINE__, "%dx%d list %d: pane %d cut beside pane %d past its wish",
								   cols, rows, lists[l], i, j);
							bad++;
						}
				}
			}
		}
	}
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
	RUN_TEST(test_no_blank_while_cut);
	RUN_TEST(test_long_list_gets_a_column);
	RUN_TEST(test_graphs_capped);
	RUN_TEST(test_plain_flow_while_it_fits);
	RUN_TEST(test_sweep_cut_only_when_full);
	RUN_TEST(test_footer_wrap);
	return check_summary();
}
