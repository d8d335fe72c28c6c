/* The -b output: one plain text block per derived sample, like top -b. */
#ifndef GCTOP_VIEWS_TEXT_WRITER_H
#define GCTOP_VIEWS_TEXT_WRITER_H

#include <stdio.h>

#include "model/list.h"
#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/derive.h"

/* Returns 0, or -1 on a write error (errno set). */
int gt_text_write_sample(FILE *out, const struct gt_target_info *info, const struct gt_derived *d);

/* The same block with a top-allocators section (a may be NULL: none),
 * at most GT_TEXT_ALLOCATORS_MAX sites per table. */
#define GT_TEXT_ALLOCATORS_MAX 10
int gt_text_write_sample_allocators(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
				    const struct gt_alloc_derived *a);

/* The same block with the findings of the session (f may be NULL: none
 * shown) after the figures. */
struct gt_findings;
int gt_text_write_block(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
			const struct gt_alloc_derived *a, const struct gt_findings *f);

/* The same block with the top stack behind each of the top
 * GT_TEXT_STACK_SITES sites after the allocator tables (st may be NULL). */
#define GT_TEXT_STACK_SITES 3
int gt_text_write_block_stacks(FILE *out, const struct gt_target_info *info, const struct gt_derived *d,
			       const struct gt_alloc_derived *a, const struct gt_alloc_stacks *st,
			       const struct gt_findings *f);

/* The same block from a recording: replay_path (-r FILE; NULL: a live
 * target) ends the header line as "replay FILE" instead of "live". */
int gt_text_write_block_from(FILE *out, const char *replay_path, const struct gt_target_info *info,
			     const struct gt_derived *d, const struct gt_alloc_derived *a,
			     const struct gt_alloc_stacks *st, const struct gt_findings *f);

/* The --list table: a header line and one row per process. */
int gt_text_write_list(FILE *out, const struct gt_list *list, int64_t now_ms);

/* The "Live:" and "Old:" lines of -b: the live set, its growth and time to
 * exhaustion (each n/a with why), and the old generation's occupancy;
 * --doctor prints them too. */
void gt_text_write_live_set(FILE *out, const struct gt_derived *d);

#endif
