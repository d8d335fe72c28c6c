/* The help screen: every key from the one key table, then the panes. The
 * text is wrapped to the screen's width (a key's help continues under its
 * own column), so an 80-column terminal cuts nothing. */
#include <stdio.h>
#include <string.h>

#include "model/format.h"
#include "tui/keys.h"
#include "tui/panes/pane_help.h"

/* "  KEY     ": where a key's help starts, and its continuation lines. */
#define HELP_TEXT_X 10
/* Narrower than this, lines are cut rather than wrapped word by word. */
#define HELP_MIN_WRAP 20

/* Walks the help's lines for a screen `width` wide and keeps line `want`. */
struct help_walk {
	int width;
	int want;
	int line;             /* lines emitted so far */
	char *buf;
	size_t len;
	bool heading;
	bool found;
};

static void emit(struct help_walk *h, const char *text, int n, int indent, bool heading)
{
	if (h->line++ != h->want)
		return;
	snprintf(h->buf, h->len, "%*s%.*s", indent, "", n, text);
	h->heading = heading;
	h->found = true;
}

/* Emits text wrapped at spaces: the first line at x0 after `lead`, the
 * others at `indent`. */
static void emit_wrapped(struct help_walk *h, const char *lead, const char *text, int indent)
{
	char first[512];
	int room = h->width - indent;
	if (room < HELP_MIN_WRAP)
		room = HELP_MIN_WRAP;
	const char *p = text;
	bool is_first = true;
	while (is_first || *p) {
		int n = gt_format_wrap_len(p, room);
		if (is_first) {
			snprintf(first, sizeof(first), "%s%.*s", lead, n, p);
			emit(h, first, (int)strlen(first), 0, false);
		} else {
			emit(h, p, n, indent, false);
		}
		is_first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
}

static void key_lines(struct help_walk *h)
{
	for (size_t k = 0; k < gt_key_table_len; k++) {
		const struct gt_key_binding *b = &gt_key_table[k];
		if (!b->help)
			continue;
		char lead[32], text[384];
		snprintf(lead, sizeof(lead), "  %-7s ", b->name);
		snprintf(text, sizeof(text), "%s (%s%s%s)", b->help, b->where & GT_KEYS_DASHBOARD ? "process" : "",
			 (b->where & GT_KEYS_DASHBOARD) && (b->where & (GT_KEYS_PICKER | GT_KEYS_HELP)) ? ", " : "",
			 (b->where & GT_KEYS_PICKER) && (b->where & GT_KEYS_HELP) ? "picker, help"
			 : b->where & GT_KEYS_PICKER ? "picker" : b->where & GT_KEYS_HELP ? "help" : "");
		emit_wrapped(h, lead, text, HELP_TEXT_X);
	}
}

static void walk(struct help_walk *h)
{
	static const char keys_head[] = "Keys (where each works: process view, picker, help)";
	static const char panes_head[] = "Panes (key N shows or hides pane N)";
	static const char na[] = "n/a: the runtime does not give this figure (never shown as 0).";
	emit(h, keys_head, (int)strlen(keys_head), 0, true);
	key_lines(h);
	emit(h, "", 0, 0, false);
	emit(h, panes_head, (int)strlen(panes_head), 0, true);
	for (size_t k = 0; k < gt_pane_count; k++) {
		char line[128];
		snprintf(line, sizeof(line), "  %zu  %-14s %s", k + 1, gt_panes[k]->title, gt_panes[k]->name);
		emit(h, line, (int)strlen(line), 0, false);
	}
	emit(h, "", 0, 0, false);
	emit_wrapped(h, "", na, 0);
}

int gt_help_lines(int width)
{
	char buf[8];
	struct help_walk h = { .width = width, .want = -1, .buf = buf, .len = sizeof(buf) };
	walk(&h);
	return h.line;
}

void gt_help_draw(WINDOW *w, int first, const struct gt_theme *t)
{
	char buf[512];
	int rows = getmaxy(w);

	gt_pane_print(w, 0, 0, t->title | A_REVERSE, "%-*s", getmaxx(w), " gctop help   q, Esc or h: close   Up/Down: scroll");
	for (int y = 1; y < rows; y++) {
		struct help_walk h = { .width = getmaxx(w), .want = first + y - 1, .buf = buf, .len = sizeof(buf) };
		walk(&h);
		if (!h.found)
			break;
		gt_pane_print(w, y, 0, h.heading ? t->title : t->label, "%s", buf);
	}
}
