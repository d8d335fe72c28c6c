/* Pauses: the share of wall time the program stood still for the collector. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "tui/panes/pane.h"

/* At 10% of wall time in pauses a service is visibly slowed; 5% is a warning. */
static attr_t share_attr(const struct gt_theme *t, struct gt_f64 share)
{
	if (!share.valid)
		return t->na;
	if (share.value >= 0.10)
		return t->crit | A_BOLD;
	if (share.value >= 0.05)
		return t->warn | A_BOLD;
	return t->value;
}

/* title, share, last and longest, the distribution; the graph and the CPU
 * line beyond */
#define PAUSES_NEED_ROWS 4

static int pauses_need_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return PAUSES_NEED_ROWS;
}

static int pauses_want_rows(const struct gt_view_ctx *ctx)
{
	int graph = gt_graph_rows(ctx->h, GT_HISTORY_PAUSE_SHARE);
	return PAUSES_NEED_ROWS + (graph < 3 ? graph : 3) + 1;   /* a three-row graph and the CPU line */
}

static int pauses_max_rows(const struct gt_view_ctx *ctx)
{
	return PAUSES_NEED_ROWS + gt_graph_rows(ctx->h, GT_HISTORY_PAUSE_SHARE) + 1;
}

static void window_label(char *buf, size_t len, const struct gt_history_window *win, uint64_t window_ns)
{
	double want = (double)window_ns / 1e9;
	if (win->span_s.valid && win->span_s.value < want - 0.5)
		snprintf(buf, len, "%.0fs", win->span_s.value);
	else if (want >= 60)
		snprintf(buf, len, "%.0fmin", want / 60);
	else
		snprintf(buf, len, "%.0fs", want);
}

/* "label share" at x when it fits whole; returns where the next item goes
 * (past the right edge once one did not fit). */
static int whole_item(WINDOW *w, int y, int x, const struct gt_theme *t, const char *label, struct gt_f64 share)
{
	char a[32];
	gt_format_share(a, sizeof(a), share);
	int width = (int)strlen(label) + (int)strlen(a);
	if (x + width > getmaxx(w) - 1)
		return getmaxx(w);
	x = gt_pane_print(w, y, x, t->label, "%s", label);
	return gt_pane_value(w, y, x, t, t->value, a) + 2;
}

/* The longest pause in the window, whole: "longest in 1min 163.9 ms",
 * or "longest 163.9 ms" where that does not fit (the share's line above
 * names the span), else left out. */
static void draw_longest(WINDOW *w, int x, const struct gt_theme *t, const char *span, struct gt_u64 ns)
{
	char a[32], label[32], whole[80];
	gt_format_duration_ns(a, sizeof(a), ns);
	snprintf(label, sizeof(label), "longest in %s ", span);
	snprintf(whole, sizeof(whole), "%s%s", label, a);
	if (!gt_pane_fits(w, x, whole)) {
		snprintf(label, sizeof(label), "longest ");
		snprintf(whole, sizeof(whole), "%s%s", label, a);
		if (!gt_pane_fits(w, x, whole))
			return;
	}
	x = gt_pane_print(w, 2, x, t->label, "%s", label);
	gt_pane_value(w, 2, x, t, t->value, a);
}

/* The three figures of the distribution line, as drawn. */
struct dist_text {
	char p50[32], p99[32], max[32];
};

/* Only where the three figures with their units do not fit (a pane under
 * 38 columns): "p50 0.830  p99 1.1  max 1.1 ms" says a shared unit once. */
static bool dist_shorten(struct dist_text *x)
{
	static const char unit[] = " ms";
	char *f[] = { x->p50, x->p99, x->max };
	for (int i = 0; i < 3; i++) {
		size_t n = strlen(f[i]);
		if (n <= strlen(unit) || strcmp(f[i] + n - strlen(unit), unit) != 0)
			return false;
	}
	x->p50[strlen(x->p50) - strlen(unit)] = '\0';
	x->p99[strlen(x->p99) - strlen(unit)] = '\0';
	return true;
}

static int dist_width(const struct dist_text *x)
{
	return 4 + (int)strlen(x->p50) + 2 + 4 + (int)strlen(x->p99) + 2 + 4 + (int)strlen(x->max);
}

/* p50, p99 and longest of this interval's pauses, each with its unit, and
 * where the width allows how many pauses they are of ("of 45 pauses") and
 * the p99 over the window; n/a where the collector times no single pause,
 * "+" after the count when the log kept only the newest pauses. Every item
 * is whole or left out, never cut: "p50 0.830 ms  p99 1.1 ms  max 1.1 ms"
 * fits a 39-column pane at 80 columns. */
