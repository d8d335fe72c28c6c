/* The stacks behind each .NET allocation site: the sampled bytes per
 * distinct stack (its innermost instruction pointers) of a site, named only
 * when read out: a method's load event may come after the first samples in
 * its code (seen: a serializer's tier-1 code, loaded on the tiering thread),
 * so a name looked up at the sample would be [native] for good. Read out,
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
/* Key values other than a method's start address. */
#define GT_DN_KEY_NATIVE 0ull          /* code no method covers: one or more frames */
#define GT_DN_KEY_ELIDED UINT64_MAX    /* frames left out of a long stack */

struct gt_dn_stack_key {
	unsigned n;
	uint64_t v[GT_ALLOC_STACK_FRAMES];
};

/* The key of a stack: starts[i] is the start of the method holding frame i
 * (innermost first), GT_DN_KEY_NATIVE where none does; app the index of the
 * first application frame, or -1 (then the whole stack counts). Runs of
 * native frames become one; a key longer than GT_ALLOC_STACK_FRAMES keeps
 * its innermost and outermost frames around one GT_DN_KEY_ELIDED. */
void gt_dn_stack_key(const uint64_t *starts, size_t n, long app, struct gt_dn_stack_key *out);

struct gt_dn_agg_stack {
	unsigned n;
	bool cut;                     /* the sampled stack was deeper than ips */
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

/* The slot of the stack ips[0..n) (innermost first; the first
 * GT_DN_STACK_IPS count) in s, added when new; -1 when s or the total of
 * distinct stacks (*total, counted across sites) is at its cap. */
long gt_dn_site_stacks_slot(struct gt_dn_site_stacks *s, const uint64_t *ips, size_t n, size_t *total);
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
