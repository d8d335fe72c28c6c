#include "base/utf16.h"

static size_t put_utf8(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t gt_utf16_to_utf8(const uint8_t *src, size_t n_units, char *dst, size_t dst_size)
{
	size_t w = 0;
	if (dst_size == 0)
		return 0;
	for (size_t i = 0; i < n_units; i++) {
		uint32_t cp = (uint32_t)src[2 * i] | ((uint32_t)src[2 * i + 1] << 8);
		if (cp == 0)
			break;
		if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n_units) {
			uint32_t lo = (uint32_t)src[2 * i + 2] | ((uint32_t)src[2 * i + 3] << 8);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				i++;
			} else {
				cp = '?';
			}
		} else if (cp >= 0xD800 && cp <= 0xDFFF) {
			cp = '?';
		} else if (cp < 0x20 || cp == 0x7F) {
			/* Terminal escapes in a command line must not reach the screen. */
			cp = '?';
		}
		char tmp[4];
		size_t n = put_utf8(cp, tmp);
		if (w + n + 1 > dst_size)
			break;
		for (size_t k = 0; k < n; k++)
			dst[w++] = tmp[k];
	}
	dst[w] = '\0';
	return w;
}

long gt_utf16z_units(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i + 1 < len; i += 2)
		if (p[i] == 0 && p[i + 1] == 0)
			return (long)(i / 2);
	return -1;
}
