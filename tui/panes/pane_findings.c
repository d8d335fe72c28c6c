/* Findings: the worst of them on one line under the header, and all of them
 * in an overlay (key f). They are computed from what the pane is given (the
 * shown figures and their history), so frozen figures give frozen findings. */
#include <stdio.h>
#include <string.h>

#include "model/findings.h"
#include "views/findings_writer.h"
#include "model/format.h"
#include "tui/panes/pane_overlay.h"
#include "tui/panes/pane.h"
#include "tui/panes/pane_findings.h"

/* Continuation lines of a finding start here. */
#define FINDINGS_INDENT 4

static attr_t severity_attr(const struct gt_theme *t, enum gt_severity s)
{
	switch (s) {
	case GT_SEVERITY_CRITICAL: return t->crit | A_BOLD;
	case GT_SEVERITY_WARNING: return t->warn | A_BOLD;
	case GT_SEVERITY_INFO: return t->value;
	case GT_SEVERITY_NONE: break;
	}
	return t->label;
}

static void compute(const struct gt_view_ctx *ctx, struct gt_findings *f)
{
	gt_findings_compute(ctx->info, ctx->d, ctx->h, f);
}

/* A list: one row per finding (at least the one that says there is none);
 * given fewer, it shows the worst and says how many more. */
static int findings_rows(const struct gt_view_ctx *ctx)
{
	if (!ctx->d)
		return 1;
	struct gt_findings f;
	compute(ctx, &f);
	return f.count > 1 ? (int)f.count : 1;
}

/* Finding i on row y from column x: its severity and title, cut at a word
 * ("..." after it) to leave room for the hint after it. */
static void draw_finding(WINDOW *w, int y, int x, const struct gt_theme *t, const struct gt_finding *it,
			 const char *hint)
{
	char title[GT_FINDING_TITLE_LEN + 4];
	x = gt_pane_print(w, y, x + 1, severity_attr(t, it->severity), "%s", gt_severity_name(it->severity));
	int room = getmaxx(w) - (x + 1) - (int)strlen(hint);
	if (room < 0)
		room = 0;
	x = gt_pane_print(w, y, x + 1, t->value, "%s", gt_format_cut_words(title, sizeof(title), it->title, room));
	gt_pane_print(w, y, x, t->label, "%s", hint);
}

static void draw_findings(WINDOW *w, const struct gt_view_ctx *ctx)
{
	const struct gt_theme *t = ctx->theme;
	attr_t a = ctx->focused ? t->title_focus : t->title;
	int x = gt_pane_print(w, 0, 0, a, " %d Findings ", ctx->number);
	if (!ctx->d) {
		gt_pane_print(w, 0, x + 1, t->na, "n/a: no sample yet");
		return;
	}
	struct gt_findings f;
	compute(ctx, &f);
	if (f.count == 0) {
		gt_pane_print(w, 0, x + 1, t->good, "none so far  (f: how they are judged)");
		return;
	}
	/* The worst first, one per row under the title's end; the last row
	 * shown says how many more the overlay holds. */
	unsigned shown = f.count < (unsigned)getmaxy(w) ? f.count : (unsigned)getmaxy(w);
	for (unsigned i = 0; i < shown; i++) {
		char hint[48] = "";
		if (i + 1 == shown && shown < f.count)
			snprintf(hint, sizeof(hint), "  +%u more, f: all", f.count - shown);
		else if (i == 0)
			snprintf(hint, sizeof(hint), "  f: evidence");
		draw_finding(w, (int)i, x, t, &f.items[i], hint);
	}
}

const struct gt_pane_ops gt_pane_findings = {
	.name = "findings",
	.title = "Findings",
	.min_rows = 1,
	.min_cols = 30,
	.priority = 2,
	.full_width = true,
	.want_rows = findings_rows,
	.draw = draw_findings,
};

/* ---- the overlay ---- */

static void walk(struct gt_overlay *o, const struct gt_view_ctx *ctx)
{
	if (!ctx->d) {
		gt_overlay_text(o, 1, o->t->na, "n/a: no sample yet");
		return;
	}
	struct gt_findings f;
	compute(ctx, &f);
	if (f.count == 0)
		gt_overlay_text(o, 1, o->t->good, "No findings: no figure so far crosses a rule's threshold.");
	for (unsigned i = 0; i < f.count; i++) {
		const struct gt_finding *x = &f.items[i];
		char head[GT_FINDING_TITLE_LEN + 48], ev[512], line[600];
		snprintf(head, sizeof(head), "%-8s %s: %s", gt_severity_name(x->severity), x->id, x->title);
		gt_overlay_text(o, 1, severity_attr(o->t, x->severity), head);
		snprintf(line, sizeof(line), "evidence: %s", gt_findings_evidence_line(ev, sizeof(ev), x));
		gt_overlay_text(o, FINDINGS_INDENT, o->t->label, line);
		snprintf(line, sizeof(line), "next: %s", x->advice_keys);
		gt_overlay_text(o, FINDINGS_INDENT, o->t->value, line);
		gt_overlay_line(o, 0, o->t->label, "", 0);
	}
	gt_overlay_text(o, 1, o->t->label, "Each rule and its threshold: gctop(1), FINDINGS. gctop --doctor prints these.");
}

int gt_findings_overlay_lines(const struct gt_view_ctx *ctx, int width)
{
	struct gt_overlay o = { NULL, ctx->theme, width, 0, 0 };
	walk(&o, ctx);
	return o.line;
}

void gt_findings_overlay_draw(WINDOW *w, int first, const struct gt_view_ctx *ctx)
{
	struct gt_overlay o = { w, ctx->theme, getmaxx(w), first, 0 };
	gt_pane_print(w, 0, 0, ctx->theme->title | A_REVERSE, "%-*s", getmaxx(w),
		      " gctop findings   q, Esc or f: close   Up/Down: scroll");
	walk(&o, ctx);
}
