/* Allocation: how fast the program makes garbage, and how much so far. */
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "tui/panes/pane.h"

/* title, rate, total, per operation; the graph only in rows beyond */
#define ALLOC_NEED_ROWS 4

static int alloc_need_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return ALLOC_NEED_ROWS;
}

static int alloc_want_rows(const struct gt_view_ctx *ctx)
{
	int graph = gt_graph_rows(ctx->h, GT_HISTORY_ALLOC_RATE);
	return ALLOC_NEED_ROWS + (graph < 3 ? graph : 3);   /* a three-row graph */
}

static int alloc_max_rows(const struct gt_view_ctx *ctx)
{
	return ALLOC_NEED_ROWS + gt_graph_rows(ctx->h, GT_HISTORY_ALLOC_RATE);
}

/* "operation" for "operations": what is counted, one of them. opcount_name is
 * one of the collectors' static plural words ("requests", "operations"). */
static void op_singular(char *buf, size_t len, const struct gt_sample *s)
{
	const char *name = s->opcount_name ? s->opcount_name : "operations";
	size_t n = strlen(name);
	snprintf(buf, len, "%.*s", (int)(n > 1 && name[n - 1] == 's' ? n - 1 : n), name);
}

/* "per request 797 KiB  1437.2 requests/s": the bytes of one operation, and
 * how many a second (the unit shortened to "/s" where the name does not
 * fit); n/a with its reason where the room allows. */
static void draw_per_op(WINDOW *w, int y, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	char one[32], a[64], b[96];
	if (d)
		op_singular(one, sizeof(one), &d->cur);
	else
		snprintf(one, sizeof(one), "operation");
	int x = gt_pane_print(w, y, 1, t->label, "per %s ", one);
	if (d && d->bytes_per_op.valid) {
		struct gt_u64 per = { (uint64_t)d->bytes_per_op.value, true };
		x = gt_pane_print(w, y, x, t->value, "%s", gt_format_bytes(a, sizeof(a), per));
		if (!d->opcount_rate.valid)
			return;
		snprintf(b, sizeof(b), "%.1f %s/s", d->opcount_rate.value, d->cur.opcount_name ? d->cur.opcount_name : "operations");
		if (gt_pane_whole(w, y, x + 2, t->label, b) == x + 2) {
			snprintf(b, sizeof(b), "%.1f/s", d->opcount_rate.value);
			gt_pane_whole(w, y, x + 2, t->label, b);
		}
		return;
	}
	x = gt_pane_print(w, y, x, t->na, "n/a");
	if (d && d->cur.opcount_unavailable) {
		/* --ops named a counter: which, and why it gives nothing, as far
		 * as the words that fit (the name whole or not at all) */
		char why[512];
		snprintf(why, sizeof(why), "(%s: %s)", d->cur.opcount_counter ? d->cur.opcount_counter : "?",
			 d->cur.opcount_unavailable);
		gt_pane_print(w, y, x + 1, t->na, "%s", gt_format_cut_words(b, sizeof(b), why, getmaxx(w) - 1 - (x + 1)));
		return;
	}
	gt_pane_whole(w, y, x + 1, t->na, "(no operations counter)");
}

/* The newest interval with a rate (a bound where it was one), before the
 * one the target's exit (exited, or NULL) cut off; NULL when none is kept. */
static const struct gt_history_point *last_rate_before(const struct gt_history *h, const struct gt_derived *exited)
{
	for (size_t age = 0; h && age < gt_history_count(h); age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		/* the interval the death cut off, whatever it says (a HotSpot
		 * target's last reading counts nothing: a rate of 0) */
		if (exited && p->mono_ns >= exited->cur.mono_ns)
			continue;
		if (p->alloc_rate_bps.valid)
			return p;
	}
	return NULL;
}

/* ">=" before a rate that is a lower bound (the estimate missed collection
 * intervals: reason on the help line), "<=" before an upper bound (G1's
 * whole regions: by how much in pane 5); nothing where it is neither or
 * both. */
static int bound_mark(WINDOW *w, int x, const struct gt_theme *t, bool lower, bool upper)
{
	if (lower == upper)
		return x;
	return gt_pane_print(w, 1, x, t->value | A_BOLD, "%s",
			     lower ? (t->utf8 ? "\u2265" : ">=") : (t->utf8 ? "\u2264" : "<="));
}

/* The interval's rate, marked as a bound where it is one. */
static int draw_rate(WINDOW *w, const struct gt_view_ctx *ctx, int x)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	struct gt_f64 none = { 0, false };
	char a[64];
	if (d)
		x = bound_mark(w, x, t, d->alloc_lower_bound, d->alloc_upper_bound);
	return gt_pane_value(w, 1, x, t, t->value | A_BOLD, gt_format_rate(a, sizeof(a), d ? d->alloc_rate_bps : none));
}

/* The last interval of a process that exited is cut off by its death, not
 * a rate (">=0 B/s" read as a figure): the interval's before it stays,
 * marked as the bound it was, saying so. */
