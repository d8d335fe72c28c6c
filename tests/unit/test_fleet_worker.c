/* The fleet's worker (session/fleet_worker.h): one step at a time, its
 * end said on the descriptor, its result taken without blocking, and a
 * second step refused while one runs. No runtime is needed: the pids
 * asked for are one that has gone and init, which is none. */
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/target.h"
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

int main(void)
{
	RUN_TEST(test_open_reports_every_pid);
	RUN_TEST(test_list_after_open);
	RUN_TEST(test_free_while_running);
	return check_summary();
}
