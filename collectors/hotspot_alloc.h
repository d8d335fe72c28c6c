/* Allocation estimated from hsperfdata alone: eden deltas between polls,
 * corrected at each collection by what its cause says about eden, plus old
 * generation growth between pauses (direct-to-old and G1 humongous objects).
 * Pure: it sees only counter readings, so it is tested on crafted sequences. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_ALLOC_H
#define GCTOP_COLLECTORS_HOTSPOT_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

enum hotspot_alloc_model {
	/* Generational heaps with an eden (Serial, Parallel, G1). */
	HOTSPOT_ALLOC_EDEN,
	/* ZGC and Shenandoah: positive growth of the whole heap between polls,
	 * which undercounts while a concurrent cycle reclaims memory. */
	HOTSPOT_ALLOC_HEAP_GROWTH,
	/* Sum of the TLAB bytes each collection publishes for the epoch it
	 * closed (sun.gc.tlab.alloc), missing allocation outside TLABs. */
	HOTSPOT_ALLOC_TLAB_EPOCHS,
};

/* One poll's counters; a collector that does not exist reads 0. */
struct hotspot_alloc_reading {
	uint64_t mono_ns;        /* when they were read */
	uint64_t young_gcs;      /* collector.0 invocations */
	uint64_t full_gcs;       /* collector.1 invocations */
	uint64_t other_pauses;   /* collector.2 invocations (G1 remark/cleanup, ZGC) */
	uint64_t eden_used;
	uint64_t eden_capacity;  /* the eden size at which a young collection starts */
	uint64_t old_used;
	uint64_t heap_used;
	uint64_t tlab_bytes, tlab_fills; /* the last published epoch */
	bool eden_was_full;      /* the last collection's cause implies a full eden */
};

struct hotspot_alloc {
	enum hotspot_alloc_model model;
	bool track_humongous;      /* G1: old growth between pauses is humongous */
	bool have_prev;
	struct hotspot_alloc_reading prev;
	uint64_t total_bytes;       /* since the first reading */
	uint64_t large_total_bytes; /* humongous bytes allocated since the first reading */
	uint64_t large_live_bytes;  /* humongous bytes believed still in the heap */
	/* Allocation seen between collections since the last one, to judge how
	 * much of a collection's window went unobserved. */
	uint64_t epoch_bytes, epoch_ns;
};

void hotspot_alloc_init(struct hotspot_alloc *a, enum hotspot_alloc_model model, bool track_humongous);

/* Folds one reading into the totals. The first reading only sets the base. */
void hotspot_alloc_step(struct hotspot_alloc *a, const struct hotspot_alloc_reading *r);

/* Whether a GC cause (sun.gc.lastCause) means eden was full when it ran. */
bool hotspot_alloc_cause_fills_eden(const char *cause);

#endif
