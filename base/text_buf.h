/* A bounded string being built in a caller's buffer: what does not fit is
 * cut, and it is NUL-terminated after every step (names composed from a
 * target's bytes: .NET type names, compiler-generated method names). */
#ifndef GCTOP_BASE_TEXT_BUF_H
#define GCTOP_BASE_TEXT_BUF_H

#include <stddef.h>

struct gt_text_buf {
	char *p;
	size_t size;   /* of p, >= 1 */
	size_t len;    /* bytes written, without the NUL */
};

/* An empty string in p (size >= 1 bytes). */
struct gt_text_buf gt_text_buf_at(char *p, size_t size);
/* Appends n bytes of s, or as many as fit. */
void gt_text_buf_put(struct gt_text_buf *b, const char *s, size_t n);
/* Appends the string s, or as much as fits. */
void gt_text_buf_puts(struct gt_text_buf *b, const char *s);

#endif
