/* gt_proc_* on the test's own process and on children it forks. */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collectors/host/proc.h"
#include "tests/unit/check.h"

#define CHILD_TOUCH_BYTES (64u << 20)

/* A child that, on each byte read from its pipe, touches CHILD_TOUCH_BYTES
 * more memory and answers with one byte; it exits when the pipe closes. */
struct child {
	pid_t pid;
	int to_child, from_child;
};

static int child_start(struct child *c)
{
	int down[2], up[2];
	if (pipe(down) != 0)
		return -1;
	if (pipe(up) != 0) {
		close(down[0]);
		close(down[1]);
		return -1;
	}
	fflush(stdout); /* or the child's exit would print our buffered lines again */
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		close(down[1]);
		close(up[0]);
		char cmd;
		while (read(down[0], &cmd, 1) == 1) {
			char *mem = malloc(CHILD_TOUCH_BYTES);
			if (mem)
				memset(mem, 0x5a, CHILD_TOUCH_BYTES);
			char ack = mem ? 'y' : 'n';
			if (write(up[1], &ack, 1) != 1)
				break;
		}
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	c->to_child = down[1];
	c->from_child = up[0];
	return 0;
}

static int child_touch(struct child *c)
{
	char cmd = 't', ack = 0;
	if (write(c->to_child, &cmd, 1) != 1 || read(c->from_child, &ack, 1) != 1)
		return -1;
	return ack == 'y' ? 0 : -1;
}

/* Closes the pipe so the child exits, and waits until it is a zombie
 * (not yet reaped) so the caller can look at it in that state. */
static void child_end_unreaped(struct child *c)
{
	char ack;
	close(c->to_child);
	/* EOF on our read end means the child has exited (closed its end). */
	while (read(c->from_child, &ack, 1) > 0)
		;
	close(c->from_child);
	siginfo_t si;
	waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOWAIT);
}

static void test_check_mounted(void)
{
	struct gt_error err = { 0 };
	CHECK(gt_proc_check_mounted(&err) == 0);
}

static void test_self_sample(void)
{
	struct gt_error err = { 0 };
	struct gt_proc *p = gt_proc_open(getpid(), &err);
	CHECK(p != NULL);
	if (!p)
		return;
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	CHECK(gt_proc_sample(p, &s) == 0);
	CHECK(s.rss_bytes.valid);
	CHECK(s.rss_bytes.value >= 4096);
	CHECK(s.rss_anon_bytes.valid && s.rss_file_bytes.valid && s.swap_bytes.valid);
	CHECK(s.rss_anon_bytes.value + s.rss_file_bytes.value <= s.rss_bytes.value);
	CHECK(s.threads.valid);
	CHECK_U64(s.threads.value, 1);
	CHECK(s.cpu_ticks.valid);
	CHECK(s.cpu_hz.valid);
	CHECK_U64(s.cpu_hz.value, (unsigned long long)sysconf(_SC_CLK_TCK));
	/* Burning CPU makes the tick count move; bounded so a slow machine
	 * only makes the loop end, never the test hang. */
	uint64_t before = s.cpu_ticks.value;
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	volatile unsigned long spin = 0;
	do {
		for (int i = 0; i < 100000; i++)
			spin++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 50000000L);
	memset(&s, 0, sizeof(s));
	CHECK(gt_proc_sample(p, &s) == 0);
	CHECK(s.cpu_ticks.valid && s.cpu_ticks.value > before);
	gt_proc_close(p);
}

static void test_self_info(void)
{
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	gt_proc_fill_info(getpid(), &info);
	struct passwd *pw = getpwuid(geteuid());
	CHECK(pw != NULL);
	if (pw)
		CHECK_STR(info.user, pw->pw_name);
	CHECK(strstr(info.command_line, program_invocation_short_name) != NULL);
	CHECK(info.start_time_ms.valid);
	/* Started within the last ten minutes, not in the future (btime is
	 * whole seconds, hence the one-second slack). */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	uint64_t now_ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
	CHECK(info.start_time_ms.value <= now_ms + 1000);
	CHECK(info.start_time_ms.value + 600000 > now_ms);
	CHECK_U64(info.nspid, getpid());
}

