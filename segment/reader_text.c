#include "segment/reader_text.h"

#include <string.h>

#include "segment/gctop_segment.h"

/* One byte of a UTF-8 sequence starting at s[i] of n: its length if valid. */
static size_t utf8_len(const unsigned char *s, size_t i, size_t n)
{
	unsigned char c = s[i];
	size_t len;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (i + len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Copies a fixed-size string field that another process may be writing:
 * bounded, NUL-terminated, control bytes and broken UTF-8 replaced by '?'
 * so every view can print it and JSON stays valid. */
void gt_segment_copy_text(char *dst, size_t dstlen, const void *base, size_t off, size_t field)
{
	unsigned char raw[GCTOP_SEG_NAME_LEN];
	size_t n = 0;
	if (field > sizeof(raw))
		field = sizeof(raw);
	for (; n < field; n++) {
		raw[n] = __atomic_load_n((const unsigned char *)base + off + n, __ATOMIC_RELAXED);
		if (!raw[n])
			break;
	}
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < dstlen;) {
		size_t l = utf8_len(raw, i, n);
		if (l == 0 || (l == 1 && (raw[i] < 0x20 || raw[i] == 0x7f))) {
			dst[o++] = '?';
			i++;
			continue;
		}
		if (o + l >= dstlen)
			break;
		memcpy(dst + o, raw + i, l);
		o += l;
		i += l;
	}
	dst[o] = '\0';
}