static int draw_exited_rate(WINDOW *w, const struct gt_view_ctx *ctx, int x)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_history_point *last = last_rate_before(ctx->h, ctx->d);
	char a[64];
	if (!last)
		return gt_pane_print(w, 1, x, t->na, "n/a (the process has exited)");
	x = bound_mark(w, x, t, last->alloc_lower_bound, last->alloc_upper_bound);
	x = gt_pane_value(w, 1, x, t, t->value | A_BOLD, gt_format_rate(a, sizeof(a), last->alloc_rate_bps));
	return gt_pane_print(w, 1, x + 1, t->label, "before it exited");
}

/* The window's average whole: "avg 60s 10.0 MiB/s", "avg 10.0 MiB/s"
 * where that does not fit (the graph's label says its span), else out. */
static void draw_average(WINDOW *w, int x, const struct gt_theme *t, const struct gt_history_window *win)
{
	char label[32], rate[32], whole[64];
	gt_format_rate(rate, sizeof(rate), win->alloc_rate_bps);
	snprintf(label, sizeof(label), "avg %.0fs ", win->span_s.valid ? win->span_s.value : 0.0);
	snprintf(whole, sizeof(whole), "%s%s", label, rate);
	if (!gt_pane_fits(w, x, whole)) {
		snprintf(label, sizeof(label), "avg ");
		snprintf(whole, sizeof(whole), "%s%s", label, rate);
		if (!gt_pane_fits(w, x, whole))
			return;
	}
	x = gt_pane_print(w, 1, x, t->label, "%s", label);
	gt_pane_value(w, 1, x, t, t->value, rate);
}

/* After the total: since when, and its source with its bound, each whole;
 * where both do not fit, the source (an estimate, a bound) goes first. */
static void draw_total_notes(WINDOW *w, int y, int x, const struct gt_theme *t, const struct gt_derived *d)
{
	char since[32] = "", source[64], both[96];
	if (d && d->cur.alloc_bytes_total.valid)
		snprintf(since, sizeof(since), " since %s",
			 d->cur.alloc_since == GT_ALLOC_SINCE_PROCESS_START ? "start" : "attach");
	snprintf(source, sizeof(source), " (%s%s)", d ? gt_alloc_source_name(d->cur.alloc_source) : "n/a",
		 !d || d->alloc_lower_bound == d->alloc_upper_bound ? ""
		 : d->alloc_lower_bound ? ", at least" : ", at most");
	snprintf(both, sizeof(both), "%s%s", since, source);
	if (gt_pane_fits(w, x, both))
		x = gt_pane_print(w, y, x, t->label, "%s", since);
	if (gt_pane_fits(w, x, source))
		gt_pane_print(w, y, x, t->label, "%s", source);
}

static void draw_alloc(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	char a[64], b[64];
	struct gt_u64 none_u = { 0, false };
	int cols = getmaxx(w), x;

	gt_pane_draw_title(w, ctx, "Allocation");
	struct gt_history_window win;
	gt_history_window(ctx->h, ctx->window_ns, &win);

	x = gt_pane_print(w, 1, 1, t->label, "rate ");
	x = ctx->status == GT_VIEW_EXITED ? draw_exited_rate(w, ctx, x) : draw_rate(w, ctx, x);
	draw_average(w, x + 2, t, &win);

	/* The graph gets the rows the figures do not need: at 40 columns one
	 * row still shows 38 intervals. */
	int rows = getmaxy(w);
	int text_rows = rows - 2 < 2 ? rows - 2 : 2;
	int graph_rows = rows - 2 - text_rows;
	if (graph_rows > GT_GRAPH_MAX_ROWS)
		graph_rows = GT_GRAPH_MAX_ROWS;
	struct gt_graph_scale g = gt_pane_sparkline(w, 2, 1, cols - 2, graph_rows, ctx->h, GT_HISTORY_ALLOC_RATE, t);
	struct gt_f64 top = { g.top, true };
	gt_pane_graph_label(w, ctx, "Allocation", &g, gt_format_rate(b, sizeof(b), top));
	gt_pane_graph_zero(w, 2, &g, graph_rows, t, "no allocation");
	int y = 2 + graph_rows;

	if (text_rows >= 1) {
		x = gt_pane_print(w, y, 1, t->label, "total ");
		x = gt_pane_value(w, y, x, t, t->value, gt_format_bytes(a, sizeof(a), d ? d->cur.alloc_bytes_total : none_u));
		draw_total_notes(w, y, x, t, d);
		y++;
	}
	if (text_rows >= 2)
		draw_per_op(w, y, ctx);
}

const struct gt_pane_ops gt_pane_alloc = {
	.name = "alloc",
	.title = "Allocation",
	.min_rows = 3,
	.min_cols = 32,
	.priority = 1,
	.stretch = true,
	.max_rows = alloc_max_rows,
	.need_rows = alloc_need_rows,
	.want_rows = alloc_want_rows,
	.draw = draw_alloc,
};
