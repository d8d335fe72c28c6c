/* gt_proc_files_*: kept /proc/PID/stat and status descriptors, on children
 * the test forks: kept from the second read, dropped when their process is
 * gone, never read by path for a number that may name another process, and
 * within the descriptor budget. */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/host/proc.h"
#include "collectors/host/proc_files.h"
#include "tests/unit/check.h"

/* A child that waits until its pipe closes: *fd is the write end. */
static pid_t child_start(int *fd)
{
	int p[2];
	if (pipe(p) != 0)
		return -1;
	fflush(stdout); /* or the child's exit would print our buffered lines again */
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		while (read(p[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	*fd = p[1];
	return pid;
}

/* Ends and reaps the child: its number is free for another process. */
static void child_reap(pid_t pid, int fd)
{
	close(fd);
	waitpid(pid, NULL, 0);
}

/* A test's child, the descriptors kept before it, and its files. */
struct fixture {
	pid_t pid;
	int fd;
	size_t kept0;
	struct gt_proc_files f;
};

static bool fixture_start(struct fixture *x)
{
	x->pid = child_start(&x->fd);
	CHECK(x->pid > 0);
	x->kept0 = gt_proc_files_kept();
	gt_proc_files_init(&x->f);
	return x->pid > 0;
}

static void test_kept_from_second_read(void)
{
	struct fixture x;
	if (!fixture_start(&x))
		return;
	struct gt_proc_stat by_path, first, second;
	struct gt_proc_status mem;
	CHECK(gt_proc_read_stat(x.pid, &by_path) == 0);
	CHECK(gt_proc_files_stat(&x.f, x.pid, &first) == 0);
	CHECK(x.f.stat_fd < 0 && x.f.status_fd < 0);     /* read once: by path */
	CHECK(gt_proc_files_stat(&x.f, x.pid, &second) == 0);
	CHECK(x.f.stat_fd >= 0 && x.f.status_fd >= 0);
	CHECK_U64(gt_proc_files_kept(), x.kept0 + 2);
	/* the kept descriptor reads the same process, again and again */
	CHECK_U64(second.start_ticks, by_path.start_ticks);
	CHECK_U64(first.start_ticks, by_path.start_ticks);
	CHECK(second.state == 'S' || second.state == 'R');
	CHECK(gt_proc_files_stat(&x.f, x.pid, &second) == 0);
	CHECK_U64(second.start_ticks, by_path.start_ticks);
	memset(&mem, 0, sizeof(mem));
	CHECK(gt_proc_files_status(&x.f, x.pid, &mem) == 0);
	CHECK(mem.rss_kib > 0);
	gt_proc_files_close(&x.f);
	CHECK(x.f.stat_fd < 0 && x.f.status_fd < 0);
	CHECK_U64(gt_proc_files_kept(), x.kept0);
	child_reap(x.pid, x.fd);
}

/* A reaped child's kept descriptors read nothing; they are closed, and
 * status is not read by path: pid stands for a number that names another
 * process now (our own, here), whose file must not pass for the child's. */
static void test_gone_not_read_by_path(void)
{
	struct fixture x;
	if (!fixture_start(&x))
		return;
	struct gt_proc_stat st, child;
	struct gt_proc_status mem;
	CHECK(gt_proc_files_stat(&x.f, x.pid, &child) == 0);
	CHECK(gt_proc_files_stat(&x.f, x.pid, &child) == 0);
	CHECK(x.f.stat_fd >= 0);
	child_reap(x.pid, x.fd);
	int stat_fd = x.f.stat_fd;
	char buf[64];
	errno = 0;
	CHECK(pread(stat_fd, buf, sizeof(buf), 0) < 0 && errno == ESRCH); /* what the module counts on */

	CHECK(gt_proc_files_status(&x.f, getpid(), &mem) == -1);
	CHECK(x.f.stat_fd < 0 && x.f.status_fd < 0);
	CHECK_U64(gt_proc_files_kept(), x.kept0);

	/* stat, with no kept descriptor left, is read by path: what the number
	 * names now, whose start time tells it from the child */
	CHECK(gt_proc_files_stat(&x.f, getpid(), &st) == 0);
	struct gt_proc_stat self;
	CHECK(gt_proc_read_stat(getpid(), &self) == 0);
	CHECK_U64(st.start_ticks, self.start_ticks);
	gt_proc_files_close(&x.f);
}

/* The same through a sample: a zombie and a reaped child are exits, and the
 * session's descriptors go with the gt_proc. */
static void test_sample_sees_exit(void)
{
	struct fixture x;
	if (!fixture_start(&x))
		return;
	struct gt_error err = { 0 };
	struct gt_proc *p = gt_proc_open(x.pid, &err);
	CHECK(p != NULL);
	if (!p) {
		child_reap(x.pid, x.fd);
		return;
	}
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	CHECK(gt_proc_sample(p, &s) == 0);
	CHECK(gt_proc_sample(p, &s) == 0);
	CHECK(s.rss_bytes.valid && s.threads.valid);
	CHECK_U64(gt_proc_files_kept(), x.kept0 + 2);
	close(x.fd);
	siginfo_t si;
	CHECK(waitid(P_PID, (id_t)x.pid, &si, WEXITED | WNOWAIT) == 0);
	CHECK(gt_proc_sample(p, &s) == 1); /* a zombie, read through the kept descriptor */
	CHECK(waitpid(x.pid, NULL, 0) == x.pid);
	CHECK(gt_proc_sample(p, &s) == 1); /* reaped */
	gt_proc_close(p);
	CHECK_U64(gt_proc_files_kept(), x.kept0);
}

/* Past the budget a process's files are read by path, as without kept
 * descriptors; a closed one gives its room back. */
static void test_budget(void)
{
	struct rlimit rl;
	size_t budget = gt_proc_files_budget();
	CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	CHECK(rl.rlim_cur == rl.rlim_max); /* raised to the hard limit */
	/* half the limit, bounded at 2^20 (a limit given as infinite) */
	CHECK(budget == rl.rlim_cur / 2 || (budget == ((size_t)1 << 20) && rl.rlim_cur / 2 > budget));
	int fd1, fd2;
	pid_t a = child_start(&fd1), b = child_start(&fd2);
	CHECK(a > 0 && b > 0);
	if (a <= 0 || b <= 0)
		return;
	struct gt_proc_files fa, fb;
	gt_proc_files_init(&fa);
	gt_proc_files_init(&fb);
	struct gt_proc_stat st;
	gt_proc_files_set_budget(gt_proc_files_kept() + 2);
	for (int i = 0; i < 3; i++) {
		CHECK(gt_proc_files_stat(&fa, a, &st) == 0);
		CHECK(gt_proc_files_stat(&fb, b, &st) == 0);
	}
	CHECK(fa.stat_fd >= 0);
	CHECK(fb.stat_fd < 0);   /* no room: by path */
	struct gt_proc_status mem;
	memset(&mem, 0, sizeof(mem));
	CHECK(gt_proc_files_status(&fb, b, &mem) == 0 && mem.rss_kib > 0);
	gt_proc_files_close(&fa);
	CHECK(gt_proc_files_stat(&fb, b, &st) == 0);
	CHECK(fb.stat_fd >= 0);  /* the room fa gave back */
	gt_proc_files_close(&fb);
	gt_proc_files_set_budget(0);
	gt_proc_files_init(&fa);
	CHECK(gt_proc_files_stat(&fa, a, &st) == 0 && gt_proc_files_stat(&fa, a, &st) == 0);
	CHECK(fa.stat_fd < 0);
	gt_proc_files_set_budget(budget);
	/* b holds a copy of a's pipe (it was forked after a): b goes first */
	child_reap(b, fd2);
	child_reap(a, fd1);
}

int main(void)
{
	RUN_TEST(test_kept_from_second_read);
	RUN_TEST(test_gone_not_read_by_path);
	RUN_TEST(test_sample_sees_exit);
	RUN_TEST(test_budget);
	return check_summary();
}
