/* A bounds-checked little-endian reader over bytes a peer wrote (the .NET
 * diagnostics IPC answers, nettrace streams and the event payloads in
 * them). Every read checks what is left first; `bad` latches on the first
 * overrun and later reads return zero, so callers test it once per record
 * instead of after every field. Inline: the nettrace parser reads every
 * field of every event through it. */
#ifndef GCTOP_BASE_CURSOR_H
#define GCTOP_BASE_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/utf16.h"

struct gt_cursor {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

/* A cursor at the start of len bytes at p. */
static inline struct gt_cursor gt_cursor_at(const uint8_t *p, size_t len)
{
	return (struct gt_cursor){ p, len, 0, false };
}

/* The n-byte little-endian unsigned integer at b (n <= 8); no bounds check. */
static inline uint64_t gt_le(const uint8_t *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | b[i];
	return v;
}

static inline size_t gt_cursor_left(const struct gt_cursor *c)
{
	return c->bad ? 0 : c->len - c->off;
}

/* The next n bytes, or NULL (and bad) when fewer are left. */
static inline const uint8_t *gt_cursor_take(struct gt_cursor *c, size_t n)
{
	if (c->bad || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	const uint8_t *r = c->p + c->off;
	c->off += n;
	return r;
}

static inline uint8_t gt_cursor_u8(struct gt_cursor *c)
{
	const uint8_t *b = gt_cursor_take(c, 1);
	return b ? b[0] : 0;
}

static inline uint16_t gt_cursor_u16(struct gt_cursor *c)
{
	const uint8_t *b = gt_cursor_take(c, 2);
	return b ? (uint16_t)gt_le(b, 2) : 0;
}

static inline uint32_t gt_cursor_u32(struct gt_cursor *c)
{
	const uint8_t *b = gt_cursor_take(c, 4);
	return b ? (uint32_t)gt_le(b, 4) : 0;
}

static inline uint64_t gt_cursor_u64(struct gt_cursor *c)
{
	const uint8_t *b = gt_cursor_take(c, 8);
	return b ? gt_le(b, 8) : 0;
}

/* LEB128 of at most max_bytes bytes (5 for 32 bits, 10 for 64). */
static inline uint64_t gt_cursor_varuint(struct gt_cursor *c, int max_bytes)
{
	uint64_t v = 0;
	for (int i = 0; i < max_bytes; i++) {
		uint8_t b = gt_cursor_u8(c);
		if (c->bad)
			return 0;
		v |= (uint64_t)(b & 0x7F) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	c->bad = true;
	return 0;
}

/* n_units UTF-16LE units converted into out (UTF-8, truncated to out_size);
 * the count is checked against what is left before it is doubled, so a
 * peer's huge count cannot wrap. */
static inline void gt_cursor_utf16(struct gt_cursor *c, size_t n_units, char *out, size_t out_size)
{
	out[0] = '\0';
	if (n_units > gt_cursor_left(c) / 2) {
		c->bad = true;
		return;
	}
	const uint8_t *p = gt_cursor_take(c, n_units * 2);
	if (p)
		gt_utf16_to_utf8(p, n_units, out, out_size);
}

/* A UTF-16z string (ended by a NUL unit), converted as gt_cursor_utf16. */
static inline void gt_cursor_utf16z(struct gt_cursor *c, char *out, size_t out_size)
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
