#include "tui/layout.h"

#include <stdlib.h>
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

/* Which body panes go to which column: column c holds the body panes from
 * start[c] up to start[c + 1], in screen order, none empty. */
struct split {
	int k;
	int start[GT_LAYOUT_MAX_COLUMNS + 1];
};

/* The split of the plain flow, pane j in column j * k / nbody: the place
 * each pane keeps while every pane's content fits. */
static void default_split(const struct place_plan *p, int k, struct split *s)
{
	s->k = k;
	for (int c = 0; c <= k; c++)
		s->start[c] = (c * p->nbody + k - 1) / k;
}

/* The first split of k columns (one pane in each of the first k - 1). */
static void first_split(const struct place_plan *p, int k, struct split *s)
{
	s->k = k;
	for (int c = 0; c < k; c++)
		s->start[c] = c;
	s->start[k] = p->nbody;
}

/* The next split in order of its boundaries (the combinations of k - 1
 * boundaries among nbody - 1 places); false after the last. */
static bool next_split(const struct place_plan *p, struct split *s)
{
	int k = s->k;
	for (int c = k - 1; c >= 1; c--) {
		if (s->start[c] < p->nbody - (k - c)) {
			s->start[c]++;
			for (int d = c + 1; d < k; d++)
				s->start[d] = s->start[d - 1] + 1;
			return true;
		}
	}
	return false;
}

/* The sums of the minimum and wished rows of column c. */
static void column_rows(const struct gt_layout_req *req, const struct place_plan *p, const struct split *s, int c,
			int *min_sum, int *want_sum)
{
	*min_sum = 0;
	*want_sum = 0;
	for (int j = s->start[c]; j < s->start[c + 1]; j++) {
		const struct gt_layout_req *r = &req[p->body[j]];
		*min_sum += r->min_rows;
		*want_sum += r->want_rows > r->min_rows ? r->want_rows : r->min_rows;
	}
}

/* The tallest column's minimum rows under split s. */
static int tallest_min(const struct gt_layout_req *req, const struct place_plan *p, const struct split *s)
{
	int tallest = 0, min_sum, want_sum;
	for (int c = 0; c < s->k; c++) {
		column_rows(req, p, s, c, &min_sum, &want_sum);
		if (min_sum > tallest)
			tallest = min_sum;
	}
	return tallest;
}

/* What a split costs, least first: the rows of content it leaves unshown,
 * how far it moves panes from the plain flow, and the rows it leaves
 * blank (in a column with no graph to take them). */
struct split_cost {
	int cut, moved, blank;
};

static bool cheaper(const struct split_cost *a, const struct split_cost *b)
{
	if (a->cut != b->cut)
		return a->cut < b->cut;
	if (a->moved != b->moved)
		return a->moved < b->moved;
	return a->blank < b->blank;
}

/* A column gives its rows to its panes' wishes first, so what it cuts is
 * what they wish for beyond its height, and what it has over goes to its
 * graphs or stands blank. */
static void split_cost(const struct gt_layout_req *req, const struct place_plan *p, const struct split *s,
		       const struct split *plain, int rows, struct split_cost *cost)
{
	int min_sum, want_sum;
	memset(cost, 0, sizeof(*cost));
	for (int c = 0; c < s->k; c++) {
		column_rows(req, p, s, c, &min_sum, &want_sum);
		/* the rows its graphs can still take, up to their caps */
		int grow = 0;
		bool endless = false;
		for (int j = s->start[c]; j < s->start[c + 1]; j++) {
			const struct gt_layout_req *r = &req[p->body[j]];
			int want = r->want_rows > r->min_rows ? r->want_rows : r->min_rows;
			if (r->stretch && r->max_rows <= 0)
				endless = true;
			else if (r->stretch && r->max_rows > want)
				grow += r->max_rows - want;
		}
		if (want_sum > rows)
			cost->cut += want_sum - rows;
		else if (!endless && want_sum + grow < rows)
			cost->blank += rows - want_sum - grow;
		if (c > 0)
			cost->moved += abs(s->start[c] - plain->start[c]);
	}
}

