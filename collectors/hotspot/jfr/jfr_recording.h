/* gctop's flight recording in one JVM, driven through the attach protocol's
 * `jcmd` command (JFR.start, JFR.check, JFR.configure, JFR.stop): nothing is
 * loaded into the JVM, and the recording holds only the events gctop reads. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_RECORDING_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_RECORDING_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/hotspot/jfr/jfr_reply.h"

/* The lease: each recording ends by itself this long after it starts (so
 * one a killed gctop leaves ends within it); gctop starts the next one
 * half-way, before it stops the last, so no event falls between them. */
#define JFR_LEASE_S 120
#define JFR_RENEW_NS (60ull * 1000000000ull)
/* The first JDK whose JFR.start takes per-event settings (+event#setting=,
 * JDK-8265271) and has jdk.ObjectAllocationSample (JDK 16). */
#define JFR_MIN_JDK 17

struct jfr_recording {
	pid_t pid;
	char name[JFR_NAME_LEN];       /* the lease running now; "" none */
	uint64_t started_ns;           /* CLOCK_MONOTONIC, of name */
	char repository[256];          /* in the target's file system */
};

/* Stops the recordings a gctop that is gone left in JVM pid, then starts
 * gctop's and asks where the JVM keeps its chunks. A JVM that refuses says
 * why in err, with the agent as the alternative. Returns 0, or -1. Blocks
 * for an attach exchange or four (bounded). */
int jfr_recording_start(struct jfr_recording *r, pid_t pid, struct gt_error *err);

/* Starts the next lease and stops the last when JFR_RENEW_NS has passed
 * since it began (now: CLOCK_MONOTONIC). 0 (renewed, or not yet due), or -1
 * with err (the old lease runs on to its end). */
int jfr_recording_renew(struct jfr_recording *r, uint64_t now, struct gt_error *err);

/* Stops and removes gctop's recording (its data goes nowhere). Quiet. */
void jfr_recording_stop(struct jfr_recording *r);

/* The JFR.start command line for a lease named name (exposed for the unit
 * tests). 0, or -1 when buf is too short. */
int jfr_recording_command(const char *name, char *buf, size_t len);

#endif
