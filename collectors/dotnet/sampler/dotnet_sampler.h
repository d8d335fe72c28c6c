/* .NET 10's allocation sampling (AllocationSampled, with stacks) in an
 * EventPipe session of its own, beside gctop's GC session. Its cost to the
 * target follows the event rate (about one event per 100 KiB allocated; a
 * service allocating 2 GB/s lost 7% of its requests to the keyword alone,
 * bench/README.md 2d), so above a budget of events a second the session is
 * on for only a share of each second, from a random point of it, wrapping
 * at its end (every instant equally likely to be sampled, so shares stay
 * unbiased even for periodic work: dotnet_duty.h), and each sample weighs
 * 1/share; a window is timed by the events' own timestamps, so the
 * session's start and stop add no time to it (dotnet_sampler.c).
 *
 * The method loads that name the stacks' frames (JIT keyword, Verbose) come
 * in the same session, not in gctop's: the runtime runs its GC at the
 * highest level any session asks of its provider, and gctop's GC session
 * at Verbose cost a Server GC service 3-10% of its throughput (bench 2d);
 * here the GC is at Verbose only while a window is on. A method compiled while the
 * session was off is named by a rundown at the end of a later window, asked
 * for when a stack holds code no method names (dotnet_alloc_unnamed.h). */
#ifndef GCTOP_COLLECTORS_DOTNET_SAMPLER_H
#define GCTOP_COLLECTORS_DOTNET_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/dotnet/sampler/dotnet_alloc.h"
#include "collectors/dotnet/sampler/dotnet_duty.h"
#include "collectors/dotnet/ipc/diag_ipc.h"

/* What gctop's own session asks of the runtime provider when that session
 * does not sample (dotnet.c's start_session): after each window, the
 * sampler hands the runtime back exactly this (settle_runtime), so both
 * must name the same keywords and level. */
#define GT_DN_WATCH_KEYWORDS GT_DN_KEYWORD_GC
#define GT_DN_WATCH_LEVEL GT_EP_LEVEL_INFORMATIONAL

struct gt_dn_sampler;

/* Starts and stops at once a session that asks only what gctop's own asks
 * (settle_runtime in dotnet_sampler.c says why): the runtime's provider
 * then has the keywords and level of the sessions still on, not those of
 * one just stopped, and a Type keyword turned off empties the runtime's
 * cache of types it has named (so the next heap dump names them again). */
void gt_dn_settle_runtime(pid_t pid, const char *socket_path);

/* Starts the session; its samples go to alloc. same_clock: the target is
 * in gctop's time namespace, so its event timestamps are gctop's
 * CLOCK_MONOTONIC and a window counts by them (dotnet_sampler.c). NULL
 * with err set. */
struct gt_dn_sampler *gt_dn_sampler_new(pid_t pid, const char *socket_path, bool same_clock,
					struct gt_dn_alloc *alloc, struct gt_error *err);
/* Stops the session. */
void gt_dn_sampler_free(struct gt_dn_sampler *s);
/* Reads what arrived, and starts or stops the session when due. */
void gt_dn_sampler_poll(struct gt_dn_sampler *s, uint64_t now_ns);
/* How long until gt_dn_sampler_poll has something to do (0: nothing timed). */
uint64_t gt_dn_sampler_next_ns(const struct gt_dn_sampler *s, uint64_t now_ns);
/* The share of time sampled (1: always), and the full event rate last
 * measured (0: not yet). */
double gt_dn_sampler_share(const struct gt_dn_sampler *s);
double gt_dn_sampler_rate(const struct gt_dn_sampler *s);
/* Events the runtime dropped in the sampling sessions. */
uint64_t gt_dn_sampler_dropped(const struct gt_dn_sampler *s);

#endif
