/* The panes in screen order (pane N is toggled by key N), and what each asks of the layout. */
#include "tui/panes/pane.h"

const struct gt_pane_ops *const gt_panes[] = {
	&gt_pane_header,
	&gt_pane_alloc,
	&gt_pane_collections,
	&gt_pane_pauses,
	&gt_pane_large,
	&gt_pane_memory,
	&gt_pane_allocators,
	&gt_pane_findings,
};

const size_t gt_pane_count = sizeof(gt_panes) / sizeof(gt_panes[0]);

void gt_pane_rows(const struct gt_pane_ops *p, const struct gt_view_ctx *ctx, int *need, int *want)
{
	*need = p->need_rows ? p->need_rows(ctx) : p->min_rows;
	if (*need < p->min_rows)
		*need = p->min_rows;
	*want = p->want_rows(ctx);
	if (*want < *need)
		*want = *need;
}

int gt_pane_max_rows(const struct gt_pane_ops *p, const struct gt_view_ctx *ctx)
{
	if (!p->max_rows)
		return 0;
	int need, want, most = p->max_rows(ctx);
	gt_pane_rows(p, ctx, &need, &want);
	return most > want ? most : want;
}
