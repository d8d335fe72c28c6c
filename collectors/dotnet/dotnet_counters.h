/* The runtime's own counters, read from self-describing EventSource events:
 * the System.Runtime EventCounters (allocated bytes, heap sizes) and the
 * Microsoft.AspNetCore.Hosting EventCounters (requests), on every version.
 *
 * gctop does not subscribe to System.Diagnostics.Metrics: the runtime allows
 * one metrics session per process, and dotnet-counters (which opens a private
 * one) would then refuse to start while gctop watches. */
#ifndef GCTOP_COLLECTORS_DOTNET_COUNTERS_H
#define GCTOP_COLLECTORS_DOTNET_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/dotnet/nettrace/nettrace.h"
#include "collectors/dotnet/dotnet_gens.h"
#include "model/sample.h"

/* Observations of one cumulative figure, to read it at any moment between
 * them: counters arrive every interval, samples are taken at other moments,
 * and reading the latest value would alias the two rates. */
#define GT_DN_SERIES_LEN 16
struct gt_dn_series {
	int64_t ts[GT_DN_SERIES_LEN];
	uint64_t value[GT_DN_SERIES_LEN];
	unsigned next, count;
};

void gt_dn_series_add(struct gt_dn_series *s, int64_t ts, uint64_t value);
/* The observation age places before the newest (0: the newest); false
 * past the oldest kept. */
bool gt_dn_series_nth(const struct gt_dn_series *s, unsigned age, int64_t *ts, uint64_t *value);
/* The figure at ts, interpolated linearly between the observations around
 * it; the first (last) value before (after) them. false when empty. */
bool gt_dn_series_at(const struct gt_dn_series *s, int64_t ts, uint64_t *value);

/* The first runtime version whose first alloc-rate increment counts from
 * the session's enable (measured on 9 and 10: within 0.5% of
 * GC.GetTotalAllocatedBytes over the time since; 8 sends every byte since
 * the process started first). */
#define GT_DN_FIRST_INCREMENT_MAJOR 9

struct gt_dn_counters {
	/* Bytes allocated since the first alloc-rate poll gctop saw, as of
	 * the runtime's polls: the latest (alloc_ts, alloc_total) and the one
	 * before. Each poll's Increment is GC.GetTotalAllocatedBytes's growth
	 * since the poll before (polls are shared by every session that
	 * enabled the counters, so the increments add up to the total whatever
	 * the interval); the first poll's increment starts at the session's
	 * enable, or only starts the count (first_counts, below). Timestamps
	 * are the events'. */
	bool have_alloc;
	int64_t alloc_ts, alloc_prev_ts;
	uint64_t alloc_total, alloc_prev_total;
	/* The runtime's own running total, which falls while DATAS has taken
	 * GC heaps away; alloc_total is its highest (dotnet_counters.c). */
	int64_t alloc_raw;
	uint64_t alloc_held_polls;    /* polls at which alloc_raw was below alloc_total */
	/* the same totals poll by poll (with the first interval's start), so
	 * that they can be read as of an earlier poll than the last, and the
	 * held polls as of each, so that a total read as of an earlier poll
	 * is marked by that poll's count */
	struct gt_dn_series alloc_polls, alloc_held;
	/* Set before the first poll where the runtime's first increment counts
	 * from the moment the session's enable reset the counter (.NET 9
	 * and later, GT_DN_FIRST_INCREMENT_MAJOR), a moment gctop times itself (dotnet.c): that increment then
	 * counts, and alloc_first_counted says the oldest poll's total is the
	 * bytes since the enable. Where it is not set (.NET 8 sends every byte
	 * since the process started first) the first poll only starts the
	 * count. */
	bool first_counts, alloc_first_counted;
	uint64_t alloc_first_interval_ns;   /* the first poll's IntervalSec, 0 where it had none */
	int64_t qpc_freq;             /* event timestamp ticks per second */

	/* GC.GetTotalPauseDuration's growth since the first
	 * total-pause-time-by-gc poll gctop saw (ns; .NET 7 and later), poll by
	 * poll: each poll's Increment is the growth since the poll before, in
	 * ms with the runtime's 100 ns ticks in its decimals. The first poll
	 * only starts the count (.NET 8 sends the whole total since the
	 * process started first). */
	struct gt_dn_series pause_polls;
	uint64_t pause_total_ns;

	struct gt_dn_series requests; /* ASP.NET Core hosting total-requests (a polled total) */

	/* Sizes after the last GC (gen-0-size ... poh-size, bytes) and GC
	 * committed bytes (gc-committed, MB): what an idle process shows
	 * before any GC event. */
	uint64_t size[GT_DN_GENS];
	bool size_valid[GT_DN_GENS];
	uint64_t committed;
	bool have_committed;
};

void gt_dn_counters_init(struct gt_dn_counters *c);

/* Feeds one event; events other than these counters are ignored. */
void gt_dn_counters_event(struct gt_dn_counters *c, const struct gt_nettrace_event *e);

#endif
