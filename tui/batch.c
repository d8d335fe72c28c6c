#include "tui/batch.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/target.h"
#include "base/clock.h"
#include "model/derive.h"
#include "base/quit.h"
#include "base/wait.h"
#include "views/json_writer.h"
#include "views/text_writer.h"
#include "tui/deadline.h"

static void batch_install_signals(void)
{
	/* The quit flag also ends a collector's wait on a slow target. */
	gt_quit_install();
	/* `gctop --json | head` must end quietly: a closed pipe is seen as EPIPE. */
	signal(SIGPIPE, SIG_IGN);
}

/* a: top allocators over the window, NULL when --allocators is off. */
static int batch_write(const struct gt_options *opt, FILE *out, const struct gt_target_info *info,
		       const struct gt_derived *d, const struct gt_alloc_derived *a)
{
	if (opt->mode == GT_MODE_JSON) {
		struct json_object *o = gt_json_sample(info, d);
		gt_json_add_allocators(o, a);
		int rc = gt_json_write_line(out, o);
		json_object_put(o);
		return rc;
	}
	return gt_text_write_sample_allocators(out, info, d, a);
}

/* Turns sampling on for --allocators; the window keeps readings for rates
 * over GT_ALLOC_WINDOW_NS. */
static int batch_start_allocators(const struct gt_options *opt, struct gt_target *t, struct gt_alloc_window **w,
				  struct gt_alloc_derived **a, struct gt_error *err)
{
	if (!opt->allocators)
		return 0;
	*w = calloc(1, sizeof(**w));
	*a = calloc(1, sizeof(**a));
	if (!*w || !*a)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	return gt_target_enable_allocators(t, opt->allocator_packages, err);
}

static const struct gt_alloc_derived *batch_allocators(struct gt_target *t, struct gt_alloc_window *w,
							struct gt_alloc_derived *a)
{
	const struct gt_alloc_snapshot *snap = w ? gt_target_allocators(t) : NULL;
	if (!snap)
		return NULL;
	gt_alloc_window_push(w, snap);
	gt_alloc_window_derive(w, GT_ALLOC_WINDOW_NS, a);
	return a;
}

/* Waits until `deadline`, until the collector's descriptor is readable or
 * until quit. */
static void batch_wait(int fd, uint64_t deadline)
{
	gt_wait_fd(fd, POLLIN, deadline);
}

int gt_batch_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	batch_install_signals();
	struct gt_target *t = gt_target_open(opt->pid, err);
	if (!t)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	struct gt_alloc_window *alloc_window = NULL;
	struct gt_alloc_derived *alloc_derived = NULL;
	if (batch_start_allocators(opt, t, &alloc_window, &alloc_derived, err) != 0) {
		free(alloc_window);
		free(alloc_derived);
		gt_target_close(t);
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	}

	struct gt_sample prev, cur;
	struct gt_derived derived;
	bool have_prev = false;
	long written = 0;
	int status = GT_EXIT_OK;
	uint64_t now = gt_mono_ns();
	uint64_t next_sample = now;
	uint64_t poll_every = gt_target_poll_interval_ns(t);
	uint64_t next_poll = poll_every ? now + poll_every : UINT64_MAX;

	while (!gt_quit_requested()) {
		now = gt_mono_ns();
		if (now >= next_sample) {
			if (gt_target_sample(t, &cur, err) != 0) {
				status = gt_quit_requested() ? GT_EXIT_OK : err->code;
				break;
			}
			gt_derive(have_prev ? &prev : NULL, &cur, &derived);
			const struct gt_alloc_derived *ad = batch_allocators(t, alloc_window, alloc_derived);
			/* The first sample is the start of the first interval, not an
			 * output: alone it has no rate, and `-n 1` must give figures. */
			if (have_prev && batch_write(opt, out, gt_target_info(t), &derived, ad) != 0) {
				if (errno != EPIPE) {
					gt_fail(err, GT_EXIT_FAILURE, "cannot write the output: %s", strerror(errno));
					status = GT_EXIT_FAILURE;
				}
				break;
			}
			bool wrote = have_prev;
			prev = cur;
			have_prev = true;
			/* The sample polled too: the collector's tick may have changed
			 * (collections began), and a long tick must not wait it out. */
			poll_every = gt_target_poll_interval_ns(t);
			if (!poll_every)
				next_poll = UINT64_MAX;
			else if (next_poll == UINT64_MAX || next_poll > now + poll_every)
				next_poll = now + poll_every;
			if (wrote && opt->count && ++written >= opt->count)
				break;
			next_sample += opt->interval_ns;
			/* After a stall (suspended, loaded machine) skip the missed
			 * deadlines instead of sampling in a burst. */
			if (next_sample <= now)
				next_sample = now + opt->interval_ns;
		}
		if (poll_every && now >= next_poll) {
			gt_target_poll(t, now);
			poll_every = gt_target_poll_interval_ns(t);
			next_poll = poll_every ? gt_deadline_next(next_poll, poll_every, now) : UINT64_MAX;
		}
		next_poll = gt_deadline_skip_poll_near_sample(next_poll, next_sample, poll_every);
		int fd = gt_target_wait_fd(t);
		batch_wait(fd, next_sample < next_poll ? next_sample : next_poll);
		if (fd >= 0)
			gt_target_poll(t, gt_mono_ns());
	}
	gt_target_close(t);
	free(alloc_window);
	free(alloc_derived);
	return status;
}
