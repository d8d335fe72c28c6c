#include "collectors/host/safe_path.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "collectors/host/proc.h"

/* Longest path walked under a root: TMPDIR values and our own fixed names. */
#define SP_PATH_MAX 1024

int gt_sp_open_root(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/root", (int)pid);
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || gt_proc_same_mount_ns(pid) != 1)
		return fd;
	return open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int gt_sp_open_cwd(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int sp_openat2(int rootfd, const char *rel, int flags, mode_t mode)
{
#ifdef SYS_openat2
	struct open_how how;
	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)flags;
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
#else
	(void)rootfd, (void)rel, (void)flags, (void)mode;
	errno = ENOSYS;
	return -1;
#endif
}

/* Opens one intermediate component as an O_PATH directory, never following
 * it. ".." is refused rather than clamped: nothing gctop walks needs it. */
static int sp_step(int dirfd, const char *name)
{
	if (strcmp(name, "..") == 0) {
		errno = EXDEV;
		return -1;
	}
	return openat(dirfd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static int sp_flags(int flags)
{
	flags |= O_NOFOLLOW | O_CLOEXEC;
	return (flags & O_PATH) ? flags : flags | O_NOCTTY;
}

int gt_sp_openat_walk(int rootfd, const char *rel, int flags, mode_t mode)
{
	flags = sp_flags(flags);
	char buf[SP_PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int cur = dup(rootfd);
	if (cur < 0)
		return -1;
	char *save = NULL, *name = strtok_r(buf, "/", &save);
	while (name) {
		char *next = strtok_r(NULL, "/", &save);
		if (!next)
			break;
		if (strcmp(name, ".") != 0) {
			int fd = sp_step(cur, name);
			int e = errno;
			close(cur);
			if (fd < 0) {
				errno = e;
				return -1;
			}
			cur = fd;
		}
		name = next;
	}
	if (name && strcmp(name, "..") == 0) {
		close(cur);
		errno = EXDEV;
		return -1;
	}
	int fd = openat(cur, name ? name : ".", flags, mode);
	int e = errno;
	close(cur);
	errno = e;
	return fd;
}

int gt_sp_openat(int rootfd, const char *rel, int flags, mode_t mode)
{
	flags = sp_flags(flags);
	const char *r = rel[0] ? rel : ".";
	int fd = sp_openat2(rootfd, r, flags, mode);
	/* Older container seccomp profiles answer an unknown syscall with
	 * EPERM; the walk gives the same answer where EPERM is genuine. */
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd;
	return gt_sp_openat_walk(rootfd, r, flags, mode);
}

bool gt_sp_dir_fit_for_create(int dirfd, uid_t owner)
{
	struct stat st;
	if (fstat(dirfd, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	if (st.st_uid == owner)
		return true;
	/* Any user may create files in a sticky world-writable directory and
	 * none may remove another's; its owner may, but the owner of a
	 * container's /tmp is that container's root (a mapped uid with user
	 * namespaces), chosen by whoever runs the target. */
	return (st.st_mode & S_ISVTX) && (st.st_mode & S_IWOTH);
}

int gt_sp_unlink_same(int dirfd, const char *name, const struct stat *was)
{
	struct stat now;
	if (fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (now.st_dev != was->st_dev || now.st_ino != was->st_ino) {
		errno = ESTALE;
		return -1;
	}
	return unlinkat(dirfd, name, 0);
}

void gt_sp_fd_path(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/* The listening end of a connected socket is the process we meant. */
static int sp_check_peer(int sock, uid_t owner, pid_t peer_pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
		return -1;
	if (cred.uid != owner || (peer_pid > 0 && cred.pid != peer_pid)) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

int gt_sp_connect_unix(int sock, int dirfd, const char *rel, uid_t owner, pid_t peer_pid)
{
	int pfd = gt_sp_openat(dirfd, rel, O_PATH, 0);
	if (pfd < 0)
		return -1;
	struct stat st;
	if (fstat(pfd, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != owner) {
		close(pfd);
		errno = EPROTO;
		return -1;
	}
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	gt_sp_fd_path(pfd, sa.sun_path, sizeof(sa.sun_path));
	/* A Unix stream connect completes at once or fails (never
	 * EINPROGRESS), so the peer can be checked right away. */
	int rc = connect(sock, (struct sockaddr *)&sa, sizeof(sa));
	int e = errno;
	close(pfd);
	if (rc != 0) {
		errno = e;
		return -1;
	}
	return sp_check_peer(sock, owner, peer_pid);
}
