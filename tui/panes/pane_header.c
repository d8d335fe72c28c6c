/* The header: who is watched, with what, and whether the figures are live. */
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "tui/panes/pane.h"

static const char *status_word(enum gt_view_status s)
{
	switch (s) {
	case GT_VIEW_EXITED: return "EXITED";
	case GT_VIEW_FROZEN: return "FROZEN";
	case GT_VIEW_WAITING: return "WAITING";
	case GT_VIEW_REPLAY: return "REPLAY";
	case GT_VIEW_LIVE: break;
	}
	return "LIVE";
}

static attr_t status_attr(const struct gt_view_ctx *ctx)
{
	switch (ctx->status) {
	case GT_VIEW_EXITED: return ctx->theme->crit | A_REVERSE;
	case GT_VIEW_FROZEN: return ctx->theme->warn | A_REVERSE;
	case GT_VIEW_WAITING: return ctx->theme->na | A_REVERSE;
	case GT_VIEW_REPLAY: return ctx->theme->warn | A_REVERSE;
	case GT_VIEW_LIVE: break;
	}
	return ctx->theme->good | A_REVERSE;
}

static const char *program_name(const struct gt_target_info *info)
{
	if (info->main_class[0])
		return info->main_class;
	if (info->command_line[0])
		return info->command_line;
	return "?";
}

/* text at (0, x), cut to room columns with "..." when longer (at least a
 * few characters of it stay); returns the column after it. */
static int print_cut(WINDOW *w, int x, attr_t attr, const char *text, int room)
{
	char buf[1100];   /* the longest text: a command line of 1024 */
	return gt_pane_print(w, 0, x, attr, "%s", gt_format_cut(buf, sizeof(buf), text, room < 8 ? 8 : room));
}

static int header_want_rows(const struct gt_view_ctx *ctx)
{
	(void)ctx;
	return 2;
}

/* Row 0 carries what matters most at 3 a.m. first (state, pid, program),
 * so a narrow terminal truncates the least important facts. */
static void draw_header(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	const struct gt_target_info *info = ctx->info;
	char a[64], b[64];
	int x;

	x = gt_pane_print(w, 0, 0, status_attr(ctx), " %s ", status_word(ctx->status));
	x = gt_pane_print(w, 0, x + 1, t->label, "PID ");
	x = gt_pane_print(w, 0, x, t->value, "%d", (int)info->pid);
	/* The collector before the version, and the program cut to leave it
	 * room: at 50 columns the GC's name still shows. */
	char gc[GT_NAME_LEN * 2 + 8];
	if (info->gc_mode[0])
		snprintf(gc, sizeof(gc), "GC %s (%s)", info->gc_name[0] ? info->gc_name : "n/a", info->gc_mode);
	else
		snprintf(gc, sizeof(gc), "GC %s", info->gc_name[0] ? info->gc_name : "n/a");
	int room = getmaxx(w) - (x + 2) - 2 - (int)strlen(gc);
	x = print_cut(w, x + 2, t->value | A_BOLD, program_name(info), room);
	x = gt_pane_print(w, 0, x + 2, t->label, "%s", gc);
	x = gt_pane_print(w, 0, x + 2, t->label, "%s %s", gt_runtime_name(info->runtime),
			  info->runtime_version[0] ? info->runtime_version : "n/a");

	if (getmaxy(w) < 2)
		return;
	x = gt_pane_print(w, 1, 0, t->label, " up ");
	if (info->start_time_ms.valid && ctx->now_wall_ms > 0)
		gt_format_uptime(a, sizeof(a), (double)(ctx->now_wall_ms - (int64_t)info->start_time_ms.value) / 1000.0);
	else
		snprintf(a, sizeof(a), "n/a");
	x = gt_pane_value(w, 1, x, t, t->value, a);
	x = gt_pane_print(w, 1, x + 2, t->label, "every ");
	x = gt_pane_print(w, 1, x, t->value, "%gs", ctx->interval_s);
	x = gt_pane_print(w, 1, x + 2, t->label, "container limit ");
	struct gt_u64 limit = info->cgroup_limit_bytes;
	if (ctx->d && ctx->d->cur.cgroup_limit_bytes.valid)
		limit = ctx->d->cur.cgroup_limit_bytes;
	if (limit.valid) {
		x = gt_pane_print(w, 1, x, t->value, "%s", gt_format_bytes(a, sizeof(a), limit));
		if (ctx->d && ctx->d->heap_max_share_of_limit.valid)
			x = gt_pane_print(w, 1, x, t->label, " (max heap %s of it)",
					  gt_format_share(b, sizeof(b), ctx->d->heap_max_share_of_limit));
	} else {
		x = gt_pane_print(w, 1, x, t->na, "none");
	}
	if (info->heap_flags[0])
		x = gt_pane_print(w, 1, x + 2, t->label, "%s", info->heap_flags);
	if (info->user[0])
		gt_pane_print(w, 1, x + 2, t->label, "user %s", info->user);
}

const struct gt_pane_ops gt_pane_header = {
	.name = "header",
	.title = "Header",
	.min_rows = 1,
	.min_cols = 40,
	.priority = 0,
	.full_width = true,
	.want_rows = header_want_rows,
	.draw = draw_header,
};
