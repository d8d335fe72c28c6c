/* The stacks overlay. Shares are of the site's bytes since sampling
 * started (the stacks are cumulative), while the site's own share in the
 * pane is over the allocation window: the heading says which is which. */
#include <stdio.h>
#include <string.h>

#include "model/alloc_stacks.h"
#include "model/format.h"
#include "tui/panes/pane_overlay.h"
#include "tui/panes/pane.h"
#include "tui/panes/pane_stacks.h"

/* Frames are indented under their stack's share line. */
#define STACKS_FRAME_INDENT 9

static const struct gt_alloc_rate *site_rate(const struct gt_alloc_derived *a, const char *site)
{
	for (unsigned i = 0; a && a->valid && i < a->n_frames && i < GT_ALLOC_SITES_MAX; i++)
		if (strcmp(a->by_frame[i].name, site) == 0)
			return &a->by_frame[i];
	return NULL;
}

static void walk_stack(struct gt_overlay *o, const struct gt_alloc_stacks *st, const struct gt_alloc_site_stacks *s,
		       unsigned k)
{
	const struct gt_alloc_stack *x = &s->stacks[k];
	char share[32], line[96];
	gt_format_share(share, sizeof(share), gt_alloc_stack_share(s, x));
	snprintf(line, sizeof(line), "%7s  stack %u of %llu, %llu samples", share, k + 1,
		 (unsigned long long)s->distinct, (unsigned long long)x->count);
	gt_overlay_text(o, 0, o->t->value | A_BOLD, line);
	/* A frame too long for the line is shortened by its namespace, never
	 * to what another frame of the stack reads as. */
	const char *names[GT_ALLOC_STACK_FRAMES];
	unsigned n = x->n_frames < GT_ALLOC_STACK_FRAMES ? x->n_frames : GT_ALLOC_STACK_FRAMES;
	for (unsigned f = 0; f < n; f++)
		names[f] = gt_alloc_stacks_name(st, x->frames[f]);
	for (unsigned f = 0; f < n; f++) {
		char name[GT_ALLOC_SITE_NAME_LEN + 4];
		gt_format_name(name, sizeof(name), names[f], o->width - STACKS_FRAME_INDENT, names, n);
		gt_overlay_line(o, STACKS_FRAME_INDENT, f == 0 ? o->t->label : o->t->value, name, (int)strlen(name));
	}
	gt_overlay_text(o, 0, o->t->label, "");
}

static void walk(struct gt_overlay *o, const struct gt_view_ctx *ctx, const char *site)
{
	char line[GT_ALLOC_SITE_NAME_LEN + 64], share[32];
	const struct gt_alloc_rate *r = site_rate(ctx->alloc, site);
	gt_format_share(share, sizeof(share), r ? r->share : (struct gt_f64){ 0, false });
	snprintf(line, sizeof(line), "%s  (%s of sampled bytes in the window)", site, share);
	gt_overlay_text(o, 1, o->t->value | A_BOLD, line);
	const struct gt_alloc_stacks *st = ctx->alloc_stacks;
	const struct gt_alloc_site_stacks *s = st ? gt_alloc_stacks_find(st, site) : NULL;
	if (!st) {
		gt_overlay_text(o, 1, o->t->na, ctx->alloc ? "n/a: this sampler takes no stacks (an agent loaded by an older gctop)"
					       : "n/a: allocation sampling is off");
		return;
	}
	if (!s || s->n == 0) {
		gt_overlay_text(o, 1, o->t->na, "n/a: no stack of this site was kept");
		return;
	}
	gt_overlay_text(o, 1, o->t->label, "shares of the site's sampled bytes since sampling started; innermost frame first, "
		"up to the first application frame and a few callers; [native]: code no method covers");
	if (s->dropped) {
		snprintf(line, sizeof(line), "%llu samples went to stacks gctop had no room for",
			 (unsigned long long)s->dropped);
		gt_overlay_text(o, 1, o->t->warn, line);
	}
	gt_overlay_text(o, 0, o->t->label, "");
	for (unsigned k = 0; k < s->n && k < GT_ALLOC_STACKS_TOP; k++)
		walk_stack(o, st, s, k);
}

int gt_stacks_overlay_lines(const struct gt_view_ctx *ctx, const char *site, int width)
{
	struct gt_overlay o = { NULL, ctx->theme, width, 0, 0 };
	walk(&o, ctx, site);
	return o.line;
}

void gt_stacks_overlay_draw(WINDOW *w, int first, const struct gt_view_ctx *ctx, const char *site)
{
	struct gt_overlay o = { w, ctx->theme, getmaxx(w), first, 0 };
	gt_pane_print(w, 0, 0, ctx->theme->title | A_REVERSE, "%-*s", getmaxx(w),
		      " gctop stacks behind a site   q or Esc: close   Up/Down: scroll");
	walk(&o, ctx, site);
}