static void test_self_helpers(void)
{
	pid_t nspid = 0;
	CHECK(gt_proc_exists(getpid()) == 1);
	CHECK(gt_proc_exists(0) == 0);
	CHECK(gt_proc_exists(-5) == 0);
	CHECK(gt_proc_nspid(getpid(), &nspid) == 0);
	CHECK_U64(nspid, getpid());
	CHECK(gt_proc_same_mount_ns(getpid()) == 1);
	uint64_t a = 0, b = 0;
	CHECK(gt_proc_start_time_ms(getpid(), &a) == 0);
	CHECK(gt_proc_start_time_ms(getpid(), &b) == 0);
	CHECK(a != 0 && a == b); /* stable: PID-reuse checks compare it */
}

static void test_child_rss_grows(void)
{
	struct child c = { .pid = -1, .to_child = -1, .from_child = -1 };
	int started = child_start(&c);
	CHECK(started == 0);
	if (started != 0 || c.pid <= 0)
		return;
	struct gt_error err = { 0 };
	struct gt_proc *p = gt_proc_open(c.pid, &err);
	CHECK(p != NULL);
	struct gt_sample before, after;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	if (p)
		CHECK(gt_proc_sample(p, &before) == 0);
	CHECK(child_touch(&c) == 0);
	if (p) {
		CHECK(gt_proc_sample(p, &after) == 0);
		CHECK(before.rss_bytes.valid && after.rss_bytes.valid);
		/* Touched pages are resident; allow a quarter for the allocator. */
		CHECK(after.rss_bytes.value >= before.rss_bytes.value + CHILD_TOUCH_BYTES * 3 / 4);
		CHECK(after.rss_anon_bytes.value >= before.rss_anon_bytes.value + CHILD_TOUCH_BYTES * 3 / 4);
	}

	uint64_t parent_start = 0;
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	gt_proc_fill_info(c.pid, &info);
	CHECK(gt_proc_start_time_ms(getpid(), &parent_start) == 0);
	CHECK(info.start_time_ms.valid && info.start_time_ms.value >= parent_start);
	CHECK_U64(info.nspid, c.pid);

	child_end_unreaped(&c);
	if (p) {
		/* A zombie is gone for gctop's purposes. */
		memset(&after, 0, sizeof(after));
		CHECK(gt_proc_sample(p, &after) == 1);
		CHECK(!after.rss_bytes.valid);
	}
	CHECK(waitpid(c.pid, NULL, 0) == c.pid);
	if (p) {
		CHECK(gt_proc_sample(p, &after) == 1);
		gt_proc_close(p);
	}
}

static void test_exited_child(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	CHECK(pid > 0);
	if (pid <= 0)
		return;
	CHECK(waitpid(pid, NULL, 0) == pid);
	CHECK(gt_proc_exists(pid) == 0);
	struct gt_error err = { 0 };
	struct gt_proc *p = gt_proc_open(pid, &err);
	CHECK(p == NULL);
	CHECK(err.code == GT_EXIT_NO_PROCESS);
	CHECK(strstr(err.msg, "no process") != NULL);
	pid_t nspid;
	uint64_t ms;
	CHECK(gt_proc_nspid(pid, &nspid) == -1);
	CHECK(gt_proc_start_time_ms(pid, &ms) == -1);
	CHECK(gt_proc_same_mount_ns(pid) == -1);
	/* Nothing to fill: the fields stay as they were. */
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	gt_proc_fill_info(pid, &info);
	CHECK(!info.start_time_ms.valid);
	CHECK(info.user[0] == '\0' && info.command_line[0] == '\0');
}

