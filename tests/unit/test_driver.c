/* The one wait loop (session/driver.h): a source's deadline wakes it no
 * sooner than due, a ready descriptor goes to its own source only, the
 * read-late rule leaves a lagging descriptor out of the waits for its
 * window, a quit signal ends a wait that has no end of its own, and the
 * loop's lock is let go only around the wait. */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "session/driver.h"
#include "tests/unit/check.h"

#define MS 1000000ull

/* A test source: a pipe, a deadline, and what happened to it. */
struct probe {
	int pipe[2];
	bool has_fd, lags;
	uint64_t deadline;      /* GT_WAIT_NEVER: none */
	uint64_t stop_at;       /* its tick ends the loop from then on; 0: never */
	unsigned ticks, reads, max_reads;
	uint64_t tick_ns[8], read_ns[64];
	short revents;
	bool locked;            /* the lock as the callbacks see it */
	bool read_unlocked;     /* a callback ran while the lock was let go */
};

static bool probe_tick(void *ctx, uint64_t now)
{
	struct probe *p = ctx;
	if (p->ticks < 8)
		p->tick_ns[p->ticks] = now;
	p->ticks++;
	p->read_unlocked |= !p->locked;
	return !(p->stop_at && now >= p->stop_at);
}

static uint64_t probe_deadline(void *ctx, uint64_t now)
{
	(void)now;
	return ((struct probe *)ctx)->deadline;
}

static size_t probe_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	struct probe *p = ctx;
	if (!p->has_fd || max == 0 || (p->lags && !lagging_too))
		return 0;
	fds[0] = p->pipe[0];
	return 1;
}

static bool probe_read(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct probe *p = ctx;
	CHECK(n == 1 && polled[0].fd == p->pipe[0]);
	p->revents = polled[0].revents;
	if (p->reads < 64)
		p->read_ns[p->reads] = now;
	p->reads++;
	p->read_unlocked |= !p->locked;
	return !(p->max_reads && p->reads >= p->max_reads);
}

static void probe_init(struct probe *p, bool has_fd)
{
	memset(p, 0, sizeof(*p));
	p->has_fd = has_fd;
	p->deadline = GT_WAIT_NEVER;
	p->locked = true;
	CHECK(pipe(p->pipe) == 0);
}

static void probe_close(struct probe *p)
{
	close(p->pipe[0]);
	close(p->pipe[1]);
}

static struct gt_driver_source source_of(struct probe *p)
{
	return (struct gt_driver_source){ .ctx = p, .tick = probe_tick, .deadline = probe_deadline,
					  .fds = probe_fds, .max_fds = 1, .read = probe_read };
}

static void run_sources(struct gt_driver_source *src, size_t n, uint64_t lag_ns)
{
	struct gt_driver d;
	struct gt_error err = { 0 };
	CHECK(gt_driver_init(&d, src, n, &err) == 0);
	d.lag_ns = lag_ns;
	gt_driver_run(&d);
	gt_driver_free(&d);
}

static void test_deadline_wakes_when_due(void)
{
	struct probe p;
	probe_init(&p, false);
	p.deadline = gt_mono_ns() + 40 * MS;
	p.stop_at = p.deadline;
	struct gt_driver_source s = source_of(&p);
	run_sources(&s, 1, 0);
	/* a tick before the deadline (unless the first came late), one at
	 * it: a sleep until due, not a spin */
	CHECK(p.ticks >= 1 && p.ticks <= 2);
	CHECK(p.tick_ns[p.ticks - 1] >= p.deadline);
	CHECK(p.reads == 0);
	probe_close(&p);
}

static void test_ready_goes_to_its_source(void)
{
	struct probe a, b;
	probe_init(&a, true);
	probe_init(&b, true);
	b.max_reads = 1;
	CHECK(write(b.pipe[1], "x", 1) == 1);
	struct gt_driver_source s[] = { source_of(&a), source_of(&b) };
	run_sources(s, 2, 0);
	CHECK(a.reads == 0);
	CHECK(b.reads == 1 && (b.revents & POLLIN));
	probe_close(&a);
	probe_close(&b);
}

