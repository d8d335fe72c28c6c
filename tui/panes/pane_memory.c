/* Memory: heap in use and committed, the working set and the container's
 * usage on one bar that ends at the container limit, so the distance to an
 * OOM kill is visible at a glance. */
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "views/format_live.h"
#include "tui/panes/pane.h"

/* The legend and the figures flow across the lines under the bar, wrapping
 * where the next would not fit, so a narrow pane keeps every figure. The
 * same flow without a window measures the rows it takes at a width, which
 * is what the pane asks the layout for. */
struct memory_flow {
	WINDOW *w;            /* NULL: measure, draw nothing */
	const struct gt_theme *t;
	int y, x, rows, cols;
};

/* More rows than any pane is tall: the bound of a measuring flow. */
#define MEASURE_ROWS 1000

/* Metaspace is a JVM's: .NET has none, and a row of n/a is not shown. */
static bool memory_metaspace(const struct gt_view_ctx *ctx)
{
	return !ctx->info || !ctx->info->runtime || ctx->info->runtime->has_metaspace;
}

/* Where the next lines of a reason start: under the label's words. */
#define NOTE_INDENT 3

/* While allocation sampling shows its table, the rows the layout gives
 * beyond every pane's need go to that list first (who allocates is what
 * the user asked for): the memory pane then wishes for no live-set rows
 * and draws them in what rows it has. At 80x24 they took the rows of the
 * allocators' types (tui_glance's net80). */
static bool memory_yields(const struct gt_view_ctx *ctx)
{
	return ctx->alloc && ctx->alloc->valid;
}

/* Starts an item of `width` columns: on this line if it fits, else on the
 * next; false when the pane has no line left for it. */
static bool flow_room(struct memory_flow *f, int width)
{
	if (f->x > 1 && f->x + width > f->cols - 1) {
		f->y++;
		f->x = 1;
	}
	return f->y < f->rows;
}

/* text at x on the flow's line, or its width when measuring; returns the
 * column after it. */
static int flow_put(struct memory_flow *f, int x, attr_t attr, const char *text)
{
	if (!f->w)
		return x + gt_pane_text_cols(text);
	return gt_pane_value(f->w, f->y, x, f->t, attr, text);
}

static void flow_newline(struct memory_flow *f)
{
	f->y++;
	f->x = 1;
}

/* One item: an optional glyph, a label and a value, then two spaces. */
static void flow_item(struct memory_flow *f, const char *glyph, attr_t glyph_attr, const char *label,
		      attr_t value_attr, const char *value)
{
	int width = (glyph ? 2 : 0) + (int)strlen(label) + 1 + (int)strlen(value);
	if (!flow_room(f, width))
		return;
	int x = f->x;
	if (glyph)
		x = flow_put(f, x, glyph_attr, glyph) + 1;
	x = flow_put(f, x, f->t->label, label) + 1;
	x = flow_put(f, x, value_attr, value);
	f->x = x + 2;
}

static void legend(struct memory_flow *f, enum gt_membar_cell c, const char *label, struct gt_u64 v)
{
	const struct gt_theme *t = f->t;
	char a[32];
	attr_t glyph_attr = c == GT_MEMBAR_USED ? t->bar_used : c == GT_MEMBAR_COMMITTED ? t->bar_committed
			  : c == GT_MEMBAR_RSS ? t->bar_rss : c == GT_MEMBAR_CGROUP ? t->bar_cgroup : t->bar_limit;
	flow_item(f, gt_membar_glyph(c, t->utf8), glyph_attr, label, t->value, gt_format_bytes(a, sizeof(a), v));
}

/* The group's usage with what it counts: "cgroup" alone when the group is
 * the process's own, "cgroup (N procs)" when it is shared; nothing for a
 * shared group without a limit (a login session's, say), which says nothing
 * about this process. */
static void group_legend(struct memory_flow *f, const struct gt_sample *s)
{
	char label[48];
	struct gt_u64 use = gt_membar_group_usage(s);
	if (!use.valid)
		return;
	if (s->cgroup_processes.valid && s->cgroup_processes.value > 1)
		snprintf(label, sizeof(label), "cgroup (%llu procs)", (unsigned long long)s->cgroup_processes.value);
	else
		snprintf(label, sizeof(label), "cgroup");
	legend(f, GT_MEMBAR_CGROUP, label, use);
}

