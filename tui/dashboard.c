#include "tui/dashboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panes/pane_findings.h"
#include "tui/panes/pane_stacks.h"

/* Pause share and longest pause "over the window": one minute. */
#define GT_DASHBOARD_WINDOW_NS 60000000000ull

void gt_dashboard_init(struct gt_dashboard *db, struct gt_session *s)
{
	memset(db, 0, sizeof(*db));
	db->session = s;
	for (size_t i = 0; i < gt_pane_count && i < GT_LAYOUT_MAX_PANES; i++)
		db->visible[i] = true;
	db->focus = 1;
}

void gt_dashboard_close(struct gt_dashboard *db)
{
	gt_dashboard_forget_windows(db);
	memset(db, 0, sizeof(*db));
}

const char *gt_dashboard_message(const struct gt_dashboard *db)
{
	return db->session ? db->session->message : "";
}

static enum gt_view_status view_status(const struct gt_session *s)
{
	if (s->exited)
		return GT_VIEW_EXITED;
	if (s->frozen)
		return GT_VIEW_FROZEN;
	/* No target, yet samples: they were fed from a recording. */
	if (!s->target && s->have_prev)
		return GT_VIEW_REPLAY;
	return s->live.have_derived ? GT_VIEW_LIVE : GT_VIEW_WAITING;
}

static void fill_ctx(const struct gt_dashboard *db, struct gt_view_ctx *ctx, const struct gt_theme *theme,
		     double interval_s, int64_t now_wall_ms)
{
	const struct gt_session *s = db->session;
	const struct gt_session_figures *f = gt_session_shown(s);
	int64_t shown_ms = gt_session_shown_wall_ms(s);
	memset(ctx, 0, sizeof(*ctx));
	ctx->d = f->have_derived ? &f->derived : NULL;
	ctx->h = f->history;
	ctx->info = &s->info;
	ctx->theme = theme;
	ctx->status = view_status(s);
	ctx->interval_s = interval_s;
	ctx->window_ns = GT_DASHBOARD_WINDOW_NS;
	ctx->now_wall_ms = shown_ms ? shown_ms : now_wall_ms;
	/* While sampling is being turned on (session/job.h), the pane says so. */
	ctx->alloc = f->alloc ? f->alloc : s->frozen ? NULL : s->alloc_pending;
	ctx->alloc_message = f->alloc_message;
	ctx->alloc_stacks = f->stacks;
	ctx->alloc_selected = db->alloc_sel;
}

int gt_dashboard_findings_lines(const struct gt_dashboard *db, const struct gt_theme *theme, int width)
{
	struct gt_view_ctx ctx;
	fill_ctx(db, &ctx, theme, 0, 0);
	return gt_findings_overlay_lines(&ctx, width);
}

void gt_dashboard_draw_findings(const struct gt_dashboard *db, WINDOW *w, int first, const struct gt_theme *theme)
{
	struct gt_view_ctx ctx;
	fill_ctx(db, &ctx, theme, 0, 0);
	gt_findings_overlay_draw(w, first, &ctx);
}

static int allocators_pane(void)
{
	for (size_t i = 0; i < gt_pane_count && i < GT_LAYOUT_MAX_PANES; i++)
		if (gt_panes[i] == &gt_pane_allocators)
			return (int)i;
	return -1;
}

/* The table whose rows the selection moves over, or NULL. */
static const struct gt_alloc_derived *shown_table(const struct gt_dashboard *db)
{
	const struct gt_alloc_derived *a = gt_session_shown(db->session)->alloc;
	return a && a->valid && a->n_frames > 0 ? a : NULL;
}

bool gt_dashboard_allocators_focused(const struct gt_dashboard *db)
{
	int i = allocators_pane();
	return i >= 0 && db->focus == i && db->layout.shown[i];
}

void gt_dashboard_select(struct gt_dashboard *db, int delta)
{
	const struct gt_alloc_derived *a = shown_table(db);
	int i = allocators_pane();
	if (!a || i < 0)
		return;
	int last = (int)a->n_frames - 1;
	db->alloc_sel += delta;
	db->alloc_sel = db->alloc_sel < 0 ? 0 : db->alloc_sel > last ? last : db->alloc_sel;
	/* The selected row is list line alloc_sel + 1 (after the heading);
	 * the pane shows lines scroll .. scroll + room - 1 under its title and
	 * method line. */
	int line = db->alloc_sel + 1, room = db->layout.rects[i].rows - 2;
	if (line - 1 < db->scroll[i])
		db->scroll[i] = line - 1;
	else if (room > 0 && line >= db->scroll[i] + room)
		db->scroll[i] = line - room + 1;
}

bool gt_dashboard_open_stacks(struct gt_dashboard *db)
{
	const struct gt_alloc_derived *a = shown_table(db);
	if (!a || !gt_dashboard_allocators_focused(db))
		return false;
	/* the table may have fewer rows than when the row was chosen */
	if (db->alloc_sel >= (int)a->n_frames)
		db->alloc_sel = (int)a->n_frames - 1;
	snprintf(db->stacks_site, sizeof(db->stacks_site), "%s", a->by_frame[db->alloc_sel].name);
	return true;
}

int gt_dashboard_stacks_lines(const struct gt_dashboard *db, const struct gt_theme *theme, int width)
{
	struct gt_view_ctx ctx;
	fill_ctx(db, &ctx, theme, 0, 0);
	return gt_stacks_overlay_lines(&ctx, db->stacks_site, width);
}

