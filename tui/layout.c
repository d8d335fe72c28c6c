#include "tui/layout.h"

#include <string.h>

/* What place() works from: the body panes (not full width) in order, and
 * the rows the full-width panes need and wish for. */
struct place_plan {
	int body[GT_LAYOUT_MAX_PANES], nbody;
	int top_min, top_want, body_min_cols;
};

/* Sorts the panes of `set` into full-width and body; false when a
 * full-width pane is wider than the screen. */
static bool plan_panes(int cols, const struct gt_layout_req *req, int n, const bool *set, struct place_plan *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < n; i++) {
		if (!set[i])
			continue;
		if (req[i].full_width) {
			if (req[i].min_cols > cols)
				return false;
			p->top_min += req[i].min_rows;
			p->top_want += req[i].want_rows > req[i].min_rows ? req[i].want_rows : req[i].min_rows;
		} else {
			p->body[p->nbody++] = i;
			if (req[i].min_cols > p->body_min_cols)
				p->body_min_cols = req[i].min_cols;
		}
	}
	return true;
}

/* The tallest column's minimum rows when the body is split into k columns
 * (pane j goes to column j * k / nbody). */
static int tallest_column(const struct gt_layout_req *req, const struct place_plan *p, int k)
{
	int tallest = 0;
	for (int c = 0; c < k; c++) {
		int sum = 0;
		for (int j = 0; j < p->nbody; j++)
			if (j * k / p->nbody == c)
				sum += req[p->body[j]].min_rows;
		if (sum > tallest)
			tallest = sum;
	}
	return tallest;
}

/* The most columns that fit both across and down wins: more columns keep
 * more panes on a short screen. Returns 0 when none fits; *body_rows is
 * the rows the body needs then. */
static int choose_columns(int rows, int cols, const struct gt_layout_req *req, const struct place_plan *p,
			  int *body_rows)
{
	int max_k = p->nbody < GT_LAYOUT_MAX_COLUMNS ? p->nbody : GT_LAYOUT_MAX_COLUMNS;
	*body_rows = 0;
	for (int k = max_k; k >= 1; k--) {
		int colw = (cols - (k - 1)) / k;
		if (colw < p->body_min_cols || (k > 1 && colw < GT_LAYOUT_SPLIT_COLS))
			continue;
		int tallest = tallest_column(req, p, k);
		if (p->top_min + tallest <= rows) {
			*body_rows = tallest;
			return k;
		}
	}
	return 0;
}

/* Full-width panes grow first (the header is the most important), but only
 * into rows the body does not need. Returns the first row below them. */
static int place_top(int rows, int cols, const struct gt_layout_req *req, int n, const bool *set,
		     const struct place_plan *p, int body_rows, struct gt_layout *out)
{
	int spare_top = rows - p->top_min - body_rows;
	int grow_top = p->top_want - p->top_min < spare_top ? p->top_want - p->top_min : spare_top;
	int y = 0;
	for (int i = 0; i < n; i++) {
		if (!set[i] || !req[i].full_width)
			continue;
		int h = req[i].min_rows;
		int want = req[i].want_rows > h ? req[i].want_rows : h;
		int g = want - h < grow_top ? want - h : grow_top;
		h += g;
		grow_top -= g;
		out->shown[i] = true;
		out->rects[i] = (struct gt_rect){ y, 0, h, cols };
		y += h;
	}
	return y;
}

/* Shares `extra` rows among a column's m panes: first toward each pane's
 * wish, most important first; what nobody wished for goes to the panes
 * that can use it (graphs grow taller, lists longer), shared evenly. A
 * pane of fixed figures never gets blank rows inside it, so what no such
 * pane takes stays at the bottom of the column. */
static void share_rows(const struct gt_layout_req *req, const int *members, int m, int *heights, int extra)
{
	for (int pass = 0; pass < m && extra > 0; pass++) {
		int best = -1;
		for (int j = 0; j < m; j++) {
			if (heights[j] >= req[members[j]].want_rows)
				continue;
			if (best < 0 || req[members[j]].priority < req[members[best]].priority)
				best = j;
		}
		if (best < 0)
			break;
		int g = req[members[best]].want_rows - heights[best];
		if (g > extra)
			g = extra;
		heights[best] += g;
		extra -= g;
	}
	int stretchy = 0;
	for (int j = 0; j < m; j++)
		stretchy += req[members[j]].stretch;
	for (int j = 0; stretchy > 0 && extra > 0; j = (j + 1) % m) {
		if (!req[members[j]].stretch)
			continue;
		heights[j]++;
		extra--;
	}
}

