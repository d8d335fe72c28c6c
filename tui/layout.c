#include "tui/layout.h"

#include <string.h>

/* Places the panes in `set`; false when they do not fit. */
static bool place(int rows, int cols, const struct gt_layout_req *req, int n, const bool *set,
		  struct gt_layout *out)
{
	int body[GT_LAYOUT_MAX_PANES], nbody = 0;
	int top_min = 0, top_want = 0, body_min_cols = 0;

	memset(out->shown, 0, sizeof(out->shown));
	memset(out->rects, 0, sizeof(out->rects));
	out->columns = 0;
	for (int i = 0; i < n; i++) {
		if (!set[i])
			continue;
		if (req[i].full_width) {
			if (req[i].min_cols > cols)
				return false;
			top_min += req[i].min_rows;
			top_want += req[i].want_rows > req[i].min_rows ? req[i].want_rows : req[i].min_rows;
		} else {
			body[nbody++] = i;
			if (req[i].min_cols > body_min_cols)
				body_min_cols = req[i].min_cols;
		}
	}
	if (top_min > rows)
		return false;

	/* The most columns that fit both across and down wins: more columns
	 * keep more panes on a short screen. */
	int k = 0, body_rows = 0;
	int max_k = nbody < GT_LAYOUT_MAX_COLUMNS ? nbody : GT_LAYOUT_MAX_COLUMNS;
	for (int try_k = max_k; try_k >= 1; try_k--) {
		int colw = (cols - (try_k - 1)) / try_k;
		if (colw < body_min_cols || (try_k > 1 && colw < GT_LAYOUT_SPLIT_COLS))
			continue;
		int tallest = 0;
		for (int c = 0; c < try_k; c++) {
			int sum = 0;
			for (int j = 0; j < nbody; j++)
				if (j * try_k / nbody == c)
					sum += req[body[j]].min_rows;
			if (sum > tallest)
				tallest = sum;
		}
		if (top_min + tallest <= rows) {
			k = try_k;
			body_rows = tallest;
			break;
		}
	}
	if (nbody > 0 && k == 0)
		return false;

	/* Full-width panes grow first (the header is the most important), but
	 * only into rows the body does not need. */
	int spare_top = rows - top_min - body_rows;
	int grow_top = top_want - top_min < spare_top ? top_want - top_min : spare_top;
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
	if (nbody == 0)
		return true;

	out->columns = k;
	int avail = rows - y;
	int colw = (cols - (k - 1)) / k;
	for (int c = 0; c < k; c++) {
		int members[GT_LAYOUT_MAX_PANES], m = 0, used = 0;
		for (int j = 0; j < nbody; j++) {
			if (j * k / nbody == c) {
				members[m++] = body[j];
				used += req[body[j]].min_rows;
			}
		}
		int heights[GT_LAYOUT_MAX_PANES];
		for (int j = 0; j < m; j++)
			heights[j] = req[members[j]].min_rows;
		/* Extra rows go toward each pane's wish, most important first. */
		int extra = avail - used;
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
		/* What nobody wished for goes to the panes that can use it (graphs
		 * grow taller, lists longer), shared evenly; a pane of fixed
		 * figures never gets blank rows inside it, so what no such pane
		 * takes stays at the bottom of the column. */
		int stretchy = 0;
		for (int j = 0; j < m; j++)
			stretchy += req[members[j]].stretch;
		for (int j = 0; stretchy > 0 && extra > 0; j = (j + 1) % m) {
			if (!req[members[j]].stretch)
				continue;
			heights[j]++;
			extra--;
		}
		int cy = y;
		int x = c * (colw + 1);
		/* The last column takes the remainder of an uneven split. */
		int w = c == k - 1 ? cols - x : colw;
		for (int j = 0; j < m; j++) {
			out->shown[members[j]] = true;
			out->rects[members[j]] = (struct gt_rect){ cy, x, heights[j], w };
			cy += heights[j];
		}
	}
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
