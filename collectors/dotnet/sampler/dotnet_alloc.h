/* The .NET allocation sampler's state inside gctop: the stacks of the
 * current sequence-point region, the method-name map built from load and
 * rundown events, and the cumulative weights per first application frame and
 * per type and heap, read out as a top-allocators snapshot. */
#ifndef GCTOP_COLLECTORS_DOTNET_ALLOC_H
#define GCTOP_COLLECTORS_DOTNET_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "base/error.h"
#include "collectors/dotnet/sampler/dotnet_alloc_events.h"

#define GT_DN_SOURCE_SAMPLED "eventpipe-allocation-sampled"
#define GT_DN_SOURCE_TICK "eventpipe-allocation-tick-biased"
#define GT_DN_DEFAULT_PACKAGES "System.,Microsoft."

/* Instruction pointer -> method, from MethodLoadVerbose and rundown. */
struct gt_dn_methods {
	struct gt_dn_method *v;
	size_t n, cap;
	bool sorted;
};

void gt_dn_methods_add(struct gt_dn_methods *m, const struct gt_dn_method *x);
/* The method whose code holds ip, or NULL. The newest definition of a
 * range wins. */
const struct gt_dn_method *gt_dn_methods_find(struct gt_dn_methods *m, uint64_t ip);
void gt_dn_methods_free(struct gt_dn_methods *m);

struct gt_dn_alloc;

/* sampled: .NET 10's AllocationSampled (else AllocationTick, biased).
 * packages: comma-separated runtime prefixes, NULL for System., Microsoft.
 * NULL with err when packages is malformed or memory is short. */
struct gt_dn_alloc *gt_dn_alloc_new(bool sampled, const char *packages, struct gt_error *err);
void gt_dn_alloc_free(struct gt_dn_alloc *a);

void gt_dn_alloc_set_pointer_size(struct gt_dn_alloc *a, int pointer_size);
/* Samples from now on weigh scale times their own weight (>= 1): the
 * inverse of the share of time they were taken in (dotnet_sampler.h). */
void gt_dn_alloc_set_scale(struct gt_dn_alloc *a, double scale);
/* A stack of a StackBlock (see gt_nettrace_set_stack_callbacks). */
void gt_dn_alloc_stack(struct gt_dn_alloc *a, uint32_t id, const uint8_t *ips, uint32_t size);
void gt_dn_alloc_sequence_point(struct gt_dn_alloc *a);
/* A method load or rundown payload. */
void gt_dn_alloc_method(struct gt_dn_alloc *a, const uint8_t *p, size_t n);
/* Sampled (.NET 10): a stack held code no method names, seen since the
 * last rundown ended (dotnet_alloc_unnamed.h); a rundown's stream ended. */
bool gt_dn_alloc_names_wanted(const struct gt_dn_alloc *a);
void gt_dn_alloc_names_settled(struct gt_dn_alloc *a);
/* The site of stacks with no application frame whose frames include code no
 * method covers (native code, stubs). */
#define GT_DN_NATIVE_FRAME "[native]"
/* EventPipe walks at most this many frames of a stack, the innermost
 * (EP_MAX_STACK_DEPTH in the runtime's ep-types-forward.h). */
#define GT_DN_EP_STACK_DEPTH 100
/* The site of stacks with no application frame that the runtime cut at
 * GT_DN_EP_STACK_DEPTH frames: the application frame lies beyond, so no
 * frame of it (a library recursing) is named as the site. */
#define GT_DN_CUT_FRAME "[stack cut at 100 frames]"

/* An AllocationSampled or AllocationTick payload with its stack id; the
 * kind the sampler does not use is ignored. */
void gt_dn_alloc_event(struct gt_dn_alloc *a, uint32_t event_id, uint32_t stack_id, const uint8_t *p, size_t n);

/* The first frame of ips (innermost first) outside the runtime prefixes,
 * named; when no named frame is the application's, GT_DN_CUT_FRAME for a
 * stack the runtime cut, else GT_DN_NATIVE_FRAME when a frame is
 * unresolved, else the outermost frame; "(no stack)" for an empty stack. */
void gt_dn_alloc_first_frame(struct gt_dn_alloc *a, const uint64_t *ips, size_t n, char *out, size_t len);

/* The top stacks behind each site of the snapshot's by-frame table, over
 * everything sampled so far (the sites in the snapshot's order). */
void gt_dn_alloc_stacks(struct gt_dn_alloc *a, struct gt_alloc_stacks *out);

/* The key of a stack's instruction pointers (a gt_dn_key_fn, ctx the
 * sampler): frames named by the methods known now. */
struct gt_dn_stack_key;
void gt_dn_alloc_stack_key(void *ctx, const uint64_t *ips, size_t n, struct gt_dn_stack_key *out);

/* Fills s with the cumulative figures (generation 1, state RUNNING). */
void gt_dn_alloc_snapshot(struct gt_dn_alloc *a, uint64_t mono_ns, struct gt_alloc_snapshot *s);

#endif
