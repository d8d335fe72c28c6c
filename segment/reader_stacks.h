/* The stack and method tables of gctop's segment (layout_minor 1), read
 * from an image gt_segment_parse accepted into the stacks behind a
 * reading's sites (model/alloc_stacks.h). Everything in the image is the
 * target's: every offset, count and id is checked, every name cleaned. */
#ifndef GCTOP_SEGMENT_READER_STACKS_H
#define GCTOP_SEGMENT_READER_STACKS_H

#include <stddef.h>

#include "model/alloc_stacks.h"
#include "model/allocators.h"

/* For each site of snap->by_frame, its top stacks into out. 0, or -1 (out
 * empty) when the image has no stack table or an impossible one. */
int gt_segment_parse_stacks(const void *buf, size_t len, const struct gt_alloc_snapshot *snap,
			    struct gt_alloc_stacks *out);

#endif