static void test_parse_stat(void)
{
	struct gt_proc_stat st;
	memset(&st, 0, sizeof(st));
	/* a command name with spaces and ')' in it: the fields after the last ')' */
	const char *text = "4242 (a) b) (c) S 1 4242 4242 0 -1 4194560 900 0 3 0 "
			   "150 27 0 0 20 0 19 0 88812 3210000 4000 18446744073709551615\n";
	CHECK(gt_proc_parse_stat(text, &st) == 0);
	CHECK(st.state == 'S');
	CHECK_U64(st.utime, 150);
	CHECK_U64(st.stime, 27);
	CHECK_U64(st.threads, 19);
	CHECK_U64(st.start_ticks, 88812);
	CHECK(gt_proc_parse_stat("4242 (cut) S 1 4242 4242 0 -1 4194560 900 0 3 0 150", &st) == -1);
	CHECK(gt_proc_parse_stat("4242 no parenthesis S 1 2 3", &st) == -1);
	CHECK(gt_proc_parse_stat("4242 (x)", &st) == -1);
	CHECK(gt_proc_parse_stat("4242 (x) S 1 2 3 4 5 6 7 8 9 10 x 12", &st) == -1);
}

static void test_parse_status(void)
{
	struct gt_proc_status m;
	gt_proc_parse_status("Name:\tjava\nVmPeak:\t 9 kB\nVmRSS:\t   51200 kB\nRssAnon:\t   30000 kB\n"
			     "RssFile:\t   21000 kB\nRssShmem:\t 200 kB\nVmSwap:\t  12 kB\nThreads:\t19\n", &m);
	CHECK_U64(m.rss_kib, 51200);
	CHECK_U64(m.anon_kib, 30000);
	CHECK_U64(m.file_kib, 21000);
	CHECK_U64(m.swap_kib, 12);
	/* a kernel thread has no memory lines: 0, as libproc2 gave them */
	gt_proc_parse_status("Name:\tkthreadd\nState:\tS (sleeping)\nThreads:\t1\n", &m);
	CHECK(m.rss_kib == 0 && m.anon_kib == 0 && m.file_kib == 0 && m.swap_kib == 0);
	/* a key is matched at the start of a line only */
	gt_proc_parse_status("Name:\tVmRSS: 5\nVmRSS:\t7 kB\n", &m);
	CHECK_U64(m.rss_kib, 7);
}

/* /proc/PID/timens_offsets is another namespace's text: its monotonic
 * line by name or id, negative seconds, and nothing else taken. */
static void test_timens_parse(void)
{
	int64_t ns = 7;
	CHECK(gt_proc_parse_timens_monotonic("monotonic           0         0\nboottime            0         0\n", &ns) == 0);
	CHECK(ns == 0);
	CHECK(gt_proc_parse_timens_monotonic("boottime 5 0\nmonotonic  -3  250000000\n", &ns) == 0);
	CHECK(ns == -2750000000ll);
	CHECK(gt_proc_parse_timens_monotonic("1 86400 1", &ns) == 0 && ns == 86400000000001ll);
	CHECK(gt_proc_parse_timens_monotonic("", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("boottime 5 0\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonicx 5 0\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 5\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 5 1000000000\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 5 -1\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 5 0 9\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 99999999999999999999 0\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 9223372036 0\n", &ns) == -1);
	CHECK(gt_proc_parse_timens_monotonic("monotonic 0x10 0\n", &ns) == -1);
	/* ourselves against ourselves */
	CHECK(gt_proc_monotonic_offset(getpid(), &ns) == 0 && ns == 0);
}

int main(void)
{
	RUN_TEST(test_parse_stat);
	RUN_TEST(test_parse_status);
	RUN_TEST(test_check_mounted);
	RUN_TEST(test_self_sample);
	RUN_TEST(test_self_info);
	RUN_TEST(test_self_helpers);
	RUN_TEST(test_child_rss_grows);
	RUN_TEST(test_exited_child);
	RUN_TEST(test_timens_parse);
	return check_summary();
}
