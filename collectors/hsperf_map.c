/* Opening a live perf-data file safely. The file sits in a directory other
 * users may be able to write into, so nothing about it is trusted: no link is
 * followed, no FIFO can block us, and the owner, mode and size are checked on
 * the open descriptor. The file is never locked: the JVM takes an flock on it
 * at start-up and gives up sharing its counters if someone else holds it. */
#include "hsperf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int hsperf_map_check(const char *path, const struct stat *st, uid_t owner_uid, struct gt_error *err)
{
	if (!S_ISREG(st->st_mode))
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is not a regular file; refusing to read it", path);
	uid_t me = geteuid();
	if (st->st_uid != owner_uid)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s is owned by uid %u, not by the JVM's user (uid %u); refusing to read it",
			       path, (unsigned)st->st_uid, (unsigned)owner_uid);
	if (me != 0 && st->st_uid != me)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "%s belongs to uid %u; run gctop as that user (or as root) to watch this JVM",
			       path, (unsigned)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is writable by other users; refusing to read it", path);
	if (st->st_nlink != 1)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s has %lu hard links (a JVM creates it with one); refusing to read it",
			       path, (unsigned long)st->st_nlink);
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;
	if (st->st_size <= 0 || st->st_size % page != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s is truncated or damaged (%lld bytes, not a whole number of %ld-byte pages)",
			       path, (long long)st->st_size, page);
	if ((unsigned long long)st->st_size > HSPERF_MAX_FILE_SIZE)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is %lld bytes, far larger than any perf-data file; refusing to read it",
			       path, (long long)st->st_size);
	return 0;
}

int hsperf_map_open(const char *path, uid_t owner_uid, struct hsperf_map *out, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP)
			return gt_fail(err, GT_EXIT_BAD_DATA, "%s is a symbolic link; refusing to follow it", path);
		if (e == EACCES || e == EPERM)
			return gt_fail(err, GT_EXIT_PERMISSION,
				       "%s belongs to another user; run gctop as that user (or as root) to watch this JVM", path);
		if (e == ENOENT)
			return gt_fail(err, GT_EXIT_NO_DATA, "%s no longer exists", path);
		return gt_fail(err, GT_EXIT_FAILURE, "cannot open %s: %s", path, strerror(e));
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return gt_fail(err, GT_EXIT_FAILURE, "cannot examine %s: %s", path, strerror(e));
	}
	if (hsperf_map_check(path, &st, owner_uid, err) != 0) {
		close(fd);
		return -1;
	}
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	int e = errno;
	close(fd);
	if (m == MAP_FAILED)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot map %s: %s", path, strerror(e));
	out->base = m;
	out->size = (size_t)st.st_size;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	return 0;
}

void hsperf_map_close(struct hsperf_map *m)
{
	if (m->base)
		munmap((void *)m->base, m->size);
	memset(m, 0, sizeof(*m));
}
