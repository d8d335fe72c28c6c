/* gctop --serve's seccomp filter (frontends/serve_seccomp.c), installed in
 * a child process: execve, execveat and ptrace fail with EPERM, in a thread
 * started after it too; what --serve does (files, sockets, threads,
 * signals) still works; the kernel shows the filter (Seccomp: 2); and it
 * is refused while a second thread runs (which it would not hold).
 * tests/integration/serve_web_config.sh checks a running gctop --serve. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "frontends/serve_seccomp.h"
#include "tests/unit/check.h"

/* The child's findings, one bit each, as its exit status. */
enum {
	F_INSTALLED = 1, F_EXEC_DENIED = 2, F_EXECAT_DENIED = 4, F_PTRACE_DENIED = 8,
	F_THREAD_EXEC_DENIED = 16, F_STILL_WORKS = 32, F_STATUS_SHOWS = 64,
};
#define F_ALL 127

static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;

static bool exec_denied(void)
{
	char *argv[] = { "/bin/true", NULL };
	char *envp[] = { NULL };
	errno = 0;
	return execve("/bin/true", argv, envp) == -1 && errno == EPERM;
}

/* A thread started after the filter. */
static void *later_thread(void *arg)
{
	(void)arg;
	return exec_denied() ? (void *)1 : NULL;
}

/* A thread that waits to be told to end. */
static void *waiting_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&go_lock);
	while (!go)
		pthread_cond_wait(&go_cond, &go_lock);
	pthread_mutex_unlock(&go_lock);
	return NULL;
}

static bool status_shows_filter(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	bool shows = false;
	while (f && fgets(line, sizeof(line), f))
		shows |= !strcmp(line, "Seccomp:\t2\n");
	if (f)
		fclose(f);
	return shows;
}

static bool still_works(void)
{
	int sv[2];
	char b = 'x';
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && write(sv[0], &b, 1) == 1 &&
		  read(sv[1], &b, 1) == 1 && kill(getpid(), 0) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static int child(void)
{
	pthread_t t;
	int found = 0;
	struct gt_error err;
	/* refused with a second thread running */
	if (pthread_create(&t, NULL, waiting_thread, NULL) != 0)
		return 0;
	bool refused = gt_serve_forbid_exec(&err) != 0;
	pthread_mutex_lock(&go_lock);
	go = 1;
	pthread_cond_broadcast(&go_cond);
	pthread_mutex_unlock(&go_lock);
	pthread_join(t, NULL);
	/* the kernel reaps a joined thread's task a moment after the join */
	for (int i = 0; i < 1000; i++) {
		if (gt_serve_forbid_exec(&err) == 0) {
			found |= refused ? F_INSTALLED : 0;
			break;
		}
		usleep(1000);
	}
	void *r = NULL;
	if (pthread_create(&t, NULL, later_thread, NULL) == 0)
		pthread_join(t, &r);
	found |= r ? F_THREAD_EXEC_DENIED : 0;
	found |= exec_denied() ? F_EXEC_DENIED : 0;
	errno = 0;
	found |= syscall(SYS_execveat, AT_FDCWD, "/bin/true", (char *[]){ "true", NULL }, (char *[]){ NULL }, 0) == -1 &&
			 errno == EPERM ? F_EXECAT_DENIED : 0;
	errno = 0;
	if (GT_SERVE_DENIES_PTRACE)
		found |= ptrace(PTRACE_ATTACH, getppid(), NULL, NULL) == -1 && errno == EPERM ? F_PTRACE_DENIED : 0;
	else
		found |= F_PTRACE_DENIED;   /* a sanitizer build: see serve_seccomp.h */
	found |= still_works() ? F_STILL_WORKS : 0;
	found |= status_shows_filter() ? F_STATUS_SHOWS : 0;
	return found;
}

static void test_exec_and_ptrace_are_denied_in_every_thread(void)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(child());
	int st = 0;
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
	int found = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	if (found != F_ALL)
		check_fail(__FILE__, __LINE__, "the child found %d, not %d (refused beside a thread then installed 1, execve 2, execveat 4, "
			   "ptrace 8, a later thread's execve 16, files/sockets/signals 32, Seccomp: 2 64)", found, F_ALL);
}

int main(void)
{
	RUN_TEST(test_exec_and_ptrace_are_denied_in_every_thread);
	return check_summary();
}
