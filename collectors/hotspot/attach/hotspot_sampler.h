/* The allocation sampler of one JVM as gctop drives it: find or load the
 * agent, follow its segment, and turn each reading into the sample's exact
 * figures and a top-allocators snapshot. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_SAMPLER_H
#define GCTOP_COLLECTORS_HOTSPOT_SAMPLER_H

#include <sys/types.h>

#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "base/error.h"
#include "collectors/hotspot/hotspot_alloc_ring.h"
#include "model/sample.h"

struct gt_hotspot_sampler;

/* Starts sampling in JVM pid: reuses a live segment (an agent loaded with
 * -agentpath, or by an earlier gctop), else loads gctop's agent through the
 * attach protocol; then waits, bounded, until the agent samples. packages
 * (NULL for the default) is a comma-separated list of runtime package
 * prefixes. Returns NULL with err on failure (BUSY: another agent holds the
 * capability). */
struct gt_hotspot_sampler *gt_hotspot_sampler_start(pid_t pid, const char *packages, struct gt_error *err);

/* The agent for --ops jmx: only (--serve and --doctor with --ops-agent):
 * reuses a live segment, else loads the agent with its option ops, which
 * samples nothing; then waits, bounded, for its segment. Returns NULL with
 * err on failure. */
struct gt_hotspot_sampler *gt_hotspot_sampler_start_ops(pid_t pid, struct gt_error *err);

/* Beats, reads the segment, and fills the exact allocation total and the
 * agent-timed pauses of s (taken at s->mono_ns). Follows a segment that the
 * agent re-created. Never fails the sample: a missing or unreadable
 * segment leaves s untouched and the snapshot's state says why. --ops
 * jmx:'s count goes beside the allocation of its own moment: from the
 * exact total's readings, or where the sample's total is the estimate, from
 * polls (its polls, NULL where the sample has no allocation figure). */
void gt_hotspot_sampler_sample(struct gt_hotspot_sampler *m, struct gt_sample *s, const struct hotspot_alloc_ring *polls);

/* --ops jmx:OBJECTNAME:ATTRIBUTE (spec outlives the sampler): asks the
 * agent to read the attribute (summed over the MBeans a pattern matches)
 * and waits, bounded, for its first answer; from then on every sample's
 * operations are the agent's (or why there are none). Returns 0, or -1
 * with err when interrupted. */
int gt_hotspot_sampler_set_opcount(struct gt_hotspot_sampler *m, const char *spec, struct gt_error *err);

/* Only the reader heartbeat, for the poll tick between samples: with an
 * interval longer than the agent's watchdog (5 s) the agent would otherwise
 * stop sampling between two samples. */
void gt_hotspot_sampler_beat(struct gt_hotspot_sampler *m, uint64_t now_ns);

/* The newest reading (state GT_SAMPLER_OFF when there is none). */
const struct gt_alloc_snapshot *gt_hotspot_sampler_snapshot(const struct gt_hotspot_sampler *m);

/* Stops reading. The agent stops sampling by itself when no reader has
 * beaten for its watchdog time (5 s), and removes its segment. */
/* The stacks behind that snapshot's sites, or NULL (an agent that
 * publishes none); valid as the snapshot. */
const struct gt_alloc_stacks *gt_hotspot_sampler_stacks(const struct gt_hotspot_sampler *m);

void gt_hotspot_sampler_close(struct gt_hotspot_sampler *m);

/* The agent library gctop loads: $GCTOP_AGENT, else libgctop-agent.so next
 * to the gctop binary, else ../lib/gctop/libgctop-agent.so from it.
 * Returns 0, or -1 with err. */
int gt_hotspot_sampler_find_agent(char *buf, size_t len, struct gt_error *err);

#endif
