/* epsession: holds one EventPipe session open on a .NET process and only
 * drains its stream, to tell the runtime's cost of a session configuration
 * (keywords, level, stacks) from the cost of parsing it.
 *
 * usage: epsession PID KEYWORDS LEVEL STACKS(0|1) SECONDS [SKIP_IDS]
 *
 * KEYWORDS of Microsoft-Windows-DotNETRuntime (hex), LEVEL 4 or 5;
 * SKIP_IDS, comma-separated event ids the session leaves out (.NET 10's
 * event filter, as gctop's own session does while sampling). Prints
 * "bytes N" (the stream's size) when SECONDS have passed or on SIGINT. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/dotnet/ipc/diag_ipc.h"

#define BUF_SIZE 65536

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: epsession PID KEYWORDS LEVEL STACKS SECONDS [SKIP_IDS]\n");
		return 2;
	}
	pid_t pid = (pid_t)atoi(argv[1]);
	char path[GT_DIAG_PATH_MAX];
	struct gt_error err = { 0 };
	if (gt_diag_find_socket(pid, path, sizeof(path), &err) != 0) {
		fprintf(stderr, "epsession: no diagnostics socket for %d\n", (int)pid);
		return 1;
	}
	struct gt_diag_session_opts opts = { 0, atoi(argv[4]) != 0 };
	uint32_t skip[64];
	uint32_t n_skip = 0;
	for (char *s = argc == 7 ? argv[6] : NULL, *end; s && *s && n_skip < 64; s = *end ? end + 1 : end)
		skip[n_skip++] = (uint32_t)strtoul(s, &end, 10);
	struct gt_diag_provider p = { "Microsoft-Windows-DotNETRuntime", strtoull(argv[2], NULL, 16),
				      (uint32_t)atoi(argv[3]), NULL, skip, n_skip };
	uint64_t id;
	int fd = gt_diag_collect_tracing(pid, path, 2000, 16, &opts, &p, 1, &id, &err);
	if (fd < 0) {
		fprintf(stderr, "epsession: %s\n", err.msg);
		return 1;
	}
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	uint64_t end = gt_mono_ns() + (uint64_t)(atof(argv[5]) * 1e9);
	unsigned long long bytes = 0;
	uint8_t *buf = malloc(BUF_SIZE);
	if (!buf)
		return 1;
	while (!stop && gt_mono_ns() < end) {
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, 100) <= 0)
			continue;
		ssize_t n = read(fd, buf, BUF_SIZE);
		if (n == 0)
			break;
		if (n > 0)
			bytes += (unsigned long long)n;
	}
	gt_diag_stop_tracing(path, 500, id);
	close(fd);
	free(buf);
	printf("bytes %llu\n", bytes);
	return 0;
}
