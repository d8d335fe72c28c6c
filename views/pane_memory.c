/* Memory: heap in use and committed, the working set and the container's
 * usage on one bar that ends at the container limit, so the distance to an
 * OOM kill is visible at a glance. */
#include <stdio.h>

#include "format.h"
#include "pane.h"

static int memory_want_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return 6;
}

static int legend(WINDOW *w, int y, int x, const struct gt_theme *t, enum gt_membar_cell c,
		  const char *label, struct gt_u64 v)
{
	char a[32];
	attr_t glyph_attr = c == GT_MEMBAR_USED ? t->bar_used : c == GT_MEMBAR_COMMITTED ? t->bar_committed
			  : c == GT_MEMBAR_RSS ? t->bar_rss : c == GT_MEMBAR_CGROUP ? t->bar_cgroup : t->bar_limit;
	x = gt_pane_print(w, y, x, glyph_attr, "%s", gt_membar_glyph(c, t->utf8));
	x = gt_pane_print(w, y, x + 1, t->label, "%s ", label);
	x = gt_pane_value(w, y, x, t, t->value, gt_format_bytes(a, sizeof(a), v));
	return x + 2;
}

/* The group's usage with what it counts: "cgroup" alone when the group is
 * the process's own, "cgroup (N procs)" when it is shared; nothing for a
 * shared group without a limit (a login session's, say), which says nothing
 * about this process. */
static int group_legend(WINDOW *w, int y, int x, const struct gt_theme *t, const struct gt_sample *s)
{
	char label[48];
	struct gt_u64 use = gt_membar_group_usage(s);
	if (!use.valid)
		return x;
	if (s->cgroup_processes.valid && s->cgroup_processes.value > 1)
		snprintf(label, sizeof(label), "cgroup (%llu procs)", (unsigned long long)s->cgroup_processes.value);
	else
		snprintf(label, sizeof(label), "cgroup");
	return legend(w, y, x, t, GT_MEMBAR_CGROUP, label, use);
}

/* Under 10% of the limit left, the kernel's OOM killer is close. */
static void draw_headroom(WINDOW *w, int y, int x, const struct gt_theme *t, const struct gt_sample *s)
{
	char a[32];
	struct gt_u64 use = s->cgroup_usage_bytes.valid ? s->cgroup_usage_bytes : s->rss_bytes;
	if (!s->cgroup_limit_bytes.valid) {
		gt_pane_print(w, y, x, t->na, "no container limit");
		return;
	}
	if (!use.valid || s->cgroup_limit_bytes.value == 0) {
		gt_pane_print(w, y, x, t->na, "headroom n/a");
		return;
	}
	uint64_t lim = s->cgroup_limit_bytes.value;
	struct gt_u64 left = { use.value < lim ? lim - use.value : 0, true };
	double share = (double)left.value / (double)lim;
	attr_t at = share < 0.10 ? t->crit | A_BOLD : share < 0.20 ? t->warn | A_BOLD : t->good;
	x = gt_pane_print(w, y, x, t->label, "headroom ");
	gt_pane_print(w, y, x, at, "%s (%.0f%%)", gt_format_bytes(a, sizeof(a), left), share * 100);
}

static void draw_memory(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_derived *d = ctx->d;
	int rows = getmaxy(w), cols = getmaxx(w), x;
	char a[32];

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

	if (rows >= 3) {
		x = legend(w, 2, 1, t, GT_MEMBAR_USED, "heap used", s->heap_used_bytes);
		legend(w, 2, x, t, GT_MEMBAR_COMMITTED, "committed", s->heap_committed_bytes);
	}
	if (rows >= 4) {
		x = legend(w, 3, 1, t, GT_MEMBAR_RSS, "working set", s->rss_bytes);
		x = group_legend(w, 3, x, t, s);
		if (s->cgroup_limit_bytes.valid)
			legend(w, 3, x, t, GT_MEMBAR_LIMIT, "limit", s->cgroup_limit_bytes);
	}
	if (rows >= 5) {
		x = gt_pane_print(w, 4, 1, t->label, "heap max ");
		x = gt_pane_value(w, 4, x, t, t->value, gt_format_bytes(a, sizeof(a), s->heap_max_bytes));
		draw_headroom(w, 4, x + 2, t, s);
	}
	if (rows >= 6) {
		x = gt_pane_print(w, 5, 1, t->label, "metaspace ");
		x = gt_pane_value(w, 5, x, t, t->value, gt_format_bytes(a, sizeof(a), s->metaspace_used_bytes));
		x = gt_pane_print(w, 5, x + 2, t->label, "OOM kills ");
		x = gt_pane_value(w, 5, x, t, s->oom_kills.valid && s->oom_kills.value ? t->crit | A_BOLD : t->value,
				  gt_format_count(a, sizeof(a), s->oom_kills));
		x = gt_pane_print(w, 5, x + 2, t->label, "pressure ");
		if (s->memory_pressure_avg10.valid)
			gt_pane_print(w, 5, x, t->value, "%.2f%%%s", s->memory_pressure_avg10.value,
				      s->memory_pressure_system_wide ? " (system)" : "");
		else
			gt_pane_print(w, 5, x, t->na, "n/a");
	}
}

const struct gt_pane_ops gt_pane_memory = {
	.name = "memory",
	.title = "Memory",
	.min_rows = 3,
	.min_cols = 36,
	.priority = 3,
	.want_rows = memory_want_rows,
	.draw = draw_memory,
};
