/* The plausibility rules of the figures a target's counters feed (issue
 * 36): one rule per figure, each from what the host can physically do.
 * The target writes its own counters (a perf-data file, an event stream),
 * so they can say anything; the derive step holds each figure to its rule
 * and sets the ones that break it n/a, naming the figure and the rule, so
 * that every front end shows n/a rather than an absurd number. The live
 * set's rules are model/live_set.c's; the table of all of them is the man
 * page's "Plausibility". Pure: no clock, no I/O. */
#ifndef GCTOP_MODEL_PLAUSIBLE_H
#define GCTOP_MODEL_PLAUSIBLE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/sample.h"

/* The most bytes per second any host's memory takes: every allocated byte
 * is written at least once (zeroed), so no allocation rate exceeds the
 * memory's write bandwidth. Two sockets of 12-channel DDR5-6400 move about
 * 1.2 TB/s, a GPU's HBM3 about 3.4 TB/s: 4 TiB/s is above every machine
 * gctop runs on. */
#define GT_PLAUSIBLE_BANDWIDTH_BPS (4.0 * 1099511627776.0)
/* The most operations per second: each one counted is at least one 8-byte
 * write of its counter, at the bandwidth above. */
#define GT_PLAUSIBLE_OPCOUNT_PER_S (GT_PLAUSIBLE_BANDWIDTH_BPS / 8)
/* The largest address space of a 64-bit Linux process (57 bits: 5-level
 * paging): no reservation (a heap's committed or maximum size) is larger.
 * Committed memory may exceed the host's (overcommitted pages nobody has
 * touched), so MemTotal bounds only what is in use. */
#define GT_PLAUSIBLE_ADDRESS_SPACE (1ull << 57)
/* The most collections per second: each one stops or handshakes every
 * thread of the process, which takes at least a microsecond. */
#define GT_PLAUSIBLE_GC_PER_S 1e6
/* The slack of the GC-CPU rule: the GC threads' CPU (the target's counter)
 * and the process's (the kernel's, in ticks) are read at two moments of a
 * poll, so the first may lead by a little; a second of CPU covers that. */
#define GT_PLAUSIBLE_CPU_SLACK_S 1.0

/* Why, for every figure the rules set n/a. */
#define GT_IMPLAUSIBLE "the target's counters are implausible"

/* The figures one derive step set n/a, each with its rule. */
#define GT_IMPLAUSIBLE_MAX 12
struct gt_implausible {
	unsigned n;        /* entries held (at most GT_IMPLAUSIBLE_MAX) */
	unsigned dropped;  /* more figures than that, not named */
	struct gt_implausible_entry {
		const char *figure;  /* static: the JSON key's path, "heap.heap_used_bytes" */
		const char *rule;    /* static: GT_IMPLAUSIBLE ": " and the rule it broke */
	} e[GT_IMPLAUSIBLE_MAX];
};

struct gt_derived;

/* Holds the levels and cumulative totals of s to their rules and sets
 * those that break them n/a, naming each in why (NULL: unnamed). */
void gt_plausible_sample(struct gt_sample *s, struct gt_implausible *why);

/* Holds the interval's rates and counts in out (derived from samples the
 * above has held already) to their rules. */
void gt_plausible_rates(struct gt_derived *out);

/* Holds bytes per operation to its rule: the bytes allocated over the
 * operations' span (span_s seconds) no more than memory could take. */
void gt_plausible_bytes_per_op(struct gt_derived *out, double span_s);

#endif
