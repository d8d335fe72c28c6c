/* Top allocators: cumulative per-site figures as a sampler publishes them,
 * and the pure step that turns two readings into rates and shares.
 *
 * Kept out of struct gt_sample on purpose: a snapshot is a few tens of KiB
 * and gt_sample is copied into the history ring every interval. */
#ifndef GCTOP_MODEL_ALLOCATORS_H
#define GCTOP_MODEL_ALLOCATORS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/sample.h"

#define GT_ALLOC_SITES_MAX 48     /* sites kept per table in a snapshot */
#define GT_ALLOC_SITE_NAME_LEN 224
#define GT_ALLOC_WINDOW_SNAPS 16  /* readings the window ring keeps */

enum gt_alloc_heap {
	GT_ALLOC_HEAP_UNKNOWN = 0,  /* the runtime does not say (JSON null) */
	GT_ALLOC_HEAP_SMALL,
	GT_ALLOC_HEAP_LARGE,
	GT_ALLOC_HEAP_PINNED,
};

enum gt_sampler_state {
	GT_SAMPLER_OFF = 0,     /* no segment */
	GT_SAMPLER_STARTING,
	GT_SAMPLER_RUNNING,
	GT_SAMPLER_STOPPED,     /* the agent stopped (no reader) */
	GT_SAMPLER_BUSY,        /* another agent holds the sampling capability */
	GT_SAMPLER_FAILED,
};

struct gt_alloc_site {
	char name[GT_ALLOC_SITE_NAME_LEN];
	enum gt_alloc_heap heap;
	uint64_t bytes;   /* cumulative sum of sample weights */
	uint64_t count;   /* cumulative samples */
};

struct gt_alloc_table {
	unsigned n;
	bool complete;    /* every site of the source is here (none left out for space) */
	struct gt_alloc_site sites[GT_ALLOC_SITES_MAX]; /* by bytes, largest first */
};

/* A sampler's one-sentence message (why it is busy or failed): as long as
 * the segment's (GCTOP_SEG_MESSAGE_LEN, checked where the segment is read). */
#define GT_ALLOC_MESSAGE_LEN 160

/* One reading of a sampler's segment. */
struct gt_alloc_snapshot {
	uint64_t mono_ns;           /* when gctop read it */
	uint64_t generation;        /* counters restart when it changes */
	char source[40];            /* "jvmti-sampled", "eventpipe-allocation-sampled", ... */
	enum gt_sampler_state state;
	char message[GT_ALLOC_MESSAGE_LEN];
	uint64_t samples;
	uint64_t est_bytes;         /* sum of all weights */
	uint64_t dropped;
	uint64_t interval_bytes;
	struct gt_u64 exact_total;  /* the runtime's exact allocated bytes at mono_ns, when given */
	/* Of each second, the share the sampler was taking samples when read:
	 * 1 for a sampler that never pauses, below 1 for one that runs part of
	 * each second and weighs its samples by the inverse; n/a when unknown
	 * (a recording from before the field). */
	struct gt_f64 sampled_share;
	struct gt_alloc_table by_frame;
	struct gt_alloc_table by_type;
};

struct gt_alloc_rate {
	char name[GT_ALLOC_SITE_NAME_LEN];
	enum gt_alloc_heap heap;
	struct gt_f64 bytes_per_s;
	struct gt_f64 share;        /* of all sampled bytes in the window, 0..1 */
};

struct gt_alloc_derived {
	bool valid;                 /* false: no two readings of one generation yet */
	char source[40];
	enum gt_sampler_state state;
	uint64_t samples;           /* samples in the window */
	double window_s;
	struct gt_f64 sampled_bps;  /* sum of weights per second */
	struct gt_f64 sampled_share; /* the least of the readings' in the window */
	unsigned n_frames, n_types;
	struct gt_alloc_rate by_frame[GT_ALLOC_SITES_MAX]; /* by bytes_per_s, largest first */
	struct gt_alloc_rate by_type[GT_ALLOC_SITES_MAX];
};

/* Rates and shares of each site between two readings dt seconds apart.
 * When exact_bps is valid (the runtime's exact allocation rate over the same
 * interval), bytes_per_s is share x exact_bps: samples decide the split, the
 * exact counter the size. A site missing from prev counts from 0 only when
 * prev was complete; otherwise it is left out (its bytes stay in the shares'
 * denominator). prev may be NULL or of another generation: out is then
 * invalid but carries source and state. */
void gt_derive_allocators(const struct gt_alloc_snapshot *prev, const struct gt_alloc_snapshot *cur,
			  double dt, struct gt_f64 exact_bps, struct gt_alloc_derived *out);

/* The last readings, for figures over a longer window than one interval. */
struct gt_alloc_window {
	unsigned n, head;
	struct gt_alloc_snapshot snaps[GT_ALLOC_WINDOW_SNAPS];
};

void gt_alloc_window_push(struct gt_alloc_window *w, const struct gt_alloc_snapshot *s);
/* The newest reading, or NULL. */
const struct gt_alloc_snapshot *gt_alloc_window_latest(const struct gt_alloc_window *w);
/* The oldest reading of the newest's generation at most window_ns older than
 * it (and not the newest itself), or NULL. */
const struct gt_alloc_snapshot *gt_alloc_window_base(const struct gt_alloc_window *w, uint64_t window_ns);

/* The window most readings use: long enough for a few thousand samples. */
#define GT_ALLOC_WINDOW_NS 10000000000ull

/* gt_derive_allocators from the window's base to its newest reading, with
 * the exact rate over the same span when both readings have exact totals.
 * With fewer than two readings of one generation, out is invalid (but
 * carries the newest source and state; GT_SAMPLER_OFF when empty). */
void gt_alloc_window_derive(const struct gt_alloc_window *w, uint64_t window_ns, struct gt_alloc_derived *out);

const char *gt_sampler_state_name(enum gt_sampler_state s);
const char *gt_alloc_heap_name(enum gt_alloc_heap h); /* NULL for UNKNOWN */

#endif
