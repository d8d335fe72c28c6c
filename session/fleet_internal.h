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
void gt_fleet_schedule_poll(struct gt_fleet_member *m, uint64_t now_ns);

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
void gt_fleet_take_opened(struct gt_fleet *f);

/* ---- fleet_list.c ---- */

bool gt_fleet_listing_due(const struct gt_fleet_policy *p, struct gt_fleet_discovery *d, uint64_t now);
void gt_fleet_start_listing(struct gt_fleet *f);
void gt_fleet_take_listing(struct gt_fleet *f);
bool gt_fleet_only_all_open(const struct gt_fleet *f);

#endif
