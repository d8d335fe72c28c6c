/* What caused the JVM's collections, counted as the polls see them.
 *
 * HotSpot publishes only the cause of the last collection (sun.gc.lastCause),
 * so each poll that finds new young or full collections counts one of them,
 * the newest, under that cause; when several ran between two polls the
 * others' causes are gone, and `seen` (the share's denominator) leaves them
 * out. While G1 allocates humongous objects the tick polls every few
 * milliseconds (hotspot_tick.c), so few are missed then. */
#include "collectors/hotspot/hotspot_internal.h"

#include <string.h>

/* The GCCause strings of gcCause.cpp. */
#define HOTSPOT_CAUSE_SYSTEM_GC "System.gc()"
#define HOTSPOT_CAUSE_HUMONGOUS "G1 Humongous Allocation"
/* A heap inspection's full GC (jmap -histo:live, jcmd GC.class_histogram,
 * gctop's census through inspectheap) and a heap dump's (GC.heap_dump). */
#define HOTSPOT_CAUSE_HEAP_INSPECTION "Heap Inspection Initiated GC"
#define HOTSPOT_CAUSE_HEAP_DUMP "Heap Dump Initiated GC"

void hotspot_causes_note(struct hotspot_causes *c, const struct hotspot_alloc_reading *r)
{
	/* The stamps of a collection under way are half written, and until its
	 * VM operation ends lastCause is "No GC" (hotspot_counters.c): the next
	 * poll counts it. */
	if (r->in_progress)
		return;
	uint64_t n = r->young_gcs + r->full_gcs;
	if (!c->started) {
		c->started = true; /* collections before gctop watched are not counted */
		c->collections = n;
		return;
	}
	if (n <= c->collections) {
		c->collections = n;
		return;
	}
	c->collections = n;
	c->seen++;
	if (strcmp(r->last_cause, HOTSPOT_CAUSE_SYSTEM_GC) == 0)
		c->induced++;
	else if (strcmp(r->last_cause, HOTSPOT_CAUSE_HUMONGOUS) == 0)
		c->humongous++;
	else if (strcmp(r->last_cause, HOTSPOT_CAUSE_HEAP_INSPECTION) == 0 ||
		 strcmp(r->last_cause, HOTSPOT_CAUSE_HEAP_DUMP) == 0)
		c->inspection++;
}

void hotspot_causes_fill(const struct hotspot_causes *c, bool g1, struct gt_sample *out)
{
	if (!c->started)
		return;
	gt_u64_set(&out->causes.seen, c->seen);
	gt_u64_set(&out->causes.induced, c->induced);
	gt_u64_set(&out->causes.inspection, c->inspection);
	/* Only G1 has humongous objects. */
	if (g1)
		gt_u64_set(&out->causes.humongous, c->humongous);
}