void gt_dashboard_draw_stacks(const struct gt_dashboard *db, WINDOW *w, int first, const struct gt_theme *theme)
{
	struct gt_view_ctx ctx;
	fill_ctx(db, &ctx, theme, 0, 0);
	gt_stacks_overlay_draw(w, first, &ctx, db->stacks_site);
}

/* Keeps one window per shown pane, made anew only when its place changes. */
static WINDOW *pane_window(struct gt_dashboard *db, int i, struct gt_rect r)
{
	if (db->win[i] && memcmp(&db->win_rect[i], &r, sizeof(r)) == 0)
		return db->win[i];
	if (db->win[i])
		delwin(db->win[i]);
	db->win[i] = newwin(r.rows, r.cols, r.y, r.x);
	db->win_rect[i] = r;
	return db->win[i];
}

void gt_dashboard_layout_req(const struct gt_view_ctx *ctx, const bool *visible, const int *widths,
			     struct gt_layout_req *req)
{
	struct gt_view_ctx pc = *ctx;
	for (size_t i = 0; i < gt_pane_count && i < GT_LAYOUT_MAX_PANES; i++) {
		const struct gt_pane_ops *p = gt_panes[i];
		int need, want;
		pc.cols = widths ? widths[i] : 0;
		gt_pane_rows(p, &pc, &need, &want);
		req[i] = (struct gt_layout_req){
			.visible = visible[i],
			.full_width = p->full_width,
			.min_rows = need,
			.min_cols = p->min_cols,
			.want_rows = want,
			.priority = p->priority,
			.stretch = p->stretch,
			.max_rows = gt_pane_max_rows(p, &pc),
		};
	}
}

/* A pane's rows depend on its width (a reason wraps), which the layout
 * gives: the panes ask at the narrowest column first, then at the widths
 * they got, until those stop changing (a pane given more width asks for
 * fewer rows, which may let more columns fit: three rounds settle it). */
#define LAY_OUT_ROUNDS 3

void gt_dashboard_lay_out(const struct gt_view_ctx *ctx, const bool *visible, int rows, int cols,
			  struct gt_layout_req *req, struct gt_layout *out)
{
	int widths[GT_LAYOUT_MAX_PANES] = { 0 };
	int n = gt_pane_count < GT_LAYOUT_MAX_PANES ? (int)gt_pane_count : GT_LAYOUT_MAX_PANES;
	gt_dashboard_layout_req(ctx, visible, NULL, req);
	gt_layout_compute(rows, cols, req, n, out);
	for (int round = 0; round < LAY_OUT_ROUNDS; round++) {
		bool changed = false;
		for (int i = 0; i < n; i++) {
			int w = out->shown[i] ? out->rects[i].cols : 0;
			changed |= w != widths[i];
			widths[i] = w;
		}
		if (!changed)
			return;
		gt_dashboard_layout_req(ctx, visible, widths, req);
		gt_layout_compute(rows, cols, req, n, out);
	}
}

void gt_dashboard_draw(struct gt_dashboard *db, int rows, int cols, const struct gt_theme *theme,
		       double interval_s, int64_t now_wall_ms)
{
	struct gt_view_ctx ctx;
	struct gt_layout_req req[GT_LAYOUT_MAX_PANES] = { { 0 } };
	int n = (int)gt_pane_count;

	fill_ctx(db, &ctx, theme, interval_s, now_wall_ms);
	gt_dashboard_lay_out(&ctx, db->visible, rows, cols, req, &db->layout);
	for (int i = 0; i < n; i++) {
		db->max_scroll[i] = 0;
		if (!db->layout.shown[i]) {
			if (db->win[i]) {
				delwin(db->win[i]);
				db->win[i] = NULL;
			}
			continue;
		}
		WINDOW *w = pane_window(db, i, db->layout.rects[i]);
		if (!w)
			continue;
		ctx.number = i + 1;
		ctx.focused = i == db->focus;
		ctx.cols = db->layout.rects[i].cols;
		int content = gt_panes[i]->content_rows ? gt_panes[i]->content_rows(&ctx) : req[i].want_rows;
		db->max_scroll[i] = content > db->layout.rects[i].rows ? content - db->layout.rects[i].rows : 0;
		if (db->scroll[i] > db->max_scroll[i])
			db->scroll[i] = db->max_scroll[i];
		ctx.scroll = db->scroll[i];
		werase(w);
		gt_panes[i]->draw(w, &ctx);
		wnoutrefresh(w);
	}
}

void gt_dashboard_forget_windows(struct gt_dashboard *db)
{
	for (int i = 0; i < GT_LAYOUT_MAX_PANES; i++) {
		if (db->win[i])
			delwin(db->win[i]);
		db->win[i] = NULL;
	}
}

void gt_dashboard_focus_next(struct gt_dashboard *db)
{
	int n = (int)gt_pane_count;
	for (int step = 1; step <= n; step++) {
		int i = (db->focus + step) % n;
		if (db->layout.shown[i]) {
			db->focus = i;
			return;
		}
	}
}

void gt_dashboard_scroll(struct gt_dashboard *db, int delta)
{
	int i = db->focus;
	if (i < 0 || i >= GT_LAYOUT_MAX_PANES)
		return;
	db->scroll[i] += delta;
	/* The ceiling is what the pane held beyond its rows at the last draw,
	 * so Up answers at once after scrolling past the end. */
	if (db->scroll[i] > db->max_scroll[i])
		db->scroll[i] = db->max_scroll[i];
	if (db->scroll[i] < 0)
		db->scroll[i] = 0;
}
