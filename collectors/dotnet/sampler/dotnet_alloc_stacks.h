/* The stacks behind each .NET allocation site: the sampled bytes per
 * distinct stack (its innermost instruction pointers) of a site, named only
 * when read out: a method's load event may come after the first samples in
 * its code (seen: a serializer's tier-1 code, loaded on the tiering thread),
 * so a name looked up at the sample would be [native] for good. Kept are
 * the frames up to the application frame and its callers, so a library
 * frame deeper than the instruction pointers kept still leaves the site in
 * its stack (a recursive serializer's stack runs some 70 frames). Read out,
 * each stack becomes its frames from the allocation up to the first
 * application frame and a few callers beyond, as a key of method start
 * addresses; stacks with one key are one. Bounded: stacks per site and in
 * all are capped, and samples whose stack finds no room count as dropped. */
#ifndef GCTOP_COLLECTORS_DOTNET_ALLOC_STACKS_H
#define GCTOP_COLLECTORS_DOTNET_ALLOC_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/alloc_stacks.h"

struct gt_dn_methods;

/* Callers kept beyond the first application frame: enough to tell which
 * code path of the application asked the library to allocate. */
#define GT_DN_STACK_CALLERS 3
#define GT_DN_STACKS_PER_SITE 128
#define GT_DN_STACKS_MAX 8192
/* Innermost instruction pointers kept of a sampled stack. */
#define GT_DN_STACK_IPS 64
/* Stored in place of the frames left out of a stack too deep to keep
 * whole; no code lives at the top address, and a sampled one is stored as
 * 0 (native), so the mark is only ever gctop's. */
#define GT_DN_IP_ELIDED UINT64_MAX
/* Key values other than a method's start address. */
#define GT_DN_KEY_NATIVE 0ull          /* code no method covers: one or more frames */
#define GT_DN_KEY_ELIDED UINT64_MAX    /* frames left out of a long stack */

struct gt_dn_stack_key {
	unsigned n;
	uint64_t v[GT_ALLOC_STACK_FRAMES];
};

/* The key of a stack: starts[i] is the start of the method holding frame i
 * (innermost first), GT_DN_KEY_NATIVE where none does, GT_DN_KEY_ELIDED
 * where frames were left out; app the index of the first application
 * frame, or -1 (then the whole stack counts). Runs of native frames become
 * one; a key longer than GT_ALLOC_STACK_FRAMES keeps its innermost and
 * outermost frames around one GT_DN_KEY_ELIDED. */
void gt_dn_stack_key(const uint64_t *starts, size_t n, long app, struct gt_dn_stack_key *out);

struct gt_dn_agg_stack {
	unsigned n;
	bool cut;                     /* frames were left out of its middle */
	size_t site_checked;          /* methods known when its site was last chosen again */
	uint64_t ips[GT_DN_STACK_IPS];
	double bytes;
	uint64_t count;
};

/* The distinct stacks of one site. */
struct gt_dn_site_stacks {
	struct gt_dn_agg_stack *v;
	size_t n, cap;
	uint64_t dropped;
};

/* The instruction pointers kept of a sampled stack ips[0..n) (innermost
 * first) whose first application frame is at app (-1: none named yet) into
 * out (room for GT_DN_STACK_IPS): those up to the application frame and
 * GT_DN_STACK_CALLERS callers (all of them with no application frame);
 * when more than GT_DN_STACK_IPS, the innermost, GT_DN_IP_ELIDED and the
 * outermost of those, *cut then true. Names only come, never go, so the
 * application frame of a stack kept stays among its frames. Returns how
 * many were kept. */
size_t gt_dn_stack_keep(const uint64_t *ips, size_t n, long app, uint64_t *out, bool *cut);
/* The slot of the stack ips[0..n) (as gt_dn_stack_keep keeps it) in s,
 * added when new; -1 when s or the total of distinct stacks (*total,
 * counted across sites) is at its cap. */
long gt_dn_site_stacks_slot(struct gt_dn_site_stacks *s, const uint64_t *ips, size_t n, long app, size_t *total);
/* Takes slot out of s (the last stack takes its place). */
void gt_dn_site_stacks_remove(struct gt_dn_site_stacks *s, size_t slot, size_t *total);
/* One sample of weight w through slot (-1: dropped). */
void gt_dn_site_stacks_add(struct gt_dn_site_stacks *s, long slot, double w);
void gt_dn_site_stacks_free(struct gt_dn_site_stacks *s, size_t *total);

/* Turns a stack's instruction pointers into its key (see gt_dn_stack_key). */
typedef void gt_dn_key_fn(void *ctx, const uint64_t *ips, size_t n, struct gt_dn_stack_key *out);

/* The top GT_ALLOC_STACKS_TOP keys of s into out (whose site name and
 * bytes the caller sets), frame names from methods interned in pool. */
void gt_dn_site_stacks_top(const struct gt_dn_site_stacks *s, gt_dn_key_fn *key, void *ctx,
			   struct gt_dn_methods *methods, struct gt_alloc_stacks *pool, struct gt_alloc_site_stacks *out);

#endif
