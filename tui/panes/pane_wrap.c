/* Sentences wrapped at words inside a pane: a reason why a figure is n/a is
 * read whole on the lines below it rather than cut at the pane's edge. */
#include <stdbool.h>
#include <string.h>

#include "tui/panes/pane.h"
#include "tui/wrap.h"

/* More lines than any reason takes at the narrowest pane. */
#define WRAP_MAX_LINES 12

int gt_pane_cols(const struct gt_view_ctx *ctx)
{
	return ctx->cols > 0 ? ctx->cols : GT_PANE_NARROW_COLS;
}

int gt_pane_text_cols(const char *text)
{
	int n = 0;
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		n += (*c & 0xC0) != 0x80;
	return n;
}

bool gt_pane_fits(WINDOW *w, int x, const char *text)
{
	return x + gt_pane_text_cols(text) <= getmaxx(w) - 1;
}

/* Splits text into lines: the first `first` columns wide (none when not
 * even its first word fits: *skip_first is then set), the others `rest`.
 * Returns the lines of text. */
static int wrap_split(const char *text, int first, int rest, struct gt_wrap_line *out, bool *skip_first)
{
	struct gt_wrap_line l[2];
	size_t at = 0;
	int n = 0;

	*skip_first = true;
	if (first > 0) {
		gt_wrap(text, first, 2, l);
		char after = text[l[0].start + l[0].len];
		/* the line ended at a space or at the end: its words are whole */
		if (l[0].len > 0 && (after == ' ' || after == '\0')) {
			out[n++] = l[0];
			*skip_first = false;
			at = l[0].start + l[0].len;
			while (text[at] == ' ')
				at++;
		}
	}
	if (text[at] == '\0')
		return n;
	int m = gt_wrap(text + at, rest, WRAP_MAX_LINES - n, out + n);
	for (int i = n; i < n + m; i++)
		out[i].start += at;
	return n + m;
}

int gt_pane_wrap_rows(int x, int indent, int cols, const char *text)
{
	struct gt_wrap_line lines[WRAP_MAX_LINES];
	bool skip;
	if (!text || !text[0])
		return 0;
	int n = wrap_split(text, cols - 1 - x, cols - 1 - indent, lines, &skip);
	return n + (skip ? 1 : 0);
}

int gt_pane_wrapped(WINDOW *w, int y, int x, int indent, int max_y, attr_t attr, const char *text)
{
	struct gt_wrap_line lines[WRAP_MAX_LINES];
	bool skip;
	char line[256];
	int cols = getmaxx(w);
	if (!text || !text[0])
		return 0;
	int n = wrap_split(text, cols - 1 - x, cols - 1 - indent, lines, &skip);
	int rows = n + (skip ? 1 : 0);
	if (y + rows > max_y)
		return 0;
	for (int i = 0; i < n; i++) {
		size_t len = lines[i].len < sizeof(line) - 1 ? lines[i].len : sizeof(line) - 1;
		memcpy(line, text + lines[i].start, len);
		line[len] = '\0';
		bool first_line = i == 0 && !skip;
		int row = y + i + (skip ? 1 : 0);
		gt_pane_print(w, row, first_line ? x : indent, attr, "%s", line);
	}
	return rows;
}
