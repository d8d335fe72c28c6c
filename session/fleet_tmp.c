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
#include "collectors/backend.h"

#define FLEET_TMP "/tmp"

static uint64_t stat_stamp(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec + (uint64_t)st.st_ino;
}

static void tmp_add_dir(struct gt_fleet_tmp *t, const char *name, bool pids)
{
	struct gt_fleet_tmp_dir *d = gt_array_grow(t->dirs, &t->cap, t->n_dirs + 1, sizeof(*d), 8);
	if (!d)
		return; /* out of memory: that directory's changes are missed until the next read */
	t->dirs = d;
	snprintf(t->dirs[t->n_dirs].name, sizeof(d->name), "%s", name);
	t->dirs[t->n_dirs++].pids = pids;
}

static bool add_pid(pid_t **pids, size_t *n, size_t *cap, long pid)
{
	if (pid <= 0 || pid > INT_MAX)
		return true;
	pid_t *p = gt_array_grow(*pids, cap, *n + 1, sizeof(*p), 64);
	if (!p)
		return false;
	*pids = p;
	(*pids)[(*n)++] = (pid_t)pid;
	return true;
}

static bool has_prefix(const char *name, const char *prefix)
{
	return prefix && strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Notes entry name as the first runtime whose discovery it matches
 * (collectors/backend.h's struct gt_discovery) says. */
static void tmp_note(struct gt_fleet_tmp *t, const char *name)
{
	for (const struct gt_backend_ops *const *o = gt_backends; *o; o++) {
		const struct gt_discovery *d = (*o)->discovery;
		if (!d)
			continue;
		if (has_prefix(name, d->dir_prefix)) {
			tmp_add_dir(t, name, d->dir_entries_pids);
			return;
		}
		if (has_prefix(name, d->pid_prefix)) {
			/* a number then anything, as sscanf's %d reads it */
			const char *p = name + strlen(d->pid_prefix);
			char *end;
			long pid = strtol(p, &end, 10);
			if (end == p)
				continue;
			t->sockets += (uint64_t)(int)pid * 0x9e3779b97f4a7c15ull + 1;
			return;
		}
	}
}

/* Reads the directory open at tmp (the one whose time was just taken, not
 * whatever the path names by now): the entries the runtimes' discovery
 * names. */
static void tmp_read(struct gt_fleet_tmp *t, int tmp)
{
	t->n_dirs = 0;
	t->sockets = 0;
	/* fdopendir takes its descriptor, closedir closes it: a copy of tmp */
	DIR *d = gt_dir_adopt(fcntl(tmp, F_DUPFD_CLOEXEC, 0));
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		tmp_note(t, e->d_name);
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
		sum += stat_stamp(tmp, t->dirs[i].name);
	close(tmp);
	return sum;
}

/* The entries of dir (a directory of tmp, never a link) named by a number. */
static bool dir_pids(int tmp, const char *dir, pid_t **pids, size_t *n, size_t *cap)
{
	DIR *d = gt_dir_adopt(openat(tmp, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
	if (!d)
		return true;
	struct dirent *e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (end != e->d_name && !*end)
			ok = add_pid(pids, n, cap, pid);
	}
	closedir(d);
	return ok;
}

size_t gt_fleet_tmp_pids(const struct gt_fleet_tmp *t, pid_t **pids, size_t *cap)
{
	size_t n = 0;
	int tmp = open(t->root ? t->root : FLEET_TMP, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp < 0)
		return n;
	for (size_t i = 0; i < t->n_dirs; i++)
		if (t->dirs[i].pids && !dir_pids(tmp, t->dirs[i].name, pids, &n, cap))
			break;
	close(tmp);
	return n;
}

void gt_fleet_tmp_free(struct gt_fleet_tmp *t)
{
	free(t->dirs);
	t->dirs = NULL;
	t->n_dirs = t->cap = 0;
	t->dir_stamp = t->sockets = 0;
}
