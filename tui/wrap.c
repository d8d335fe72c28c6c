#include "tui/wrap.h"

#include <stdbool.h>
#include <string.h>

static bool wrap_is_continuation(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* Bytes of the first `cols` characters of s[0..len). */
static size_t wrap_prefix(const char *s, size_t len, int cols)
{
	size_t i = 0;
	for (int c = 0; i < len && c < cols; c++) {
		i++;
		while (i < len && wrap_is_continuation((unsigned char)s[i]))
			i++;
	}
	return i;
}

int gt_wrap(const char *text, int cols, int max_lines, struct gt_wrap_line *out)
{
	size_t len = strlen(text), at = 0;
	int n = 0;

	if (cols < 1)
		cols = 1;
	if (max_lines < 1)
		max_lines = 1;
	while (n < max_lines) {
		while (n > 0 && at < len && text[at] == ' ')
			at++;   /* a line does not start with the space it broke at */
		size_t left = len - at;
		size_t fit = wrap_prefix(text + at, left, cols);
		if (fit == left || n == max_lines - 1) {
			out[n++] = (struct gt_wrap_line){ at, left };
			break;
		}
		/* The last space within the line, unless the word is longer than it. */
		size_t cut = fit;
		if (text[at + fit] != ' ') {
			size_t k = fit;
			while (k > 0 && text[at + k - 1] != ' ')
				k--;
			if (k > 0)
				cut = k;
		}
		size_t keep = cut;
		while (keep > 0 && text[at + keep - 1] == ' ')
			keep--;
		out[n++] = (struct gt_wrap_line){ at, keep };
		at += cut;
	}
	return n;
}
