/* The picker's screen: one row per process, the selected one reversed. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/picker.h"
#include "session/runtimes.h"
#include "model/format.h"
#include "tui/panes/pane_picker.h"

/* The columns before PROGRAM, which takes the rest of the line. */
enum picker_col {
	COL_PID, COL_USER, COL_RUNTIME, COL_ALLOC, COL_GC_SHARE, COL_USED, COL_MAX, COL_RSS, COL_GC, COL_SAMPLER,
	COL_COUNT
};

struct picker_col_def {
	const char *head;
	const char *brief_head;  /* over the brief form, where it has one */
	int width;
	bool left;               /* left-aligned text rather than a right-aligned figure */
};

/* The figures' widths are format.c's longest ("99.9 MiB/s", "100.0%",
 * "1023 KiB"); RUNTIME fits ".NET 10.0.12", GC "Workstation", the
 * longest collector name, SAMPLER the source words of --allocators
 * ("agent"). */
static const struct picker_col_def picker_cols[COL_COUNT] = {
	[COL_PID] = { "PID", NULL, 7, false },
	[COL_USER] = { "USER", NULL, 9, true },
	[COL_RUNTIME] = { "RUNTIME", "RT", 12, true },
	[COL_ALLOC] = { "ALLOC/s", NULL, 10, false },
	[COL_GC_SHARE] = { "GC%", NULL, 6, false },
	[COL_USED] = { "HEAP USED", NULL, 9, false },
	[COL_MAX] = { "HEAP MAX", NULL, 9, false },
	[COL_RSS] = { "RSS", NULL, 8, false },
	[COL_GC] = { "GC", NULL, 11, true },
	[COL_SAMPLER] = { "SAMPLER", NULL, 7, true },
};

/* The runtime's label alone (".NET") and the brief collector names. */
#define PICKER_RUNTIME_BRIEF 4

/* PROGRAM keeps at least this many columns before another column gives way. */
#define PICKER_PROGRAM_MIN 20

/* How the columns give way on a narrow terminal, in this order, as htop
 * keeps the command and cuts it last (two services are told apart by
 * it): a column goes (width 0) or takes its brief form. RUNTIME, GC and
 * the figures stay at 80 columns (PROGRAM gets 23); USER goes only
 * below that. */
static const struct picker_step {
	enum picker_col col;
	int width;
} picker_steps[] = {
	{ COL_MAX, 0 },
	{ COL_SAMPLER, 0 },
	{ COL_RUNTIME, PICKER_RUNTIME_BRIEF },
	{ COL_RSS, 0 },
	{ COL_GC, GT_PICKER_GC_BRIEF },
	{ COL_USER, 0 },
};

/* Each column's width on a line of cols; 0: not shown. */
static void picker_fit(int cols, int *width)
{
	int used = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		width[c] = picker_cols[c].width;
		used += width[c] + 1;
	}
	for (size_t i = 0; i < sizeof(picker_steps) / sizeof(picker_steps[0]) && used + PICKER_PROGRAM_MIN > cols;
	     i++) {
		const struct picker_step *s = &picker_steps[i];
		used -= width[s->col] - s->width + (s->width ? 0 : 1);
		width[s->col] = s->width;
	}
}

/* Prints the shown columns of one line (texts[c] per column), then program. */
static void picker_line(WINDOW *w, int y, attr_t attr, const int *width, const char *const *texts,
			const char *note, attr_t note_attr, const char *program, attr_t program_attr)
{
	int x = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		if (!width[c])
			continue;
		gt_pane_print(w, y, x, attr, picker_cols[c].left ? "%-*.*s" : "%*.*s", width[c], width[c], texts[c]);
		x += width[c] + 1;
	}
	if (note)
		x = gt_pane_print(w, y, x, note_attr, "[%s] ", note);
	gt_pane_print(w, y, x, program_attr, "%s", program);
}

/* "JVM 17.0.13" where the column holds it whole, else "JVM". */
static const char *runtime_text(char *buf, size_t len, const struct gt_picker_row *r, int width)
{
	const char *label = gt_picker_runtime_label(r->runtime);
	int n = snprintf(buf, len, "%s %s", label, r->version);
	if (!r->version[0] || n < 0 || n > width || (size_t)n >= len)
		snprintf(buf, len, "%s", label);
	return buf;
}

/* The collector's whole name where the column holds it, else its brief one. */
static const char *gc_text(const struct gt_picker_row *r, int width)
{
	if (!r->gc[0])
		return "n/a";
	const char *whole = gt_picker_gc_label(r->runtime, r->gc, false);
	return (int)strlen(whole) <= width ? whole : gt_picker_gc_label(r->runtime, r->gc, true);
}

