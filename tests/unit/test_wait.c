/* Bounded waits (base/wait.h): one deadline for a whole exchange however
 * the peer dribbles, and a quit request ends any wait at once. */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "base/wait.h"
#include "tests/unit/check.h"

static int sv[2];

static void pair(void)
{
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == 0);
}

static void unpair(void)
{
	close(sv[0]);
	close(sv[1]);
}

static uint64_t ms_since(uint64_t t0)
{
	return (gt_mono_ns() - t0) / 1000000u;
}

static void test_read_and_closed(void)
{
	pair();
	char buf[8];
	CHECK(write(sv[1], "abcdef", 6) == 6);
	CHECK(gt_wait_read_all(sv[0], buf, 6, gt_wait_deadline_in_ms(1000)) == GT_WAIT_READY);
	CHECK(memcmp(buf, "abcdef", 6) == 0);
	CHECK(gt_wait_write_all(sv[0], "xy", 2, gt_wait_deadline_in_ms(1000)) == GT_WAIT_READY);
	close(sv[1]);
	CHECK(gt_wait_read_all(sv[0], buf, 1, gt_wait_deadline_in_ms(1000)) == GT_WAIT_CLOSED);
	close(sv[0]);
}

static void test_silent_peer_times_out(void)
{
	pair();
	char buf[4];
	uint64_t t0 = gt_mono_ns();
	CHECK(gt_wait_read_all(sv[0], buf, sizeof(buf), gt_wait_deadline_in_ms(150)) == GT_WAIT_TIMEOUT);
	CHECK(ms_since(t0) >= 150);
	unpair();
}

/* A child writes one byte every 20 ms, 100 bytes in all (2 s): a deadline
 * of 200 ms for the whole read ends it after about ten bytes. */
static void test_dribbling_peer_gets_one_deadline(void)
{
	pair();
	pid_t child = fork();
	if (child == 0) {
		for (int i = 0; i < 100; i++) {
			if (write(sv[1], "x", 1) != 1)
				_exit(0);
			usleep(20000);
		}
		_exit(0);
	}
	char buf[100];
	uint64_t t0 = gt_mono_ns();
	CHECK(gt_wait_read_all(sv[0], buf, sizeof(buf), gt_wait_deadline_in_ms(200)) == GT_WAIT_TIMEOUT);
	uint64_t took = ms_since(t0);
	CHECK(took >= 200 && took < 1500);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	unpair();
}

static void test_quit_ends_waits(void)
{
	pair();
	char buf[4];
	gt_quit_signal = SIGTERM;
	uint64_t t0 = gt_mono_ns();
	CHECK(gt_wait_read_all(sv[0], buf, sizeof(buf), gt_wait_deadline_in_ms(5000)) == GT_WAIT_QUIT);
	CHECK(gt_wait_sleep(gt_wait_deadline_in_ms(5000)) == GT_WAIT_QUIT);
	CHECK(ms_since(t0) < 1000);
	struct gt_error err = { 0 };
	CHECK(gt_wait_interrupted(&err) == -1 && err.code == GT_EXIT_OK);
	gt_quit_signal = 0;
	unpair();
}

/* A quit signal that arrives during the wait ends it (the handler sets the
 * flag; ppoll lets the signal in). */
static void test_signal_during_wait(void)
{
	gt_quit_install();
	pid_t me = getpid();
	pid_t child = fork();
	if (child == 0) {
		usleep(100000);
		kill(me, SIGINT);
		_exit(0);
	}
	uint64_t t0 = gt_mono_ns();
	CHECK(gt_wait_sleep(gt_wait_deadline_in_ms(5000)) == GT_WAIT_QUIT);
	CHECK(ms_since(t0) < 2000);
	CHECK(gt_quit_signal == SIGINT);
	waitpid(child, NULL, 0);
	gt_quit_signal = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

static void test_no_deadline_poll(void)
{
	pair();
	CHECK(write(sv[1], "z", 1) == 1);
	struct pollfd p = { .fd = sv[0], .events = POLLIN };
	CHECK(gt_wait_poll(&p, 1, GT_WAIT_NEVER) == 1);
	unpair();
}

/* A retry tries again until its deadline, never gives up before it, and
 * its last try comes at the deadline rather than one step short. */
static void test_retry_until_deadline(void)
{
	struct gt_retry r;
	struct gt_error err = { 0 };
	uint64_t t0 = gt_mono_ns();
	gt_retry_start(&r, 200, 50);
	int tries = 1, again;
	while ((again = gt_retry_again(&r, &err)) > 0)
		tries++;
	CHECK(again == 0);
	CHECK(ms_since(t0) >= 200);
	CHECK(tries >= 2 && tries <= 5);
	CHECK(err.code == 0 && err.msg[0] == '\0');
	/* no time at all: no sleep, no second try */
	gt_retry_start(&r, 0, 50);
	CHECK(gt_retry_wait(&r) == GT_WAIT_TIMEOUT);
}

static void test_retry_backs_off(void)
{
	struct gt_retry r;
	gt_retry_start(&r, 5000, 1);
	CHECK(gt_retry_wait(&r) == GT_WAIT_READY);
	CHECK_U64(r.step_ms, 1); /* a fixed step stays */
	r.step_add_ms = 2;
	r.step_max_ms = 4;
	CHECK(gt_retry_wait(&r) == GT_WAIT_READY);
	CHECK_U64(r.step_ms, 3);
	CHECK(gt_retry_wait(&r) == GT_WAIT_READY);
	CHECK_U64(r.step_ms, 4);
	CHECK(gt_retry_wait(&r) == GT_WAIT_READY);
	CHECK_U64(r.step_ms, 4);
}

static void test_retry_honours_quit(void)
{
	struct gt_retry r;
	struct gt_error err = { 0 };
	gt_retry_start(&r, 5000, 1000);
	gt_quit_signal = SIGTERM;
	uint64_t t0 = gt_mono_ns();
	CHECK(gt_retry_again(&r, &err) == -1);
	CHECK(err.code == GT_EXIT_OK && strcmp(err.msg, "interrupted") == 0);
	CHECK(ms_since(t0) < 1000);
	gt_quit_signal = 0;
}

int main(void)
{
	RUN_TEST(test_read_and_closed);
	RUN_TEST(test_silent_peer_times_out);
	RUN_TEST(test_dribbling_peer_gets_one_deadline);
	RUN_TEST(test_quit_ends_waits);
	RUN_TEST(test_signal_during_wait);
	RUN_TEST(test_no_deadline_poll);
	RUN_TEST(test_retry_until_deadline);
	RUN_TEST(test_retry_backs_off);
	RUN_TEST(test_retry_honours_quit);
	return check_summary();
}
