/* One watched target: what every front end (the screen, -b and --json, the
 * picker's rows, the exporter, replay and comparison) needs
 * between the collectors and the front ends. A session opens its target, keeps
 * the sample and poll schedule, the previous sample, the derived figures,
 * their history, the allocation window, the frozen copy (key p) and
 * whether the target has exited.
 *
 * A session can also be fed: gt_session_feed takes samples from anywhere
 * (a recording being replayed) and gives the same derive and history as
 * samples taken from a live target. */
#ifndef GCTOP_SESSION_SESSION_H
#define GCTOP_SESSION_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/derive.h"
#include "model/history.h"
#include "model/list.h"
#include "model/live_set.h"
#include "model/sample.h"
#include "session/deadline.h"

struct gt_target;
struct gt_session_job;

/* A sentence about the last problem (a sample that failed, the exit). */
#define GT_SESSION_MESSAGE_LEN 512

/* What a view shows: the live figures or the frozen copy. */
struct gt_session_figures {
	struct gt_derived derived;
	bool have_derived;
	struct gt_history *history;
	/* Top allocators over GT_ALLOC_WINDOW_NS; NULL while sampling is off.
	 * Kept out of the struct: a window of readings is a few hundred KiB. */
	struct gt_alloc_derived *alloc;
	char alloc_message[GT_ALLOC_MESSAGE_LEN];   /* the sampler's sentence, "" when none */
	/* The top stacks behind the sites (since sampling started); NULL when
	 * the sampler takes none. */
	struct gt_alloc_stacks *stacks;
};

struct gt_census_job;
struct gt_session_census;

struct gt_session {
	struct gt_target *target;        /* NULL: fed samples, or not open */
	struct gt_target_info info;
	struct gt_schedule schedule;
	struct gt_sample prev;           /* the newest sample */
	bool have_prev;
	uint64_t samples;                /* taken or fed so far */
	bool exited;
	char message[GT_SESSION_MESSAGE_LEN];

	struct gt_session_figures live;
	/* The live set's points over its window (model/live_set.h), whose
	 * figures each feed puts in live.derived.live_set. */
	struct gt_live_tracker live_tracker;
	bool frozen;                     /* p: the picture stays as it was while sampling goes on */
	/* Made at the first freeze: a fleet's hundreds of sessions never
	 * freeze, and it is 5 KiB. */
	struct gt_session_figures *frozen_figures;

	struct gt_alloc_window *alloc_window;   /* NULL while sampling is off */
	struct gt_alloc_derived *alloc_pending; /* between alloc_begin and alloc_end */
	bool alloc_fresh;                /* the newest sample brought a sampler reading */

	struct gt_session_job *job;      /* open or enable_allocators under way (session/job.h) */
	struct gt_census_job *census_job;    /* a census under way (session/session_census.h) */
	struct gt_session_census *census;    /* the censuses taken, NULL before the first */
	uint64_t census_started;             /* censuses asked of the target (causes.census) */
};

/* What one step of the schedule did. */
enum gt_session_step {
	GT_SESSION_IDLE = 0,     /* nothing was due, or only the poll tick */
	GT_SESSION_SAMPLED,      /* a new sample was derived */
	GT_SESSION_FAILED,       /* the sample failed; message (and err) say why */
	GT_SESSION_EXITED,       /* the target has just been found gone */
};

/* A session without a target, to be fed (info may be NULL). Returns 0, or
 * -1 with err. */
int gt_session_init(struct gt_session *s, const struct gt_target_info *info, struct gt_error *err);
/* gt_session_init, then opens pid (may wait, bounded, for a runtime that is
 * still starting). Returns 0, or -1 with err and the session closed. */
int gt_session_open(struct gt_session *s, pid_t pid, struct gt_error *err);
/* The same without a history (live.history NULL): a fleet's member, whose
 * holders show none, and at 352 KiB a history would be most of a session. */
int gt_session_open_without_history(struct gt_session *s, pid_t pid, struct gt_error *err);
/* Takes an opened target (owned from now on) into an initialised session. */
void gt_session_adopt(struct gt_session *s, struct gt_target *t);
/* Makes s a session without a history (as gt_session_open_without_history)
 * of a target opened elsewhere (a fleet's worker: session/fleet_worker.h). */
