/* The one wait loop of every front end: the screen, -b and --json, the
 * doctor and --serve. Each turn runs what its sources have due (a sample,
 * a poll, a round, a drawing), waits with base/wait.h's poll until the
 * earliest of their deadlines (CLOCK_MONOTONIC), one of their descriptors
 * or quit (the quit flag ends the wait at once), then hands each source
 * its descriptors that are ready, in the order the sources are given.
 *
 * The read-late rule: a descriptor whose data may wait a little
 * (collectors/backend.h: wait_may_lag, a .NET session's stream, whose
 * events carry their own times) is left out of the waits for lag_ns after
 * a wait that included it found anything ready, so a loop over many
 * targets wakes once for several of them, not once for each. */
#ifndef GCTOP_SESSION_DRIVER_H
#define GCTOP_SESSION_DRIVER_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct gt_session;

/* One thing a loop waits for. Every callback may be NULL. */
struct gt_driver_source {
	void *ctx;
	/* What is due at now. False ends the loop before the wait. */
	bool (*tick)(void *ctx, uint64_t now);
	/* When it next wants to run, now being the tick's (GT_WAIT_NEVER: only
	 * on its descriptors). */
	uint64_t (*deadline)(void *ctx, uint64_t now);
	/* Its descriptors, at most max of them; lagging_too false: without
	 * those whose data may wait (the read-late rule). */
	size_t (*fds)(void *ctx, int *fds, size_t max, bool lagging_too);
	size_t max_fds;
	/* Its descriptors after a wait, n of them in the order fds gave, when
	 * one is ready (readable, hung up, in error, invalid). False ends the
	 * loop at once. */
	bool (*read)(void *ctx, const struct pollfd *polled, size_t n, uint64_t now);
	/* Read after every wait it had descriptors in, ready or not, unless a
	 * signal or quit ended the wait (the batch loops poll their collector
	 * at each wake). */
	bool read_every_wait;
};

struct gt_driver {
	struct gt_driver_source *sources;
	size_t n_sources;
	/* The read-late window; 0: every descriptor is waited on always. */
	uint64_t lag_ns;
	/* A wait that failed (not a timeout, a signal or quit) ends the loop;
	 * otherwise the loop goes on. */
	bool error_ends;
	/* Called around the wait with lock_ctx: the loop's lock released while
	 * it sleeps (--serve's fleet, which the server's thread may use then). */
	void (*unlock)(void *ctx);
	void (*lock)(void *ctx);
	void *lock_ctx;

	/* the driver's own */
	struct pollfd *pfd;
	int *fds;
	size_t *first, *count;   /* each source's part of pfd in this wait */
	uint64_t lag_until;
};

/* Takes n sources (kept by reference; set lag_ns, error_ends and the lock
 * after). Returns 0, or -1 with err (out of memory). */
int gt_driver_init(struct gt_driver *d, struct gt_driver_source *sources, size_t n, struct gt_error *err);
void gt_driver_free(struct gt_driver *d);

/* Turns until quit is requested, a source ends the loop, or a wait fails
 * and error_ends. */
void gt_driver_run(struct gt_driver *d);

/* A source for one session's own descriptor (its event stream, or its
 * job's eventfd: session/job.h), its deadline and its events; the caller
 * adds the tick. */
struct gt_driver_source gt_driver_session_source(struct gt_session *s);

#endif
