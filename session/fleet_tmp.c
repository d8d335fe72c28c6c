#include "session/fleet_tmp.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array.h"
#include "base/dir.h"

#define FLEET_TMP "/tmp"
#define FLEET_HSPERF_PREFIX "hsperfdata_"

static uint64_t stat_stamp(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec + (uint64_t)st.st_ino;
}

static void tmp_add_dir(struct gt_fleet_tmp *t, const char *name)
{
	char (*d)[NAME_MAX + 1] = gt_array_grow(t->dirs, &t->cap, t->n_dirs + 1, sizeof(*d), 8);
	if (!d)
		return; /* out of memory: that directory's changes are missed until the next read */
	t->dirs = d;
	snprintf(t->dirs[t->n_dirs++], sizeof(*d), "%s", name);
}

/* Reads the directory open at tmp (the one whose time was just taken, not
 * whatever the path names by now): its hsperfdata_* directories and its
 * .NET sockets. */
static void tmp_read(struct gt_fleet_tmp *t, int tmp)
{
	t->n_dirs = 0;
	t->sockets = 0;
	/* fdopendir takes its descriptor, closedir closes it: a copy of tmp */
	DIR *d = gt_dir_adopt(fcntl(tmp, F_DUPFD_CLOEXEC, 0));
	if (!d)
		return;
	struct dirent *e;
	int pid;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, FLEET_HSPERF_PREFIX, strlen(FLEET_HSPERF_PREFIX)) == 0)
			tmp_add_dir(t, e->d_name);
		else if (sscanf(e->d_name, "dotnet-diagnostic-%d-", &pid) == 1)
			t->sockets += (uint64_t)pid * 0x9e3779b97f4a7c15ull + 1;
	}
	closedir(d);
}

uint64_t gt_fleet_tmp_stamp(struct gt_fleet_tmp *t)
{
	int tmp = open(t->root ? t->root : FLEET_TMP, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return 0;
	uint64_t dir = stat_stamp(tmp, ".");
	if (dir != t->dir_stamp) {
		tmp_read(t, tmp);
		t->dir_stamp = dir;
	}
	/* Not /tmp's own time, which every temporary file moves. */
	uint64_t sum = t->sockets;
	for (size_t i = 0; i < t->n_dirs; i++)
		sum += stat_stamp(tmp, t->dirs[i]);
	close(tmp);
	return sum;
}

void gt_fleet_tmp_free(struct gt_fleet_tmp *t)
{
	free(t->dirs);
	t->dirs = NULL;
	t->n_dirs = t->cap = 0;
	t->dir_stamp = t->sockets = 0;
}
