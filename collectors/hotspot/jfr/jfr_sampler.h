/* The JFR source of top allocators for one JVM: gctop's flight recording
 * (jfr_recording.h), its repository followed (jfr_follow.h) and its
 * allocation samples tabled (jfr_alloc.h), on a thread of its own so that
 * reading and parsing chunks and renewing the lease never hold up the
 * screen's loop; a sample only copies the newest tables. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_SAMPLER_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/alloc_stacks.h"
#include "model/allocators.h"
#include "model/sample.h"

struct gt_hotspot_jfr;

/* Starts gctop's recording in JVM pid (of user owner) and its reader
 * thread. packages as for the agent (NULL: the default). Blocks for the
 * attach exchanges (bounded). Returns NULL with err (the JVM's refusal in
 * one sentence naming the agent as the alternative). */
struct gt_hotspot_jfr *gt_hotspot_jfr_start(pid_t pid, uid_t owner, const char *packages, struct gt_error *err);

/* Takes the reader's newest tables (at now, CLOCK_MONOTONIC). Cheap. */
void gt_hotspot_jfr_sample(struct gt_hotspot_jfr *j, uint64_t now);

/* The tables the last gt_hotspot_jfr_sample took. */
const struct gt_alloc_snapshot *gt_hotspot_jfr_snapshot(const struct gt_hotspot_jfr *j);

/* The JVM's exact allocation total as of its newest
 * jdk.ThreadAllocationStatistics period (jfr_alloc_total.h) into out, in
 * place of the perf data's estimate, from the first period on. */
void gt_hotspot_jfr_fill(const struct gt_hotspot_jfr *j, struct gt_sample *out);

/* Where the perf data measures no live set (JDK 17's ZGC), JFR's points
 * (jfr_live.h) as the sample's live log, from the recording's start. */
void gt_hotspot_jfr_fill_live(const struct gt_hotspot_jfr *j, struct gt_sample *out);

/* A stop-the-world pause as JFR timed it (jfr_gc.h). */
struct gt_hotspot_jfr_pause {
	int64_t start_ns;      /* ns since the epoch */
	uint64_t duration_ns;
};

/* The pauses the reader has read from number *next on, in start order
 * within each poll's batch, into out (at most max); *next moves past them.
 * *mono_offset: CLOCK_MONOTONIC less CLOCK_REALTIME now, in ns. */
size_t gt_hotspot_jfr_pauses(struct gt_hotspot_jfr *j, uint64_t *next, int64_t *mono_offset,
			      struct gt_hotspot_jfr_pause *out, size_t max);

/* The stacks behind that snapshot's sites (NULL when out of memory). */
const struct gt_alloc_stacks *gt_hotspot_jfr_stacks(const struct gt_hotspot_jfr *j);

/* Stops the thread, which stops and removes the recording (sent even on
 * the way out after a quit signal, bounded by a few seconds). wait: until
 * it has (gctop's way out); else at once, the thread finishing on its own
 * (the screen's key a, whose loop must not wait on the JVM; should gctop
 * exit first, the recording's lease ends it). */
void gt_hotspot_jfr_close(struct gt_hotspot_jfr *j, bool wait);

#endif
