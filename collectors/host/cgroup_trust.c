/* The root-owned leading part of a cgroup path (cgroup_trust.h). Walked
 * through descriptors: a path looked up again by name could be a
 * different directory by the time it is checked, and a check by name
 * follows whatever the name has become. */
#include "collectors/host/cgroup_trust.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROOT_UID 0

/* A directory root owns, on the mount's file system (cgroupfs has no
 * links, but a descriptor that left it would prove nothing). */
static bool roots_dir(int fd, dev_t dev)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ROOT_UID && st.st_dev == dev;
}

/* Opens component [name, name + n) below dirfd; -1 for a name no walk
 * may take ("", ".", "..", too long) or one that cannot be opened. */
static int open_part(int dirfd, const char *name, size_t n)
{
	char part[NAME_MAX + 1];
	if (n == 0 || n > NAME_MAX || (n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.'))
		return -1;
	memcpy(part, name, n);
	part[n] = '\0';
	return openat(dirfd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

size_t gt_cgroup_trusted_len(const char *mount, const char *path)
{
	struct stat st;
	int fd = open(mount, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !roots_dir(fd, st.st_dev)) {
		close(fd);
		return 0;
	}
	dev_t dev = st.st_dev;
	size_t trusted = 0, at = 0, len = strlen(path);
	while (at < len) {
		while (at < len && path[at] == '/')
			at++;
		size_t end = at;
		while (end < len && path[end] != '/')
			end++;
		if (end == at)
			break;
		int next = open_part(fd, path + at, end - at);
		if (next < 0 || !roots_dir(next, dev)) {
			if (next >= 0)
				close(next);
			break;
		}
		close(fd);
		fd = next;
		trusted = end;
		at = end;
	}
	close(fd);
	return trusted;
}