static void draw_distribution(WINDOW *w, int y, const struct gt_view_ctx *ctx, const char *span)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	struct gt_u64 none = { 0, false };
	struct dist_text x;
	char a[48];
	int right = getmaxx(w) - 1;
	gt_format_duration_ns(x.p50, sizeof(x.p50), d ? d->pause_p50_ns : none);
	gt_format_duration_ns(x.p99, sizeof(x.p99), d ? d->pause_p99_ns : none);
	gt_format_duration_ns(x.max, sizeof(x.max), d ? d->pause_max_ns : none);
	char count[40] = "";
	if (d && d->pause_count.valid)
		snprintf(count, sizeof(count), "  of %llu%s pause%s", (unsigned long long)d->pause_count.value,
			 d->pause_dist_partial ? "+" : "", d->pause_count.value == 1 && !d->pause_dist_partial ? "" : "s");
	if (1 + dist_width(&x) > right)
		dist_shorten(&x);
	int at = gt_pane_print(w, y, 1, t->label, "p50 ");
	at = gt_pane_value(w, y, at, t, t->value, x.p50);
	at = gt_pane_print(w, y, at + 2, t->label, "p99 ");
	at = gt_pane_value(w, y, at, t, t->value, x.p99);
	at = gt_pane_print(w, y, at + 2, t->label, "max ");
	at = gt_pane_value(w, y, at, t, t->value, x.max);
	if (!d)
		return;
	if (count[0]) {
		if (at + (int)strlen(count) > right)
			return;
		at = gt_pane_print(w, y, at, t->label, "%s", count);
	}
	struct gt_pause_dist win;
	gt_history_pause_dist(ctx->h, ctx->window_ns, &d->cur, &win);
	gt_format_duration_ns(a, sizeof(a), win.p99_ns);
	if (!win.count.valid || at + 2 + (int)strlen(span) + 5 + (int)strlen(a) > right)
		return;
	at = gt_pane_print(w, y, at + 2, t->label, "%s p99 ", span);
	gt_pane_value(w, y, at, t, t->value, a);
}

static void draw_pauses(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	struct gt_f64 none = { 0, false };
	struct gt_u64 none_u = { 0, false };
	char a[32], span[16];
	int x;

	gt_pane_draw_title(w, ctx, "Pauses");
	struct gt_history_window win;
	gt_history_window(ctx->h, ctx->window_ns, &win);
	window_label(span, sizeof(span), &win, ctx->window_ns);

	struct gt_f64 share = d ? d->pause_share : none;
	x = gt_pane_print(w, 1, 1, t->label, "share ");
	x = gt_pane_value(w, 1, x, t, share_attr(t, share), gt_format_share(a, sizeof(a), share));
	x = gt_pane_print(w, 1, x + 2, t->label, "over %s ", span);
	gt_pane_value(w, 1, x, t, share_attr(t, win.pause_share), gt_format_share(a, sizeof(a), win.pause_share));

	if (getmaxy(w) >= 3) {
		x = gt_pane_print(w, 2, 1, t->label, "last ");
		x = gt_pane_value(w, 2, x, t, t->value, gt_format_duration_ns(a, sizeof(a), d ? d->cur.last_pause_ns : none_u));
		draw_longest(w, x + 2, t, span, win.longest_pause_ns);
	}
	int rows = getmaxy(w);
	bool dist_row = rows >= 4;
	bool cpu_row = rows >= 6;
	if (dist_row)
		draw_distribution(w, 3, ctx, span);
	int graph_y = dist_row ? 4 : 3;
	int graph_rows = rows - graph_y - (cpu_row ? 1 : 0);
	if (graph_rows > GT_GRAPH_MAX_ROWS)
		graph_rows = GT_GRAPH_MAX_ROWS;
	struct gt_graph_scale g = gt_pane_sparkline(w, graph_y, 1, getmaxx(w) - 2, graph_rows, ctx->h,
						    GT_HISTORY_PAUSE_SHARE, t);
	struct gt_f64 top = { g.top, true };
	gt_pane_graph_label(w, ctx, "Pauses", &g, gt_format_share(a, sizeof(a), top));
	gt_pane_graph_zero(w, graph_y, &g, graph_rows, t, "no pause");
	if (cpu_row) {
		/* whole items only: a narrow pane drops the last ones, never cuts one */
		int y = graph_y + (graph_rows > 0 ? graph_rows : 0);
		/* the process's CPU first: every runtime has it. .NET has no
		 * safepoints and gives no GC CPU time: rows always n/a there are
		 * left out, not shown in the room of a figure. */
		const struct gt_runtime_traits *rt = ctx->info ? ctx->info->runtime : NULL;
		x = whole_item(w, y, 1, t, "process CPU ", d ? d->cpu_share : none);
		if (!rt || rt->has_gc_cpu_and_safepoints) {
			x = whole_item(w, y, x, t, "GC CPU ", d ? d->gc_cpu_share : none);
			whole_item(w, y, x, t, "safepoints ", d ? d->safepoint_share : none);
		}
	}
}

const struct gt_pane_ops gt_pane_pauses = {
	.name = "pauses",
	.title = "Pauses",
	.min_rows = 3,
	.min_cols = 36,
	.priority = 2,
	.stretch = true,
	.max_rows = pauses_max_rows,
	.need_rows = pauses_need_rows,
	.want_rows = pauses_want_rows,
	.draw = draw_pauses,
};
