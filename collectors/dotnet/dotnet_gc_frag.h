/* Fragmentation after the last GC, from GCPerHeapHistory events.
 *
 * At the end of every GC the runtime writes, on one thread, a
 * GCGlobalHeapHistory and then one GCPerHeapHistory per heap (each with the
 * heap's free space per generation). Which GC that group belongs to shows in
 * the GCEnd written on the same thread: right after the group for a blocking
 * GC, right before it for a background GC (checked on .NET 10.0.12). Events
 * of one thread keep their order in the stream, while groups of different
 * threads interleave (a background GC ends after the ephemeral GCs nested in
 * it), so groups are tracked per thread and numbered by their GC.
 *
 * The figure is the complete group of the GC that ended last by the
 * runtime's clock (its GCEnd's timestamp), not the highest-numbered one:
 * GC.GetGCMemoryInfo describes the GC recorded last, so when an ephemeral
 * GC nested in a background GC ends first, it describes the background GC
 * (gc.cpp: do_post_gc sets is_last_recorded_bgc, GetMemoryInfo reads it).
 * Nor is it the group read last: another thread's events may reach the
 * stream later than they were written. */
#ifndef GCTOP_COLLECTORS_DOTNET_GC_FRAG_H
#define GCTOP_COLLECTORS_DOTNET_GC_FRAG_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/dotnet/dotnet_gens.h"
#include "model/sample.h"

#define GT_DN_FRAG_GROUPS 32
#define GT_DN_FRAG_THREADS 16

struct gt_dn_frag_group {
	bool used;
	uint64_t tid;
	uint32_t index;          /* the GC's number, 0 while unknown */
	int64_t end_ts;          /* its GCEnd's timestamp */
	int32_t heaps;           /* heaps the GC had (GCGlobalHeapHistory NumHeaps) */
	int32_t records;
	uint64_t fragmented[GT_DN_GENS];
};

struct gt_dn_frag_thread {
	uint64_t tid;
	int group;               /* this thread's open group, or -1 */
	uint32_t pending_end;    /* a GCEnd not yet given to a group, or 0 */
	int64_t pending_end_ts;
	bool used;
};

struct gt_dn_frag {
	struct gt_dn_frag_group groups[GT_DN_FRAG_GROUPS];
	unsigned next_group;
	struct gt_dn_frag_thread threads[GT_DN_FRAG_THREADS];
	unsigned next_thread;
};

void gt_dn_frag_global(struct gt_dn_frag *f, uint64_t tid, int32_t heaps);
void gt_dn_frag_heap(struct gt_dn_frag *f, uint64_t tid, const uint64_t fragmented[GT_DN_GENS]);
void gt_dn_frag_gc_end(struct gt_dn_frag *f, uint64_t tid, uint32_t index, int64_t ts);

/* The free space per generation (gen0, gen1, gen2, LOH, POH) after the GC
 * that ended last among those whose group is complete; false if there is
 * none. */
bool gt_dn_frag_latest(const struct gt_dn_frag *f, uint64_t out[GT_DN_GENS]);

#endif
