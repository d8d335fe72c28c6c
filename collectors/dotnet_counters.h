/* The runtime's own counters, read from self-describing EventSource events:
 * the System.Runtime meter through System.Diagnostics.Metrics (.NET 9+, exact
 * cumulative values since process start) and the System.Runtime and
 * Microsoft.AspNetCore.Hosting EventCounters (every version; per-interval
 * increments, or polled totals). Cumulative GC figures anchor the event
 * totals in dotnet_gc_events.c. */
#ifndef GCTOP_COLLECTORS_DOTNET_COUNTERS_H
#define GCTOP_COLLECTORS_DOTNET_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "dotnet_gc_events.h"
#include "nettrace.h"

/* Observations of one cumulative figure, to read it at any moment between
 * them: counters arrive every refresh interval, samples are taken at other
 * moments, and reading the latest value would alias the two rates. */
#define GT_DN_SERIES_LEN 16
struct gt_dn_series {
	int64_t ts[GT_DN_SERIES_LEN];
	uint64_t value[GT_DN_SERIES_LEN];
	unsigned next, count;
};

void gt_dn_series_add(struct gt_dn_series *s, int64_t ts, uint64_t value);
/* The figure at ts, interpolated linearly between the observations around
 * it; the first (last) value before (after) them. false when empty. */
bool gt_dn_series_at(const struct gt_dn_series *s, int64_t ts, uint64_t *value);

struct gt_dn_counters {
	bool expect_metrics;          /* the target has the System.Runtime meter (.NET 9+) */
	bool metrics_failed;          /* the metrics session was refused: fall back */
	char metrics_error[160];

	struct gt_dn_series alloc;    /* cumulative allocated bytes */
	bool alloc_since_start;       /* from the meter; else the sum of EventCounter increments */
	uint64_t alloc_increments;    /* running sum of alloc-rate increments */

	bool have_sizes;              /* last-GC sizes from the meter, by generation */
	uint64_t size[5];
	bool size_valid[5];
	uint64_t fragmented[5];
	bool fragmented_valid[5];
	bool have_committed;
	uint64_t committed;
	bool have_pause_total;        /* the runtime's cumulative pause time (GC.GetTotalPauseDuration) */
	uint64_t pause_total_ns;

	struct gt_dn_series requests; /* ASP.NET Core hosting total-requests */
};

void gt_dn_counters_init(struct gt_dn_counters *c, bool expect_metrics);

/* Feeds one event of an EventSource provider; events of other providers are
 * ignored. May anchor totals of gc. */
void gt_dn_counters_event(struct gt_dn_counters *c, struct gt_dn_gc *gc, const struct gt_nettrace_event *e);

#endif
