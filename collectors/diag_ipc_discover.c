/* Finding the diagnostics socket of a process, also across containers. */
#include "diag_ipc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dotnet_proc.h"
#include "proc.h"

/* Matches dotnet-diagnostic-NSPID-KEY-socket and returns KEY, or -1. */
static long long socket_key(const char *name, pid_t nspid)
{
	char prefix[64];
	int n = snprintf(prefix, sizeof(prefix), "dotnet-diagnostic-%d-", (int)nspid);
	if (strncmp(name, prefix, (size_t)n) != 0)
		return -1;
	const char *p = name + n;
	char *end;
	errno = 0;
	long long key = strtoll(p, &end, 10);
	if (end == p || errno || strcmp(end, "-socket") != 0)
		return -1;
	return key;
}

int gt_diag_find_socket(pid_t pid, char *path, size_t size, struct gt_error *err)
{
	char tmpdir[512];
	gt_dotnet_proc_tmpdir(pid, tmpdir, sizeof(tmpdir));
	pid_t nspid;
	if (gt_proc_nspid(pid, &nspid) != 0)
		nspid = pid;
	char dir[640];
	if (gt_proc_same_mount_ns(pid) == 1)
		snprintf(dir, sizeof(dir), "%s", tmpdir);
	else
		snprintf(dir, sizeof(dir), "/proc/%d/root%s", (int)pid, tmpdir);

	DIR *d = opendir(dir);
	if (!d)
		return 1;
	unsigned long long start = 0;
	bool have_start = gt_proc_start_ticks(pid, &start) == 0;
	/* A socket whose key (the start time in clock ticks) is not this
	 * process's was left by an earlier process with the same pid. In another
	 * pid namespace a time namespace may shift the key, so there the newest
	 * socket is taken as the client does. */
	bool strict = have_start && nspid == pid;
	char best[256] = "";
	bool best_key_match = false;
	struct timespec best_mtime = { 0, 0 };
	struct dirent *e;
	while ((e = readdir(d))) {
		long long key = socket_key(e->d_name, nspid);
		if (key < 0)
			continue;
		bool key_match = have_start && (unsigned long long)key == start;
		if (strict && !key_match)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, 0) != 0 || !S_ISSOCK(st.st_mode))
			continue;
		bool newer = st.st_mtim.tv_sec > best_mtime.tv_sec ||
			     (st.st_mtim.tv_sec == best_mtime.tv_sec && st.st_mtim.tv_nsec > best_mtime.tv_nsec);
		if (best[0] == '\0' || (key_match && !best_key_match) || (key_match == best_key_match && newer)) {
			snprintf(best, sizeof(best), "%s", e->d_name);
			best_key_match = key_match;
			best_mtime = st.st_mtim;
		}
	}
	closedir(d);
	if (best[0] == '\0')
		return 1;
	int n = snprintf(path, size, "%s/%s", dir, best);
	if (n < 0 || (size_t)n >= size || (size_t)n >= GT_DIAG_PATH_MAX)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "the diagnostics socket of process %d, %s/%s, has a path longer than a Unix socket allows (107 bytes); "
			       "give the process a shorter TMPDIR", (int)pid, dir, best);
	return 0;
}
