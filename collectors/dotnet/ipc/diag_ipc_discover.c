/* Finding the diagnostics socket of a process, also across containers. */
#include "collectors/dotnet/ipc/diag_ipc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/dir.h"
#include "collectors/dotnet/proc/dotnet_proc.h"
#include "collectors/host/proc.h"
#include "collectors/host/safe_path.h"

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

struct diag_best {
	char name[256];
	bool key_match;
	struct timespec mtime;
};

/* Keeps the better of best and the socket name. */
static void diag_consider(int dfd, const char *name, bool key_match, uid_t owner,
			  struct diag_best *best)
{
	struct stat st;
	/* lstat, never followed: a link could name any socket on the machine,
	 * and only a socket of the process's own user can be its runtime's. */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != owner)
		return;
	bool newer = st.st_mtim.tv_sec > best->mtime.tv_sec ||
		     (st.st_mtim.tv_sec == best->mtime.tv_sec && st.st_mtim.tv_nsec > best->mtime.tv_nsec);
	if (best->name[0] == '\0' || (key_match && !best->key_match) || (key_match == best->key_match && newer)) {
		snprintf(best->name, sizeof(best->name), "%s", name);
		best->key_match = key_match;
		best->mtime = st.st_mtim;
	}
}

/* The target's TMPDIR opened under its root without following links;
 * NULL with errno. */
static DIR *diag_open_tmpdir(pid_t pid, const char *tmpdir)
{
	int root = gt_sp_open_root(pid);
	if (root < 0)
		return NULL;
	int dfd = gt_sp_openat(root, tmpdir, O_RDONLY | O_DIRECTORY, 0);
	int e = errno;
	close(root);
	errno = e;
	return gt_dir_adopt(dfd);
}

/* The strict case: the one name the runtime gives its socket,
 * dotnet-diagnostic-NSPID-START-socket, looked up directly. A scan of the
 * directory for it cost a read of every entry for every process: 15
 * processes with a TMPDIR of 200,000 entries made gctop -l take 1.1 s
 * instead of 0.01 s. */
static void diag_lookup(int dfd, pid_t nspid, unsigned long long start, uid_t owner, struct diag_best *best)
{
	char name[sizeof(best->name)];
	snprintf(name, sizeof(name), "dotnet-diagnostic-%d-%llu-socket", (int)nspid, start);
	diag_consider(dfd, name, true, owner, best);
}

/* The other case: every socket of the pid, the newest (or the one whose
 * key matches, when the start is known) taken. */
static void diag_scan(DIR *d, pid_t nspid, bool have_start, unsigned long long start, uid_t owner,
		      struct diag_best *best)
{
	struct dirent *e;
	while ((e = readdir(d))) {
		long long key = socket_key(e->d_name, nspid);
		if (key < 0)
			continue;
		bool key_match = have_start && (unsigned long long)key == start;
		diag_consider(dirfd(d), e->d_name, key_match, owner, best);
	}
}

int gt_diag_find_socket(pid_t pid, char *path, size_t size, struct gt_error *err)
{
	uid_t owner;
	if (gt_proc_euid(pid, &owner) != 0)
		return 1;
	char tmpdir[512];
	gt_dotnet_proc_tmpdir(pid, tmpdir, sizeof(tmpdir));
	pid_t nspid;
	if (gt_proc_nspid(pid, &nspid) != 0)
		nspid = pid;
	DIR *d = diag_open_tmpdir(pid, tmpdir);
	if (!d && (errno == ELOOP || errno == ENOTDIR || errno == EXDEV))
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "the TMPDIR of process %d (%s) is a symbolic link or lies under one; gctop follows no links "
			       "under another process's root, so it will not look for a diagnostics socket there",
			       (int)pid, tmpdir);
	if (!d)
		return 1;
	unsigned long long start = 0;
	bool have_start = gt_proc_start_ticks(pid, &start) == 0;
	/* A socket whose key (the start time in clock ticks) is not this
	 * process's was left by an earlier process with the same pid. In another
	 * pid namespace a time namespace may shift the key, so there the newest
	 * socket is taken as the client does. */
	bool strict = have_start && nspid == pid;
	struct diag_best best = { "", false, { 0, 0 } };
	if (strict)
		diag_lookup(dirfd(d), nspid, start, owner, &best);
	else
		diag_scan(d, nspid, have_start, start, owner, &best);
	closedir(d);
	/* Anyone can bind a socket with the right name in /tmp: only a process
	 * that really runs the .NET runtime has one (when its maps are closed
	 * to us, the peer check at connect decides). Asked last: reading a
	 * large process's maps costs more than the directory. */
	if (best.name[0] == '\0' || gt_dotnet_proc_maps_coreclr(pid) == 0)
		return 1;
	/* Named through /proc/PID/root always: gt_diag_connect_checked walks it
	 * again from the root fd, and knows whose socket it must be. */
	const char *sep = strcmp(tmpdir, "/") == 0 ? "" : "/";
	int n = snprintf(path, size, "/proc/%d/root%s%s%s", (int)pid, tmpdir, sep, best.name);
	if (n < 0 || (size_t)n >= size || (size_t)n >= GT_DIAG_PATH_MAX)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "the diagnostics socket of process %d, %s/%s, has a path longer than gctop keeps (107 bytes); "
			       "give the process a shorter TMPDIR", (int)pid, tmpdir, best.name);
	return 0;
}

int gt_diag_connect_checked(int fd, const char *path)
{
	int pid = 0, n = 0;
	if (sscanf(path, "/proc/%d/root%n", &pid, &n) != 1 || n <= 0 || pid <= 0 || path[n] != '/') {
		/* Not a path gt_diag_find_socket made (tests, or a socket given
		 * to us): connected as it is. */
		struct sockaddr_un sa;
		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		return connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	}
	uid_t owner;
	int root = gt_sp_open_root((pid_t)pid);
	if (root < 0)
		return -1;
	if (gt_proc_euid((pid_t)pid, &owner) != 0) {
		close(root);
		errno = ENOENT;
		return -1;
	}
	int rc = gt_sp_connect_unix(fd, root, path + n, owner, (pid_t)pid);
	int e = errno;
	close(root);
	errno = e;
	return rc;
}
