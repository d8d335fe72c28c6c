/* For the fuzz targets of the writers: the input as the strings a hostile
 * target names, one after another, each ended by a NUL byte (or the end of
 * the input), put in turn into the given fields, each cut to its field's
 * size as the collectors cut what they read. Fields past the input's last
 * string stay "". */
#ifndef GCTOP_TESTS_FUZZ_STRINGS_H
#define GCTOP_TESTS_FUZZ_STRINGS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fuzz_field {
	char *dst;
	size_t size;
};

static inline void fuzz_fill_strings(const uint8_t *data, size_t size, const struct fuzz_field *f, size_t n)
{
	size_t at = 0;
	for (size_t k = 0; k < n; k++) {
		const uint8_t *end = at < size ? memchr(data + at, 0, size - at) : NULL;
		size_t len = at < size ? (end ? (size_t)(end - (data + at)) : size - at) : 0;
		size_t copy = len < f[k].size - 1 ? len : f[k].size - 1;
		if (copy)
			memcpy(f[k].dst, data + at, copy);
		f[k].dst[copy] = '\0';
		at += len + 1;
	}
}

#endif
