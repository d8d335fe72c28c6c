/* The JFR chunk's primitive encodings, every read held to the cursor's
 * end: bytes, big-endian fixed widths (the header, floats, doubles),
 * LEB128 integers of at most 9 bytes, and strings in their six encodings
 * (StringParser: null, empty, a string-pool reference, UTF-8, UTF-16 code
 * units as integers, Latin-1). */
#include <string.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

/* RecordingInput.readLong: 8 bytes of 7 bits, then a 9th of 8. */
enum { JFR_LEB_SEVEN_BIT_BYTES = 8 };

/* StringParser.Encoding */
enum {
	JFR_STR_NULL = 0, JFR_STR_EMPTY = 1, JFR_STR_POOL = 2, JFR_STR_UTF8 = 3, JFR_STR_CHARS = 4,
	JFR_STR_LATIN1 = 5,
};

uint8_t jfr_in_u8(struct jfr_in *in)
{
	if (in->bad || in->off >= in->end) {
		in->bad = true;
		return 0;
	}
	return in->p[in->off++];
}

uint64_t jfr_in_be(struct jfr_in *in, int bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < bytes; i++)
		v = (v << 8) | jfr_in_u8(in);
	return in->bad ? 0 : v;
}

uint64_t jfr_in_long(struct jfr_in *in)
{
	uint64_t v = 0;
	for (int i = 0; i < JFR_LEB_SEVEN_BIT_BYTES; i++) {
		uint8_t b = jfr_in_u8(in);
		v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80))
			return in->bad ? 0 : v;
	}
	v |= (uint64_t)jfr_in_u8(in) << (7 * JFR_LEB_SEVEN_BIT_BYTES);
	return in->bad ? 0 : v;
}

uint32_t jfr_in_count(struct jfr_in *in, uint32_t max)
{
	/* an int, as the JDK reads counts: the low 32 bits, negative refused */
	int32_t n = (int32_t)(uint32_t)jfr_in_long(in);
	if (in->bad || n < 0 || (uint32_t)n > max) {
		in->bad = true;
		return 0;
	}
	return (uint32_t)n;
}

void jfr_in_skip(struct jfr_in *in, uint64_t n)
{
	if (in->bad || n > in->end - in->off) {
		in->bad = true;
		return;
	}
	in->off += (size_t)n;
}

/* What is left, as the most elements a count may claim when each takes a
 * byte at least. */
static uint32_t jfr_in_left(const struct jfr_in *in)
{
	size_t left = in->bad ? 0 : in->end - in->off;
	return left > INT32_MAX ? INT32_MAX : (uint32_t)left;
}

/* Appends the code point c to buf as UTF-8 if it fits whole in size - 1. */
static void jfr_put_utf8(char *buf, size_t size, size_t *n, uint32_t c)
{
	char tmp[4];
	size_t k;
	if (c < 0x80) {
		tmp[0] = (char)c;
		k = 1;
	} else if (c < 0x800) {
		tmp[0] = (char)(0xC0 | (c >> 6));
		tmp[1] = (char)(0x80 | (c & 0x3F));
		k = 2;
	} else if (c < 0x10000) {
		tmp[0] = (char)(0xE0 | (c >> 12));
		tmp[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		tmp[2] = (char)(0x80 | (c & 0x3F));
		k = 3;
	} else {
		tmp[0] = (char)(0xF0 | (c >> 18));
		tmp[1] = (char)(0x80 | ((c >> 12) & 0x3F));
		tmp[2] = (char)(0x80 | ((c >> 6) & 0x3F));
		tmp[3] = (char)(0x80 | (c & 0x3F));
		k = 4;
	}
	if (*n + k < size) {
		memcpy(buf + *n, tmp, k);
		*n += k;
	}
}

/* UTF-16 code units, each a LEB128 integer (readChar): pairs joined, a
 * lone surrogate as U+FFFD. */
static void jfr_decode_chars(struct jfr_in *in, uint32_t units, char *buf, size_t size, size_t *n)
{
	uint32_t pending = 0;
	for (uint32_t i = 0; i < units && !in->bad; i++) {
		uint32_t u = (uint16_t)jfr_in_long(in);
		if (pending && u >= 0xDC00 && u <= 0xDFFF) {
			jfr_put_utf8(buf, size, n, 0x10000 + ((pending - 0xD800) << 10) + (u - 0xDC00));
			pending = 0;
			continue;
		}
		if (pending)
			jfr_put_utf8(buf, size, n, 0xFFFD);
		pending = 0;
		if (u >= 0xD800 && u <= 0xDBFF)
			pending = u;
		else
			jfr_put_utf8(buf, size, n, u >= 0xDC00 && u <= 0xDFFF ? 0xFFFD : u);
	}
	if (pending)
		jfr_put_utf8(buf, size, n, 0xFFFD);
}

/* len bytes of UTF-8 copied, cut before a character that does not fit
 * whole; the bytes are not checked (the sanitiser's job downstream). */
static void jfr_copy_utf8(const uint8_t *s, uint32_t len, char *buf, size_t size, size_t *n)
{
	size_t k = len < size - 1 ? len : size - 1;
	if (k < len)
		while (k > 0 && (s[k] & 0xC0) == 0x80)
			k--;
	memcpy(buf, s, k);
	*n = k;
}

/* Reads (buf non-NULL) or skips a string; see jfr_internal.h. */
static int jfr_string(struct jfr_in *in, char *buf, size_t size, uint64_t *pool_key)
{
	size_t n = 0;
	uint8_t enc = jfr_in_u8(in);
	int kind = 2;
	if (enc == JFR_STR_NULL) {
		kind = 0;
	} else if (enc == JFR_STR_POOL) {
		*pool_key = jfr_in_long(in);
		kind = 1;
	} else if (enc == JFR_STR_UTF8 || enc == JFR_STR_LATIN1) {
		uint32_t len = jfr_in_count(in, jfr_in_left(in));
		const uint8_t *s = in->p + in->off;
		jfr_in_skip(in, len);
		if (buf && !in->bad && enc == JFR_STR_UTF8)
			jfr_copy_utf8(s, len, buf, size, &n);
		for (uint32_t i = 0; buf && !in->bad && enc == JFR_STR_LATIN1 && i < len; i++)
			jfr_put_utf8(buf, size, &n, s[i]);
	} else if (enc == JFR_STR_CHARS) {
		uint32_t units = jfr_in_count(in, jfr_in_left(in));
		char dummy[1];
		jfr_decode_chars(in, units, buf ? buf : dummy, buf ? size : 1, &n);
	} else if (enc != JFR_STR_EMPTY) {
		in->bad = true;
	}
	if (buf)
		buf[in->bad ? 0 : n] = '\0';
	return in->bad ? -1 : kind;
}

int jfr_string_skip(struct jfr_in *in, uint64_t *pool_key)
{
	return jfr_string(in, NULL, 0, pool_key);
}

int jfr_string_decode(struct jfr_in *in, char *buf, size_t size, uint64_t *pool_key)
{
	if (size == 0)
		return jfr_string(in, NULL, 0, pool_key);
	return jfr_string(in, buf, size, pool_key);
}
