/* Collections per generation: how often each generation is collected. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "tui/panes/pane.h"

/* Below this width the generation column narrows to fit two panes side by
 * side on 80 columns. */
#define COLLECTIONS_WIDE_COLS 44

/* A generation whose collections the runtime never counts (.NET collects
 * its large and pinned object heaps with gen2 and counts them there) has a
 * row of n/a only: it is left out, unless no generation is counted. */
static bool shown_generation(const struct gt_sample *s, unsigned i)
{
	for (unsigned k = 0; k < s->n_generations; k++)
		if (s->generations[k].collections.valid)
			return s->generations[i].collections.valid;
	return true;
}

/* The generations shown, and in gens their indexes. */
static unsigned shown_generations(const struct gt_sample *s, unsigned *gens)
{
	unsigned n = 0;
	for (unsigned i = 0; i < s->n_generations && i < GT_MAX_GENERATIONS; i++)
		if (shown_generation(s, i))
			gens[n++] = i;
	return n;
}

/* Every generation must show: title, column heads, one row per
 * generation, last cause. */
static int collections_want_rows(const struct gt_view_ctx *ctx)
{
	unsigned gens[GT_MAX_GENERATIONS];
	unsigned n = ctx->d ? shown_generations(&ctx->d->cur, gens) : 2;
	return 3 + (int)(n ? n : 1);
}

/* The last cause whole: "last cause X", "cause X" where that does not
 * fit, else the cause alone (the runtime's words, never cut inside one
 * while a shorter label leaves it room); "GC running" only whole. */
static void draw_cause(WINDOW *w, int y, const struct gt_theme *t, const struct gt_derived *d)
{
	const char *cause = d->cur.last_gc_cause[0] ? d->cur.last_gc_cause : "n/a";
	static const char *const labels[] = { "last cause ", "cause ", "" };
	char whole[160];
	size_t i = 0;
	for (; i + 1 < sizeof(labels) / sizeof(labels[0]); i++) {
		snprintf(whole, sizeof(whole), "%s%s", labels[i], cause);
		if (gt_pane_fits(w, 1, whole))
			break;
	}
	int x = gt_pane_print(w, y, 1, t->label, "%s", labels[i]);
	x = labels[i][0] || gt_pane_fits(w, x, cause) ? gt_pane_value(w, y, x, t, t->value, cause)
		: gt_pane_print(w, y, x, t->value, "%s", gt_format_cut_words(whole, sizeof(whole), cause, getmaxx(w) - 2));
	if (d->cur.gc_in_progress)
		gt_pane_whole(w, y, x + 2, t->warn | A_BOLD, "GC running");
}

static void draw_collections(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	int rows = getmaxy(w);
	bool narrow = getmaxx(w) < COLLECTIONS_WIDE_COLS;
	int name_w = narrow ? 7 : 10, total_w = narrow ? 9 : 10;
	char a[32], b[32];
	/* what a count counts, in the title (model/format.h) */
	const char *counting = ctx->info ? gt_format_collections_counting(ctx->info->runtime) : NULL;
	char title[48];
	snprintf(title, sizeof(title), counting ? "Collections, %s" : "Collections", counting);

	gt_pane_draw_title(w, ctx, title);
	if (!d || d->cur.n_generations == 0) {
		gt_pane_print(w, 1, 1, t->na, "n/a: no generation counters yet");
		return;
	}
	/* "total" counts from the process's start (HotSpot); .NET's events
	 * count only what happened while gctop watched. */
	const char *total = d->cur.collections_since == GT_ALLOC_SINCE_ATTACH ? "watched" : "total";
	gt_pane_print(w, 1, 1, t->label, "%-*s %*s %9s %9s", name_w, "gen", total_w, total, "interval", "per min");
	/* Rows left for generations after the heads and the last-cause line. */
	int room = rows - 3;
	if (room < 1)
		room = rows - 2;
	unsigned gens[GT_MAX_GENERATIONS];
	unsigned n = shown_generations(&d->cur, gens);
	unsigned first = ctx->scroll > 0 ? (unsigned)ctx->scroll : 0;
	if (first + (unsigned)room > n)
		first = n > (unsigned)room ? n - (unsigned)room : 0;
	int y = 2;
	for (unsigned k = first; k < n && y < 2 + room; k++, y++) {
		unsigned i = gens[k];
		const struct gt_generation *g = &d->cur.generations[i];
		/* the interval's count scaled to a minute: the same figure as
		 * -b and JSON's collections_per_min */
		struct gt_f64 per_min = d->generations[i].per_minute;
		int x = gt_pane_print(w, y, 1, t->label, "%-*.*s ", name_w, name_w, g->name);
		gt_format_count(a, sizeof(a), g->collections);
		x = gt_pane_value(w, y, x + total_w - (int)strlen(a), t, t->value, a);
		gt_format_count(b, sizeof(b), d->generations[i].collections);
		x = gt_pane_value(w, y, x + 1 + 9 - (int)strlen(b), t,
				  d->generations[i].collections.valid && d->generations[i].collections.value ? t->warn : t->value, b);
		if (per_min.valid)
			snprintf(a, sizeof(a), "%.1f", per_min.value);
		else
			snprintf(a, sizeof(a), "n/a");
		gt_pane_value(w, y, x + 1 + 9 - (int)strlen(a), t, t->value, a);
	}
	if (y < rows) {
		draw_cause(w, y, t, d);
	}
}

const struct gt_pane_ops gt_pane_collections = {
	.name = "collections",
	.title = "Collections",
	.min_rows = 3,
	.min_cols = 38,
	.priority = 4,
	.need_rows = collections_want_rows,
	.want_rows = collections_want_rows,
	.draw = draw_collections,
};
