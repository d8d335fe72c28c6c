/* Drawing helpers shared by the panes: clipped text, titles, sparklines and
 * the memory bar. Every write is clipped to its window, so no pane can spill
 * into another at any terminal size. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/sanitize.h"
#include "tui/panes/pane.h"

/* Converts UTF-8 text (which may come from the target's command line) to at
 * most max_cols display columns. The text is cleaned by the sanitiser every
 * writer uses (base/sanitize.h) first; what the locale still cannot show
 * becomes '?'. */
static int clip_wide(const char *text, int max_cols, wchar_t *out, int out_len)
{
	char clean[1024];
	const char *s = gt_sanitize(clean, sizeof(clean), text, gt_sanitize_terminal_mode());
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	int cols = 0, n = 0;
	size_t left = strlen(s);

	while (left > 0 && n < out_len - 1) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, left, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			wc = L'?';
			k = 1;
		}
		int wcols = wcwidth(wc);
		if (wcols < 0) {
			wc = L'?';
			wcols = 1;
		}
		if (cols + wcols > max_cols)
			break;
		out[n++] = wc;
		cols += wcols;
		s += k;
		left -= k;
	}
	out[n] = L'\0';
	return cols;
}

static int put_text(WINDOW *w, int y, int x, attr_t attr, const char *text)
{
	int rows = getmaxy(w), cols = getmaxx(w);
	if (y < 0 || y >= rows || x < 0 || x >= cols)
		return x;
	wchar_t wbuf[512];
	int used = clip_wide(text, cols - x, wbuf, (int)(sizeof(wbuf) / sizeof(wbuf[0])));
	wattrset(w, (int)attr);
	mvwaddnwstr(w, y, x, wbuf, -1);
	wattrset(w, A_NORMAL);
	return x + used;
}

int gt_pane_print(WINDOW *w, int y, int x, attr_t attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put_text(w, y, x, attr, buf);
}

int gt_pane_whole(WINDOW *w, int y, int x, attr_t attr, const char *text)
{
	if (x + (int)strlen(text) > getmaxx(w) - 1)
		return x;
	return put_text(w, y, x, attr, text);
}

int gt_pane_value(WINDOW *w, int y, int x, const struct gt_theme *t, attr_t attr, const char *text)
{
	return put_text(w, y, x, strcmp(text, "n/a") == 0 ? t->na : attr, text);
}

void gt_pane_draw_title(WINDOW *w, const struct gt_view_ctx *ctx, const char *title)
{
	const struct gt_theme *t = ctx->theme;
	int cols = getmaxx(w);
	attr_t a = ctx->focused ? t->title_focus : t->title;
	const char *rule = t->utf8 ? "\u2500" : "-";

	for (int x = 0; x < cols; x++)
		put_text(w, 0, x, a, rule);
	gt_pane_print(w, 0, 1, a, " %d %s ", ctx->number, title);
}

static int spark_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double gt_spark_top(const struct gt_f64 *vals, size_t n)
{
	double pos[GT_HISTORY_CAPACITY];
	size_t k = 0;
	for (size_t i = 0; i < n && k < GT_HISTORY_CAPACITY; i++)
		if (vals[i].valid && isfinite(vals[i].value) && vals[i].value > 0)
			pos[k++] = vals[i].value;
	if (k == 0)
		return 0;
	qsort(pos, k, sizeof(pos[0]), spark_cmp);
	size_t rank = (k * 9 + 9) / 10;   /* ceil(0.9 k), 1-based */
	double limit = pos[rank - 1] * GT_SPARK_SPIKE;
	size_t top = k;
	while (top > 1 && pos[top - 1] > limit)
		top--;
	return pos[top - 1];
}

double gt_spark_levels(const struct gt_f64 *vals, size_t n, int levels, int *out)
{
	double max = gt_spark_top(vals, n);
	for (size_t i = 0; i < n; i++) {
		if (!vals[i].valid || !isfinite(vals[i].value)) {
			out[i] = -1;
			continue;
		}
		double v = vals[i].value;
		if (v <= 0 || max <= 0) {
			out[i] = 0;
			continue;
		}
		if (v > max) {
			out[i] = levels;   /* clipped */
			continue;
		}
		int l = (int)ceil(v / max * (levels - 1));
		out[i] = l < 1 ? 1 : (l > levels - 1 ? levels - 1 : l);
	}
	return max;
}

const char *gt_spark_glyph(int level, bool utf8)
{
	static const char *const blocks[GT_SPARK_LEVELS] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char *const ascii[GT_SPARK_LEVELS] = { "_", ".", ",", "-", "=", "+", "*", "#" };
	if (level < 0 || level >= GT_SPARK_LEVELS)
		return " ";
	return utf8 ? blocks[level] : ascii[level];
}

