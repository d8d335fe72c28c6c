/* The picker's screen: one row per process, the selected one reversed. */
#include <stdio.h>

#include "../tui/picker.h"
#include "format.h"
#include "pane_picker.h"

static void draw_row(WINDOW *w, int y, const struct gt_picker_row *r, const struct gt_theme *t, bool selected)
{
	char rate[32], gc[32], used[32], max[32], rss[32];
	attr_t base = selected ? A_REVERSE : A_NORMAL;

	if (selected)
		gt_pane_print(w, y, 0, base, "%*s", getmaxx(w), "");
	gt_format_rate(rate, sizeof(rate), r->alloc_rate_bps);
	gt_format_share(gc, sizeof(gc), r->gc_share);
	gt_format_bytes(used, sizeof(used), r->heap_used);
	gt_format_bytes(max, sizeof(max), r->heap_max);
	gt_format_bytes(rss, sizeof(rss), r->rss);
	int x = gt_pane_print(w, y, 0, base, "%7d %-9.9s %12s %7s %10s %10s %10s %-10.10s ", (int)r->pid, r->user,
			      rate, gc, used, max, rss, r->gc[0] ? r->gc : "n/a");
	if (r->note)
		x = gt_pane_print(w, y, x, base | (selected ? A_NORMAL : t->na), "[%s] ", r->note);
	gt_pane_print(w, y, x, base | A_BOLD, "%s", r->program[0] ? r->program : "?");
}

void gt_picker_draw(WINDOW *w, struct gt_picker *p, const struct gt_theme *t)
{
	int rows = getmaxy(w);
	int list_rows = rows - 2;

	gt_pane_print(w, 0, 0, t->title, "gctop: pick a process (%zu found, sorted by %s)", p->count,
		      gt_picker_sort_name(p->sort));
	gt_pane_print(w, 1, 0, t->title | A_REVERSE, "%7s %-9s %12s %7s %10s %10s %10s %-10s %-*s", "PID", "USER",
		      "ALLOC/s", "GC%", "HEAP USED", "HEAP MAX", "RSS", "GC", getmaxx(w), "PROGRAM");
	if (list_rows <= 0)
		return;
	if (p->count == 0) {
		gt_pane_print(w, 2, 1, t->na, "no JVM or .NET process that this user can watch is running; watching for one");
		return;
	}
	/* Keep the selection on screen. */
	if (p->selected < p->top)
		p->top = p->selected;
	if (p->selected >= p->top + (size_t)list_rows)
		p->top = p->selected - (size_t)list_rows + 1;
	if (p->top >= p->count)
		p->top = 0;
	for (int i = 0; i < list_rows && p->top + (size_t)i < p->count; i++) {
		size_t k = p->top + (size_t)i;
		draw_row(w, 2 + i, &p->slots[k].row, t, k == p->selected);
	}
}
