/* The fleet's worker (session/fleet_worker.h): one step at a time, its
 * end said on the descriptor, its result taken without blocking, and a
 * second step refused while one runs. No runtime is needed: the pids
 * asked for are one that has gone and init, which is none. */
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/target.h"
#include "session/fleet_internal.h"
#include "session/fleet_worker.h"
#include "tests/unit/check.h"

/* A pid that was a process a moment ago and is none now. */
static pid_t gone_pid(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

/* Waits up to 10 s for the worker's descriptor; true when it became readable. */
static bool step_ends(const struct gt_fleet_worker *w)
{
	struct pollfd p = { .fd = gt_fleet_worker_fd(w), .events = POLLIN };
	return p.fd >= 0 && poll(&p, 1, 10000) == 1;
}

static void test_open_reports_every_pid(void)
{
	struct gt_fleet_worker w;
	gt_fleet_worker_init(&w);
	CHECK(gt_fleet_worker_fd(&w) == -1);
	CHECK(!gt_fleet_worker_take(&w));
	pid_t pids[2] = { gone_pid(), 1 };
	CHECK(gt_fleet_worker_open(&w, pids, 2) == 0);
	/* one step at a time */
	CHECK(gt_fleet_worker_list(&w, NULL, 0, NULL, 0) == -1);
	CHECK(gt_fleet_worker_open(&w, pids, 1) == -1);
	CHECK(step_ends(&w));
	CHECK(gt_fleet_worker_take(&w));
	CHECK(w.step == GT_FLEET_OPEN);
	CHECK(w.n_opened == 2);
	for (size_t i = 0; i < w.n_opened && i < 2; i++) {
		CHECK(w.opened[i].pid == pids[i]);
		CHECK(w.opened[i].target == NULL);
		/* a reason, and not "withdrawn" */
		CHECK(w.opened[i].err.code != GT_EXIT_OK);
		CHECK(w.opened[i].err.msg[0] != '\0');
	}
	/* taken: nothing to wait on until the next step */
	CHECK(gt_fleet_worker_fd(&w) == -1);
	CHECK(!gt_fleet_worker_take(&w));
	gt_fleet_worker_free(&w);
}

/* The same worker lists after it opened; the pids it left out are known
 * to the holder, and a listing of only a gone pid finds nothing. */
static void test_list_after_open(void)
{
	struct gt_fleet_worker w;
	gt_fleet_worker_init(&w);
	pid_t gone = gone_pid(), init = 1;
	CHECK(gt_fleet_worker_open(&w, &init, 1) == 0);
	CHECK(step_ends(&w));
	CHECK(gt_fleet_worker_take(&w));
	pid_t skip[2] = { 4242, 17 };
	CHECK(gt_fleet_worker_list(&w, skip, 2, &gone, 1) == 0);
	CHECK(step_ends(&w));
	CHECK(gt_fleet_worker_take(&w));
	CHECK(w.step == GT_FLEET_LIST);
	CHECK(w.list.count == 0);
	CHECK(gt_fleet_worker_skipped(&w, 17));
	CHECK(gt_fleet_worker_skipped(&w, 4242));
	CHECK(!gt_fleet_worker_skipped(&w, gone));
	gt_fleet_worker_free(&w);
}

/* A worker ended with a step under way (or just asked for) returns. */
static void test_free_while_running(void)
{
	struct gt_fleet_worker w;
	gt_fleet_worker_init(&w);
	CHECK(gt_fleet_worker_list(&w, NULL, 0, NULL, 0) == 0);
	gt_fleet_worker_free(&w);
	CHECK(gt_fleet_worker_fd(&w) == -1);
	CHECK(!w.started);
}

/* ---- the open step's hand-over, with a fake open (open_target) ---- */

#define FAKE_OPENS 1001     /* this pid opens at once */
#define FAKE_HANG_MS 100    /* the others fail after this, as a hung runtime at its deadline */

static int fake_target;     /* what an open of FAKE_OPENS gives: never closed */
static atomic_int hung_calls;

static struct gt_target *fake_open(pid_t pid, struct gt_error *err)
{
	if (pid == FAKE_OPENS)
		return (struct gt_target *)&fake_target;
	atomic_fetch_add(&hung_calls, 1);
	struct timespec ts = { 0, FAKE_HANG_MS * 1000000L };
	nanosleep(&ts, NULL);
	gt_fail(err, GT_EXIT_TIMEOUT, "process %d did not answer", (int)pid);
	return NULL;
}

/* Takes the finished step; the fake targets are the test's, not closed. */
static void take_fake(struct gt_fleet_worker *w)
{
	CHECK(step_ends(w));
	CHECK(gt_fleet_worker_take(w));
	for (size_t i = 0; i < w->n_opened; i++)
		if (w->opened[i].target != (struct gt_target *)&fake_target)
			CHECK(w->opened[i].target == NULL);
}

static void forget_fake(struct gt_fleet_worker *w)
{
	for (size_t i = 0; i < w->n_opened; i++)
		w->opened[i].target = NULL;
}

static bool fake_has_stream(const struct gt_target *t)
{
	(void)t;
	return true;
}

static bool fake_no_stream(const struct gt_target *t)
{
	(void)t;
	return false;
}

/* A process that opens first is handed over before any open after it
 * starts (each of which could take a hung runtime's deadlines); the rest
 * come back untried, as withdrawn. Failures go on within the budget, and
 * none past it. */
static void test_open_hands_over(void)
{
	struct gt_fleet_worker w;
	gt_fleet_worker_init(&w);
	w.open_target = fake_open;
	w.hand_over = fake_has_stream;
	atomic_store(&hung_calls, 0);
	pid_t pids[4] = { FAKE_OPENS, 1002, 1003, 1004 };
	CHECK(gt_fleet_worker_open(&w, pids, 4) == 0);
	take_fake(&w);
	CHECK(w.n_opened == 4);
	CHECK(w.opened[0].target == (struct gt_target *)&fake_target);
	CHECK(atomic_load(&hung_calls) == 0);
	for (size_t i = 1; i < w.n_opened && i < 4; i++)
		CHECK(w.opened[i].target == NULL && w.opened[i].err.code == GT_EXIT_OK);
	forget_fake(&w);

	/* the rest, asked for again: failing, all tried within a budget
	 * (a minute here, so that a loaded machine's sleeps cannot spend it) */
	w.open_budget_ns = 60000000000ull;
	CHECK(gt_fleet_worker_open(&w, pids + 1, 3) == 0);
	take_fake(&w);
	CHECK(atomic_load(&hung_calls) == 3);
	for (size_t i = 0; i < w.n_opened && i < 3; i++)
		CHECK(w.opened[i].err.code == GT_EXIT_TIMEOUT);

	/* the budget spent by the first: no other is started */
	w.open_budget_ns = 0;
	atomic_store(&hung_calls, 0);
	CHECK(gt_fleet_worker_open(&w, pids + 1, 3) == 0);
	take_fake(&w);
	CHECK(atomic_load(&hung_calls) == 1);
	CHECK(w.n_opened == 3 && w.opened[0].err.code == GT_EXIT_TIMEOUT);
	CHECK(w.n_opened == 3 && w.opened[1].err.code == GT_EXIT_OK && w.opened[2].err.code == GT_EXIT_OK);

	/* a target read on the holder's clock alone (a JVM) does not end the
	 * step: the opens after it go on within the budget */
	w.hand_over = fake_no_stream;
	w.open_budget_ns = 60000000000ull;
	atomic_store(&hung_calls, 0);
	CHECK(gt_fleet_worker_open(&w, pids, 4) == 0);
	take_fake(&w);
	CHECK(w.n_opened == 4 && w.opened[0].target == (struct gt_target *)&fake_target);
	CHECK(atomic_load(&hung_calls) == 3);
	forget_fake(&w);
	gt_fleet_worker_free(&w);
}

/* An open step asks for the members never tried (or handed back untried)
 * before those whose retry has come: hung runtimes, each due again by the
 * time the others are tried, cannot hold off a process never tried. */
static void test_open_candidates_untried_first(void)
{
	/* pids no process has (above the kernel's PID_MAX_LIMIT), so that
	 * none reads as too young to open */
	struct gt_fleet_member m[5];
	memset(m, 0, sizeof(m));
	uint64_t now = 1000000000000ull;
	const pid_t base = 4194304 + 10;
	for (int i = 0; i < 5; i++) {
		m[i].pid = base + i;
		m[i].seen = true;
	}
	m[0].retry_ns = now - 1;          /* tried, its retry come */
	m[2].retry_ns = now + 1000000000; /* tried, its retry later */
	m[4].retry_ns = now - 1;
	struct gt_fleet f;
	memset(&f, 0, sizeof(f));
	f.m = m;
	f.count = 5;
	pid_t pids[5];
	CHECK_U64(gt_fleet_open_candidates(&f, now, pids, 5), 4);
	CHECK(pids[0] == base + 1 && pids[1] == base + 3 && pids[2] == base + 0 && pids[3] == base + 4);
	CHECK_U64(gt_fleet_open_candidates(&f, now, pids, 2), 2);
	CHECK(pids[0] == base + 1 && pids[1] == base + 3);
}

int main(void)
{
	RUN_TEST(test_open_reports_every_pid);
	RUN_TEST(test_list_after_open);
	RUN_TEST(test_free_while_running);
	RUN_TEST(test_open_hands_over);
	RUN_TEST(test_open_candidates_untried_first);
	return check_summary();
}
