/* What every writer's output must be, checked independently of the
 * sanitiser (base/sanitize.c) by decoding each character: well-formed
 * UTF-8 (no overlong form, surrogate or code point past U+10FFFF, nothing
 * cut short), no C0 control but the line feeds that end lines, no DEL, no
 * C1 control U+0080..U+009F and no bidirectional control U+202A..U+202E or
 * U+2066..U+2069. Used by the fuzz targets (which abort on a failure, so
 * libFuzzer and the replay report the input) and by unit tests. */
#ifndef GCTOP_TESTS_FUZZ_CLEAN_TEXT_H
#define GCTOP_TESTS_FUZZ_CLEAN_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum {
	TEXT_LF_OK = 1,  /* line feeds end lines (an exposition, NDJSON) */
	TEXT_ASCII = 2,  /* nothing past U+007F */
};

static inline bool text_forbidden(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The code point of the multi-byte sequence at p[0..n) and its length in
 * *len, or false when it is not well-formed. */
static inline bool text_decode(const unsigned char *p, size_t n, uint32_t *cp, size_t *len)
{
	uint32_t min;
	if ((p[0] & 0xE0) == 0xC0)
		*len = 2, *cp = p[0] & 0x1F, min = 0x80;
	else if ((p[0] & 0xF0) == 0xE0)
		*len = 3, *cp = p[0] & 0x0F, min = 0x800;
	else if ((p[0] & 0xF8) == 0xF0)
		*len = 4, *cp = p[0] & 0x07, min = 0x10000;
	else
		return false;
	if (*len > n)
		return false;
	for (size_t k = 1; k < *len; k++) {
		if ((p[k] & 0xC0) != 0x80)
			return false;
		*cp = *cp << 6 | (p[k] & 0x3F);
	}
	return *cp >= min && *cp <= 0x10FFFF && !(*cp >= 0xD800 && *cp <= 0xDFFF);
}

static inline bool text_clean(const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		uint32_t cp = p[i];
		size_t len = 1;
		if (cp >= 0x80 && ((flags & TEXT_ASCII) || !text_decode(p + i, n - i, &cp, &len)))
			return false;
		if (text_forbidden(cp) && !(cp == '\n' && (flags & TEXT_LF_OK)))
			return false;
		i += len;
	}
	return true;
}

/* For the fuzz targets: aborts unless s[0..n) is clean. */
static inline void fuzz_text_check(const char *s, size_t n, unsigned flags)
{
	if (!text_clean(s, n, flags))
		abort();
}

#endif
