/* Allocation estimated from hsperfdata alone: eden deltas between polls,
 * corrected at each collection by what its cause says about eden, plus old
 * generation growth between pauses (direct-to-old and G1 humongous objects).
 * Pure: it sees only counter readings, so it is tested on crafted sequences. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_ALLOC_ESTIMATE_H
#define GCTOP_COLLECTORS_HOTSPOT_ALLOC_ESTIMATE_H

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

/* One poll's counters; a collector that does not exist reads 0. Times
 * named jvm_* are the JVM's own clock (sun.os.hrt ticks) in ns, 0 when
 * unknown; the estimator maps them onto mono_ns. */
struct hotspot_alloc_reading {
	uint64_t mono_ns;        /* when they were read (CLOCK_MONOTONIC) */
	/* A collection was under way or began while the counters were read: the
	 * sizes may be half updated (HotSpot counts a collection at its start and
	 * updates the sizes just before its end), so the reading is not used. */
	bool in_progress;
	uint64_t jvm_clock_ns;   /* the JVM clock was at least this when read */
	uint64_t jvm_young_entry_ns, jvm_young_exit_ns; /* the last young collection */
	uint64_t jvm_full_entry_ns, jvm_full_exit_ns;   /* the last full collection */
	uint64_t jvm_other_entry_ns, jvm_other_exit_ns; /* the last collector.2 pause (G1 remark, cleanup) */
	uint64_t tlab_waste_bytes; /* TLAB tails the last epoch left unused (gcWaste + refillWaste) */
	/* Parallel: bytes the last young collection promoted into old
	 * (sun.gc.policy.promoted), so old growth across it less this is
	 * direct-to-old allocation. */
	bool has_promoted;
	uint64_t promoted_bytes;
	uint64_t young_gcs;      /* collector.0 invocations */
	uint64_t full_gcs;       /* collector.1 invocations */
	uint64_t other_pauses;   /* collector.2 invocations (G1 remark/cleanup, ZGC) */
	uint64_t eden_used;
	uint64_t eden_capacity;  /* the eden size at which a young collection starts */
	uint64_t old_used;
	uint64_t heap_used;
	uint64_t tlab_bytes, tlab_fills; /* the last published epoch */
	/* Allocations the last published epoch made outside a TLAB
	 * (sun.gc.tlab.slowAlloc: objects that did not fit the TLAB's free
	 * space, which was too large to discard). */
	uint64_t tlab_slow_allocs;
	/* The JVM's time spent bringing its threads to safepoints, cumulative
	 * (sun.rt.safepointSyncTime); 0 where it has none. */
	uint64_t safepoint_sync_ns;
	bool eden_was_full;      /* the last collection's cause implies a full eden */
	char last_cause[96];     /* sun.gc.lastCause, read with the counters */
};

/* Bytes and time seen between collections, for the rates that fill the
 * short stretches before and after a collection no poll saw. */
struct hotspot_alloc_epoch {
	uint64_t eden_bytes, old_bytes, ns;
};

struct hotspot_alloc_estimate {
	enum hotspot_alloc_model model;
	bool track_humongous;      /* G1: old growth between pauses is humongous */
	bool have_prev;
	struct hotspot_alloc_reading prev;
	uint64_t total_bytes;       /* since the first reading */
	uint64_t large_total_bytes; /* humongous bytes allocated since the first reading */
	uint64_t large_live_bytes;  /* humongous bytes believed still in the heap */
	/* Collections whose whole preceding interval fell between two polls
	 * (several collections in one poll window): its allocation is missing,
	 * so while this grows total_bytes is a lower bound. */
	uint64_t blind_collections;
	struct hotspot_alloc_epoch epoch, last_epoch; /* the current one and the one before */
	/* CLOCK_MONOTONIC minus the JVM clock: the least seen, since every JVM
	 * time stamp read was written before the read. */
	int64_t clock_offset_ns;
	bool have_offset;
	/* G1 eden regions' unused tails (hotspot_alloc_estimate_tails_max). */
	uint64_t region_bytes;    /* the region size, from eden's granularity; 0 unknown */
	uint64_t tail_max_bytes;  /* the most the tails can be, cumulative, never falling */
	double tail_share;        /* of eden, in the last epoch whose bound is known */
	uint64_t tail_open_bytes; /* accrued at that share in the current epoch */
	uint64_t tail_epoch_bytes; /* eden counted in the current epoch */
	uint64_t tail_credit;     /* accrued past what closed epochs turned out to bound */
};

void hotspot_alloc_estimate_init(struct hotspot_alloc_estimate *a, enum hotspot_alloc_model model,
				 bool track_humongous);

/* Folds one reading into the totals. The first reading only sets the base. */
void hotspot_alloc_estimate_step(struct hotspot_alloc_estimate *a, const struct hotspot_alloc_reading *r);

/* G1 counts a humongous object in whole regions: it takes ceil(size /
 * region) regions, its last one's tail unused (filled with a dead filler
 * that nothing else may use until the object dies), and hsperfdata's old
 * generation grows by the regions' bytes. So large_total_bytes, and the
 * total it is part of, are upper bounds of the bytes the program asked for.
 * Perf data has no object count or size, only the regions' growth between
 * polls, so the bound holds for any mix of objects: an object is humongous
 * when larger than half a region, so one of one region leaves under half of
 * it unused, and one of n >= 2 regions (more than n - 1 regions of bytes)
 * under one region of n. Either way under half its regions' bytes, whatever
 * the region size: the tails are at most half of large_total_bytes. Returns
 * that bound. */
uint64_t hotspot_alloc_estimate_humongous_waste_max(const struct hotspot_alloc_estimate *a);

/* G1 puts an object too large for its thread's TLAB into the current
 * eden region directly, and retires a region whose free tail is too short
 * for the next such object: the tail is filled with a dead object and perf
 * data counts the region whole. So an eden estimate also holds those tails,
 * up to a quarter of eden with 256 KiB buffers in 1 MiB regions (three fit,
 * the fourth does not). Perf data has no object sizes, only, per epoch
 * between collections, N allocations outside TLABs (slowAlloc), the TLAB
 * bytes T and eden E in R regions; the rest X = E - T is those objects and
 * the tails. Each tail is shorter than the object that did not fit, so
 * with one size s for the objects of an epoch, X = N s + W with W < R s:
 * W < X R / (N + R). That bound is tail_max_bytes (accrued at the last
 * epoch's share of eden between collections, trued up at each one), the
 * most the estimate can exceed the allocation by besides humongous tails;
 * it is reached when the objects leave nearly one of themselves unused
 * per region (a power of two with its header), and it is 1 / (k + 1) of
 * the objects' bytes when k fit in a region. Returns it. */
uint64_t hotspot_alloc_estimate_tails_max(const struct hotspot_alloc_estimate *a);

/* Why the total of a model is a lower bound once blind_collections grows
 * (static string). */
const char *hotspot_alloc_estimate_bound_reason(enum hotspot_alloc_model model);

/* Whether a GC cause (sun.gc.lastCause) means eden was full when it ran. */
bool hotspot_alloc_estimate_cause_fills_eden(const char *cause);

#endif
