/* Large objects: LOH/POH on .NET, the humongous estimate on G1, or why not. */
#include <stdio.h>

#include "model/format.h"
#include "tui/panes/pane.h"

/* title and what lives there now, and how fast it is allocated, or the
 * one line that says why there is no figure */
static int large_want_rows(const struct gt_view_ctx *ctx)
{
	const struct gt_derived *d = ctx->d;
	if (d && !d->cur.large_bytes.valid && !d->large_alloc_rate_bps.valid)
		return 2;
	return d && (d->large_waste_max_rate_bps.valid || d->large_waste_rate_bps.valid) ? 4 : 3;
}

/* G1 counts humongous objects in whole regions: the share above is the
 * most, this line the least, and the regions' unused tails at most. */
static void draw_waste_bound(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	char a[32];
	int x = gt_pane_print(w, 3, 1, t->label, "region tails ");
	x = gt_pane_print(w, 3, x, t->value, "%s", t->utf8 ? "\u2264" : "<=");
	x = gt_pane_value(w, 3, x, t, t->value, gt_format_rate(a, sizeof(a), d->large_waste_max_rate_bps));
	/* the objects' least share, whole or left out */
	char share[32], whole[64];
	gt_format_share(share, sizeof(share), d->large_alloc_share_min);
	snprintf(whole, sizeof(whole), "(objects %s%s)", t->utf8 ? "\u2265" : ">=", share);
	if (!gt_pane_fits(w, x + 1, whole))
		return;
	x = gt_pane_print(w, 3, x + 1, t->label, "(objects ");
	x = gt_pane_print(w, 3, x, t->value, "%s", t->utf8 ? "\u2265" : ">=");
	x = gt_pane_value(w, 3, x, t, t->value, share);
	gt_pane_print(w, 3, x, t->label, ")");
}

/* With the agent: the tails its samples measure. */
static void draw_waste(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	char a[32];
	int x = gt_pane_print(w, 3, 1, t->label, "region tails ");
	gt_pane_value(w, 3, x, t, t->value, gt_format_rate(a, sizeof(a), ctx->d->large_waste_rate_bps));
}

static void draw_large(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	char a[32];
	int x;

	gt_pane_draw_title(w, ctx, "Large objects");
	if (!d) {
		gt_pane_print(w, 1, 1, t->na, "n/a: no sample yet");
		return;
	}
	if (!d->cur.large_bytes.valid && !d->large_alloc_rate_bps.valid) {
		x = gt_pane_print(w, 1, 1, t->na, "n/a");
		gt_pane_print(w, 1, x, t->label, ": %s", d->cur.large_unavailable ? d->cur.large_unavailable
						       : "the runtime gives no large-object figure");
		return;
	}
	x = gt_pane_print(w, 1, 1, t->label, "live ");
	x = gt_pane_value(w, 1, x, t, t->value | A_BOLD, gt_format_bytes(a, sizeof(a), d->cur.large_bytes));
	char item[96];
	if (d->cur.large_source) {
		snprintf(item, sizeof(item), "(%s)", d->cur.large_source);
		if (gt_pane_fits(w, x + 1, item))
			x = gt_pane_print(w, 1, x + 1, t->label, "%s", item);
	}
	if (d->cur.pinned_bytes.valid) {
		snprintf(item, sizeof(item), "pinned %s", gt_format_bytes(a, sizeof(a), d->cur.pinned_bytes));
		if (gt_pane_fits(w, x + 2, item)) {
			x = gt_pane_print(w, 1, x + 2, t->label, "pinned ");
			gt_pane_value(w, 1, x, t, t->value, a);
		}
	}
	if (getmaxy(w) >= 3) {
		x = gt_pane_print(w, 2, 1, t->label, "allocated ");
		x = gt_pane_value(w, 2, x, t, t->value, gt_format_rate(a, sizeof(a), d->large_alloc_rate_bps));
		/* its share of all allocation, where known: "(<=n/a of all)" says nothing */
		char of[64];
		bool bound = d->large_waste_max_rate_bps.valid;
		snprintf(of, sizeof(of), "(%s%s of all)", bound ? (t->utf8 ? "\u2264" : "<=") : "",
			 gt_format_share(a, sizeof(a), d->large_alloc_share));
		if (d->large_alloc_share.valid && gt_pane_fits(w, x + 1, of)) {
			x = gt_pane_print(w, 2, x + 1, t->label, "(");
			/* whole regions: the objects' share is at most this (least: row 3) */
			if (d->large_waste_max_rate_bps.valid)
				x = gt_pane_print(w, 2, x, t->value, "%s", t->utf8 ? "\u2264" : "<=");
			x = gt_pane_value(w, 2, x, t, t->value, gt_format_share(a, sizeof(a), d->large_alloc_share));
			gt_pane_print(w, 2, x, t->label, " of all)");
		}
	}
	if (getmaxy(w) >= 4 && d->large_waste_max_rate_bps.valid)
		draw_waste_bound(w, ctx);
	else if (getmaxy(w) >= 4 && d->large_waste_rate_bps.valid)
		draw_waste(w, ctx);
}

const struct gt_pane_ops gt_pane_large = {
	.name = "large",
	.title = "Large objects",
	.min_rows = 2,
	.min_cols = 32,
	.priority = 6,
	.need_rows = large_want_rows,
	.want_rows = large_want_rows,
	.draw = draw_large,
};
