/* Allocation: how fast the program makes garbage, and how much so far. */
#include <stdio.h>

#include "views/format.h"
#include "views/pane.h"

/* title, rate, total, per operation; the graph only in rows beyond */
#define ALLOC_NEED_ROWS 4

static int alloc_need_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return ALLOC_NEED_ROWS;
}

static int alloc_want_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return ALLOC_NEED_ROWS + 3;   /* a three-row graph */
}

static void draw_alloc(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	char a[64], b[64];
	struct gt_f64 none = { 0, false };
	struct gt_u64 none_u = { 0, false };
	int cols = getmaxx(w), x;

	gt_pane_draw_title(w, ctx, "Allocation");
	struct gt_history_window win;
	gt_history_window(ctx->h, ctx->window_ns, &win);

	x = gt_pane_print(w, 1, 1, t->label, "rate ");
	/* The estimate missed collection intervals (reason on the help line). */
	if (d && d->alloc_lower_bound && !d->alloc_upper_bound)
		x = gt_pane_print(w, 1, x, t->value | A_BOLD, "%s", t->utf8 ? "\u2265" : ">=");
	/* Humongous objects in whole G1 regions (by how much: pane 5). */
	if (d && d->alloc_upper_bound && !d->alloc_lower_bound)
		x = gt_pane_print(w, 1, x, t->value | A_BOLD, "%s", t->utf8 ? "\u2264" : "<=");
	x = gt_pane_value(w, 1, x, t, t->value | A_BOLD, gt_format_rate(a, sizeof(a), d ? d->alloc_rate_bps : none));
	x = gt_pane_print(w, 1, x + 2, t->label, "avg %.0fs ", win.span_s.valid ? win.span_s.value : 0.0);
	gt_pane_value(w, 1, x, t, t->value, gt_format_rate(b, sizeof(b), win.alloc_rate_bps));

	/* The graph gets the rows the figures do not need: at 40 columns one
	 * row still shows 38 intervals. */
	int rows = getmaxy(w);
	int text_rows = rows - 2 < 2 ? rows - 2 : 2;
	int graph_rows = rows - 2 - text_rows;
	gt_pane_sparkline(w, 2, 1, cols - 2, graph_rows, ctx->h, GT_HISTORY_ALLOC_RATE, t);
	int y = 2 + graph_rows;

	if (text_rows >= 1) {
		x = gt_pane_print(w, y, 1, t->label, "total ");
		x = gt_pane_value(w, y, x, t, t->value, gt_format_bytes(a, sizeof(a), d ? d->cur.alloc_bytes_total : none_u));
		if (d && d->cur.alloc_bytes_total.valid)
			x = gt_pane_print(w, y, x, t->label, " since %s",
					  d->cur.alloc_since == GT_ALLOC_SINCE_PROCESS_START ? "start" : "attach");
		gt_pane_print(w, y, x + 1, t->label, "(%s%s)", d ? gt_alloc_source_name(d->cur.alloc_source) : "n/a",
			      !d || d->alloc_lower_bound == d->alloc_upper_bound ? ""
			      : d->alloc_lower_bound ? ", at least" : ", at most");
		y++;
	}
	if (text_rows >= 2) {
		x = gt_pane_print(w, y, 1, t->label, "per op ");
		if (d && d->bytes_per_op.valid) {
			struct gt_u64 per = { (uint64_t)d->bytes_per_op.value, true };
			x = gt_pane_print(w, y, x, t->value, "%s/%s", gt_format_bytes(a, sizeof(a), per),
					  d->cur.ops_name ? d->cur.ops_name : "op");
			if (d->ops_rate.valid)
				gt_pane_print(w, y, x + 2, t->label, "%.1f %s/s", d->ops_rate.value,
					      d->cur.ops_name ? d->cur.ops_name : "ops");
		} else if (d && d->cur.ops_unavailable) {
			/* --ops named a counter: which, and why it gives nothing */
			gt_pane_print(w, y, x, t->na, "n/a (%s: %s)", d->cur.ops_counter ? d->cur.ops_counter : "?",
				      d->cur.ops_unavailable);
		} else {
			gt_pane_print(w, y, x, t->na, "n/a (no operations counter)");
		}
	}
}

const struct gt_pane_ops gt_pane_alloc = {
	.name = "alloc",
	.title = "Allocation",
	.min_rows = 3,
	.min_cols = 32,
	.priority = 1,
	.stretch = true,
	.need_rows = alloc_need_rows,
	.want_rows = alloc_want_rows,
	.draw = draw_alloc,
};
