#include "tui/panes/pane_overlay.h"

#include "model/format.h"

void gt_overlay_line(struct gt_overlay *o, int x, attr_t attr, const char *text, int n)
{
	int y = o->line++ - o->first + 1;   /* row 0 is the overlay's title */
	if (o->w && y >= 1 && y < getmaxy(o->w))
		gt_pane_print(o->w, y, x, attr, "%.*s", n, text);
}

void gt_overlay_text(struct gt_overlay *o, int x, attr_t attr, const char *text)
{
	int room = o->width - x;
	const char *p = text;
	if (room < GT_OVERLAY_MIN_WRAP)
		room = GT_OVERLAY_MIN_WRAP;
	do {
		int n = gt_format_wrap_len(p, room);
		gt_overlay_line(o, x, attr, p, n);
		p += n;
		while (*p == ' ')
			p++;
	} while (*p);
}
