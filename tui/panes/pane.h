/* The panes of the interactive view. Each pane is one file tui/panes/pane_*.c
 * exporting one const struct gt_pane_ops; it draws into the ncurses window
 * it is given from the derived sample and the history ring alone. */
#ifndef GCTOP_TUI_PANES_PANE_H
#define GCTOP_TUI_PANES_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ncurses.h>

#include "model/allocators.h"
#include "model/derive.h"
#include "model/history.h"
#include "model/sample.h"

/* Attributes chosen once at start-up (tui/theme.c): colours where the
 * terminal and the user allow them, bold/reverse/dim otherwise. */
struct gt_theme {
	bool utf8;          /* block glyphs for sparklines and bars; ASCII otherwise */
	bool color;
	attr_t title;
	attr_t title_focus;
	attr_t label;
	attr_t value;
	attr_t na;
	attr_t good;
	attr_t warn;
	attr_t crit;
	attr_t spark;
	attr_t bar_used;
	attr_t bar_committed;
	attr_t bar_rss;
	attr_t bar_cgroup;
	attr_t bar_free;
	attr_t bar_limit;
};

/* The state word of the header. */
enum gt_view_status {
	GT_VIEW_LIVE = 0,
	GT_VIEW_EXITED,
	GT_VIEW_FROZEN,     /* the display is frozen (key p); "paused" would read as a GC pause */
	GT_VIEW_WAITING,    /* opened, no sample yet */
	GT_VIEW_REPLAY,     /* a recording (gctop -r): the samples were fed, not taken */
};

/* Everything a pane may read. d is NULL before the first sample. */
struct gt_alloc_stacks;

struct gt_view_ctx {
	const struct gt_derived *d;
	const struct gt_history *h;
	const struct gt_target_info *info;
	const struct gt_theme *theme;
	enum gt_view_status status;
	double interval_s;
	uint64_t window_ns;      /* span of the window figures (one minute) */
	int64_t now_wall_ms;     /* for the uptime; 0 when unknown */
	int number;              /* the key that toggles this pane, 1-9 */
	bool focused;
	int scroll;              /* first line of a list that does not fit */
	/* Top allocators over their window; NULL while sampling is off. */
	const struct gt_alloc_derived *alloc;
	const char *alloc_message;   /* the sampler's own sentence (why busy or failed), or "" */
	/* The stacks behind the sites (model/alloc_stacks.h); NULL when the
	 * sampler takes none. */
	const struct gt_alloc_stacks *alloc_stacks;
	int alloc_selected;          /* the by-frame row Enter opens, marked while the pane is focused */
	/* The width the layout gives the pane, for the rows a text wrapped
	 * in it takes; 0 before the layout has placed it: a pane then counts
	 * as in the narrowest column a split makes (GT_PANE_NARROW_COLS). */
	int cols;
};

/* The narrowest column of a split screen ((80 - 1) / 2, (120 - 2) / 3). */
#define GT_PANE_NARROW_COLS 39

/* The width ctx's pane counts its rows at. */
int gt_pane_cols(const struct gt_view_ctx *ctx);

struct gt_pane_ops {
	const char *name;        /* "alloc", for --help and the help screen */
	const char *title;       /* "Allocation" */
	int min_rows, min_cols;  /* below this the pane is dropped */
	int priority;            /* 0 is kept longest when space is short */
	bool full_width;         /* spans the screen above the other panes */
	bool stretch;            /* a graph, which uses rows past its wish (a list has none to use) */
	/* A graph's rows at its tallest with this sample: its figures and
	 * GT_GRAPH_MAX_ROWS of graph, or one row of graph while every value
	 * is 0 (a taller one would stand blank). NULL: no cap. */
	int (*max_rows)(const struct gt_view_ctx *ctx);
	/* Rows it must have to be shown with this sample: its title and the
	 * rows a person needs from it (every generation, every memory figure,
	 * five allocation sites...); the layout drops a pane rather than cut
	 * one of them. NULL: min_rows. */
	int (*need_rows)(const struct gt_view_ctx *ctx);
	/* Rows its content fills with this sample (>= its need): a list one
	 * per entry; the layout gives spare rows to the panes whose content
	 * is cut before any other. */
	int (*want_rows)(const struct gt_view_ctx *ctx);
	/* Rows that would show everything, which the focused pane scrolls
	 * through; NULL when that is want_rows. */
	int (*content_rows)(const struct gt_view_ctx *ctx);
	void (*draw)(WINDOW *w, const struct gt_view_ctx *ctx);
};