void gt_session_adopt_without_history(struct gt_session *s, struct gt_target *t);
void gt_session_close(struct gt_session *s);
/* --ops NAME for the open target (see gt_target_set_opcount): 0, or -1 with err. */
int gt_session_set_opcount(struct gt_session *s, const char *name, struct gt_error *err);
/* --ops-agent for that counter (see gt_target_enable_opcount_agent): 0, or -1 with err. */
int gt_session_enable_opcount_agent(struct gt_session *s, struct gt_error *err);

/* One sample, derived against the previous one: the history, the
 * allocation window and the info follow. */
void gt_session_feed(struct gt_session *s, const struct gt_sample *cur);
/* The sampler's newest reading (NULL: none this time). Ignored while
 * allocation sampling is off. */
void gt_session_feed_allocators(struct gt_session *s, const struct gt_alloc_snapshot *snap);
/* The stacks behind that reading's sites (NULL: the sampler takes none). */
void gt_session_feed_alloc_stacks(struct gt_session *s, const struct gt_alloc_stacks *stacks);
/* A recorded sample (a replay, a comparison): fed as gt_session_sample
 * feeds a live one, with the facts as of it and the allocator reading it
 * brought (NULL: none), which turns the allocation window on, with the
 * stacks behind its sites (NULL: none recorded). Returns 0, or -1 with err
 * (out of memory). */
int gt_session_replay_sample(struct gt_session *s, const struct gt_sample *cur, const struct gt_alloc_snapshot *alloc,
			     const struct gt_alloc_stacks *stacks, const struct gt_target_info *info,
			     struct gt_error *err);
/* Takes one sample from the target and feeds it. */
enum gt_session_step gt_session_sample(struct gt_session *s, struct gt_error *err);

/* The schedule: samples every interval_ns from now on. */
void gt_session_start(struct gt_session *s, uint64_t interval_ns, uint64_t now);
/* Samples and polls as they are due at now. An exited target stops the
 * schedule; its last figures stay. */
enum gt_session_step gt_session_tick(struct gt_session *s, uint64_t now, struct gt_error *err);
/* When the session next wants to run (GT_DEADLINE_NEVER: never, or only
 * when a job ends). */
uint64_t gt_session_deadline(struct gt_session *s);
/* A descriptor to wait on (the event stream, or a job's end: see
 * session/job.h), or -1; when readable, call gt_session_events. */
int gt_session_wait_fd(const struct gt_session *s);
/* Whether the data on gt_session_wait_fd may wait a little before it is
 * read (collectors/backend.h: wait_may_lag). */
bool gt_session_wait_may_lag(const struct gt_session *s);
void gt_session_events(struct gt_session *s, uint64_t now);
/* Before a batch's first output: waits, bounded by deadline_ns, until the
 * collector has what the first interval's rates need (collectors/
 * backend.h: settle). */
void gt_session_settle(struct gt_session *s, uint64_t deadline_ns);
uint64_t gt_session_poll_interval_ns(const struct gt_session *s);

/* p: freezes the figures shown (gt_session_shown) or thaws them. */
void gt_session_toggle_freeze(struct gt_session *s);
const struct gt_session_figures *gt_session_shown(const struct gt_session *s);
/* The wall clock of what is shown when it is not now (an exited target,
 * frozen figures), else 0. */
int64_t gt_session_shown_wall_ms(const struct gt_session *s);

/* Allocation sampling (session/session_alloc.c). Enable may load gctop's
 * agent into a JVM (the caller has asked the user); returns 0, or -1 with
 * one sentence in err and the session as it was. */
int gt_session_enable_allocators(struct gt_session *s, const char *packages, const char *source,
				 struct gt_error *err);
void gt_session_disable_allocators(struct gt_session *s);
static inline bool gt_session_allocators_on(const struct gt_session *s)
{
	return s->live.alloc != NULL;
}
/* The parts of enable around the target's own (which session/job.c runs on
 * its worker): begin makes the window, end keeps it (ok) or drops it. */
int gt_session_alloc_begin(struct gt_session *s, struct gt_error *err);
void gt_session_alloc_end(struct gt_session *s, bool ok);
void gt_session_free_allocators(struct gt_session *s);
/* *dst becomes a copy of src (allocated when needed), or is freed to NULL
 * when src is NULL or memory is short. */
void gt_session_copy_stacks(struct gt_alloc_stacks **dst, const struct gt_alloc_stacks *src);

/* Every process of every runtime the user can see (gctop -l, the picker). */
void gt_session_list_all(struct gt_list *out);

#endif
