/* rusage: runs a command and writes its exact CPU time and peak RSS.
 *
 * usage: rusage OUTFILE COMMAND [ARG...]
 *
 * Writes "utime_s stime_s maxrss_kib exit_code" to OUTFILE when COMMAND
 * ends, and exits with its code. Why not measure from the benchmark script
 * itself: a process keeps the peak RSS of the image it was exec'd from, so a
 * command started straight from python would report python's RSS when its
 * own is smaller. This launcher is small, and forwards SIGINT, SIGTERM and
 * SIGHUP to the command. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: rusage OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	struct sigaction sa = { 0 };
	sa.sa_handler = forward;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	child = pid;
	int status;
	struct rusage ru;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("wait4");
			return 1;
		}
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	/* The voluntary context switches last: how often it slept and woke. */
	fprintf(f, "%ld.%06ld %ld.%06ld %ld %d %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
		(long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec, ru.ru_maxrss, code, ru.ru_nvcsw);
	fclose(f);
	return code;
}
