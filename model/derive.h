/* The pure derive step: two samples in, per-interval figures out.
 * No I/O, no clock, no globals: every front end renders its result. */
#ifndef GCTOP_MODEL_DERIVE_H
#define GCTOP_MODEL_DERIVE_H

#include "model/live_set.h"
#include "model/plausible.h"
#include "model/sample.h"

struct gt_generation_delta {
	struct gt_u64 collections;       /* collections in this interval */
	struct gt_f64 per_minute;
};

struct gt_collector_delta {
	struct gt_u64 invocations;
	struct gt_f64 time_share;        /* collector time / wall time of the interval */
};

struct gt_derived {
	struct gt_sample cur;            /* the newer sample, copied */
	bool first;                      /* no previous sample: every rate is invalid */
	struct gt_f64 interval_s;

	struct gt_f64 alloc_rate_bps;
	bool alloc_new_series;           /* the allocation total changed source or origin since the
					  * previous sample (an agent arrived): a new series starts,
					  * with no rate across the change */
	struct gt_f64 alloc_span_s;      /* the seconds the rate covers: interval_s, or the runtime's polls' (alloc_at) */
	bool alloc_lower_bound;          /* alloc_blind_collections grew: the rate is at least this */
	/* The estimate holds humongous objects in whole G1 regions (their
	 * unused tails grew, large_waste_max_bytes_total) or eden regions'
	 * tails (alloc_excess_max_bytes_total grew): the rate is at most
	 * this, and over by at most alloc_excess_max_bps. */
	bool alloc_upper_bound;
	struct gt_f64 alloc_excess_max_bps;

	/* The distribution of the individual pauses in this interval (from
	 * pause_log): invalid when the collector times no single pause. */
	struct gt_u64 pause_count;
	struct gt_u64 pause_p50_ns, pause_p99_ns, pause_max_ns;
	bool pause_dist_partial;         /* more pauses than the log holds: the last GT_PAUSE_RING only */
	struct gt_generation_delta generations[GT_MAX_GENERATIONS];
	struct gt_collector_delta collectors[GT_MAX_COLLECTORS];

	struct gt_collection_causes causes; /* collections by cause in this interval */

	struct gt_u64 pause_ns;          /* pause time in this interval (.NET: credited by when it
					  * happened, at most the interval's length: sample.h pause_at) */
	struct gt_f64 pause_share;       /* of wall time, 0..1 */
	struct gt_f64 safepoint_share;
	struct gt_f64 gc_cpu_share;      /* GC CPU seconds per wall second */
	struct gt_f64 cpu_share;         /* process CPU seconds per wall second */

	struct gt_f64 large_alloc_rate_bps;
	struct gt_f64 large_alloc_share; /* of all bytes allocated in the interval, 0..1 (.NET: of the
					  * bytes its collections counted, sample.h large_alloc_of_total) */
	/* Where the large figure counts whole regions: their unused tails at
	 * most (large_waste_max_bytes_total), and the least the objects' share
	 * can be once those are taken out (large_alloc_share is then the most). */
	struct gt_f64 large_waste_max_rate_bps;
	struct gt_f64 large_alloc_share_min;
	struct gt_f64 large_waste_rate_bps;  /* the tails as the agent's samples measure them */

	struct gt_u64 opcount;           /* operations counted in the interval (0 while the runtime's
					  * poll of them has not advanced: they come in the next) */
	struct gt_f64 opcount_rate;      /* operations per second */
	struct gt_f64 bytes_per_op;
	/* the bytes allocated and the collections over the span the operations
	 * are counted over (the runtime's polls, or the interval), so that any
	 * sum of intervals divides figures of one span */
	struct gt_u64 opcount_alloc_bytes;
	struct gt_u64 opcount_collections; /* invalid where the generations' counts are over that span */

	struct gt_f64 heap_max_share_of_limit; /* heap max / container limit */

	/* The figures set n/a because the target's counters broke their
	 * plausibility rule (model/plausible.h), each with the rule: cur holds
	 * the sample with them n/a, and no figure here is derived from them. */
	struct gt_implausible implausible;

	/* The live set's figures over the session's window, which the session
	 * fills from its tracker (model/live_set.h) after this step: two
	 * samples hold too little of its past. gt_derive leaves them n/a. */
	struct gt_live_set live_set;
};

/* The distribution of some consecutive pauses of a pause log. */
struct gt_pause_dist {
	struct gt_u64 count;             /* pauses in the window, all of them */
	struct gt_u64 p50_ns, p99_ns, max_ns; /* invalid with no pause in the window */
	bool partial;                    /* more than GT_PAUSE_RING: the newest only */
};

/* Pauses number from .. s->pause_log.count - 1 of s's log (nearest-rank
 * percentiles). Everything invalid when s has no log or from is ahead of it. */
void gt_pause_dist(const struct gt_sample *s, uint64_t from, struct gt_pause_dist *out);

/* prev may be NULL (first sample). prev and cur must describe the same target. */
void gt_derive(const struct gt_sample *prev, const struct gt_sample *cur, struct gt_derived *out);

/* cur - prev when both are valid and the counter did not go backwards. */
struct gt_u64 gt_u64_delta(struct gt_u64 prev, struct gt_u64 cur);

#endif
