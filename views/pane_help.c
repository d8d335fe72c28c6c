/* The help screen: every key from the one key table, then the panes. */
#include <stdio.h>
#include <string.h>

#include "../tui/keys.h"
#include "pane_help.h"

static const char *where_text(unsigned where)
{
	static char buf[64];
	snprintf(buf, sizeof(buf), "%s%s%s",
		 where & GT_KEYS_DASHBOARD ? "process " : "",
		 where & GT_KEYS_PICKER ? "picker " : "",
		 where & GT_KEYS_HELP ? "help" : "");
	return buf;
}

/* Line i of the help text; returns false past the end. */
static bool help_line(int i, char *buf, size_t len, bool *heading)
{
	int line = 0;
	*heading = false;

	if (i == line++) {
		*heading = true;
		snprintf(buf, len, "Keys");
		return true;
	}
	for (size_t k = 0; k < gt_key_table_len; k++) {
		const struct gt_key_binding *b = &gt_key_table[k];
		if (!b->help)
			continue;
		if (i == line++) {
			snprintf(buf, len, "  %-7s %-58s %s", b->name, b->help, where_text(b->where));
			return true;
		}
	}
	if (i == line++) {
		buf[0] = '\0';
		return true;
	}
	if (i == line++) {
		*heading = true;
		snprintf(buf, len, "Panes (key N shows or hides pane N)");
		return true;
	}
	for (size_t k = 0; k < gt_pane_count; k++) {
		if (i == line++) {
			snprintf(buf, len, "  %zu  %-14s %s", k + 1, gt_panes[k]->title, gt_panes[k]->name);
			return true;
		}
	}
	if (i == line++) {
		buf[0] = '\0';
		return true;
	}
	if (i == line++) {
		snprintf(buf, len, "n/a: the runtime does not give this figure (never shown as 0).");
		return true;
	}
	return false;
}

int gt_help_lines(void)
{
	char buf[256];
	bool heading;
	int n = 0;
	while (help_line(n, buf, sizeof(buf), &heading))
		n++;
	return n;
}

void gt_help_draw(WINDOW *w, int first, const struct gt_theme *t)
{
	char buf[256];
	bool heading;
	int rows = getmaxy(w);

	gt_pane_print(w, 0, 0, t->title | A_REVERSE, "%-*s", getmaxx(w), " gctop help   q, Esc or h: close   Up/Down: scroll");
	for (int y = 1; y < rows; y++) {
		if (!help_line(first + y - 1, buf, sizeof(buf), &heading))
			break;
		gt_pane_print(w, y, 0, heading ? t->title : t->label, "%s", buf);
	}
}
