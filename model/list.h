/* The rows of `gctop --list` and of the picker: a process's facts and the
 * runtime figures that are cheap to read. Filled by collectors/, written by
 * views/. */
#ifndef GCTOP_MODEL_LIST_H
#define GCTOP_MODEL_LIST_H

#include <stddef.h>

#include "model/sample.h"

struct gt_list_entry {
	struct gt_target_info info;
	struct gt_sample sample;     /* runtime figures that are cheap to read (heap used/max) */
};

struct gt_list {
	struct gt_list_entry *entries;
	size_t count, capacity;
};

/* Appends an entry and returns it zeroed, or NULL when out of memory. */
struct gt_list_entry *gt_list_add(struct gt_list *l);
void gt_list_free(struct gt_list *l);

#endif
