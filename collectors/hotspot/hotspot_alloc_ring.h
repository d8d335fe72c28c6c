/* The allocation total at its last few readings (the estimate's polls, or
 * the agent's exact readings), so that a counter read at a moment of its
 * own (--ops jmx:, every 100 ms by the agent) can be set beside the
 * allocation of that same moment: bytes per operation then divides two
 * deltas over one span. Pure, tested on crafted sequences. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_ALLOC_RING_H
#define GCTOP_COLLECTORS_HOTSPOT_ALLOC_RING_H

#include <stdint.h>

/* Polls come every 10 ms at the quickest (near collections), 250 ms when
 * steady; the agent's answer is used up to 2 s old, so a steady ring of 64
 * covers it and a busy one covers well over the 100 ms between readings. */
#define HOTSPOT_ALLOC_RING_LEN 64

struct hotspot_alloc_ring {
	unsigned n, next;                 /* readings held; where the next goes */
	uint64_t ns[HOTSPOT_ALLOC_RING_LEN];
	uint64_t total[HOTSPOT_ALLOC_RING_LEN];
};

/* Keeps total as read at ns. A reading not after the newest is the same
 * poll again and is ignored; a total below the newest starts a new series
 * (no interpolation across a reset). */
void hotspot_alloc_ring_push(struct hotspot_alloc_ring *g, uint64_t ns, uint64_t total);

/* 0 with *total the allocation total at ns, interpolated between the
 * readings around it; -1 when ns is before the oldest reading kept (or none
 * is), 1 when after the newest: nothing says what was allocated up to it. */
int hotspot_alloc_ring_at(const struct hotspot_alloc_ring *g, uint64_t ns, uint64_t *total);

/* As hotspot_alloc_ring_at, and up to past_max_ns after the newest reading
 * carried on at the rate between the newest two: readings taken by another
 * clock's schedule (the agent's, every 100 ms) are mostly a little past
 * the newest of the allocation's. HOTSPOT_ALLOC_RING_ONE when ns is after
 * the only reading there is (no rate to carry it on at). */
#define HOTSPOT_ALLOC_RING_ONE 2
int hotspot_alloc_ring_near(const struct hotspot_alloc_ring *g, uint64_t ns, uint64_t past_max_ns, uint64_t *total);

#endif
