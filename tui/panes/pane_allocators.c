/* Top allocators: where the garbage comes from, by the first application
 * frame and by type, over the window gt_alloc_window_derive gives. The
 * method, the sample count and the window length are always on the line
 * under the title, so a thin sample is never read as a fact; while
 * sampling is off the pane says how to turn it on and never shows a list. */
#include <stdio.h>
#include <string.h>

#include "model/gc_ceiling.h"
#include "model/history.h"
#include "session/runtimes.h"
#include "model/format.h"
#include "views/format_ceiling.h"
#include "tui/panes/pane.h"

/* Sites by frame that must show for the pane to be worth its place. */
#define ALLOC_NEED_SITES 5
/* Fewer samples than this in the window make shares rough; say so. */
#define ALLOC_FEW_SAMPLES 200
/* The figure columns at the right: rate and share. */
#define ALLOC_RATE_W 11
#define ALLOC_SHARE_W 6
#define ALLOC_HEAP_W 7

/* After both sections, one line: what allocating less can win at most. */
#define ALLOC_CEILING_LINES 1

/* Lines of a section: its heading and one per site (or one saying none). */
static int section_lines(unsigned n)
{
	return 1 + (n ? (int)n : 1);
}

static bool alloc_has_table(const struct gt_view_ctx *ctx)
{
	return ctx->alloc && ctx->alloc->valid;
}

/* Title, the method line, the frames heading and the top five frames; the
 * types come in rows beyond (or by scrolling). Without a table: its lines. */
static int allocators_need_rows(const struct gt_view_ctx *ctx)
{
	const struct gt_alloc_derived *a = ctx->alloc;
	if (!alloc_has_table(ctx))
		return 4;
	unsigned nf = a->n_frames < ALLOC_NEED_SITES ? a->n_frames : ALLOC_NEED_SITES;
	return 2 + section_lines(nf);
}

/* Every site of both sections: a list wants a row per entry, and the
 * layout gives it the rows other panes leave (what still does not fit
 * scrolls). It is no graph: rows past its last site would stand blank. */
static int allocators_content_rows(const struct gt_view_ctx *ctx)
{
	const struct gt_alloc_derived *a = ctx->alloc;
	if (!alloc_has_table(ctx))
		return 4;
	return 2 + section_lines(a->n_frames) + section_lines(a->n_types) + ALLOC_CEILING_LINES;
}

/* The sampling method as a person names it: any runtime's name for the
 * source (a recording's runtime may be unknown), else the source. */
static const char *method_name(const char *source)
{
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; (rt = gt_runtimes_at(i)); i++)
		for (const struct gt_sampler_name *n = rt->sampler_names; n && n->source; n++)
			if (strstr(source, n->source))
				return n->name;
	return source[0] ? source : "sampling";
}

static bool loads_code(const struct gt_view_ctx *ctx)
{
	return ctx->info && ctx->info->runtime && ctx->info->runtime->allocators_load_code &&
	       !ctx->info->alloc_question[0];
}

/* What key a does depends on the runtime: a recent JVM gets a flight
 * recording started, an older one gctop's agent loaded (each after a
 * question), .NET a second EventPipe session (nothing loaded). */
static void draw_off(WINDOW *w, const struct gt_theme *t, bool load_code, bool asks)
{
	gt_pane_print(w, 1, 1, t->na, "n/a: allocation sampling is off");
	if (asks)
		gt_pane_print(w, 2, 1, t->label, "key a starts a flight recording (asks)");
	else if (load_code)
		gt_pane_print(w, 2, 1, t->label, "key a loads gctop's agent (asks first)");
	else
		gt_pane_print(w, 2, 1, t->label, "key a starts it (loads nothing),");
	gt_pane_print(w, 3, 1, t->label, "or start gctop with --allocators");
}

/* Only a sampler that loads code can find another agent holding what it
 * needs; the runtime says what. */
static const char *busy_why(const struct gt_view_ctx *ctx)
{
	const struct gt_runtime_traits *rt = ctx->info ? ctx->info->runtime : NULL;
	return rt && rt->sampler_busy ? rt->sampler_busy : "another agent holds the sampling capability";
}

/* Why there is no table: the sampler's state in one or two lines. */
static void draw_state(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_alloc_derived *a = ctx->alloc;
	const char *method = method_name(a->source);
	const char *why = ctx->alloc_message && ctx->alloc_message[0] ? ctx->alloc_message : NULL;

	switch (a->state) {
	case GT_SAMPLER_RUNNING:
	case GT_SAMPLER_STARTING:
		gt_pane_print(w, 1, 1, t->label, "%s %s: waiting for a second reading", method,
			      gt_sampler_state_name(a->state));
		return;
	case GT_SAMPLER_BUSY:
		gt_pane_print(w, 1, 1, t->crit, "busy: %s", busy_why(ctx));
		break;
	case GT_SAMPLER_STOPPED:
		if (loads_code(ctx))
			gt_pane_print(w, 1, 1, t->warn, "stopped: the agent went dormant; press a twice to restart");
		else
			gt_pane_print(w, 1, 1, t->warn, "stopped: press a twice to restart");
		break;
	case GT_SAMPLER_FAILED:
		gt_pane_print(w, 1, 1, t->crit, "failed: allocation sampling could not run");
		break;
	case GT_SAMPLER_OFF:
		gt_pane_print(w, 1, 1, t->warn, "no segment: the agent has left; press a twice to reload");
		break;
	}
	if (why)
		gt_pane_print(w, 2, 1, t->label, "%s", why);
}

