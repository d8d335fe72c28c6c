#include "session/driver.h"

#include <stdlib.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "session/session.h"

/* What makes a source's descriptor worth reading after a wait. */
#define DRIVER_READY (POLLIN | POLLHUP | POLLERR | POLLNVAL)

int gt_driver_init(struct gt_driver *d, struct gt_driver_source *sources, size_t n, struct gt_error *err)
{
	size_t max = 0;
	for (size_t i = 0; i < n; i++)
		max += sources[i].fds ? sources[i].max_fds : 0;
	*d = (struct gt_driver){ .sources = sources, .n_sources = n };
	d->pfd = calloc(max ? max : 1, sizeof(*d->pfd));
	d->fds = calloc(max ? max : 1, sizeof(*d->fds));
	d->first = calloc(n ? n : 1, sizeof(*d->first));
	d->count = calloc(n ? n : 1, sizeof(*d->count));
	if (!d->pfd || !d->fds || !d->first || !d->count) {
		gt_driver_free(d);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

void gt_driver_free(struct gt_driver *d)
{
	free(d->pfd);
	free(d->fds);
	free(d->first);
	free(d->count);
	d->pfd = NULL;
	d->fds = NULL;
	d->first = d->count = NULL;
}

/* The sources' ticks, then the earliest of their deadlines; false when a
 * tick ended the loop. */
static bool driver_tick(struct gt_driver *d, uint64_t *deadline)
{
	uint64_t now = gt_mono_ns();
	*deadline = GT_WAIT_NEVER;
	for (size_t i = 0; i < d->n_sources; i++) {
		struct gt_driver_source *s = &d->sources[i];
		if (s->tick && !s->tick(s->ctx, now))
			return false;
	}
	for (size_t i = 0; i < d->n_sources; i++) {
		struct gt_driver_source *s = &d->sources[i];
		uint64_t t = s->deadline ? s->deadline(s->ctx, now) : GT_WAIT_NEVER;
		if (t < *deadline)
			*deadline = t;
	}
	return true;
}

/* Every source's descriptors into pfd; returns how many. */
static size_t driver_collect(struct gt_driver *d, bool lagging_too)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n_sources; i++) {
		struct gt_driver_source *s = &d->sources[i];
		size_t got = s->fds ? s->fds(s->ctx, d->fds + n, s->max_fds, lagging_too) : 0;
		d->first[i] = n;
		d->count[i] = got;
		for (size_t k = n; k < n + got; k++)
			d->pfd[k] = (struct pollfd){ .fd = d->fds[k], .events = POLLIN };
		n += got;
	}
	return n;
}

static bool source_ready(const struct gt_driver *d, size_t i)
{
	for (size_t k = d->first[i]; k < d->first[i] + d->count[i]; k++)
		if (d->pfd[k].revents & DRIVER_READY)
			return true;
	return false;
}

/* After a wait that found `ready` descriptors (0: none, or it failed):
 * each source that has something to read reads it. Returns false when one
 * ended the loop; *now is the time the last one was given. */
static bool driver_dispatch(struct gt_driver *d, int ready, uint64_t *now)
{
	for (size_t i = 0; i < d->n_sources; i++) {
		struct gt_driver_source *s = &d->sources[i];
		if (!s->read || d->count[i] == 0)
			continue;
		if (!(s->read_every_wait || (ready > 0 && source_ready(d, i))))
			continue;
		*now = gt_mono_ns();
		if (!s->read(s->ctx, d->pfd + d->first[i], d->count[i], *now))
			return false;
	}
	return true;
}

/* One turn: false when the loop ends. */
static bool driver_turn(struct gt_driver *d)
{
	uint64_t deadline;
	if (!driver_tick(d, &deadline))
		return false;
	/* the read-late rule: the lagging descriptors wait for the window's end */
	bool all = d->lag_ns == 0 || gt_mono_ns() >= d->lag_until;
	size_t n = driver_collect(d, all);
	if (!all && d->lag_until < deadline)
		deadline = d->lag_until;
	if (d->unlock)
		d->unlock(d->lock_ctx);
	/* Race-free against a quit signal landing just before the wait. */
	int r = gt_wait_poll(d->pfd, (nfds_t)n, deadline);
	if (d->lock)
		d->lock(d->lock_ctx);
	if (r == GT_WAIT_SIGNAL || r == GT_WAIT_QUIT)
		return true;
	if (r < 0 && r != GT_WAIT_TIMEOUT && d->error_ends)
		return false;
	uint64_t now = 0;
	if (!driver_dispatch(d, r, &now))
		return false;
	if (r > 0 && all && d->lag_ns)
		d->lag_until = (now ? now : gt_mono_ns()) + d->lag_ns;
	return true;
}

void gt_driver_run(struct gt_driver *d)
{
	while (!gt_quit_requested() && driver_turn(d))
		;
}

static uint64_t session_deadline(void *ctx, uint64_t now)
{
	(void)now;
	return gt_session_deadline(ctx);
}

static size_t session_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	struct gt_session *s = ctx;
	int fd = gt_session_wait_fd(s);
	if (fd < 0 || max == 0 || (!lagging_too && gt_session_wait_may_lag(s)))
		return 0;
	fds[0] = fd;
	return 1;
}

static bool session_read(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	(void)polled;
	(void)n;
	gt_session_events(ctx, now);
	return true;
}

struct gt_driver_source gt_driver_session_source(struct gt_session *s)
{
	return (struct gt_driver_source){
		.ctx = s, .deadline = session_deadline, .fds = session_fds, .max_fds = 1, .read = session_read,
	};
}
