/* jdk.ObjectAllocationSample events turned into the same top-allocator
 * tables the agent publishes (model/allocators.h): by type, and by the
 * first application frame of the sample's stack. Each sample counts with
 * the weight JFR gives it (the bytes it stands for), not re-weighted. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_ALLOC_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/hotspot/jfr/jfr_reader.h"
#include "model/alloc_stacks.h"
#include "model/allocators.h"

/* The source as JSON and the screen name it */
#define JFR_ALLOC_SOURCE "jfr-sampled"
#define JFR_ALLOC_EVENT "jdk.ObjectAllocationSample"
/* Distinct sites kept per table: past this, new sites are left out (the
 * table then says it is not complete) so a hostile chunk cannot grow it. */
#define JFR_ALLOC_SITES_KEPT 16384u
/* Distinct stacks kept (each a key of its site and frames, at most
 * JFR_ALLOC_STACK_KEY_MAX bytes): 2048 of them hold at most 8 MiB. */
#define JFR_ALLOC_STACKS_KEPT 2048u
#define JFR_ALLOC_STACK_KEY_MAX 4096u
/* Callers kept past the first application frame (the agent's
 * AGENT_STACK_CALLERS) */
#define JFR_ALLOC_STACK_CALLERS 3u
#define JFR_ALLOC_PREFIXES_MAX 16
#define JFR_ALLOC_PREFIX_LEN 64

struct jfr_alloc_table;

struct jfr_alloc {
	unsigned n_prefixes;
	char prefixes[JFR_ALLOC_PREFIXES_MAX][JFR_ALLOC_PREFIX_LEN]; /* the runtime's packages */
	struct jfr_alloc_table *by_frame, *by_type;
	struct jfr_alloc_table *stacks;  /* "site\x1fframe\x1fframe...", innermost first */
	uint64_t samples, bytes, dropped;
	uint64_t bad_events;       /* samples whose fields could not be read */
	uint64_t stacks_lost;      /* samples whose stack was too long to key */
};

/* packages: comma-separated prefixes of the runtime's packages, NULL for
 * gctop's default (the agent's). 0, or -1 (out of memory, or a list that
 * does not fit). */
int jfr_alloc_init(struct jfr_alloc *a, const char *packages);
void jfr_alloc_free(struct jfr_alloc *a);

/* Adds ev when it is an allocation sample (others are passed over). */
void jfr_alloc_add(struct jfr_alloc *a, const struct gt_jfr_event *ev);

/* The cumulative tables into out's by_frame, by_type and totals (its
 * source, state and time are the caller's). */
void jfr_alloc_snapshot(const struct jfr_alloc *a, struct gt_alloc_snapshot *out);

/* The stacks behind snap's by-frame sites (the snapshot jfr_alloc_snapshot
 * filled), into out. */
void jfr_alloc_stacks(const struct jfr_alloc *a, const struct gt_alloc_snapshot *snap, struct gt_alloc_stacks *out);

#endif