/* The split of k columns for a body `rows` tall that cuts the least
 * content: a list too long for its column moves beside panes that leave
 * room, rather than rows standing blank while it is cut. Among those, the
 * one nearest the plain flow, so panes stay where they were while their
 * content fits. False when no split holds every pane's minimum. */
static bool best_split(const struct gt_layout_req *req, const struct place_plan *p, int k, int rows,
		       struct split *best)
{
	struct split s, plain;
	struct split_cost cost, best_cost;
	bool found = false;
	default_split(p, k, &plain);
	first_split(p, k, &s);
	do {
		if (tallest_min(req, p, &s) > rows)
			continue;
		split_cost(req, p, &s, &plain, rows, &cost);
		if (!found || cheaper(&cost, &best_cost)) {
			*best = s;
			best_cost = cost;
			found = true;
		}
	} while (next_split(p, &s));
	return found;
}

/* The fewest rows the body of k columns needs: its tallest column's
 * minimum under the split that makes it smallest. */
static int body_need(const struct gt_layout_req *req, const struct place_plan *p, int k)
{
	struct split s;
	int need = -1;
	first_split(p, k, &s);
	do {
		int t = tallest_min(req, p, &s);
		if (need < 0 || t < need)
			need = t;
	} while (next_split(p, &s));
	return need;
}

/* The most columns that fit both across and down wins: more columns keep
 * more panes on a short screen. Returns 0 when none fits; *need is the
 * rows the body needs then. */
static int choose_columns(int rows, int cols, const struct gt_layout_req *req, const struct place_plan *p,
			  int *need)
{
	int max_k = p->nbody < GT_LAYOUT_MAX_COLUMNS ? p->nbody : GT_LAYOUT_MAX_COLUMNS;
	*need = 0;
	for (int k = max_k; k >= 1; k--) {
		int colw = (cols - (k - 1)) / k;
		if (colw < p->body_min_cols || (k > 1 && colw < GT_LAYOUT_SPLIT_COLS))
			continue;
		int tallest = body_need(req, p, k);
		if (p->top_min + tallest <= rows) {
			*need = tallest;
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
 * wish (all its content), most important first; what nobody wished for
 * goes to the graphs, which grow taller, shared evenly. A list or a pane
 * of figures never gets blank rows inside it, so what no graph takes
 * stays at the bottom of the column. */
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
	/* Evenly to the graphs that can still grow, each up to its cap. */
	while (extra > 0) {
		bool grew = false;
		for (int j = 0; j < m && extra > 0; j++) {
			const struct gt_layout_req *r = &req[members[j]];
			if (!r->stretch || (r->max_rows > 0 && heights[j] >= r->max_rows))
				continue;
			heights[j]++;
			extra--;
			grew = true;
		}
		if (!grew)
			break;
	}
}

/* Places column c of split s, from row y down to the bottom of the screen. */
static void place_column(int rows, int cols, const struct gt_layout_req *req, const struct place_plan *p,
			 const struct split *s, int c, int y, struct gt_layout *out)
{
	int members[GT_LAYOUT_MAX_PANES], heights[GT_LAYOUT_MAX_PANES], m = 0, used = 0;
	for (int j = s->start[c]; j < s->start[c + 1]; j++) {
		members[m] = p->body[j];
		heights[m] = req[p->body[j]].min_rows;
		used += heights[m++];
	}
	share_rows(req, members, m, heights, rows - y - used);
	int k = s->k;
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
	struct split s;

	memset(out->shown, 0, sizeof(out->shown));
	memset(out->rects, 0, sizeof(out->rects));
	out->columns = 0;
	if (!plan_panes(cols, req, n, set, &p) || p.top_min > rows)
		return false;
	int need = 0;
	int k = choose_columns(rows, cols, req, &p, &need);
	if (p.nbody > 0 && k == 0)
		return false;
	int y = place_top(rows, cols, req, n, set, &p, need, out);
	if (p.nbody == 0)
		return true;
	if (!best_split(req, &p, k, rows - y, &s))
		return false;   /* cannot be: the top left the body its need */
	out->columns = k;
	for (int c = 0; c < k; c++)
		place_column(rows, cols, req, &p, &s, c, y, out);
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