const char *gt_spark_clip_glyph(bool utf8)
{
	return utf8 ? "\u25b2" : "^";
}

/* The most points a graph shows: the widest pane's columns. */
#define GRAPH_POINTS_MAX 256

int gt_graph_rows(const struct gt_history *h, enum gt_history_metric m)
{
	struct gt_f64 vals[GRAPH_POINTS_MAX];
	size_t n = h ? gt_history_series(h, m, vals, GRAPH_POINTS_MAX) : 0;
	for (size_t i = 0; i < n; i++)
		if (vals[i].valid && isfinite(vals[i].value) && vals[i].value > 0)
			return GT_GRAPH_MAX_ROWS;
	return 1;
}

/* The wall time the newest n points cover. */
static double spark_span(const struct gt_history *h, size_t n)
{
	double span = 0;
	for (size_t age = 0; age < n; age++) {
		const struct gt_history_point *p = gt_history_at(h, age);
		if (p && p->interval_s.valid)
			span += p->interval_s.value;
	}
	return span;
}

/* Column i of a graph: its level over `height` rows of eighths, the top
 * cell of a clipped column marked. */
static void spark_column(WINDOW *w, int y, int x, int height, int level, const struct gt_theme *t)
{
	int steps = GT_SPARK_LEVELS * height;
	for (int r = 0; r < height; r++) {
		int row = y + height - 1 - r;   /* r counts up from the bottom row */
		if (level >= steps && r == height - 1) {
			put_text(w, row, x, t->warn | A_BOLD, gt_spark_clip_glyph(t->utf8));
			continue;
		}
		int fill = level < 0 ? -1 : level - r * GT_SPARK_LEVELS;
		const char *g;
		if (fill < 0 || (fill == 0 && r > 0))
			g = " ";
		else
			g = gt_spark_glyph(fill >= GT_SPARK_LEVELS ? GT_SPARK_LEVELS - 1 : fill, t->utf8);
		put_text(w, row, x, t->spark, g);
	}
}

struct gt_graph_scale gt_pane_sparkline(WINDOW *w, int y, int x, int width, int height, const struct gt_history *h,
					enum gt_history_metric m, const struct gt_theme *t)
{
	struct gt_f64 vals[GT_HISTORY_CAPACITY];
	int levels[GT_HISTORY_CAPACITY];
	struct gt_graph_scale g = { 0, false, 0, 0 };
	int room = getmaxx(w) - x;

	if (width > room)
		width = room;
	if (height > getmaxy(w) - y)
		height = getmaxy(w) - y;
	if (height > GT_GRAPH_MAX_ROWS)
		height = GT_GRAPH_MAX_ROWS;
	if (width <= 0 || height <= 0 || !h)
		return g;
	if (width > GT_HISTORY_CAPACITY)
		width = GT_HISTORY_CAPACITY;
	size_t n = gt_history_series(h, m, vals, (size_t)width);
	/* Eighths of a cell over all rows: a taller graph resolves more. */
	int steps = GT_SPARK_LEVELS * height;
	g.top = gt_spark_levels(vals, n, steps, levels);
	g.span_s = spark_span(h, n);
	g.points = n;
	/* Newest at the right edge, like every scrolling graph. */
	int start = x + width - (int)n;
	for (size_t i = 0; i < n; i++) {
		g.clipped |= levels[i] >= steps;
		spark_column(w, y, start + (int)i, height, levels[i], t);
	}
	return g;
}

const char *gt_graph_span(char *buf, size_t len, const struct gt_graph_scale *g)
{
	if (g->span_s >= 120)
		snprintf(buf, len, "%.0fmin", g->span_s / 60);
	else
		snprintf(buf, len, "%.0fs", g->span_s);
	return buf;
}

void gt_pane_graph_zero(WINDOW *w, int y, const struct gt_graph_scale *g, int rows, const struct gt_theme *t,
			const char *what)
{
	char span[16];
	if (!g->points || g->top > 0 || rows < 2)
		return;
	gt_pane_print(w, y, 1, t->na, "%s in %s", what, gt_graph_span(span, sizeof(span), g));
}

