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

enum gt_dn_census_phase {
	GT_DN_CENSUS_WAIT_START,  /* before the induced collection's GCStart */
	GT_DN_CENSUS_IN_GC,       /* its walk */
	GT_DN_CENSUS_AFTER_STOP,  /* its GCStop seen, the program not yet restarted */
	GT_DN_CENSUS_DONE,        /* the RestartEE after it: the walk is over */
};

struct gt_dn_census_run {
	struct gt_dn_census_table *table;
	enum gt_dn_census_phase phase;
	uint32_t gc_count;
	int64_t qpc_freq;            /* the Trace object's ticks a second */
	int64_t suspend_ts, pause_from, pause_to;
	bool have_suspend;
	uint32_t next_index;         /* the BulkNode Index expected next */
	uint64_t lost_node_events;   /* BulkNode Index gaps */
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
