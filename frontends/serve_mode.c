/* gctop --serve. Two threads that share one thing, the newest exposition
 * (frontends/serve_cache.h): this loop samples every process once per
 * interval (and keeps reading the .NET sessions between rounds, as the
 * picker does), writes the exposition and swaps it in; libmicrohttpd's own
 * thread (frontends/serve_http.h) answers each scrape with a reference to
 * the current one. A scrape therefore costs a lookup, never a sample.
 *
 * The loop is session/driver.h's, as every front end's; only this one
 * applies its read-late rule to the .NET sessions (SERVE_LAG_NS). */
#include "frontends/serve_mode.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/quit.h"
#include "session/driver.h"
#include "session/fleet.h"
#include "frontends/serve_cache.h"
#include "frontends/serve_guard.h"
#include "frontends/serve_http.h"
#include "frontends/serve_libs.h"
#include "frontends/serve_seccomp.h"
#include "frontends/serve_web.h"

/* The descriptors the loop waits on at most (the .NET sessions'). */
#define SERVE_MAX_WAIT_FDS 1024

/* Every process the user can see, listed only when a new one may be there
 * (a scrape every second must not map every JVM's perf data each time),
 * a JVM opened once its perf data is likely written, and one that could
 * not be opened or read tried again (a busy or starting runtime). */
static const struct gt_fleet_policy serve_policy = {
	.open_min_age_ms = 1000,
	.list_on_change = true,
	.retry = true,
	.findings = true,
};

/* serve_policy, with the --ops counter every JVM counts operations in. */
static struct gt_fleet_policy serve_policy_for(const struct gt_options *opt)
{
	struct gt_fleet_policy p = serve_policy;
	p.opcount_counter = opt->opcount_counter;
	p.opcount_agent = opt->ops_agent;
	p.opcount_agent_match = opt->ops_agent_match;
	p.round_ns = opt->interval_ns;
	return p;
}

/* A .NET session's stream is read at most this often between rounds (and
 * whole at each round's sample): its events carry their own times, and
 * each of 20 sessions sent data two or three times a second at moments of
 * its own, so reading each at once woke the loop about 50 times a second
 * (a sixth of gctop --serve's CPU with 200 idle JVMs and 20 .NET
 * processes, perf). The runtime holds what waits in the session's buffer. */
#define SERVE_LAG_NS 200000000ull

/* The sampling loop's state, for its callbacks (session/driver.h). */
struct serve_run {
	const struct gt_options *opt;
	struct gt_fleet *fleet;
	struct gt_serve_cache *cache;
	uint64_t next_round;
};

/* A round when it is due (every process sampled, the exposition swapped
 * in); between rounds, the fleet's own look for processes come and gone
 * (gt_fleet_watch), whose changes are published at once, so that a new
 * process is served, and a gone one dropped, within 2 s whatever -d is;
 * then the collectors' ticks (HotSpot's estimator must see every eden
 * fill), each member at its own. */
static bool serve_tick(void *ctx, uint64_t now)
{
	struct serve_run *r = ctx;
	if (now >= r->next_round) {
		gt_fleet_refresh(r->fleet);
		gt_serve_cache_publish(r->cache);
		r->next_round += r->opt->interval_ns;
		/* after a stall, no burst of rounds */
		if (r->next_round <= now)
			r->next_round = now + r->opt->interval_ns;
	} else if (gt_fleet_watch(r->fleet, now)) {
		gt_serve_cache_publish(r->cache);
	}
	if (now >= gt_fleet_next_poll_ns(r->fleet))
		gt_fleet_poll(r->fleet, now);
	return true;
}

static uint64_t serve_deadline(void *ctx, uint64_t now)
{
	struct serve_run *r = ctx;
	(void)now;
	uint64_t next = gt_fleet_next_poll_ns(r->fleet), watch = gt_fleet_next_watch_ns(r->fleet);
	if (watch < next)
		next = watch;
	return r->next_round < next ? r->next_round : next;
}

