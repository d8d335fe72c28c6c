/* The rows of `gctop --list` and of the picker: a process's facts and the
 * runtime figures that are cheap to read. Filled by collectors/, written by
 * views/. */
#ifndef GCTOP_MODEL_LIST_H
#define GCTOP_MODEL_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/sample.h"

struct gt_list_entry {
	struct gt_target_info info;
	struct gt_sample sample;     /* runtime figures that are cheap to read (heap used/max) */
};

/* Which pids a listing leaves out before any work on them: a fleet's
 * members that are already open, and pids it does not watch. Listing a
 * process maps its perf data or asks its runtime for ProcessInfo, far more
 * than sampling an open one. */
typedef bool (*gt_list_skip_fn)(void *ctx, pid_t pid);

struct gt_list {
	struct gt_list_entry *entries;
	size_t count, capacity;
	gt_list_skip_fn skip;        /* NULL: list every process */
	void *skip_ctx;
};

static inline bool gt_list_skips(const struct gt_list *l, pid_t pid)
{
	return l->skip && l->skip(l->skip_ctx, pid);
}

/* Appends an entry and returns it zeroed, or NULL when out of memory. */
struct gt_list_entry *gt_list_add(struct gt_list *l);
void gt_list_free(struct gt_list *l);

#endif
