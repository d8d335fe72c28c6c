/* The quit flag's signals (base/quit.h): a mask inherited blocked does not
 * hold them off, and with a grace set a quit signal ends a process that
 * cannot act on the flag (the screen blocked in a write to a terminal
 * nobody reads) by the signal's default action, once the grace is over;
 * a grace ended in time ends nothing. Each case runs in a child. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "tests/unit/check.h"

/* Runs fn in a child; its wait status, *ms the child's lifetime. */
static int in_child(void (*fn)(void), uint64_t *ms)
{
	uint64_t t0 = gt_mono_ns();
	pid_t child = fork();
	if (child == 0) {
		fn();
		_exit(0);
	}
	int st = 0;
	CHECK(child > 0 && waitpid(child, &st, 0) == child);
	*ms = (gt_mono_ns() - t0) / 1000000u;
	return st;
}

/* SIGTERM blocked by the parent: gt_quit_install lets it in. */
static void blocked_then_installed(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	gt_quit_install();
	raise(SIGTERM);
	_exit(gt_quit_signal == SIGTERM ? 0 : 1);
}

static void test_inherited_block_lifted(void)
{
	uint64_t ms;
	int st = in_child(blocked_then_installed, &ms);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A quit signal, then a process that never looks at the flag again. */
static void stuck_after_quit(void)
{
	gt_quit_install();
	gt_quit_set_grace(1);
	raise(SIGTERM);
	if (gt_quit_signal != SIGTERM)
		_exit(1);
	for (int i = 0; i < 5; i++)
		sleep(1);
	_exit(2);
}

static void test_grace_ends_a_stuck_process(void)
{
	uint64_t ms;
	int st = in_child(stuck_after_quit, &ms);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	/* the alarm's second: not before it, and well before the 5 s */
	CHECK(ms >= 900 && ms < 4000);
}

/* The way out done within the grace: no alarm after it. */
static void done_in_time(void)
{
	gt_quit_install();
	gt_quit_set_grace(1);
	raise(SIGHUP);
	gt_quit_set_grace(0);
	sleep(2);
	_exit(gt_quit_signal == SIGHUP ? 0 : 1);
}

static void test_grace_ended_in_time(void)
{
	uint64_t ms;
	int st = in_child(done_in_time, &ms);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* No grace (every front end but the screen): the flag alone. */
static void no_grace(void)
{
	gt_quit_install();
	raise(SIGINT);
	sleep(2);
	_exit(gt_quit_signal == SIGINT ? 0 : 1);
}

static void test_no_grace_no_alarm(void)
{
	uint64_t ms;
	int st = in_child(no_grace, &ms);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	RUN_TEST(test_inherited_block_lifted);
	RUN_TEST(test_grace_ends_a_stuck_process);
	RUN_TEST(test_grace_ended_in_time);
	RUN_TEST(test_no_grace_no_alarm);
	return check_summary();
}