/* Places column c of k, from row y down to the bottom of the screen. */
static void place_column(int rows, int cols, const struct gt_layout_req *req, const struct place_plan *p, int k,
			 int c, int y, struct gt_layout *out)
{
	int members[GT_LAYOUT_MAX_PANES], heights[GT_LAYOUT_MAX_PANES], m = 0, used = 0;
	for (int j = 0; j < p->nbody; j++) {
		if (j * k / p->nbody == c) {
			members[m] = p->body[j];
			heights[m] = req[p->body[j]].min_rows;
			used += heights[m++];
		}
	}
	share_rows(req, members, m, heights, rows - y - used);
	int colw = (cols - (k - 1)) / k;
	int x = c * (colw + 1);
	/* The last column takes the remainder of an uneven split. */
	int w = c == k - 1 ? cols - x : colw;
	for (int j = 0; j < m; j++) {
		out->shown[members[j]] = true;
		out->rects[members[j]] = (struct gt_rect){ y, x, heights[j], w };
		y += heights[j];
	}
}

/* Places the panes in `set`; false when they do not fit. */
static bool place(int rows, int cols, const struct gt_layout_req *req, int n, const bool *set,
		  struct gt_layout *out)
{
	struct place_plan p;

	memset(out->shown, 0, sizeof(out->shown));
	memset(out->rects, 0, sizeof(out->rects));
	out->columns = 0;
	if (!plan_panes(cols, req, n, set, &p) || p.top_min > rows)
		return false;
	int body_rows = 0;
	int k = choose_columns(rows, cols, req, &p, &body_rows);
	if (p.nbody > 0 && k == 0)
		return false;
	int y = place_top(rows, cols, req, n, set, &p, body_rows, out);
	if (p.nbody == 0)
		return true;
	out->columns = k;
	for (int c = 0; c < k; c++)
		place_column(rows, cols, req, &p, k, c, y, out);
	return true;
}

/* The visible pane of the largest priority number still in the set (the
 * later one on a tie), or -1. */
static int least_important(const struct gt_layout_req *req, int n, const bool *set)
{
	int worst = -1;
	for (int i = 0; i < n; i++)
		if (set[i] && (worst < 0 || req[i].priority >= req[worst].priority))
			worst = i;
	return worst;
}

/* Marks the two most important visible panes in top2 and sets the size
 * they need together. */
static void smallest_usable(const struct gt_layout_req *req, int n, struct gt_layout *out, bool *top2)
{
	int picked[2], np = 0;

	for (int i = 0; i < n; i++)
		top2[i] = req[i].visible;
	int visible = 0;
	for (int i = 0; i < n; i++)
		visible += top2[i];
	while (visible > 2) {
		top2[least_important(req, n, top2)] = false;
		visible--;
	}
	for (int i = 0; i < n; i++)
		if (top2[i])
			picked[np++] = i;
	out->need_rows = 0;
	out->need_cols = 0;
	for (int j = 0; j < np; j++) {
		const struct gt_layout_req *r = &req[picked[j]];
		out->need_rows += r->min_rows;
		if (r->min_cols > out->need_cols)
			out->need_cols = r->min_cols;
	}
}

void gt_layout_compute(int rows, int cols, const struct gt_layout_req *req, int n, struct gt_layout *out)
{
	bool set[GT_LAYOUT_MAX_PANES] = { false };
	bool top2[GT_LAYOUT_MAX_PANES] = { false };
	int in_set = 0;

	memset(out, 0, sizeof(*out));
	if (n > GT_LAYOUT_MAX_PANES)
		n = GT_LAYOUT_MAX_PANES;
	smallest_usable(req, n, out, top2);
	if (rows <= 0 || cols <= 0)
		return;
	/* A pane wider than the screen can never fit; dropping it first keeps
	 * narrower panes of larger priority numbers that do. */
	for (int i = 0; i < n; i++) {
		set[i] = req[i].visible && req[i].min_cols <= cols;
		in_set += set[i];
	}
	while (in_set > 0 && !place(rows, cols, req, n, set, out)) {
		set[least_important(req, n, set)] = false;
		in_set--;
	}
	out->usable = true;
	for (int i = 0; i < n; i++)
		if (top2[i] && !set[i])
			out->usable = false;
	if (!out->usable || in_set == 0) {
		memset(out->shown, 0, sizeof(out->shown));
		memset(out->rects, 0, sizeof(out->rects));
		out->columns = 0;
	}
}
