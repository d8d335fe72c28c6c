/* What a census session's events say (dotnet_census.c reads the stream):
 * which collection is the induced one, its pause, the walk's objects into
 * the table, and whether any were lost. Apart from the session so that
 * crafted event sequences test it. */
#ifndef GCTOP_COLLECTORS_DOTNET_CENSUS_RUN_H
#define GCTOP_COLLECTORS_DOTNET_CENSUS_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/dotnet/dotnet_census_events.h"
#include "collectors/dotnet/nettrace/nettrace.h"
#include "model/census.h"

/* How far the induced collection is known to have gone. The stream is in
 * time order per thread only: under Server GC the collection's GCStart is
 * written by whichever GC thread joins last, its walk, GCEnd and RestartEE
 * mostly by heap 0's, and the runtime writes each thread's buffered events
 * in turn, so the GCEnd and RestartEE can come before the GCStart (seen
 * under load, with or without another session). The phase is therefore
 * worked out from what has been seen, in whatever order, by the events'
 * own counts and timestamps. */
enum gt_dn_census_phase {
	GT_DN_CENSUS_WAIT_START,  /* the induced collection's GCStart not seen */
	GT_DN_CENSUS_IN_GC,       /* its GCEnd not seen */
	GT_DN_CENSUS_AFTER_STOP,  /* no RestartEE seen after its GCEnd */
	GT_DN_CENSUS_DONE,        /* a RestartEE after it: the walk is over */
};

/* GCEnds, SuspendEEs and RestartEEs kept until the induced collection's
 * GCStart is seen (a session that starts under load sees a few
 * collections around it; the oldest are overwritten). */
#define GT_DN_CENSUS_KEPT 64

struct gt_dn_census_gc_end {
	uint32_t count;
	uint64_t tid;
	int64_t ts;
	uint64_t promoted;     /* the HeapStats after it on its thread */
	bool have_promoted;
};

struct gt_dn_census_run {
	struct gt_dn_census_table *table;
	enum gt_dn_census_phase phase;
	bool have_start;
	uint32_t gc_count;           /* the induced collection's GCStart Count */
	int64_t start_ts;
	int64_t qpc_freq;            /* the Trace object's ticks a second */
	struct gt_dn_census_gc_end ends[GT_DN_CENSUS_KEPT];
	int64_t suspends[GT_DN_CENSUS_KEPT], restarts[GT_DN_CENSUS_KEPT];
	uint32_t n_ends, n_suspends, n_restarts;  /* counted from 0, kept modulo GT_DN_CENSUS_KEPT */
	int64_t pause_from, pause_to;
	bool have_suspend;
	uint32_t next_index;         /* the BulkNode Index expected next */
	uint64_t lost_node_events;   /* BulkNode Index gaps */
	bool other_walk;             /* a heap walk after the first began: not counted */
	uint64_t malformed;
	uint64_t promoted;           /* the induced collection's TotalPromoted */
	bool have_promoted;
};

/* The end of the session as its reader saw it. */
struct gt_dn_census_end {
	uint64_t dropped;  /* events the runtime could not write (the stream's sequence gaps) */
	bool cut;          /* the stream did not end after the stop */
};

/* One event of the session's stream (a nettrace callback's). */
void gt_dn_census_run_event(struct gt_dn_census_run *r, const struct gt_nettrace_event *e);

/* Why the census misses objects, or NULL: the first of a cap reached,
 * events lost, malformed events, a cut stream, and the walk's bytes short
 * of what the collection found live by more than
 * GT_DN_CENSUS_SHORT_PERCENT. */
const char *gt_dn_census_run_partial(const struct gt_dn_census_run *r, const struct gt_dn_census_end *end);

/* The induced collection's pause into out (SuspendEE to RestartEE, the walk
 * inside it), when both were seen. */
void gt_dn_census_run_pause(const struct gt_dn_census_run *r, struct gt_census *out);

#endif
