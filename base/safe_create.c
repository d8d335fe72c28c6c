#include "base/safe_create.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed in one path, as the kernel's own bound (ELOOP). */
#define CREATE_LINKS_MAX 40
/* The longest path walked, links spliced in. */
#define CREATE_PATH_MAX 4096
/* Tries when the name appears between "not there" and O_EXCL (a race). */
#define CREATE_TRIES 3

/* A walk in progress: cur is the directory reached, rest what is left of
 * the path (in buf). */
struct walk {
	int cur;
	char buf[CREATE_PATH_MAX];
	char *rest;
	unsigned links;
	const char *why;
};

/* -1 with errno e. */
static int fail_with(int e)
{
	errno = e;
	return -1;
}

/* Only root and we can change what a link means: its owner, and the
 * owner of the directory holding it, are root or us, and no one else may
 * rename entries there (group- or world-writable needs the sticky bit,
 * which keeps others from renaming the link they do not own). */
static bool link_trusted(int dirfd, const struct stat *link)
{
	uid_t me = geteuid();
	struct stat d;
	if (link->st_uid != 0 && link->st_uid != me)
		return false;
	if (fstat(dirfd, &d) != 0 || (d.st_uid != 0 && d.st_uid != me))
		return false;
	return !(d.st_mode & (S_IWGRP | S_IWOTH)) || (d.st_mode & S_ISVTX);
}

/* name (a symbolic link in w->cur) spliced in front of w->rest, the walk
 * going on from "/" for an absolute one. 0, or -1 with errno (w->why when
 * it is not to be followed). */
static int follow(struct walk *w, const char *name)
{
	struct stat st;
	char target[CREATE_PATH_MAX], joined[CREATE_PATH_MAX];
	if (fstatat(w->cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
		return fail_with(ENOTDIR);
	if (!link_trusted(w->cur, &st)) {
		w->why = "lies under a symbolic link another user could have made or changed";
		return fail_with(ELOOP);
	}
	ssize_t n = readlinkat(w->cur, name, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	if (++w->links > CREATE_LINKS_MAX)
		return fail_with(ELOOP);
	target[n] = '\0';
	if (snprintf(joined, sizeof(joined), "%s/%s", target, w->rest) >= (int)sizeof(joined))
		return fail_with(ENAMETOOLONG);
	memcpy(w->buf, joined, sizeof(joined));
	w->rest = w->buf;
	if (target[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root < 0)
			return -1;
		close(w->cur);
		w->cur = root;
	}
	return 0;
}

/* One directory component on; 0, or -1 with errno. */
static int step(struct walk *w, const char *name)
{
	if (strcmp(name, ".") == 0)
		return 0;
	int fd = openat(w->cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		close(w->cur);
		w->cur = fd;
		return 0;
	}
	return errno == ENOTDIR || errno == ELOOP ? follow(w, name) : -1;
}

/* Walks every component of path but the last into w->cur; *last points
 * at the last one (in w->buf). 0, or -1 with errno (and w->why). */
static int walk_to_parent(struct walk *w, const char *path, char **last)
{
	if (snprintf(w->buf, sizeof(w->buf), "%s", path) >= (int)sizeof(w->buf))
		return fail_with(ENAMETOOLONG);
	w->cur = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->cur < 0)
		return -1;
	w->rest = w->buf;
	for (;;) {
		while (*w->rest == '/')
			w->rest++;
		char *name = w->rest, *slash = strchr(name, '/');
		if (!slash || slash[strspn(slash, "/")] == '\0') {
			if (slash)   /* "dir/": names a directory, not a file */
				return fail_with(EISDIR);
			*last = name;
			return 0;
		}
		*slash = '\0';
		w->rest = slash + 1;
		/* follow() rewrites buf; name is copied out first. */
		char comp[NAME_MAX + 1];
		if (snprintf(comp, sizeof(comp), "%s", name) >= (int)sizeof(comp))
			return fail_with(ENAMETOOLONG);
		if (step(w, comp) != 0)
			return -1;
	}
}

/* The open file is one we may empty: a regular file of ours, the only
 * name of its inode. NULL, or why not. */
static const char *unfit(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return "cannot be examined";
	if (!S_ISREG(st.st_mode))
		return "is not a regular file";
	if (st.st_uid != geteuid())
		return "belongs to another user";
	if (st.st_nlink != 1)
		return "has another name (a hard link), which could be a file of someone else";
	return NULL;
}

/* Opens name in dir: the existing file, or a new one (O_EXCL). */
static int open_in(int dir, const char *name, mode_t mode, int flags, const char **why)
{
	flags |= O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	for (int i = 0; i < CREATE_TRIES; i++) {
		/* O_NONBLOCK: a FIFO without a reader must not hold the open
		 * (a regular file, the only kind kept, ignores the flag). */
		int fd = openat(dir, name, flags | O_NONBLOCK);
		if (fd >= 0 || errno != ENOENT) {
			if (fd < 0 && (errno == ELOOP || errno == ENXIO || errno == EISDIR))
				*why = errno == ELOOP ? "is a symbolic link" : "is not a regular file";
			return fd;
		}
		fd = openat(dir, name, flags | O_CREAT | O_EXCL, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int gt_safe_create(const char *path, mode_t mode, int flags, const char **why)
{
	struct walk w = { .cur = -1 };
	char *last;
	*why = NULL;
	int fd = -1;
	if (walk_to_parent(&w, path, &last) == 0)
		fd = open_in(w.cur, last, mode, flags, why);
	else
		*why = w.why;
	int e = errno;
	if (w.cur >= 0)
		close(w.cur);
	if (fd >= 0 && (*why = unfit(fd)) == NULL && fchmod(fd, mode) == 0 && ftruncate(fd, 0) == 0)
		return fd;
	if (fd >= 0) {
		e = *why ? EPERM : errno;
		close(fd);
	}
	errno = e;
	return -1;
}