/* Under 10% of the limit left, the kernel's OOM killer is close. */
static void headroom(struct memory_flow *f, const struct gt_sample *s)
{
	const struct gt_theme *t = f->t;
	char a[32], v[48];
	struct gt_u64 use = s->cgroup_usage_bytes.valid ? s->cgroup_usage_bytes : s->rss_bytes;
	if (!s->cgroup_limit_bytes.valid) {
		if (flow_room(f, 18))
			f->x = flow_put(f, f->x, t->na, "no container limit") + 2;
		return;
	}
	if (!use.valid || s->cgroup_limit_bytes.value == 0) {
		flow_item(f, NULL, 0, "headroom", t->na, "n/a");
		return;
	}
	uint64_t lim = s->cgroup_limit_bytes.value;
	struct gt_u64 left = { use.value < lim ? lim - use.value : 0, true };
	double share = (double)left.value / (double)lim;
	attr_t at = share < 0.10 ? t->crit | A_BOLD : share < 0.20 ? t->warn | A_BOLD : t->good;
	snprintf(v, sizeof(v), "%s (%.0f%%)", gt_format_bytes(a, sizeof(a), left), share * 100);
	flow_item(f, NULL, 0, "headroom", at, v);
}

/* Why a figure is n/a, in the n/a colour, after it and wrapped at words
 * onto the lines below; left out when the pane has no rows for all of it. */
static void flow_note(struct memory_flow *f, const char *text)
{
	if (f->y >= f->rows || !text || !text[0])
		return;
	int took = f->w ? gt_pane_wrapped(f->w, f->y, f->x, NOTE_INDENT, f->rows, f->t->na, text)
		   : gt_pane_wrap_rows(f->x, NOTE_INDENT, f->cols, text);
	if (took > 1)
		f->y += took - 1;
	if (took)
		f->x = f->cols;
}

/* Within an hour of the limit is worth a look, within ten minutes urgent
 * (the live-set-growth finding's severities). */
static attr_t exhaustion_attr(const struct gt_theme *t, const struct gt_live_set *l)
{
	if (!l->exhaustion_s.valid)
		return t->na;
	return l->exhaustion_s.value < 600 ? t->crit | A_BOLD : l->exhaustion_s.value < 3600 ? t->warn | A_BOLD : t->value;
}

static void old_item(struct memory_flow *f, const char *label, const char *value, bool valid)
{
	flow_item(f, NULL, 0, label, valid ? f->t->value : f->t->na, value);
}

/* Old's occupancy as jstat's OU, OC, OGCMX and O (used over committed). */
static void old_items(struct memory_flow *f, const struct gt_sample *s)
{
	char u[32], c[32], m[32], o[16];
	struct gt_f64 share = gt_old_used_share(s);
	old_item(f, "old used", gt_format_bytes(u, sizeof(u), s->old_used_bytes), s->old_used_bytes.valid);
	old_item(f, "committed", gt_format_bytes(c, sizeof(c), s->old_committed_bytes), s->old_committed_bytes.valid);
	flow_newline(f);    /* two lines at any width */
	old_item(f, "max", gt_format_bytes(m, sizeof(m), s->old_max_bytes), s->old_max_bytes.valid);
	char of[32];
	snprintf(of, sizeof(of), "%s of committed", gt_format_share(o, sizeof(o), share));
	old_item(f, "used", share.valid ? of : "n/a", share.valid);
}

/* The live set (the heap that survived the last collection of the old
 * generation), the time until it fills its limit, its growth, and old's
 * occupancy as jstat's O, OC, OGCMX. */
static void live_rows(struct memory_flow *f, const struct gt_derived *d)
{
	const struct gt_theme *t = f->t;
	const struct gt_live_set *l = &d->live_set;
	char a[32], g[80], e[64];
	flow_newline(f);
	if (!l->valid) {
		flow_item(f, NULL, 0, "live set", t->na, "n/a");
		flow_note(f, l->why);
	} else {
		flow_item(f, NULL, 0, "live set", t->value, gt_format_bytes(a, sizeof(a), (struct gt_u64){ l->bytes, true }));
		flow_newline(f);
		flow_item(f, NULL, 0, "growth", l->growth_bps.valid ? t->value : t->na, gt_format_live_growth(g, sizeof(g), l));
		flow_newline(f);
		flow_item(f, NULL, 0, "full in", exhaustion_attr(t, l), gt_format_live_exhaustion(e, sizeof(e), l));
		flow_note(f, l->exhaustion_s.valid ? NULL : l->exhaustion_why);
	}
	flow_newline(f);
	old_items(f, &d->cur);
}

/* What is worth a look when there is room: metaspace (a JVM's: .NET has
 * none, so the row is not shown there), OOM kills, pressure. */
