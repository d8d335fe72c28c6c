/* What every writer's output must be, checked independently of the
 * sanitiser (base/sanitize.c) by decoding each character: well-formed
 * UTF-8 (no overlong form, surrogate or code point past U+10FFFF, nothing
 * cut short), no C0 control but the line feeds that end lines, no DEL, no
 * C1 control U+0080..U+009F and no bidirectional control U+202A..U+202E or
 * U+2066..U+2069. Aborts, so libFuzzer and the replay report the input. */
#ifndef GCTOP_TESTS_FUZZ_CLEAN_TEXT_H
#define GCTOP_TESTS_FUZZ_CLEAN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum {
	FUZZ_TEXT_LF_OK = 1,  /* line feeds end lines (an exposition, NDJSON) */
	FUZZ_TEXT_ASCII = 2,  /* nothing past U+007F */
};

static int fuzz_text_forbidden(uint32_t cp)
{
	return cp <= 0x9F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The code point of the multi-byte sequence at p[0..n), its length in *len;
 * aborts when it is not well-formed. */
static uint32_t fuzz_text_decode(const unsigned char *p, size_t n, size_t *len)
{
	uint32_t cp, min;
	if ((p[0] & 0xE0) == 0xC0)
		*len = 2, cp = p[0] & 0x1F, min = 0x80;
	else if ((p[0] & 0xF0) == 0xE0)
		*len = 3, cp = p[0] & 0x0F, min = 0x800;
	else if ((p[0] & 0xF8) == 0xF0)
		*len = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		abort();
	if (*len > n)
		abort();
	for (size_t k = 1; k < *len; k++) {
		if ((p[k] & 0xC0) != 0x80)
			abort();
		cp = cp << 6 | (p[k] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		abort();
	return cp;
}

static void fuzz_text_check(const char *s, size_t n, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (p[i] < 0x80) {
			if ((p[i] < 0x20 && !(p[i] == '\n' && (flags & FUZZ_TEXT_LF_OK))) || p[i] == 0x7F)
				abort();
			i++;
			continue;
		}
		size_t len;
		if ((flags & FUZZ_TEXT_ASCII) || fuzz_text_forbidden(fuzz_text_decode(p + i, n - i, &len)))
			abort();
		i += len;
	}
}

#endif