static void test_read_every_wait(void)
{
	/* nothing ready: read after the deadline's wait all the same */
	struct probe p;
	probe_init(&p, true);
	p.deadline = gt_mono_ns() + 20 * MS;
	p.max_reads = 1;
	struct gt_driver_source s = source_of(&p);
	s.read_every_wait = true;
	run_sources(&s, 1, 0);
	CHECK(p.reads == 1 && p.revents == 0);
	CHECK(p.read_ns[0] >= p.deadline);
	probe_close(&p);
}

static void test_lag_rule(void)
{
	/* a lagging stream that always has data, window 100 ms: read once per
	 * window, never sooner (without the rule, on every turn), and the
	 * window's end wakes the loop (the 2 s stop is only a guard) */
	struct probe p;
	probe_init(&p, true);
	p.lags = true;
	p.max_reads = 3;
	CHECK(write(p.pipe[1], "x", 1) == 1);
	p.stop_at = gt_mono_ns() + 2000 * MS;
	p.deadline = p.stop_at;
	struct gt_driver_source s = source_of(&p);
	run_sources(&s, 1, 100 * MS);
	CHECK(p.reads == 3);
	for (unsigned i = 1; i < p.reads; i++)
		CHECK(p.read_ns[i] - p.read_ns[i - 1] >= 100 * MS);
	/* a prompt descriptor is read on every turn, window or not */
	struct probe q;
	probe_init(&q, true);
	CHECK(write(q.pipe[1], "x", 1) == 1);
	q.max_reads = 5;
	q.stop_at = gt_mono_ns() + 2000 * MS;
	q.deadline = q.stop_at;
	struct gt_driver_source t = source_of(&q);
	run_sources(&t, 1, 100 * MS);
	CHECK(q.reads == 5 && q.ticks == 5);
	probe_close(&p);
	probe_close(&q);
}

static void probe_unlock(void *ctx)
{
	((struct probe *)ctx)->locked = false;
}

static void probe_lock(void *ctx)
{
	((struct probe *)ctx)->locked = true;
}

static void test_lock_around_wait(void)
{
	struct probe p;
	probe_init(&p, true);
	p.max_reads = 3;
	p.deadline = gt_mono_ns() + 10 * MS;
	struct gt_driver_source s = source_of(&p);
	s.read_every_wait = true;
	struct gt_driver d;
	struct gt_error err = { 0 };
	CHECK(gt_driver_init(&d, &s, 1, &err) == 0);
	d.unlock = probe_unlock;
	d.lock = probe_lock;
	d.lock_ctx = &p;
	gt_driver_run(&d);
	gt_driver_free(&d);
	CHECK(p.reads == 3 && !p.read_unlocked && p.locked);
	probe_close(&p);
}

static void *send_quit(void *arg)
{
	(void)arg;
	gt_wait_sleep(gt_mono_ns() + 50 * MS);
	kill(getpid(), SIGINT);
	return NULL;
}

static void test_quit_ends_the_wait(void)
{
	gt_quit_install();
	/* the signal is the main thread's: the sender blocks it */
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, send_quit, NULL) == 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	struct probe p;
	probe_init(&p, true);   /* no deadline, nothing ever readable */
	struct gt_driver_source s = source_of(&p);
	uint64_t start = gt_mono_ns();
	run_sources(&s, 1, 0);
	pthread_join(t, NULL);
	CHECK(gt_quit_requested());
	CHECK(p.ticks == 1 && p.reads == 0);
	CHECK(gt_mono_ns() - start >= 50 * MS);
	gt_quit_signal = 0;
	probe_close(&p);
}

int main(void)
{
	RUN_TEST(test_deadline_wakes_when_due);
	RUN_TEST(test_ready_goes_to_its_source);
	RUN_TEST(test_read_every_wait);
	RUN_TEST(test_lag_rule);
	RUN_TEST(test_lock_around_wait);
	RUN_TEST(test_quit_ends_the_wait);
	return check_summary();
}