/* The names of a section, which a shortened name must not read as. */
struct alloc_names {
	const char *names[GT_ALLOC_SITES_MAX];
	size_t n;
};

static void section_names(const struct gt_alloc_rate *rows, unsigned n, struct alloc_names *out)
{
	out->n = 0;
	for (unsigned i = 0; i < n && i < GT_ALLOC_SITES_MAX; i++)
		out->names[out->n++] = rows[i].name;
}

struct alloc_cols {
	int name_x, name_w;
	int heap_x;      /* -1: no heap column */
	int rate_x, share_x;
};

static struct alloc_cols columns_for(int cols, bool heap)
{
	struct alloc_cols c;
	c.share_x = cols - 1 - ALLOC_SHARE_W;
	c.rate_x = c.share_x - 1 - ALLOC_RATE_W;
	c.heap_x = heap ? c.rate_x - 1 - ALLOC_HEAP_W : -1;
	c.name_x = 1;
	c.name_w = (heap ? c.heap_x : c.rate_x) - 1 - c.name_x;
	return c;
}

static void draw_heading(WINDOW *w, int y, const struct alloc_cols *c, const struct gt_theme *t,
			 const char *what)
{
	gt_pane_print(w, y, c->name_x, t->label | A_BOLD, "%s", what);
	if (c->heap_x >= 0)
		gt_pane_print(w, y, c->heap_x, t->label, "%-*s", ALLOC_HEAP_W, "heap");
	gt_pane_print(w, y, c->rate_x, t->label, "%*s", ALLOC_RATE_W, "bytes/s");
	gt_pane_print(w, y, c->share_x, t->label, "%*s", ALLOC_SHARE_W, "share");
}

/* selected: the row Enter opens (marked in the free first column). */
static void draw_site(WINDOW *w, int y, const struct alloc_cols *c, const struct gt_theme *t,
		      const struct gt_alloc_rate *r, const struct alloc_names *names, bool selected)
{
	char name[GT_ALLOC_SITE_NAME_LEN + 4], rate[32], share[32];
	if (selected)
		gt_pane_print(w, y, 0, t->value | A_BOLD, ">");
	gt_pane_print(w, y, c->name_x, selected ? t->value | A_BOLD | A_UNDERLINE : t->value, "%s",
		      gt_format_name(name, sizeof(name), r->name, c->name_w, names->names, names->n));
	if (c->heap_x >= 0) {
		const char *heap = gt_alloc_heap_name(r->heap);
		gt_pane_print(w, y, c->heap_x, heap ? t->label : t->na, "%-*s", ALLOC_HEAP_W, heap ? heap : "n/a");
	}
	gt_format_rate(rate, sizeof(rate), r->bytes_per_s);
	gt_format_share(share, sizeof(share), r->share);
	gt_pane_print(w, y, c->rate_x, r->bytes_per_s.valid ? t->value : t->na, "%*s", ALLOC_RATE_W, rate);
	gt_pane_print(w, y, c->share_x, r->share.valid ? t->value | A_BOLD : t->na, "%*s", ALLOC_SHARE_W, share);
}

/* Line i of the scrolling list: frames heading, frames, types heading,
 * types; selected is the frame row marked, -1 none. */
static void draw_list_line(WINDOW *w, int y, int i, const struct gt_alloc_derived *a, const struct gt_theme *t,
			   const struct alloc_cols *frame_cols, const struct alloc_cols *type_cols, int selected)
{
	int frame_lines = section_lines(a->n_frames);
	const struct alloc_cols *c = i < frame_lines ? frame_cols : type_cols;
	unsigned n = i < frame_lines ? a->n_frames : a->n_types;
	const struct gt_alloc_rate *rows = i < frame_lines ? a->by_frame : a->by_type;
	int j = i < frame_lines ? i : i - frame_lines;

	/* the long heading where the name column has room for it */
	const char *frames = c->name_w >= 27 ? "by first application frame" : "by app frame";
	if (j == 0)
		draw_heading(w, y, c, t, i < frame_lines ? frames : "by type");
	else if (n == 0)
		gt_pane_print(w, y, c->name_x, t->na, "n/a: no samples in the window");
	else {
		struct alloc_names names;
		section_names(rows, n, &names);
		draw_site(w, y, c, t, &rows[j - 1], &names, i < frame_lines && j - 1 == selected);
	}
}

