#include "tui/dashboard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pause share and longest pause "over the window": one minute. */
#define GT_DASHBOARD_WINDOW_NS 60000000000ull

int gt_dashboard_open(struct gt_dashboard *db, pid_t pid, struct gt_error *err)
{
	memset(db, 0, sizeof(*db));
	db->history = calloc(1, sizeof(*db->history));
	db->frozen_history = calloc(1, sizeof(*db->frozen_history));
	if (!db->history || !db->frozen_history) {
		gt_dashboard_close(db);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	db->target = gt_target_open(pid, err);
	if (!db->target) {
		gt_dashboard_close(db);
		return -1;
	}
	db->info = *gt_target_info(db->target);
	for (size_t i = 0; i < gt_pane_count && i < GT_LAYOUT_MAX_PANES; i++)
		db->visible[i] = true;
	db->focus = 1;
	return 0;
}

void gt_dashboard_close(struct gt_dashboard *db)
{
	for (int i = 0; i < GT_LAYOUT_MAX_PANES; i++)
		if (db->win[i])
			delwin(db->win[i]);
	if (db->target)
		gt_target_close(db->target);
	gt_dashboard_free_allocators(db);
	free(db->history);
	free(db->frozen_history);
	memset(db, 0, sizeof(*db));
}

bool gt_dashboard_sample(struct gt_dashboard *db)
{
	struct gt_sample cur;
	struct gt_error err = { 0 };

	if (db->exited)
		return false;
	int rc = gt_target_sample(db->target, &cur, &err);
	if (rc != 0 && err.code == GT_EXIT_TARGET_EXITED) {
		/* The last figures stay on screen: a derive against the same
		 * counters would show made-up zero rates. */
		db->exited = true;
		db->info = *gt_target_info(db->target);
		snprintf(db->message, sizeof(db->message), "%s", err.msg);
		return true;
	}
	if (rc != 0) {
		snprintf(db->message, sizeof(db->message), "%s", err.msg);
		return false;
	}
	gt_derive(db->have_prev ? &db->prev : NULL, &cur, &db->derived);
	db->have_derived = true;
	gt_history_push(db->history, &db->derived);
	db->prev = cur;
	db->have_prev = true;
	db->info = *gt_target_info(db->target);
	gt_dashboard_update_allocators(db);
	db->message[0] = '\0';
	return false;
}

void gt_dashboard_toggle_freeze(struct gt_dashboard *db)
{
	db->frozen = !db->frozen;
	if (db->frozen) {
		db->frozen_derived = db->derived;
		db->frozen_have_derived = db->have_derived;
		*db->frozen_history = *db->history;
		gt_dashboard_freeze_allocators(db);
	}
}

static enum gt_view_status view_status(const struct gt_dashboard *db)
{
	if (db->exited)
		return GT_VIEW_EXITED;
	if (db->frozen)
		return GT_VIEW_FROZEN;
	return db->have_derived ? GT_VIEW_LIVE : GT_VIEW_WAITING;
}

static void fill_ctx(const struct gt_dashboard *db, struct gt_view_ctx *ctx, const struct gt_theme *theme,
		     double interval_s, int64_t now_wall_ms)
{
	memset(ctx, 0, sizeof(*ctx));
	bool have = db->frozen ? db->frozen_have_derived : db->have_derived;
	ctx->d = have ? (db->frozen ? &db->frozen_derived : &db->derived) : NULL;
	ctx->h = db->frozen ? db->frozen_history : db->history;
	ctx->info = &db->info;
	ctx->theme = theme;
	ctx->status = view_status(db);
	ctx->interval_s = interval_s;
	ctx->window_ns = GT_DASHBOARD_WINDOW_NS;
	/* An exited target's uptime stops where its figures stopped, and a
	 * frozen display's at the sample it shows. */
	ctx->now_wall_ms = now_wall_ms;
	if (db->exited && db->have_prev)
		ctx->now_wall_ms = db->prev.wall_ms;
	else if (db->frozen && db->frozen_have_derived)
		ctx->now_wall_ms = db->frozen_derived.cur.wall_ms;
	ctx->alloc = db->frozen ? db->frozen_alloc : db->alloc;
	ctx->alloc_message = db->frozen ? db->frozen_alloc_message : db->alloc_message;
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

void gt_dashboard_draw(struct gt_dashboard *db, int rows, int cols, const struct gt_theme *theme,
		       double interval_s, int64_t now_wall_ms)
{
	struct gt_view_ctx ctx;
	struct gt_layout_req req[GT_LAYOUT_MAX_PANES] = { { 0 } };
	int n = (int)gt_pane_count;

	fill_ctx(db, &ctx, theme, interval_s, now_wall_ms);
	for (int i = 0; i < n; i++) {
		const struct gt_pane_ops *p = gt_panes[i];
		int want = p->want_rows(&ctx);
		int need = p->need_rows ? p->need_rows(&ctx) : p->min_rows;
		if (need < p->min_rows)
			need = p->min_rows;
		req[i] = (struct gt_layout_req){
			.visible = db->visible[i],
			.full_width = p->full_width,
			.min_rows = need,
			.min_cols = p->min_cols,
			.want_rows = want > need ? want : need,
			.priority = p->priority,
			.stretch = p->stretch,
		};
	}
	gt_layout_compute(rows, cols, req, n, &db->layout);
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
