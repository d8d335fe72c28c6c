/* The one growable array: capacity doubled until it fits, every size
 * checked for overflow (counts can come from a peer), new slots zeroed. */
#ifndef GCTOP_BASE_ARRAY_H
#define GCTOP_BASE_ARRAY_H

#include <stddef.h>

/* Makes room for `need` (> 0) elements of `elem` bytes in `items`, an array
 * of *cap elements (NULL and 0 at first), doubling from `first`. Returns the
 * array, perhaps moved, with *cap updated and the new slots zeroed; or NULL
 * when out of memory or the size would overflow, with items (still the
 * caller's) and *cap unchanged. */
void *gt_array_grow(void *items, size_t *cap, size_t need, size_t elem, size_t first);

#endif
