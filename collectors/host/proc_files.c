/* Kept /proc/PID/stat and status descriptors (proc_files.h).
 *
 * Why: gctop --serve samples every watched process every second. Opening,
 * reading and closing both files took 15.4-16.0 us a process; a pread of
 * the same files kept open, 6.5-6.9 us (2026-12-01, the 2-core machine of
 * the README's performance section): with 220 processes, the largest part
 * of what --serve's sampling cost (bench/README.md, 1f).
 *
 * Why it is safe: a descriptor of a /proc/PID file holds the process it was
 * opened on, not its number. Once that process is gone (reaped), a read
 * fails (ESRCH) even if the number names another process by then, so a kept
 * descriptor never reads another process's file. Both files are opened
 * from one descriptor of /proc/PID, so they belong to the same process; the
 * caller compares stat's start time with the one it saw at open, which
 * tells a number reused before the first open (gt_proc_sample). A
 * descriptor that fails is closed at once and the file read by path, as
 * without one, so an exit is seen as before.
 *
 * The budget: two descriptors a process count against RLIMIT_NOFILE (1024
 * by default for the soft limit). The first use raises the soft limit to
 * the hard one, and keeps at most half the soft limit for these files; the
 * other half stays for the .NET sessions' sockets, the perf-data files, the
 * HTTP connections. Past the budget, or when an open fails, a file is read
 * by path, as before. */
#include "collectors/host/proc_files.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* Descriptors a process keeps: stat and status. */
#define FILES_PER_PROCESS 2
/* Far more processes than one host runs; bounds a limit given as infinite. */
#define BUDGET_CAP ((size_t)1 << 20)

static pthread_once_t budget_once = PTHREAD_ONCE_INIT;
static atomic_size_t budget_max;
static atomic_size_t budget_kept;

static void budget_init(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return; /* budget 0: every read by path */
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit raised = { rl.rlim_max, rl.rlim_max };
		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			rl.rlim_cur = rl.rlim_max;
	}
	size_t half = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur / 2 > BUDGET_CAP ? BUDGET_CAP : (size_t)(rl.rlim_cur / 2);
	atomic_store(&budget_max, half);
}

static bool budget_take(size_t n)
{
	pthread_once(&budget_once, budget_init);
	size_t kept = atomic_load(&budget_kept);
	do {
		if (kept + n > atomic_load(&budget_max))
			return false;
	} while (!atomic_compare_exchange_weak(&budget_kept, &kept, kept + n));
	return true;
}

static void budget_give(size_t n)
{
	atomic_fetch_sub(&budget_kept, n);
}

size_t gt_proc_files_budget(void)
{
	pthread_once(&budget_once, budget_init);
	return atomic_load(&budget_max);
}

size_t gt_proc_files_kept(void)
{
	return atomic_load(&budget_kept);
}

void gt_proc_files_set_budget(size_t max)
{
	pthread_once(&budget_once, budget_init);
	atomic_store(&budget_max, max);
}

void gt_proc_files_init(struct gt_proc_files *f)
{
	f->stat_fd = -1;
	f->status_fd = -1;
	f->read_before = false;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void gt_proc_files_close(struct gt_proc_files *f)
{
	if (f->stat_fd < 0)
		return;
	close_fd(&f->stat_fd);
	close_fd(&f->status_fd);
	budget_give(FILES_PER_PROCESS);
}

/* Opens both files from one descriptor of /proc/PID (so both are the same
 * process's), or neither. */
static void open_kept(struct gt_proc_files *f, pid_t pid)
{
	if (!budget_take(FILES_PER_PROCESS))
		return;
	char path[32];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	int dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir >= 0) {
		f->stat_fd = openat(dir, "stat", O_RDONLY | O_CLOEXEC);
		f->status_fd = openat(dir, "status", O_RDONLY | O_CLOEXEC);
		close(dir);
	}
	if (f->stat_fd < 0 || f->status_fd < 0) {
		close_fd(&f->stat_fd);
		close_fd(&f->status_fd);
		budget_give(FILES_PER_PROCESS);
	}
}

/* The file's whole text from its start, NUL-terminated and cut at cap - 1
 * bytes: its length, or -1. A read shorter than asked is the whole file:
 * the kernel writes a /proc/PID file whole and a read takes all of it that
 * fits, while a pread at any other offset than 0 writes it all again to
 * find its place (a second do_task_stat for nothing: half the cost). */
static long pread_text(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	while (len + 1 < cap) {
		size_t want = cap - 1 - len;
		ssize_t n = pread(fd, buf + len, want, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		len += (size_t)n;
		if ((size_t)n < want)
			break;
	}
	buf[len] = '\0';
	return (long)len;
}

/* Reads through the kept descriptor *fd into text: 1 read, 0 when there
 * is no kept descriptor, -1 when it failed (its process is gone; both are
 * closed). */
static int read_kept(struct gt_proc_files *f, const int *fd, char *text, size_t cap)
{
	if (*fd < 0)
		return 0;
	if (pread_text(*fd, text, cap) > 0)
		return 1;
	gt_proc_files_close(f);
	return -1;
}

int gt_proc_files_stat(struct gt_proc_files *f, pid_t pid, struct gt_proc_stat *out)
{
	char text[GT_PROC_STAT_TEXT];
	if (f->stat_fd < 0 && f->read_before)
		open_kept(f, pid);
	f->read_before = true;
	if (read_kept(f, &f->stat_fd, text, sizeof(text)) == 1)
		return gt_proc_parse_stat(text, out);
	/* By path: the number may name another process by now, which the
	 * caller's start time tells (as without kept descriptors). */
	return gt_proc_read_stat(pid, out);
}

int gt_proc_files_status(struct gt_proc_files *f, pid_t pid, struct gt_proc_status *out)
{
	char text[GT_PROC_STATUS_TEXT];
	int kept = read_kept(f, &f->status_fd, text, sizeof(text));
	if (kept == 1) {
		gt_proc_parse_status(text, out);
		return 0;
	}
	/* A kept descriptor that failed: the process whose stat was just
	 * read is gone, and a path would read whichever has its number now. */
	return kept < 0 ? -1 : gt_proc_read_status(pid, out);
}