void gt_pane_graph_label(WINDOW *w, const struct gt_view_ctx *ctx, const char *title, const struct gt_graph_scale *g,
			 const char *top)
{
	char span[16], clip[32] = "", text[128];
	/* the title takes " N Title " from column 1 */
	int title_end = 1 + 4 + (int)strlen(title) + 1;
	if (!g->points)
		return;
	gt_graph_span(span, sizeof(span), g);
	if (g->clipped)
		snprintf(clip, sizeof(clip), ", %s above", gt_spark_clip_glyph(ctx->theme->utf8));
	for (int form = 0; form < 3; form++) {
		if (form == 0)
			snprintf(text, sizeof(text), "graph %s, top %s%s", span, top, clip);
		else if (form == 1)
			snprintf(text, sizeof(text), "%s, top %s%s", span, top, clip);
		else
			snprintf(text, sizeof(text), "top %s%s", top, clip);
		/* columns, not bytes: the clip glyph is one column of three bytes */
		int cols = (int)strlen(text) - (g->clipped && ctx->theme->utf8 ? 2 : 0);
		int x = getmaxx(w) - 1 - cols - 2;
		if (x >= title_end + 1) {
			gt_pane_print(w, 0, x, ctx->focused ? ctx->theme->title_focus : ctx->theme->title, " %s ", text);
			return;
		}
	}
}

double gt_membar_cells(const struct gt_membar_input *in, int width, enum gt_membar_cell *cells)
{
	/* Without a limit the scale is the process's own: its heap max and
	 * working set (and the heap figures, should they pass them). A group's
	 * usage is no bound: its page cache can be many times the process, and
	 * would squeeze the heap to no cell. It shows up to the scale. */
	const struct gt_u64 *figs[] = { &in->heap_used, &in->heap_committed, &in->heap_max, &in->rss };
	double scale = 0;
	int span = width;

	if (width <= 0)
		return 0;
	if (in->limit.valid && in->limit.value > 0) {
		scale = (double)in->limit.value;
		span = width - 1;   /* the last cell marks the limit itself */
	} else {
		for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
			if (figs[i]->valid && (double)figs[i]->value > scale)
				scale = (double)figs[i]->value;
	}
	if (scale <= 0 || span <= 0) {
		for (int i = 0; i < width; i++)
			cells[i] = GT_MEMBAR_FREE;
		return 0;
	}
	double per_cell = scale / span;
	for (int i = 0; i < span; i++) {
		double mid = (i + 0.5) * per_cell;
		enum gt_membar_cell c = GT_MEMBAR_FREE;
		if (in->heap_used.valid && mid < (double)in->heap_used.value)
			c = GT_MEMBAR_USED;
		else if (in->heap_committed.valid && mid < (double)in->heap_committed.value)
			c = GT_MEMBAR_COMMITTED;
		else if (in->rss.valid && mid < (double)in->rss.value)
			c = GT_MEMBAR_RSS;
		else if (in->cgroup_usage.valid && mid < (double)in->cgroup_usage.value)
			c = GT_MEMBAR_CGROUP;
		cells[i] = c;
	}
	if (span < width)
		cells[span] = GT_MEMBAR_LIMIT;
	return per_cell;
}

struct gt_u64 gt_membar_group_usage(const struct gt_sample *s)
{
	struct gt_u64 none = { 0, false };
	bool own = s->cgroup_processes.valid && s->cgroup_processes.value == 1;
	return own || s->cgroup_limit_bytes.valid ? s->cgroup_usage_bytes : none;
}

const char *gt_membar_glyph(enum gt_membar_cell c, bool utf8)
{
	switch (c) {
	case GT_MEMBAR_USED: return utf8 ? "\u2588" : "#";
	case GT_MEMBAR_COMMITTED: return utf8 ? "\u2593" : "=";
	case GT_MEMBAR_RSS: return utf8 ? "\u2592" : "-";
	case GT_MEMBAR_CGROUP: return utf8 ? "\u2591" : ":";
	case GT_MEMBAR_LIMIT: return utf8 ? "\u2503" : "|";
	case GT_MEMBAR_FREE: break;
	}
	return utf8 ? "\u00b7" : ".";
}

static attr_t membar_attr(enum gt_membar_cell c, const struct gt_theme *t)
{
	switch (c) {
	case GT_MEMBAR_USED: return t->bar_used;
	case GT_MEMBAR_COMMITTED: return t->bar_committed;
	case GT_MEMBAR_RSS: return t->bar_rss;
	case GT_MEMBAR_CGROUP: return t->bar_cgroup;
	case GT_MEMBAR_LIMIT: return t->bar_limit;
	case GT_MEMBAR_FREE: break;
	}
	return t->bar_free;
}

void gt_pane_membar(WINDOW *w, int y, int x, int width, const struct gt_membar_input *in,
		    const struct gt_theme *t)
{
	enum gt_membar_cell cells[1024];
	int room = getmaxx(w) - x;

	if (width > room)
		width = room;
	if (width > (int)(sizeof(cells) / sizeof(cells[0])))
		width = (int)(sizeof(cells) / sizeof(cells[0]));
	if (width <= 0)
		return;
	gt_membar_cells(in, width, cells);
	for (int i = 0; i < width; i++)
		put_text(w, y, x + i, membar_attr(cells[i], t), gt_membar_glyph(cells[i], t->utf8));
}
