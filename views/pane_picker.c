/* The picker's screen: one row per process, the selected one reversed. */
#include <stdbool.h>
#include <stdio.h>

#include "session/picker.h"
#include "views/format.h"
#include "views/pane_picker.h"

/* The columns before PROGRAM, which takes the rest of the line. On a
 * narrow terminal the columns of the largest drop rank go first, as htop
 * keeps the command and cuts it last: two services are told apart by it. */
enum picker_col { COL_PID, COL_USER, COL_ALLOC, COL_GC_SHARE, COL_USED, COL_MAX, COL_RSS, COL_GC, COL_COUNT };

struct picker_col_def {
	const char *head;
	int width;
	bool left;       /* left-aligned text rather than a right-aligned figure */
	int drop_rank;   /* 0: never dropped; higher is dropped first */
};

static const struct picker_col_def picker_cols[COL_COUNT] = {
	[COL_PID] = { "PID", 7, false, 0 },
	[COL_USER] = { "USER", 9, true, 1 },
	[COL_ALLOC] = { "ALLOC/s", 11, false, 0 },
	[COL_GC_SHARE] = { "GC%", 7, false, 0 },
	[COL_USED] = { "HEAP USED", 10, false, 0 },
	[COL_MAX] = { "HEAP MAX", 10, false, 4 },
	[COL_RSS] = { "RSS", 10, false, 2 },
	[COL_GC] = { "GC", 10, true, 3 },
};

/* PROGRAM keeps at least this many columns before another column goes. */
#define PICKER_PROGRAM_MIN 24

/* Which columns fit beside PROGRAM on a line of cols. */
static void picker_fit(int cols, bool *shown)
{
	int used = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		shown[c] = true;
		used += picker_cols[c].width + 1;
	}
	for (int rank = 4; rank >= 1 && used + PICKER_PROGRAM_MIN > cols; rank--)
		for (int c = 0; c < COL_COUNT; c++)
			if (picker_cols[c].drop_rank == rank && shown[c]) {
				shown[c] = false;
				used -= picker_cols[c].width + 1;
			}
}

/* Prints the shown columns of one line (texts[c] per column), then program. */
static void picker_line(WINDOW *w, int y, attr_t attr, const bool *shown, const char *const *texts,
			const char *note, attr_t note_attr, const char *program, attr_t program_attr)
{
	int x = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		if (!shown[c])
			continue;
		const struct picker_col_def *d = &picker_cols[c];
		gt_pane_print(w, y, x, attr, d->left ? "%-*.*s" : "%*.*s", d->width, d->width, texts[c]);
		x += d->width + 1;
	}
	if (note)
		x = gt_pane_print(w, y, x, note_attr, "[%s] ", note);
	gt_pane_print(w, y, x, program_attr, "%s", program);
}

static void draw_row(WINDOW *w, int y, const struct gt_picker_row *r, const struct gt_theme *t, bool selected)
{
	char pid[16], rate[32], gc[32], used[32], max[32], rss[32];
	attr_t base = selected ? A_REVERSE : A_NORMAL;
	bool shown[COL_COUNT];

	if (selected)
		gt_pane_print(w, y, 0, base, "%*s", getmaxx(w), "");
	snprintf(pid, sizeof(pid), "%d", (int)r->pid);
	gt_format_rate(rate, sizeof(rate), r->alloc_rate_bps);
	gt_format_share(gc, sizeof(gc), r->gc_share);
	gt_format_bytes(used, sizeof(used), r->heap_used);
	gt_format_bytes(max, sizeof(max), r->heap_max);
	gt_format_bytes(rss, sizeof(rss), r->rss);
	const char *texts[COL_COUNT] = { pid, r->user, rate, gc, used, max, rss, r->gc[0] ? r->gc : "n/a" };
	picker_fit(getmaxx(w), shown);
	picker_line(w, y, base, shown, texts, r->note, base | (selected ? A_NORMAL : t->na),
		    r->program[0] ? r->program : "?", base | A_BOLD);
}

void gt_picker_draw(WINDOW *w, struct gt_picker *p, const struct gt_theme *t)
{
	int rows = getmaxy(w);
	int list_rows = rows - 2;

	if (p->filter[0])
		gt_pane_print(w, 0, 0, t->title, "gctop: pick a process (%zu of %zu found match \"%s\", sorted by %s)",
			      p->count, p->found, p->filter, gt_picker_sort_name(p->sort));
	else
		gt_pane_print(w, 0, 0, t->title, "gctop: pick a process (%zu found, sorted by %s)", p->count,
			      gt_picker_sort_name(p->sort));
	bool shown[COL_COUNT];
	const char *heads[COL_COUNT];
	for (int c = 0; c < COL_COUNT; c++)
		heads[c] = picker_cols[c].head;
	picker_fit(getmaxx(w), shown);
	gt_pane_print(w, 1, 0, t->title | A_REVERSE, "%*s", getmaxx(w), "");
	picker_line(w, 1, t->title | A_REVERSE, shown, heads, NULL, 0, "PROGRAM", t->title | A_REVERSE);
	if (list_rows <= 0)
		return;
	if (p->count == 0 && p->found) {
		gt_pane_print(w, 2, 1, t->na, "no process matches \"%s\" (/ changes the filter; Esc in it clears it)",
			      p->filter);
		return;
	}
	if (p->count == 0 && !gt_fleet_listed(&p->fleet)) {
		gt_pane_print(w, 2, 1, t->na, "looking for JVM and .NET processes...");
		return;
	}
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