/* Every session gctop opened is read continuously (those that may lag no
 * sooner than the driver's read-late window lets them) or closed. */
static size_t serve_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	struct serve_run *r = ctx;
	return lagging_too ? gt_fleet_wait_fds(r->fleet, fds, max) : gt_fleet_wait_fds_prompt(r->fleet, fds, max);
}

static bool serve_read(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct serve_run *r = ctx;
	gt_fleet_events(r->fleet, polled, n, now);
	return true;
}

/* The fleet is the server's while this thread waits. */
static void serve_unlock(void *ctx)
{
	pthread_mutex_unlock(&((struct gt_serve_cache *)ctx)->fleet_lock);
}

static void serve_lock(void *ctx)
{
	pthread_mutex_lock(&((struct gt_serve_cache *)ctx)->fleet_lock);
}

static int serve_loop(const struct gt_options *opt, struct gt_fleet *fleet, struct gt_serve_cache *cache,
		      struct gt_error *err)
{
	struct serve_run r = { opt, fleet, cache, gt_mono_ns() };
	struct gt_driver_source source = {
		.ctx = &r, .tick = serve_tick, .deadline = serve_deadline,
		.fds = serve_fds, .max_fds = SERVE_MAX_WAIT_FDS, .read = serve_read,
	};
	struct gt_driver d;
	if (gt_driver_init(&d, &source, 1, err) != 0)
		return -1;
	d.lag_ns = SERVE_LAG_NS;
	d.unlock = serve_unlock;
	d.lock = serve_lock;
	d.lock_ctx = cache;
	pthread_mutex_lock(&cache->fleet_lock);
	gt_driver_run(&d);
	pthread_mutex_unlock(&cache->fleet_lock);
	gt_driver_free(&d);
	return 0;
}

int gt_serve_run(const struct gt_options *opt, struct gt_error *err)
{
	gt_quit_install();
	signal(SIGPIPE, SIG_IGN);
	struct gt_serve_cache cache;
	struct gt_guard guard = { 0 };   /* the server thread's, until it stops */
	struct gt_serve_http http = { .cache = &cache, .guard = &guard };
	/* Its libraries first (frontends/serve_libs.h), as the dynamic linker
	 * loaded them before: their constructors run alone. No exec and no
	 * ptrace for the rest of gctop's life, before any thread starts (each
	 * inherits the filter), the web config's parser included. */
	if (gt_serve_libs_load(err) != 0 || gt_serve_forbid_exec(err) != 0 ||
	    !(http.web = gt_serve_web_new(opt->web_config, err))) {
		gt_serve_web_free(http.web);
		return err->code;
	}
	gt_serve_cache_init(&cache);
	struct gt_fleet *fleet = malloc(sizeof(*fleet));
	int status = GT_EXIT_FAILURE;
	struct gt_fleet_policy policy = serve_policy_for(opt);
	if (fleet && gt_fleet_init(fleet, &policy, opt->pids, opt->n_pids) != 0) {
		free(fleet);
		fleet = NULL;
	}
	if (!fleet) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		goto out;
	}
	cache.fleet = fleet;
	cache.metrics.durations = opt->gc_duration_buckets.n ? &opt->gc_duration_buckets : NULL;
	cache.metrics.filter = opt->metrics_filter.n_include || opt->metrics_filter.n_exclude ? &opt->metrics_filter : NULL;
	if (gt_serve_http_start(&http, opt, err) != 0) {
		status = err->code;
		goto out;
	}
	status = serve_loop(opt, fleet, &cache, err) == 0 ? GT_EXIT_OK : err->code;
	gt_serve_http_stop(&http);
out:
	gt_serve_cache_free(&cache);
	gt_serve_web_free(http.web);
	if (fleet)
		gt_fleet_free(fleet);
	free(fleet);
	return status;
}
