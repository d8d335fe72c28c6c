#include "base/array.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *gt_array_grow(void *items, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return items;
	if (elem == 0)
		return NULL;
	size_t n = *cap ? *cap : (first ? first : 1);
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (n > SIZE_MAX / elem)
		return NULL;
	unsigned char *v = realloc(items, n * elem);
	if (!v)
		return NULL;
	memset(v + *cap * elem, 0, (n - *cap) * elem);
	*cap = n;
	return v;
}
