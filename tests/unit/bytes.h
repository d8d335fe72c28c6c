/* A byte writer for the unit tests' crafted inputs: little-endian fields,
 * LEB128, UTF-16z strings, and the nettrace framing (stream header, object
 * type headers, blocks) that the parser's and the .NET decoders' tests
 * both build streams from. */
#ifndef GCTOP_TESTS_UNIT_BYTES_H
#define GCTOP_TESTS_UNIT_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	uint8_t d[1 << 16];
	size_t n;
};

/* Appends n bytes; a test that writes past d aborts (a test bug). */
void bytes_put(struct bytes *b, const void *p, size_t n);
void bytes_u8(struct bytes *b, uint8_t v);
void bytes_u16(struct bytes *b, uint16_t v);
void bytes_u32(struct bytes *b, uint32_t v);
void bytes_u64(struct bytes *b, uint64_t v);
void bytes_varuint(struct bytes *b, uint64_t v);
/* An ASCII string as UTF-16LE with its NUL unit. */
void bytes_utf16z(struct bytes *b, const char *s);

/* "Nettrace" and the FastSerialization signature. */
void bytes_nettrace_header(struct bytes *b);
/* An object's type header: tags, version (also the minimum reader
 * version), the type's name, end tag. */
void bytes_type_header(struct bytes *b, const char *name, int version);
/* A block object of the given type: type header (version 2), size, padding
 * to a 4-byte offset of the stream, the content, end tag. */
void bytes_block(struct bytes *b, const char *name, const struct bytes *content);

#endif
