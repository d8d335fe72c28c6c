/* The census overlay (tui/panes/pane_census.h). Type names come from
 * the target: each is sanitised and shortened by its namespace to fit. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/sanitize.h"
#include "tui/panes/pane_census.h"
#include "tui/panes/pane_overlay.h"
#include "views/census_writer.h"
#include "model/format.h"

/* Where the names start: after " %10s %12s  " (bytes, count) in the top
 * types, after " %10s %+12s %10s  " (grown, count grown, bytes) in the
 * growth, which ends a name with " new" or " gone". */
#define CENSUS_NAME_COL 26
#define CENSUS_GROWTH_NAME_COL 37
#define CENSUS_MARK_COLS 5

static struct gt_u64 u64(uint64_t v)
{
	return (struct gt_u64){ .value = v, .valid = true };
}

static void name_of(char *out, size_t len, const char *name, int width)
{
	char clean[GT_CENSUS_NAME_LEN * 4];
	gt_sanitize(clean, sizeof(clean), name, gt_sanitize_terminal_mode());
	gt_format_name(out, len, clean, width > 8 ? width : 8, NULL, 0);
}

static void walk_top(struct gt_overlay *o, const struct gt_census *c)
{
	char line[GT_CENSUS_NAME_LEN * 4 + 64], bytes[24], name[GT_CENSUS_NAME_LEN * 4];
	gt_overlay_text(o, 1, o->t->label | A_BOLD, "Top types by bytes");
	snprintf(line, sizeof(line), "%10s %12s  %s", "BYTES", "COUNT", "TYPE");
	gt_overlay_line(o, 1, o->t->label, line, (int)strlen(line));
	for (size_t i = 0; i < c->n_types && i < GT_CENSUS_PANE_ROWS; i++) {
		const struct gt_census_type *t = &c->types[i];
		name_of(name, sizeof(name), t->name, o->width - CENSUS_NAME_COL);
		snprintf(line, sizeof(line), "%10s %12" PRIu64 "  %s", gt_format_bytes(bytes, sizeof(bytes), u64(t->bytes)),
			 t->count, name);
		gt_overlay_line(o, 1, o->t->value, line, (int)strlen(line));
	}
	if (c->n_types > GT_CENSUS_PANE_ROWS) {
		snprintf(line, sizeof(line), "... and %zu more types", c->n_types - GT_CENSUS_PANE_ROWS);
		gt_overlay_text(o, 1, o->t->label, line);
	}
}

static void walk_growth(struct gt_overlay *o, const struct gt_session_census *k)
{
	const struct gt_census_diff *d = &k->diff;
	char line[GT_CENSUS_NAME_LEN * 4 + 96], grown[24], name[GT_CENSUS_NAME_LEN * 4], bytes[24];
	snprintf(line, sizeof(line), "Grown since the census before, %.1f s earlier: %s live, %+" PRId64 " objects",
		 (double)d->since_ms / 1000.0, gt_census_delta_bytes(grown, sizeof(grown), d->total_bytes_delta),
		 d->total_count_delta);
	gt_overlay_text(o, 1, o->t->label | A_BOLD, line);
	snprintf(line, sizeof(line), "%10s %12s %10s  %s", "GROWN", "COUNT+", "BYTES", "TYPE");
	gt_overlay_line(o, 1, o->t->label, line, (int)strlen(line));
	for (size_t i = 0; i < d->n_rows && i < GT_CENSUS_PANE_ROWS; i++) {
		const struct gt_census_change *r = &d->rows[i];
		name_of(name, sizeof(name), r->name, o->width - CENSUS_GROWTH_NAME_COL - CENSUS_MARK_COLS);
		snprintf(line, sizeof(line), "%10s %+12" PRId64 " %10s  %s%s",
			 gt_census_delta_bytes(grown, sizeof(grown), r->bytes_delta), r->count_delta,
			 gt_format_bytes(bytes, sizeof(bytes), u64(r->bytes)), name,
			 r->is_new ? " new" : r->vanished ? " gone" : "");
		gt_overlay_line(o, 1, r->bytes_delta > 0 ? o->t->warn : o->t->value, line, (int)strlen(line));
	}
	gt_overlay_text(o, 0, o->t->label, "");
}

static void walk(struct gt_overlay *o, const struct gt_session_census *k, const struct gt_target_info *info)
{
	char line[320], summary[200];
	if (!k || !k->have_cur) {
		gt_overlay_text(o, 1, o->t->na, "no census yet: press c on the dashboard to take one");
		return;
	}
	snprintf(line, sizeof(line), "Census %u of PID %d, %s", k->taken, (int)info->pid,
		 gt_census_summary(summary, sizeof(summary), &k->cur, info));
	gt_overlay_text(o, 1, o->t->value | A_BOLD, line);
	if (k->have_prev) {
		snprintf(line, sizeof(line), "the one before: %s", gt_census_summary(summary, sizeof(summary), &k->prev, info));
		gt_overlay_text(o, 1, o->t->label, line);
	} else {
		gt_overlay_text(o, 1, o->t->label, "what grew shows from the second census on (c on the dashboard)");
	}
	if (k->cur.partial_why)
		gt_overlay_text(o, 1, o->t->warn, k->cur.partial_why);
	gt_overlay_text(o, 0, o->t->label, "");
	if (k->have_prev)
		walk_growth(o, k);
	walk_top(o, &k->cur);
}

int gt_census_overlay_lines(const struct gt_session_census *k, const struct gt_target_info *info,
			    const struct gt_theme *t, int width)
{
	struct gt_overlay o = { NULL, t, width, 0, 0 };
	walk(&o, k, info);
	return o.line;
}

void gt_census_overlay_draw(WINDOW *w, int first, const struct gt_session_census *k,
			    const struct gt_target_info *info, const struct gt_theme *t)
{
	struct gt_overlay o = { w, t, getmaxx(w), first, 0 };
	gt_pane_print(w, 0, 0, t->title | A_REVERSE, "%-*s", getmaxx(w),
		      " gctop census of the live objects   c, q or Esc: close   Up/Down: scroll");
	walk(&o, k, info);
}
