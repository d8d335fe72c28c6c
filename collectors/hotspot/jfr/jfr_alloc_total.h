/* The JVM's exact allocation total from jdk.ThreadAllocationStatistics:
 * each period the JVM writes, for every live Java thread, the bytes it has
 * allocated since it started (one timestamp for the whole period). The
 * total is the sum over the threads of the largest figure seen of each, so
 * a thread that has ended keeps its last figure and the total never goes
 * down; events read twice (two recordings, one chunk read again) or out of
 * order change nothing. Bytes a thread allocated after its last period
 * before it ended are not counted, nor those of threads that ended before
 * the recording began: the total's increments are exact to a period. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_ALLOC_TOTAL_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_ALLOC_TOTAL_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/hotspot/jfr/jfr_reader.h"

#define JFR_ALLOC_TOTAL_EVENT "jdk.ThreadAllocationStatistics"
/* Threads kept: past this, a new thread's bytes are left out (the total
 * is then a lower bound, threads_lost says so) so that a hostile chunk
 * cannot grow the table (64 Ki threads: 1 MiB). */
#define JFR_ALLOC_TOTAL_THREADS_KEPT 65536u

struct jfr_alloc_total_thread {
	uint64_t id;        /* javaThreadId + 1: 0 is a free slot */
	uint64_t allocated; /* the largest figure seen */
};

struct jfr_alloc_total {
	struct jfr_alloc_total_thread *threads; /* open addressing, cap a power of 2 */
	uint32_t cap, used;
	uint64_t total;        /* sum of the threads' figures */
	int64_t at_ns;         /* the newest period's time (ns since the epoch); 0: none */
	uint64_t prev_total;   /* the total as the newest period began */
	int64_t prev_ns;       /* the period before it; 0: none */
	uint64_t threads_lost; /* events of threads past the table */
	uint64_t bad_events;   /* events whose fields could not be read */
};

void jfr_alloc_total_init(struct jfr_alloc_total *t);
void jfr_alloc_total_free(struct jfr_alloc_total *t);

/* One thread's figure at start_ns (ns since the epoch). Pure, for the
 * unit tests: the crafted event lists go through here. */
void jfr_alloc_total_note(struct jfr_alloc_total *t, uint64_t thread_id, uint64_t allocated, int64_t start_ns);

/* Adds ev when it is a jdk.ThreadAllocationStatistics (others are passed over). */
void jfr_alloc_total_add(struct jfr_alloc_total *t, const struct gt_jfr_event *ev);

#endif
