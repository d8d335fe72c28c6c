/* Live-set points from the JVM's own flight recorder: the heap used after
 * each collection that reached the old generation, as the JVM's
 * jdk.GCHeapSummary "After GC" of that collection states it, the kind of
 * collection told by its jdk.GarbageCollection's name (the two meet by
 * gcId). Names, from recordings on JDK 17 and 25: G1New and G1Old (a
 * concurrent cycle), G1Full, ParallelScavenge and ParallelOld, DefNew and
 * SerialOld, Z (JDK 17's single-generation ZGC: each cycle reaches the
 * whole heap). G1's cycle ends and young collections are no point here:
 * heap used at a cycle's end holds what the mixed collections after it
 * free (collectors/hotspot/hotspot_live.c has G1's rule from perf data).
 * A collection's two events come in any order, in one chunk or two, and
 * more than once where two recordings overlap: each gcId gives one point. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_LIVE_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/hotspot/jfr/jfr_reader.h"

#define JFR_LIVE_GC_EVENT "jdk.GarbageCollection"
#define JFR_LIVE_HEAP_EVENT "jdk.GCHeapSummary"
/* Collections whose halves are held while the other is awaited, and
 * points held until taken: a ring each, so a hostile chunk grows nothing. */
#define JFR_LIVE_PENDING 64u
#define JFR_LIVE_POINTS 64u
/* A gcId this far below the newest seen is one already given or lost. */
#define JFR_LIVE_GCID_WINDOW 4096u

struct jfr_live_pending {
	bool used;
	uint64_t gc_id;
	const char *kind;     /* from the collection's name: NULL not yet known */
	bool named;           /* its jdk.GarbageCollection came */
	bool have_after;      /* its "After GC" came */
	uint64_t heap_used;
	int64_t after_ns;     /* the summary's time, ns since the epoch */
};

struct jfr_live_point {
	uint64_t gc_id;
	uint64_t bytes;
	int64_t at_ns;        /* ns since the epoch */
	const char *kind;     /* static */
};

struct jfr_live {
	struct jfr_live_pending pending[JFR_LIVE_PENDING];
	uint64_t given[JFR_LIVE_PENDING * 4]; /* gcIds given a point (+1; 0 free) */
	uint32_t given_next;
	uint64_t newest_id;   /* the largest gcId seen */
	bool any;
	struct jfr_live_point points[JFR_LIVE_POINTS];
	uint64_t count;       /* points ever made: point k at points[k % JFR_LIVE_POINTS] */
	uint64_t bad_events;
};

void jfr_live_init(struct jfr_live *l);

/* What a collection of this name measures ("full GC"...), static; NULL
 * when it gives no point. Pure. */
const char *jfr_live_kind(const char *gc_name);

/* The two halves, pure for the unit tests: a jdk.GarbageCollection of
 * gc_id and name, and a jdk.GCHeapSummary "After GC" of gc_id. */
void jfr_live_note_gc(struct jfr_live *l, uint64_t gc_id, const char *name);
void jfr_live_note_after(struct jfr_live *l, uint64_t gc_id, uint64_t heap_used, int64_t at_ns);

/* Adds ev when it is one of the two (others are passed over). */
void jfr_live_add(struct jfr_live *l, const struct gt_jfr_event *ev);

#endif
