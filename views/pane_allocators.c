/* Top allocators: filled by allocation sampling, which this build does not
 * have yet. The pane says so and how it will be turned on; it never shows
 * a made-up list. */
#include "pane.h"

static int allocators_want_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return 4;
}

static void draw_allocators(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;

	gt_pane_draw_title(w, ctx, "Top allocators");
	gt_pane_print(w, 1, 1, t->na, "n/a: allocation sampling is off");
	gt_pane_print(w, 2, 1, t->label, "--allocators or key a turn it on in a gctop");
	gt_pane_print(w, 3, 1, t->label, "built with sampling; this build has none");
}

const struct gt_pane_ops gt_pane_allocators = {
	.name = "allocators",
	.title = "Top allocators",
	.min_rows = 2,
	.min_cols = 32,
	.priority = 5,
	.want_rows = allocators_want_rows,
	.draw = draw_allocators,
};
