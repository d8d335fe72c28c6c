/* A bounds-checked little-endian cursor shared by the nettrace parser files.
 * Every read checks what is left first; `bad` latches on the first overrun
 * and later reads return zero, so callers test it once per record. */
#ifndef GCTOP_COLLECTORS_NETTRACE_CURSOR_H
#define GCTOP_COLLECTORS_NETTRACE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/utf16.h"

struct nt_cursor {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static inline size_t nt_left(const struct nt_cursor *c)
{
	return c->bad ? 0 : c->len - c->off;
}

static inline const uint8_t *nt_take(struct nt_cursor *c, size_t n)
{
	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *r = c->p + c->off;
	c->off += n;
	return r;
}

static inline uint64_t nt_le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | b[i];
	return v;
}

static inline uint8_t nt_u8(struct nt_cursor *c)
{
	const uint8_t *b = nt_take(c, 1);
	return b ? b[0] : 0;
}

static inline uint16_t nt_u16(struct nt_cursor *c)
{
	const uint8_t *b = nt_take(c, 2);
	return b ? (uint16_t)nt_le(b, 2) : 0;
}

static inline uint32_t nt_u32(struct nt_cursor *c)
{
	const uint8_t *b = nt_take(c, 4);
	return b ? (uint32_t)nt_le(b, 4) : 0;
}

static inline uint64_t nt_u64(struct nt_cursor *c)
{
	const uint8_t *b = nt_take(c, 8);
	return b ? nt_le(b, 8) : 0;
}

/* LEB128 of at most max_bytes bytes (5 for 32 bits, 10 for 64). */
static inline uint64_t nt_varuint(struct nt_cursor *c, int max_bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < max_bytes; i++) {
		uint8_t b = nt_u8(c);
		if (c->bad)
			return 0;
		v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

/* A UTF-16z string, converted into out (truncated to out_size). */
static inline void nt_utf16z(struct nt_cursor *c, char *out, size_t out_size)
{
	out[0] = '\0';
	if (c->bad)
		return;
	long units = gt_utf16z_units(c->p + c->off, c->len - c->off);
	if (units < 0) {
		c->bad = true;
		return;
	}
	gt_utf16_to_utf8(c->p + c->off, (size_t)units, out, out_size);
	c->off += (size_t)units * 2 + 2;
}

#endif