static void draw_row(WINDOW *w, int y, const struct gt_picker_row *r, const struct gt_theme *t, bool selected)
{
	char pid[16], rate[32], gc[32], used[32], max[32], rss[32], runtime[48];
	attr_t base = selected ? A_REVERSE : A_NORMAL;
	int width[COL_COUNT];

	if (selected)
		gt_pane_print(w, y, 0, base, "%*s", getmaxx(w), "");
	picker_fit(getmaxx(w), width);
	snprintf(pid, sizeof(pid), "%d", (int)r->pid);
	gt_format_rate(rate, sizeof(rate), r->alloc_rate_bps);
	gt_format_share(gc, sizeof(gc), r->gc_share);
	gt_format_bytes(used, sizeof(used), r->heap_used);
	gt_format_bytes(max, sizeof(max), r->heap_max);
	gt_format_bytes(rss, sizeof(rss), r->rss);
	const char *texts[COL_COUNT] = {
		pid, r->user, runtime_text(runtime, sizeof(runtime), r, width[COL_RUNTIME]), rate, gc, used, max, rss,
		gc_text(r, width[COL_GC]), r->sampler[0] ? r->sampler : "-"
	};
	picker_line(w, y, base, width, texts, r->note, base | (selected ? A_NORMAL : t->na),
		    r->program[0] ? r->program : "?", base | A_BOLD);
}

/* The title, and at the right of it the interval (as top shows its
 * Delay): a one-off message on the footer fades, this stays. A long
 * filter cuts the title, never the interval. */
static void draw_title(WINDOW *w, const struct gt_picker *p, const struct gt_theme *t)
{
	char every[32] = "", title[3][256];
	int n = 0;
	if (p->schedule.interval_ns)
		n = snprintf(every, sizeof(every), " every %gs", (double)p->schedule.interval_ns / 1e9);
	if (n < 0 || n >= getmaxx(w))
		n = 0, every[0] = '\0';
	/* whole, shorter, shortest: the sort and the interval are never cut */
	const char *sort = gt_picker_sort_name(p->sort);
	if (p->filter[0]) {
		snprintf(title[0], sizeof(title[0]), "gctop: pick a process (%zu of %zu found match \"%s\", sorted by %s)",
			 p->count, p->found, p->filter, sort);
		snprintf(title[1], sizeof(title[1]), "gctop: pick a process (%zu of %zu match \"%s\", by %s)", p->count,
			 p->found, p->filter, sort);
		snprintf(title[2], sizeof(title[2]), "gctop: %zu of %zu match, by %s", p->count, p->found, sort);
	} else {
		snprintf(title[0], sizeof(title[0]), "gctop: pick a process (%zu found, sorted by %s)", p->count, sort);
		snprintf(title[1], sizeof(title[1]), "gctop: pick a process (%zu found, by %s)", p->count, sort);
		snprintf(title[2], sizeof(title[2]), "gctop: %zu found, by %s", p->count, sort);
	}
	int room = getmaxx(w) - n - 1;
	int pick = 0;
	while (pick < 2 && gt_pane_text_cols(title[pick]) > room)
		pick++;
	gt_pane_print(w, 0, 0, t->title, "%s", title[pick]);
	if (n > 0)
		gt_pane_print(w, 0, getmaxx(w) - n, t->title | A_BOLD, "%s", every);
}

void gt_picker_draw(WINDOW *w, struct gt_picker *p, const struct gt_theme *t)
{
	int rows = getmaxy(w);
	int list_rows = rows - 2;

	draw_title(w, p, t);
	int width[COL_COUNT];
	const char *heads[COL_COUNT];
	picker_fit(getmaxx(w), width);
	for (int c = 0; c < COL_COUNT; c++)
		heads[c] = width[c] < picker_cols[c].width && picker_cols[c].brief_head ? picker_cols[c].brief_head
											 : picker_cols[c].head;
	gt_pane_print(w, 1, 0, t->title | A_REVERSE, "%*s", getmaxx(w), "");
	picker_line(w, 1, t->title | A_REVERSE, width, heads, NULL, 0, "PROGRAM", t->title | A_REVERSE);
	if (list_rows <= 0)
		return;
	if (p->count == 0 && p->found) {
		gt_pane_print(w, 2, 1, t->na, "no process matches \"%s\" (/ changes the filter; Esc in it clears it)",
			      p->filter);
		return;
	}
	if (p->count == 0 && !gt_fleet_listed(&p->fleet)) {
		char names[128];
		gt_pane_print(w, 2, 1, t->na, "looking for %s processes...", gt_runtimes_names(names, sizeof(names), " and "));
		return;
	}
	if (p->count == 0) {
		char names[128];
		gt_pane_print(w, 2, 1, t->na, "no %s process that this user can watch is running; watching for one",
			      gt_runtimes_names(names, sizeof(names), " or "));
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