/* The first of forms[0..n) that fits whole at x: returns the column after
 * it plus the two spaces before the next, or x when none fits. */
static int meta_item(WINDOW *w, int x, attr_t attr, const char *const *forms, int n)
{
	for (int i = 0; i < n; i++) {
		int end = gt_pane_whole(w, 1, x, attr, forms[i]);
		if (end > x)
			return end + 2;
	}
	return x;
}

/* The method line: the method, samples and window first, then what
 * qualifies them, each whole or in a shorter form or left out. */
static void draw_meta(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_alloc_derived *a = ctx->alloc;
	char share[48], share_short[24];
	int x = gt_pane_print(w, 1, 1, t->label, "%s ", method_name(a->source));
	x = gt_pane_print(w, 1, x, a->samples < ALLOC_FEW_SAMPLES ? t->warn | A_BOLD : t->value, "%llu samples",
			  (unsigned long long)a->samples);
	x = gt_pane_print(w, 1, x, t->label, " in %.0fs", a->window_s) + 2;
	if (a->sampled_share.valid && a->sampled_share.value < 1) {   /* the bytes are scaled up */
		snprintf(share, sizeof(share), "sampled %.0f%% of each second", a->sampled_share.value * 100);
		snprintf(share_short, sizeof(share_short), "sampled %.0f%%", a->sampled_share.value * 100);
		x = meta_item(w, x, t->warn, (const char *const[]){ share, share_short }, 2);
	}
	if (a->state != GT_SAMPLER_RUNNING)
		x = meta_item(w, x, t->warn | A_BOLD, (const char *const[]){ gt_sampler_state_name(a->state) }, 1);
	if (a->samples < ALLOC_FEW_SAMPLES)
		meta_item(w, x, t->warn, (const char *const[]){ "few samples: rough shares", "few samples" }, 2);
}

/* The third seed's lesson under the table: bytes rank the sites, the GC's
 * share of the time over the window bounds what removing them can win. */
static void draw_ceiling(WINDOW *w, int y, const struct gt_view_ctx *ctx)
{
	struct gt_history_window win;
	struct gt_gc_ceiling c;
	char line[160];
	gt_history_window(ctx->h, ctx->window_ns, &win);
	gt_gc_ceiling_of(win.pause_share, win.gc_cpu_share, win.cpu_share, &c);
	gt_format_gc_ceiling_short(line, sizeof(line), &c, getmaxx(w) - 2);
	gt_pane_print(w, y, 1, c.share.valid ? ctx->theme->label : ctx->theme->na, "%s", line);
}

static void draw_allocators(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_alloc_derived *a = ctx->alloc;
	int rows = getmaxy(w), cols = getmaxx(w);

	if (!a) {
		gt_pane_draw_title(w, ctx, "Top allocators");
		draw_off(w, t, loads_code(ctx), ctx->info && ctx->info->alloc_question[0]);
		return;
	}
	if (!a->valid) {
		gt_pane_draw_title(w, ctx, "Top allocators");
		draw_state(w, ctx);
		return;
	}
	int total = section_lines(a->n_frames) + section_lines(a->n_types) + ALLOC_CEILING_LINES;
	int room = rows - 2;
	int first = ctx->scroll > 0 ? ctx->scroll : 0;
	if (room > 0 && first > total - room)
		first = total - room > 0 ? total - room : 0;
	if (room > 0 && total > room) {
		char title[64];
		int last = first + room < total ? first + room : total;
		snprintf(title, sizeof(title), "Top allocators  %d-%d of %d lines", first + 1, last, total);
		gt_pane_draw_title(w, ctx, title);
	} else {
		gt_pane_draw_title(w, ctx, "Top allocators");
	}
	draw_meta(w, ctx);

	bool heap = false;
	for (unsigned i = 0; i < a->n_types; i++)
		heap = heap || gt_alloc_heap_name(a->by_type[i].heap) != NULL;
	/* A heap column that would squeeze the type names to nothing is left out. */
	if (heap && columns_for(cols, true).name_w < 12)
		heap = false;
	struct alloc_cols frame_cols = columns_for(cols, false), type_cols = columns_for(cols, heap);
	for (int y = 2; y < rows && first + y - 2 < total; y++) {
		if (first + y - 2 == total - ALLOC_CEILING_LINES)
			draw_ceiling(w, y, ctx);
		else
			draw_list_line(w, y, first + y - 2, a, t, &frame_cols, &type_cols,
				       ctx->focused ? ctx->alloc_selected : -1);
	}
}

const struct gt_pane_ops gt_pane_allocators = {
	.name = "allocators",
	.title = "Top allocators",
	.min_rows = 2,
	.min_cols = 32,
	.priority = 5,
	.need_rows = allocators_need_rows,
	.want_rows = allocators_content_rows,
	.content_rows = allocators_content_rows,
	.draw = draw_allocators,
};
