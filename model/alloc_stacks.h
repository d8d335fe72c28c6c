/* The stacks behind allocation sites: for each site of a sampler's
 * by-frame table, its top stacks by sampled bytes, each with its frames
 * (innermost first: from the allocation up to the first application frame
 * and a few callers beyond) and its share of the site's bytes.
 *
 * One flat, fixed-size block (frame names in a pool, deduplicated), so a
 * reading is copied with one assignment, and kept out of the snapshot on
 * purpose: the allocation window keeps sixteen snapshots, it keeps one of
 * these. Shares are over everything sampled since sampling started. */
#ifndef GCTOP_MODEL_ALLOC_STACKS_H
#define GCTOP_MODEL_ALLOC_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/allocators.h"

#define GT_ALLOC_STACKS_TOP 5            /* stacks kept per site */
#define GT_ALLOC_STACK_FRAMES 24         /* frames kept per stack */
#define GT_ALLOC_STACK_POOL (96u * 1024) /* bytes of frame names in all */
#define GT_ALLOC_STACK_SLOTS 8192        /* the pool's hash index (a power of 2) */
/* A frame whose name did not fit in the pool. */
#define GT_ALLOC_FRAME_LOST "[name not kept]"
/* Where the middle of a stack longer than GT_ALLOC_STACK_FRAMES was left out. */
#define GT_ALLOC_FRAME_ELIDED "[...]"

struct gt_alloc_stack {
	unsigned n_frames;
	uint32_t frames[GT_ALLOC_STACK_FRAMES]; /* offsets into the pool */
	uint64_t bytes;                         /* sampled bytes through this stack */
	uint64_t count;                         /* samples */
};

struct gt_alloc_site_stacks {
	char site[GT_ALLOC_SITE_NAME_LEN];      /* as in gt_alloc_snapshot.by_frame */
	uint64_t bytes;                         /* the site's sampled bytes: the shares' denominator */
	uint64_t distinct;                      /* distinct stacks kept by the sampler */
	uint64_t dropped;                       /* samples whose stack the sampler had no room for */
	unsigned n;
	struct gt_alloc_stack stacks[GT_ALLOC_STACKS_TOP]; /* by bytes, largest first */
};

struct gt_alloc_stacks {
	unsigned n_sites;
	struct gt_alloc_site_stacks sites[GT_ALLOC_SITES_MAX];
	uint32_t pool_used;
	char pool[GT_ALLOC_STACK_POOL];
	uint32_t slots[GT_ALLOC_STACK_SLOTS];   /* pool offset + 1 per name; 0 empty */
};

/* Empties s; required before first use (it puts GT_ALLOC_FRAME_LOST at offset 0). */
void gt_alloc_stacks_clear(struct gt_alloc_stacks *s);
/* The pool offset of name (added once, truncated to GT_ALLOC_SITE_NAME_LEN - 1
 * bytes); GT_ALLOC_FRAME_LOST's when the pool is full. */
uint32_t gt_alloc_stacks_intern(struct gt_alloc_stacks *s, const char *name);
/* Clears out and gives it snap's by-frame sites (names and bytes, no
 * stacks yet), in snap's order: where a sampler's reader starts. */
void gt_alloc_stacks_begin(struct gt_alloc_stacks *out, const struct gt_alloc_snapshot *snap);
/* Keeps a stack of bytes and count among site's largest
 * GT_ALLOC_STACKS_TOP: the slot it took (its frames are the caller's to
 * fill), or -1 when the site's kept ones are all as large. */
int gt_alloc_stacks_keep(struct gt_alloc_site_stacks *site, uint64_t bytes, uint64_t count);
/* Orders site's kept stacks by bytes, largest first. */
void gt_alloc_stacks_sort(struct gt_alloc_site_stacks *site);
/* The frame name at a pool offset ("" for an offset outside the pool). */
const char *gt_alloc_stacks_name(const struct gt_alloc_stacks *s, uint32_t off);
/* The stacks of site (by name), or NULL. */
const struct gt_alloc_site_stacks *gt_alloc_stacks_find(const struct gt_alloc_stacks *s, const char *site);
/* A stack's share of its site's bytes, 0..1 (invalid when the site has none). */
struct gt_f64 gt_alloc_stack_share(const struct gt_alloc_site_stacks *site, const struct gt_alloc_stack *st);

#endif
