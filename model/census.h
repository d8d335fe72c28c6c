/* A census of the live objects by type (issue 28): what --census, key c
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
/* Types a census keeps, whichever runtime took it: a large service's heap
 * holds some tens of thousands; a target naming more is hostile or beyond
 * what a pane shows. Each is a gt_census_type (272 bytes: ~18 MB at the
 * cap), and the JSON, the sort and the change since the last census scale
 * with them, so a census past it keeps the first GT_CENSUS_MAX_TYPES and
 * says so in partial_why. */
#define GT_CENSUS_MAX_TYPES 65536

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

/* One type's change between two censuses of one target, by name: a type
 * the previous one lacked is new (its deltas are its figures), one the
 * current one lacks has vanished (count and bytes 0, deltas negative). */
struct gt_census_change {
	const char *name;               /* the census's own (cur, or prev when vanished) */
	uint64_t count, bytes;          /* now */
	int64_t count_delta, bytes_delta;
	bool is_new, vanished;
};

struct gt_census_diff {
	struct gt_census_change *rows;  /* sorted by bytes grown, most first (owned) */
	size_t n_rows;
	int64_t since_ms;               /* ms between the two censuses' wall_ms */
	int64_t total_bytes_delta, total_count_delta;
};

/* Frees what c owns and zeroes it; c may be empty. That is types alone:
 * partial_why is never freed, so it must be a static sentence (or live in
 * the types' block). */
void gt_census_free(struct gt_census *c);

/* Adds one type (name cut to GT_CENSUS_NAME_LEN - 1 bytes) to c's types,
 * unsorted; *cap is their capacity (0 for a new census). 0, or -1 when
 * out of memory. */
int gt_census_add(struct gt_census *c, size_t *cap, const char *name, size_t name_len, uint64_t count,
		  uint64_t bytes);

/* Makes c's types one row per name (summed: one class that several
 * loaders loaded is one type to the reader, and the change between
 * censuses joins by name), sorted by bytes, largest first; ties by count,
 * then name. */
void gt_census_sort(struct gt_census *c);

/* The change from prev to cur (both of one target; the names are
 * borrowed, so both must outlive out). Pure. 0, or -1 when out of memory
 * (out empty). Free with gt_census_diff_free. */
int gt_census_diff(const struct gt_census *prev, const struct gt_census *cur, struct gt_census_diff *out);
void gt_census_diff_free(struct gt_census_diff *d);

#endif