/* The panes in screen order; the index + 1 is the key that toggles each. */
extern const struct gt_pane_ops gt_pane_header;
extern const struct gt_pane_ops gt_pane_alloc;
extern const struct gt_pane_ops gt_pane_collections;
extern const struct gt_pane_ops gt_pane_pauses;
extern const struct gt_pane_ops gt_pane_large;
extern const struct gt_pane_ops gt_pane_memory;
extern const struct gt_pane_ops gt_pane_allocators;
extern const struct gt_pane_ops gt_pane_findings;
extern const struct gt_pane_ops *const gt_panes[];
extern const size_t gt_pane_count;

/* What pane p asks of the layout with this sample: the rows it needs (at
 * least its min_rows) and the rows its content fills (at least its need). */
void gt_pane_rows(const struct gt_pane_ops *p, const struct gt_view_ctx *ctx, int *need, int *want);
/* The most rows pane p can fill with this sample (at least its want); 0: no cap. */
int gt_pane_max_rows(const struct gt_pane_ops *p, const struct gt_view_ctx *ctx);

/* ---- drawing helpers shared by the panes (tui/panes/pane_draw.c) ---- */

/* Row 0 of a pane: its number and title across the width, reversed when focused. */
void gt_pane_draw_title(WINDOW *w, const struct gt_view_ctx *ctx, const char *title);

/* printf at (y, x), clipped to the window's right edge (never wraps);
 * returns the column after the text. */