static void extras(struct memory_flow *f, const struct gt_sample *s, bool metaspace)
{
	const struct gt_theme *t = f->t;
	char a[32];
	if (metaspace)
		flow_item(f, NULL, 0, "metaspace", t->value, gt_format_bytes(a, sizeof(a), s->metaspace_used_bytes));
	flow_item(f, NULL, 0, "OOM kills", s->oom_kills.valid && s->oom_kills.value ? t->crit | A_BOLD : t->value,
		  gt_format_count(a, sizeof(a), s->oom_kills));
	/* The pane asks for two rows of these with metaspace (it cannot know
	 * its width then): a wide pane that fits all three on one puts the
	 * pressure on the second rather than leave that row blank. */
	if (metaspace && f->y + 1 < f->rows)
		flow_newline(f);
	if (s->memory_pressure_avg10.valid)
		snprintf(a, sizeof(a), "%.2f%%%s", s->memory_pressure_avg10.value,
			 s->memory_pressure_system_wide ? " (system)" : "");
	else
		snprintf(a, sizeof(a), "n/a");
	flow_item(f, NULL, 0, "pressure", s->memory_pressure_avg10.valid ? t->value : t->na, a);
}

/* Everything under the bar: the legend, heap max and headroom; then,
 * when asked, the live set's rows and what is worth a look. */
static void memory_flow_all(struct memory_flow *f, const struct gt_view_ctx *ctx, bool live, bool extra)
{
	const struct gt_derived *d = ctx->d;
	const struct gt_sample *s = &d->cur;
	char a[32];
	legend(f, GT_MEMBAR_USED, "used", s->heap_used_bytes);
	legend(f, GT_MEMBAR_COMMITTED, "committed", s->heap_committed_bytes);
	flow_newline(f);
	legend(f, GT_MEMBAR_RSS, "working set", s->rss_bytes);
	group_legend(f, s);
	if (s->cgroup_limit_bytes.valid)
		legend(f, GT_MEMBAR_LIMIT, "limit", s->cgroup_limit_bytes);
	flow_newline(f);
	flow_item(f, NULL, 0, "heap max", f->t->value, gt_format_bytes(a, sizeof(a), s->heap_max_bytes));
	headroom(f, s);
	if (live)
		live_rows(f, d);
	if (extra) {
		flow_newline(f);
		extras(f, s, memory_metaspace(ctx));
	}
}

/* The rows the flow takes at the pane's width (gt_pane_cols, tui/panes/pane.h),
 * with its title and bar. */
static int memory_measure(const struct gt_view_ctx *ctx, bool live, bool extra)
{
	static const struct gt_theme plain;
	struct memory_flow f = { NULL, ctx->theme ? ctx->theme : &plain, 2, 1, MEASURE_ROWS, gt_pane_cols(ctx) };
	memory_flow_all(&f, ctx, live, extra);
	return f.y + 1;
}

/* Title, bar, the legend (used and committed, working set, group and
 * limit) and heap max with the headroom, at the pane's width. */
static int memory_need_rows(const struct gt_view_ctx *ctx)
{
	if (!ctx->d)
		return 5;
	return memory_measure(ctx, false, false);
}

/* All of it: the live set with its reasons wrapped (unless the allocators'
 * table takes the spare rows), metaspace, OOM kills and pressure. */
static int memory_want_rows(const struct gt_view_ctx *ctx)
{
	if (!ctx->d)
		return 5 + 3 + (memory_metaspace(ctx) ? 2 : 1);
	return memory_measure(ctx, !memory_yields(ctx), true);
}

static void draw_memory(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	int cols = getmaxx(w);

	gt_pane_draw_title(w, ctx, "Memory");
	if (!d) {
		gt_pane_print(w, 1, 1, t->na, "n/a: no sample yet");
		return;
	}
	const struct gt_sample *s = &d->cur;
	struct gt_membar_input in = {
		.heap_used = s->heap_used_bytes,
		.heap_committed = s->heap_committed_bytes,
		.heap_max = s->heap_max_bytes,
		.rss = s->rss_bytes,
		.cgroup_usage = gt_membar_group_usage(s),
		.limit = s->cgroup_limit_bytes,
	};
	gt_pane_membar(w, 1, 1, cols - 2, &in, t);
	struct memory_flow f = { w, t, 2, 1, getmaxy(w), cols };
	memory_flow_all(&f, ctx, true, true);
}

const struct gt_pane_ops gt_pane_memory = {
	.name = "memory",
	.title = "Memory",
	.min_rows = 3,
	.min_cols = 36,
	.priority = 3,
	.need_rows = memory_need_rows,
	.want_rows = memory_want_rows,
	.draw = draw_memory,
};
