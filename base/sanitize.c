#include "base/sanitize.h"

#include <langinfo.h>
#include <stdint.h>
#include <string.h>

#define REPLACEMENT '?'

/* The length of the well-formed UTF-8 sequence at s (RFC 3629 table 3-7),
 * or 0 when s does not start one. Reads no further than the first byte
 * that breaks it, so a NUL ends the scan. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t n;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			lo = 0xA0;      /* no overlong 3-byte forms */
		else if (c == 0xED)
			hi = 0x9F;      /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			lo = 0x90;      /* no overlong 4-byte forms */
		else if (c == 0xF4)
			hi = 0x8F;      /* nothing past U+10FFFF */
	} else {
		return 0;               /* ASCII, stray continuation, C0/C1 lead, F5..FF */
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

/* U+0080..U+009F, the C1 controls, are C2 80..C2 9F in UTF-8. */
static bool is_c1(const unsigned char *s, size_t n)
{
	return n == 2 && s[0] == 0xC2 && s[1] <= 0x9F;
}

/* The bidirectional embeddings, overrides and isolates (Unicode UAX #9):
 * U+202A..U+202E are E2 80 AA..AE, U+2066..U+2069 are E2 81 A6..A9. They
 * reorder what follows them on a terminal, in a browser or an editor, so a
 * target's name could show another name or move a figure (the "Trojan
 * Source" trick); they are treated as control characters. */
static bool is_bidi(const unsigned char *s, size_t n)
{
	if (n != 3 || s[0] != 0xE2)
		return false;
	return (s[1] == 0x80 && s[2] >= 0xAA && s[2] <= 0xAE) || (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9);
}

char *gt_sanitize(char *out, size_t size, const char *in, enum gt_sanitize_mode mode)
{
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	size_t o = 0;
	while (*s && o + 1 < size) {
		if (*s >= 0x20 && *s < 0x7F) {
			out[o++] = (char)*s++;
			continue;
		}
		size_t n = *s >= 0x80 ? utf8_len(s) : 0;
		if (n == 0 || is_c1(s, n) || is_bidi(s, n) || mode == GT_SANITIZE_ASCII) {
			out[o++] = REPLACEMENT;
			s += n ? n : 1;
			continue;
		}
		if (o + n + 1 > size)
			break;  /* never a cut character at the end */
		memcpy(out + o, s, n);
		o += n;
		s += n;
	}
	if (size > 0)
		out[o] = '\0';
	return out;
}

enum gt_sanitize_mode gt_sanitize_terminal_mode(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && strcmp(cs, "UTF-8") == 0 ? GT_SANITIZE_UTF8 : GT_SANITIZE_ASCII;
}
