/* A census of the live objects by type (issue 28): what --census, key C
 * and the census pane show, and the change since the previous census.
 *
 * A runtime backend takes one on the user's explicit request only
 * (collectors/backend.h census): it stops or collects in the target, and
 * its traits say what it costs (model/runtime.h census_cost). */
#ifndef GCTOP_MODEL_CENSUS_H
#define GCTOP_MODEL_CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_CENSUS_NAME_LEN 256

struct gt_census_type {
	char name[GT_CENSUS_NAME_LEN];  /* in source form: "byte[]", "java.util.HashMap$Node",
					 * "System.Collections.Generic.List<System.String>";
					 * target bytes, sanitised only by the writers */
	uint64_t count;                 /* live instances */
	uint64_t bytes;                 /* their shallow bytes, summed */
};

struct gt_census {
	struct gt_census_type *types;   /* sorted by bytes, largest first (owned) */
	size_t n_types;
	uint64_t total_count, total_bytes;
	int64_t wall_ms;                /* when it was taken, ms since the epoch */
	uint64_t mono_ns;               /* CLOCK_MONOTONIC at the same moment */
	uint64_t took_ns;               /* wall time of the whole exchange */
	/* What it cost the target, as the runtime reports it where it does
	 * (the induced collection's or the safepoint's pause), else invalid. */
	bool pause_valid;
	uint64_t pause_ns;
	/* The census misses objects (events lost, a cap reached): partial_why
	 * says so in one sentence (static or owned by the census), else NULL. */
	const char *partial_why;
};

#endif
