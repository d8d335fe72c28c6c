/* Word wrap for the status line: a question or an error sentence must be
 * read whole, even on an 80-column terminal. Pure: no ncurses. */
#ifndef GCTOP_TUI_WRAP_H
#define GCTOP_TUI_WRAP_H

#include <stddef.h>

struct gt_wrap_line {
	size_t start, len;   /* bytes of the text */
};

/* Splits text into at most max_lines lines of at most cols characters,
 * breaking at spaces (a word longer than a line is cut); the last line
 * takes whatever is left (clipped when drawn). Multi-byte UTF-8 characters
 * count as one and are never split. Returns the number of lines, 1 for an
 * empty text. */
int gt_wrap(const char *text, int cols, int max_lines, struct gt_wrap_line *out);

#endif
