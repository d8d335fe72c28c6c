/* Every stop-the-world pause from the JVM's own flight recorder: each
 * jdk.GCPhasePause is one pause as the JVM timed it (G1: "GC Pause" of a
 * young, mixed or full collection, "Pause Remark", "Pause Cleanup";
 * Parallel and Serial: "GC Pause"; JDK 17's ZGC: "Pause Mark Start",
 * "Pause Mark End", "Pause Relocate Start"): the collector's pause timer
 * (register_gc_start to register_gc_end). -Xlog:gc's "Pause" line holds
 * that timer on G1's young and mixed collections; on Parallel's and G1's
 * full ones the timer holds the line and also the collector's work outside
 * it at the same safepoint (heap tracing, TLAB retirement), which stops
 * the application as much (man page, SOURCES).
 * Events come in a chunk's byte order, not time order, and a pause may be
 * read twice (a chunk two recordings share, read again): each pause,
 * known by its gcId and start, counts once, and the new ones are handed
 * out sorted by their start. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_GC_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_GC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/hotspot/jfr/jfr_reader.h"

#define JFR_GC_PAUSE_EVENT "jdk.GCPhasePause"
/* Pauses remembered to refuse a second reading, and new ones held until
 * taken: past the second, pauses are counted as lost rather than held. */
#define JFR_GC_SEEN 4096u
#define JFR_GC_FRESH 4096u

struct jfr_gc_pause {
	uint64_t gc_id;
	int64_t start_ns;     /* ns since the epoch */
	uint64_t duration_ns;
};

struct jfr_gc {
	struct jfr_gc_pause seen[JFR_GC_SEEN]; /* a ring of the newest read */
	uint32_t seen_next, seen_n;
	struct jfr_gc_pause fresh[JFR_GC_FRESH]; /* read, not yet taken */
	uint32_t n_fresh;
	uint64_t pauses;      /* counted, all time */
	uint64_t lost;        /* past fresh's room */
	uint64_t bad_events;
};

void jfr_gc_init(struct jfr_gc *g);

/* One pause; false when it was read before. Pure, for the unit tests. */
bool jfr_gc_note(struct jfr_gc *g, uint64_t gc_id, int64_t start_ns, uint64_t duration_ns);

/* Adds ev when it is a jdk.GCPhasePause (others are passed over). */
void jfr_gc_add(struct jfr_gc *g, const struct gt_jfr_event *ev);

/* The pauses noted since the last take, sorted by start, into out (at
 * most max; the rest stay for the next take). Returns how many. */
size_t jfr_gc_take(struct jfr_gc *g, struct jfr_gc_pause *out, size_t max);

#endif
