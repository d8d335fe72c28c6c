#include "tests/unit/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_NULL = 1, TAG_BEGIN_PRIVATE = 5, TAG_END = 6 };

void bytes_put(struct bytes *b, const void *p, size_t n)
{
	if (n > sizeof(b->d) - b->n) {
		fprintf(stderr, "bytes_put: a test's input outgrew %zu bytes\n", sizeof(b->d));
		abort();
	}
	memcpy(b->d + b->n, p, n);
	b->n += n;
}

void bytes_u8(struct bytes *b, uint8_t v) { bytes_put(b, &v, 1); }
void bytes_u16(struct bytes *b, uint16_t v) { bytes_u8(b, (uint8_t)v); bytes_u8(b, (uint8_t)(v >> 8)); }
void bytes_u32(struct bytes *b, uint32_t v) { bytes_u16(b, (uint16_t)v); bytes_u16(b, (uint16_t)(v >> 16)); }
void bytes_u64(struct bytes *b, uint64_t v) { bytes_u32(b, (uint32_t)v); bytes_u32(b, (uint32_t)(v >> 32)); }

void bytes_varuint(struct bytes *b, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7F;
		v >>= 7;
		bytes_u8(b, byte | (v ? 0x80 : 0));
	} while (v);
}

void bytes_utf16z(struct bytes *b, const char *s)
{
	for (; *s; s++)
		bytes_u16(b, (uint8_t)*s);
	bytes_u16(b, 0);
}

void bytes_nettrace_header(struct bytes *b)
{
	bytes_put(b, "Nettrace", 8);
	bytes_u32(b, 20);
	bytes_put(b, "!FastSerialization.1", 20);
}

void bytes_type_header(struct bytes *b, const char *name, int version)
{
	bytes_u8(b, TAG_BEGIN_PRIVATE);
	bytes_u8(b, TAG_BEGIN_PRIVATE);
	bytes_u8(b, TAG_NULL);
	bytes_u32(b, (uint32_t)version);
	bytes_u32(b, (uint32_t)version);
	bytes_u32(b, (uint32_t)strlen(name));
	bytes_put(b, name, strlen(name));
	bytes_u8(b, TAG_END);
}

void bytes_block(struct bytes *b, const char *name, const struct bytes *content)
{
	bytes_type_header(b, name, 2);
	bytes_u32(b, (uint32_t)content->n);
	while (b->n & 3)
		bytes_u8(b, 0);
	bytes_put(b, content->d, content->n);
	bytes_u8(b, TAG_END);
}