int gt_pane_print(WINDOW *w, int y, int x, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* text at (y, x) when it fits whole before the right margin; returns the
 * column after it, or x when it was left out (never cut inside a word). */
int gt_pane_whole(WINDOW *w, int y, int x, attr_t attr, const char *text);

/* Text wrapped at words: its first line from column x, the next ones from
 * column indent, each up to the pane's last column but one (a pane `cols`
 * wide). A first word that does not fit after x starts on the next line.
 * gt_pane_wrap_rows: the lines it takes; gt_pane_wrapped: draws it from
 * row y when all of them fit above row max_y (else nothing) and returns the
 * rows it took (0 when it was left out). */
int gt_pane_wrap_rows(int x, int indent, int cols, const char *text);
/* The columns text takes (UTF-8 characters), and whether it fits whole
 * from column x before the window's last column. */
int gt_pane_text_cols(const char *text);
bool gt_pane_fits(WINDOW *w, int x, const char *text);
int gt_pane_wrapped(WINDOW *w, int y, int x, int indent, int max_y, attr_t attr, const char *text);

/* A value that may be "n/a": drawn in the theme's n/a attribute then. */
int gt_pane_value(WINDOW *w, int y, int x, const struct gt_theme *t, attr_t attr, const char *text);

/* A graph is never taller than this: 10 rows of eighths resolve 80 steps,
 * more than the eye reads; rows beyond go to panes with content. */
#define GT_GRAPH_MAX_ROWS 10
/* A value more than this many times the graph's 90th percentile is a
 * spike: it is drawn clipped, so one stall does not flatten the rest. */
#define GT_SPARK_SPIKE 4.0

/* The top of a graph's scale: the largest value shown that is no spike
 * (no more than GT_SPARK_SPIKE times the 90th percentile, nearest rank, of
 * the positive values); 0 when none is positive. */
double gt_spark_top(const struct gt_f64 *vals, size_t n);

/* Sparkline levels: each valid value scaled to 0..levels-1 against
 * gt_spark_top (any non-zero value gets at least level 1, so a small rate
 * is never drawn as nothing); `levels` for a value above the top (drawn
 * full and marked as clipped); -1 for an invalid value. Returns the top. */
double gt_spark_levels(const struct gt_f64 *vals, size_t n, int levels, int *out);

/* The rows a graph of metric m fills: GT_GRAPH_MAX_ROWS, or 1 while none
 * of the newest points it could show is above 0. */
int gt_graph_rows(const struct gt_history *h, enum gt_history_metric m);

/* What a drawn graph stands for, for its label. */
struct gt_graph_scale {
	double top;        /* the value of a full column */
	bool clipped;      /* a column above the top is marked */
	double span_s;     /* the time the columns cover */
	size_t points;     /* 0: nothing drawn */
};

/* The newest `width` points of a metric as a graph `height` rows tall
 * (at most GT_GRAPH_MAX_ROWS) whose bottom-left is at (y + height - 1, x);
 * returns its scale and span. */
struct gt_graph_scale gt_pane_sparkline(WINDOW *w, int y, int x, int width, int height, const struct gt_history *h,
					enum gt_history_metric m, const struct gt_theme *t);

/* The time a graph's columns cover: "37s", "17min". */
const char *gt_graph_span(char *buf, size_t len, const struct gt_graph_scale *g);

/* A graph of zeros only (a healthy program's pause share, say) draws no
 * bar: its first row says so, "no pause in 37s", rather than stand blank.
 * what: "no pause", "no allocation". */
void gt_pane_graph_zero(WINDOW *w, int y, const struct gt_graph_scale *g, int rows, const struct gt_theme *t,
			const char *what);

/* The graph's scale in the title row of the pane titled title, at its
 * right where the title leaves room: "graph 60s, top 38.5 MiB/s" (and
 * ", ^ above" when a column is clipped), else without "graph", else
 * without the span. top is the top already formatted. */
void gt_pane_graph_label(WINDOW *w, const struct gt_view_ctx *ctx, const char *title, const struct gt_graph_scale *g,
			 const char *top);

/* The memory bar: one scale from 0 to the container limit, or without one
 * to the largest of the process's own figures (heap max, committed, working
 * set; never the group's usage), each cell the innermost figure it lies
 * under. A cgroup usage that counts other processes is left out unless
 * there is a limit: then it is what the OOM killer compares, whoever it
 * counts. */
enum gt_membar_cell {
	GT_MEMBAR_FREE = 0,
	GT_MEMBAR_CGROUP,      /* container usage beyond the process working set */
	GT_MEMBAR_RSS,         /* working set beyond the committed heap */
	GT_MEMBAR_COMMITTED,   /* committed heap not in use */
	GT_MEMBAR_USED,        /* heap in use */
	GT_MEMBAR_LIMIT,       /* the last cell, when there is a limit */
};

struct gt_membar_input {
	struct gt_u64 heap_used, heap_committed, heap_max, rss, cgroup_usage, limit;
};

/* The cgroup usage worth showing beside the process's figures: the
 * group's own when it holds this process alone, any group's under a limit;
 * invalid otherwise. */
struct gt_u64 gt_membar_group_usage(const struct gt_sample *s);

/* Fills width cells; returns the bytes one cell stands for (0 when nothing is known). */
double gt_membar_cells(const struct gt_membar_input *in, int width, enum gt_membar_cell *cells);

void gt_pane_membar(WINDOW *w, int y, int x, int width, const struct gt_membar_input *in,
		    const struct gt_theme *t);

/* The glyph for a bar cell or sparkline level, UTF-8 or ASCII. */
const char *gt_membar_glyph(enum gt_membar_cell c, bool utf8);
const char *gt_spark_glyph(int level, bool utf8);
#define GT_SPARK_LEVELS 8
/* The top cell of a clipped column. */
const char *gt_spark_clip_glyph(bool utf8);

#endif
