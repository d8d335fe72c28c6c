/* epsession: holds one EventPipe session open on a .NET process and only
 * drains its stream, to tell the runtime's cost of a session configuration
 * (keywords, level, stacks) from the cost of parsing it.
 *
 * usage: epsession [-c ON_MS/PERIOD_MS] PID KEYWORDS LEVEL STACKS(0|1) SECONDS [SKIP_IDS]
 *
 * KEYWORDS of Microsoft-Windows-DotNETRuntime (hex), LEVEL 4 or 5;
 * SKIP_IDS, comma-separated event ids the session leaves out (.NET 10's
 * event filter). -c: the session is on for ON_MS of every PERIOD_MS and
 * stopped in between, a new session each period, as gctop's duty-cycled
 * sampler does: what opening and closing sessions costs the runtime.
 * Prints "bytes N sessions M" (the streams' size, the sessions opened)
 * when SECONDS have passed or on SIGINT. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/dotnet/ipc/diag_ipc.h"

#define BUF_SIZE 65536

static volatile sig_atomic_t stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

struct ep_args {
	pid_t pid;
	char path[GT_DIAG_PATH_MAX];
	struct gt_diag_session_opts opts;
	struct gt_diag_provider p;
	uint32_t skip[64];
};

/* Drains fd until `until` (or its end, or SIGINT); adds what it read. */
static void drain(int fd, uint8_t *buf, uint64_t until, unsigned long long *bytes)
{
	while (!stop && gt_mono_ns() < until) {
		uint64_t left_ms = (until - gt_mono_ns()) / 1000000 + 1;
		struct pollfd pf = { fd, POLLIN, 0 };
		if (poll(&pf, 1, left_ms < 100 ? (int)left_ms : 100) <= 0)
			continue;
		ssize_t n = read(fd, buf, BUF_SIZE);
		if (n == 0)
			break;
		if (n > 0)
			*bytes += (unsigned long long)n;
	}
}

/* One session from now to `until`; -1 when it could not start. */
static int one_session(struct ep_args *a, uint8_t *buf, uint64_t until, unsigned long long *bytes)
{
	struct gt_error err = { 0 };
	uint64_t id;
	int fd = gt_diag_collect_tracing(a->pid, a->path, 2000, 16, &a->opts, &a->p, 1, &id, &err);
	if (fd < 0) {
		fprintf(stderr, "epsession: %s\n", err.msg);
		return -1;
	}
	drain(fd, buf, until, bytes);
	gt_diag_stop_tracing(a->path, 500, id);
	/* what the runtime flushes at the stop */
	drain(fd, buf, gt_mono_ns() + 50000000ull, bytes);
	close(fd);
	return 0;
}

static int parse_args(int argc, char **argv, struct ep_args *a, uint64_t *on_ns, uint64_t *period_ns)
{
	int i = 1;
	*on_ns = *period_ns = 0;
	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		char *slash;
		*on_ns = strtoull(argv[2], &slash, 10) * 1000000ull;
		*period_ns = *slash == '/' ? strtoull(slash + 1, NULL, 10) * 1000000ull : 0;
		if (!*on_ns || *period_ns <= *on_ns)
			return -1;
		i = 3;
	}
	if (argc - i != 5 && argc - i != 6)
		return -1;
	memset(a, 0, sizeof(*a));
	a->pid = (pid_t)atoi(argv[i]);
	a->opts = (struct gt_diag_session_opts){ 0, atoi(argv[i + 3]) != 0 };
	uint32_t n_skip = 0;
	for (char *s = argc - i == 6 ? argv[i + 5] : NULL, *end; s && *s && n_skip < 64; s = *end ? end + 1 : end)
		a->skip[n_skip++] = (uint32_t)strtoul(s, &end, 10);
	a->p = (struct gt_diag_provider){ "Microsoft-Windows-DotNETRuntime", strtoull(argv[i + 1], NULL, 16),
					  (uint32_t)atoi(argv[i + 2]), NULL, a->skip, n_skip };
	return i;
}

int main(int argc, char **argv)
{
	struct ep_args a;
	uint64_t on_ns, period_ns;
	int i = parse_args(argc, argv, &a, &on_ns, &period_ns);
	if (i < 0) {
		fprintf(stderr, "usage: epsession [-c ON_MS/PERIOD_MS] PID KEYWORDS LEVEL STACKS SECONDS [SKIP_IDS]\n");
		return 2;
	}
	struct gt_error err = { 0 };
	if (gt_diag_find_socket(a.pid, a.path, sizeof(a.path), &err) != 0) {
		fprintf(stderr, "epsession: no diagnostics socket for %d\n", (int)a.pid);
		return 1;
	}
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	uint64_t end = gt_mono_ns() + (uint64_t)(atof(argv[i + 4]) * 1e9);
	unsigned long long bytes = 0, sessions = 0;
	uint8_t *buf = malloc(BUF_SIZE);
	if (!buf)
		return 1;
	if (!period_ns) {
		sessions = one_session(&a, buf, end, &bytes) == 0;
	} else {
		for (uint64_t at = gt_mono_ns(); !stop && at < end; at += period_ns) {
			if (one_session(&a, buf, at + on_ns, &bytes) == 0)
				sessions++;
			if (!stop)
				gt_wait_sleep(at + period_ns);
		}
	}
	free(buf);
	printf("bytes %llu sessions %llu\n", bytes, sessions);
	return sessions ? 0 : 1;
}
