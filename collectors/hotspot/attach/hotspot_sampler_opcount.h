/* Internals of the sampler (hotspot_sampler.c) shared with
 * hotspot_sampler_opcount.c: a counter carried to the sample's moment, and the
 * --ops jmx: request and answer in the agent's segment. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_SAMPLER_OPCOUNT_H
#define GCTOP_COLLECTORS_HOTSPOT_SAMPLER_OPCOUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "collectors/hotspot/hotspot_alloc_ring.h"
#include "model/opcount_spec.h"
#include "model/sample.h"
#include "segment/reader.h"

/* A counter the agent reads at its own moments (every 100 ms): the exact
 * allocation total, carried forward at its latest rate to the sample's
 * moment so that its rate covers the samples' spans; the operations,
 * given as read (at_ns their own moment), which --ops jmx: sets beside the
 * allocation of that moment instead. */
/* Extrapolate at most this far past a reading. */
#define GT_HOTSPOT_SAMPLER_EXTRAPOLATE_MAX_NS 500000000ull

struct gt_hotspot_sampler_track {
	uint64_t gen;                 /* the segment generation the readings are of */
	uint64_t prev, prev_ns, last, last_ns;
	uint64_t reported;            /* the last value given */
	bool hold;                    /* a value below the last reported keeps that one (else it starts over) */
};

/* The value read at value_ns (generation gen) as of at_ns. */
uint64_t gt_hotspot_sampler_track_at(struct gt_hotspot_sampler_track *t, uint64_t gen, uint64_t value,
				     uint64_t value_ns, uint64_t at_ns);

/* --ops jmx: for one sampler. */
struct gt_hotspot_sampler_opcount {
	const char *spec;             /* --ops as given (outlives the sampler), NULL: none */
	char name[GT_OPCOUNT_JMX_NAME_MAX + 1];
	char attr[GT_OPCOUNT_JMX_ATTR_MAX + 1];
	uint64_t id;                  /* this gctop's request id */
	uint64_t asked_gen;           /* the segment generation the request went into, 0: not yet */
	bool server;                  /* GT_OPCOUNT_SERVER_REQUESTS: the agent finds the counter */
	uint64_t other_beat, other_beat_ns; /* another gctop's request's beat, and when it last changed (0: none seen) */
	struct gt_hotspot_sampler_track track;
	/* The JVM's CLOCK_MONOTONIC minus gctop's (a JVM in another time
	 * namespace), which the agent's read_ns are on; clock_why: why that is
	 * not known, and no reading can be dated (static string), or NULL. */
	int64_t clock_off_ns;
	const char *clock_why;
};

/* 0, or -1 when spec is no well-made jmx: spec. */
int gt_hotspot_sampler_opcount_init(struct gt_hotspot_sampler_opcount *o, const char *spec);

/* Learns how the clock of the JVM pid (in another time namespace, maybe)
 * stands to gctop's: the agent stamps its readings with the JVM's. */
void gt_hotspot_sampler_opcount_clock(struct gt_hotspot_sampler_opcount *o, pid_t pid);

/* Writes the request into seg (read as r, at now) unless that segment has
 * it, or another gctop's request for the same counter (which serves both);
 * another gctop's request for another counter is left alone while that
 * gctop beats it, and replaced once it has stopped. */
void gt_hotspot_sampler_opcount_ask(struct gt_hotspot_sampler_opcount *o, struct gt_segment *seg,
				    const struct gt_segment_reading *r, uint64_t now);

/* Whether to beat the request in seg (read as r): not another gctop's for
 * another counter, which then stops when that gctop does. */
bool gt_hotspot_sampler_opcount_wanted(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r);

/* True once r holds an answer to this gctop's request, or (at now,
 * CLOCK_MONOTONIC) a fresh one to another gctop's for the same counter. */
bool gt_hotspot_sampler_opcount_answered(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
					 uint64_t now);

/* Whether the agent's reading of the counter in r can be set beside an
 * allocation total of its moment from alloc's readings (as
 * gt_hotspot_sampler_opcount_fill would). */
bool gt_hotspot_sampler_opcount_datable(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
					const struct hotspot_alloc_ring *alloc, bool alloc_jvm_clock);

/* The sample's operations from reading r (taken at now, CLOCK_MONOTONIC):
 * the total as of the agent's reading, at its moment (opcount_at_ns), and
 * beside it the allocation total of that moment from alloc's readings
 * (on the JVM's clock where alloc_jvm_clock, the agent's exact totals;
 * else on gctop's, the estimate's polls), or why there is none. alloc
 * NULL: no allocation figure, the operations alone. */
void gt_hotspot_sampler_opcount_fill(struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r, uint64_t now,
				     const struct hotspot_alloc_ring *alloc, bool alloc_jvm_clock, struct gt_sample *s);

#endif
