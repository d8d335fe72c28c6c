/* Inside the fleet (session/fleet.h), split by job: its members
 * (session/fleet_members.c), their findings (session/fleet_findings.c), the
 * open step (session/fleet_open.c), the
 * listing (session/fleet_list.c), the rounds and their waits
 * (session/fleet_round.c), and its life (session/fleet.c). Each file uses
 * the ones listed before it, never one after. */
#ifndef GCTOP_SESSION_FLEET_INTERNAL_H
#define GCTOP_SESSION_FLEET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "session/fleet.h"

/* With retry, a process that could not be opened or read is tried again
 * this much later (a runtime busy or still starting, a session the runtime
 * ended). */
#define FLEET_RETRY_NS 10000000000ull
#define FLEET_NEVER UINT64_MAX
/* With the policy's round_ns (session/fleet.h): how often gt_fleet_watch
 * looks at /tmp for new processes and publishes what changed (a new
 * process is served within 2 s of appearing: a look, its open once it is
 * open_min_age_ms old, and a look to publish it), and how often, when the
 * rounds are further apart, it looks for members gone (kill(pid, 0) each:
 * one system call a member a second, where the round's sample is several). */
#define FLEET_WATCH_NS 500000000ull
#define FLEET_SWEEP_NS 1000000000ull
/* A collector whose tick is this long or longer (HotSpot's for a JVM that
 * neither collects nor allocates) is read at the rounds only, with the
 * policy's round_ns: polling 1,000 idle JVMs every second was 1,000
 * copies of 32 KiB a second at -d 15 (2.7% of a core, perf). */
#define FLEET_IDLE_TICK_NS 1000000000ull

/* ---- fleet_members.c ---- */

/* Closes m's session (m stays, without one). */
void gt_fleet_member_close(struct gt_fleet_member *m);
/* Whether pid is watched (-p, or every process). */
bool gt_fleet_wanted(const struct gt_fleet *f, pid_t pid);
struct gt_fleet_member *gt_fleet_find(struct gt_fleet *f, pid_t pid);
/* A new member for a listed process, or NULL (out of memory). */
struct gt_fleet_member *gt_fleet_add(struct gt_fleet *f, const struct gt_target_info *info);
void gt_fleet_prune(struct gt_fleet *f);
bool gt_fleet_member_there(const struct gt_fleet_member *m);
void gt_fleet_note_wait(struct gt_fleet *f, struct gt_fleet_member *m);
void gt_fleet_rebuild_waits(struct gt_fleet *f);
/* A member's next tick after one at now: its collector's interval
 * (every, 0: none) later; with round_ns, none (FLEET_NEVER: the round's
 * sample reads the collector as a poll does) when that interval is the
 * idle one (FLEET_IDLE_TICK_NS) or no shorter than the rounds. */
uint64_t gt_fleet_tick_after(uint64_t every, uint64_t round_ns, uint64_t now_ns);
void gt_fleet_schedule_poll(struct gt_fleet *f, struct gt_fleet_member *m, uint64_t now_ns);
void gt_fleet_rebuild_polls(struct gt_fleet *f);
/* Whether the member's process is still the one listed: there, and
 * started when it was (a pid taken again by another process is not). */
bool gt_fleet_member_same_process(const struct gt_fleet_member *m);
/* Drops the members whose process is gone (kill(pid, 0)); true when one was. */
bool gt_fleet_sweep(struct gt_fleet *f);

/* ---- fleet_findings.c ---- */

/* Adds the member's newest interval to its findings' points and applies
 * the rules to them (with the policy's findings; out of memory: none). */
void gt_fleet_findings_update(struct gt_fleet *f, struct gt_fleet_member *m);

/* ---- fleet_open.c ---- */

bool gt_fleet_start_opens(struct gt_fleet *f);
/* The pids of the members that want opening, at most max: those never
 * tried (or handed back untried) first, then those whose retry has come,
 * each in the fleet's order. */
size_t gt_fleet_open_candidates(struct gt_fleet *f, uint64_t now, pid_t *pids, size_t max);
/* Takes in the worker's opens: a member opened is marked fresh (its first
 * sample is the round file's, at once: session/fleet_round.c). */
void gt_fleet_take_opened(struct gt_fleet *f);

/* ---- fleet_list.c ---- */

bool gt_fleet_listing_due(const struct gt_fleet_policy *p, struct gt_fleet_discovery *d, uint64_t now);
void gt_fleet_start_listing(struct gt_fleet *f);
void gt_fleet_take_listing(struct gt_fleet *f);
/* With the policy's round_ns: the pids /tmp names that are not members
 * yet join at once, for the open step (gt_fleet_tmp_pids). */
void gt_fleet_discover(struct gt_fleet *f);
bool gt_fleet_only_all_open(const struct gt_fleet *f);

#endif
