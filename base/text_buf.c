#include "base/text_buf.h"

#include <string.h>

struct gt_text_buf gt_text_buf_at(char *p, size_t size)
{
	p[0] = '\0';
	return (struct gt_text_buf){ p, size, 0 };
}

void gt_text_buf_put(struct gt_text_buf *b, const char *s, size_t n)
{
	size_t room = b->size - 1 - b->len;
	if (n > room)
		n = room;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void gt_text_buf_puts(struct gt_text_buf *b, const char *s)
{
	gt_text_buf_put(b, s, strlen(s));
}
