/* gctop --list for JVMs: every perf-data file the user can read, in our /tmp
 * and in the /tmp of containers, read once and closed. */
#include "collectors/hotspot/hotspot_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/dir.h"
#include "collectors/host/proc.h"
#include "collectors/hotspot/jfr/jfr_available.h"

static bool hotspot_listed(const struct gt_list *out, size_t first, pid_t pid)
{
	for (size_t i = first; i < out->count; i++)
		if (out->entries[i].info.pid == pid)
			return true;
	return false;
}

/* Reads one JVM's file for the list; skips it silently on any problem. */
static void hotspot_list_one(struct gt_list *out, size_t first, pid_t pid, const char *path)
{
	uid_t owner;
	if (hotspot_listed(out, first, pid) || !hotspot_find_alive(pid) || gt_proc_euid(pid, &owner) != 0)
		return;
	struct hsperf_map map;
	if (hsperf_map_open(path, owner, &map, NULL) != 0)
		return;
	struct hsperf perf;
	if (hsperf_init(&perf, map.base, map.size, path, NULL) == 0) {
		struct hotspot_counters counters;
		hotspot_counters_resolve(&counters, &perf);
		struct gt_u64 start = { 0, false };
		if (hotspot_find_same_process(pid, &counters, path, &start, NULL) == 0) {
			struct gt_list_entry *e = gt_list_add(out);
			if (e) {
				e->info.pid = pid;
				if (gt_proc_nspid(pid, &e->info.nspid) != 0)
					e->info.nspid = pid;
				hotspot_info_fill(&perf, counters.gc, &e->info);
				e->sample.pid = pid;
				hotspot_counters_fill_sample(&perf, &counters, &e->sample);
				e->info.heap_max_bytes = e->sample.heap_max_bytes;
				jfr_available_sources(pid, counters.jdk_major, e->info.alloc_sources,
						      sizeof(e->info.alloc_sources));
			}
		}
		hsperf_free(&perf);
	}
	hsperf_map_close(&map);
}

static bool hotspot_parse_pid(const char *s, pid_t *pid)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v > 0x3fffffff)
		return false;
	*pid = (pid_t)v;
	return true;
}

/* Whether the JVM's /tmp is ours: in our mount namespace, or in another
 * that has the same /tmp, as gctop has under systemd's sandboxing
 * (ProtectSystem= gives the service a mount namespace of its own). The
 * container pass below skips the latter, so this one must take it. */
static bool hotspot_shares_tmp(pid_t pid, const struct stat *ours)
{
	int same = gt_proc_same_mount_ns(pid);
	if (same != 0)
		return same == 1;
	char root_tmp[64];
	struct stat st;
	snprintf(root_tmp, sizeof(root_tmp), "/proc/%d/root/tmp", (int)pid);
	return stat(root_tmp, &st) == 0 && st.st_dev == ours->st_dev && st.st_ino == ours->st_ino;
}

/* JVMs sharing our /tmp: every numeric file of /tmp/hsperfdata_*. */
static void hotspot_list_host_tmp(struct gt_list *out, size_t first)
{
	struct stat host_tmp;
	DIR *tmp = opendir("/tmp");
	if (!tmp)
		return;
	if (fstat(dirfd(tmp), &host_tmp) != 0) {
		closedir(tmp);
		return;
	}
	struct dirent *u;
	while ((u = readdir(tmp))) {
		if (strncmp(u->d_name, "hsperfdata_", 11) != 0)
			continue;
		char dir[512];
		snprintf(dir, sizeof(dir), "/tmp/%s", u->d_name);
		/* Any user can put a link here: only real directories are read
		 * (never followed), and each file must belong to its JVM's user
		 * (hsperf_map_open). */
		DIR *d = gt_dir_adopt(openat(dirfd(tmp), u->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
		if (!d)
			continue;
		struct dirent *f;
		while ((f = readdir(d))) {
			pid_t pid;
			if (!hotspot_parse_pid(f->d_name, &pid) || gt_list_skips(out, pid))
				continue;
			pid_t nspid;
			/* A file here is named by the pid in the JVM's own namespace. */
			if (!hotspot_shares_tmp(pid, &host_tmp) || (gt_proc_nspid(pid, &nspid) == 0 && nspid != pid))
				continue;
			char path[1024];
			snprintf(path, sizeof(path), "%s/%s", dir, f->d_name);
			hotspot_list_one(out, first, pid, path);
		}
		closedir(d);
	}
	closedir(tmp);
}

/* JVMs in containers: processes whose /tmp is not ours (compared by inode,
 * as jvmstat does, so a process sharing our /tmp is not listed twice). */
static void hotspot_list_containers(struct gt_list *out, size_t first)
{
	struct stat host_tmp;
	if (stat("/tmp", &host_tmp) != 0)
		return;
	DIR *proc = opendir("/proc");
	if (!proc)
		return;
	struct dirent *e;
	while ((e = readdir(proc))) {
		pid_t pid;
		if (!hotspot_parse_pid(e->d_name, &pid) || gt_list_skips(out, pid) || hotspot_listed(out, first, pid))
			continue;
		if (gt_proc_same_mount_ns(pid) != 0)
			continue;
		char root_tmp[64];
		snprintf(root_tmp, sizeof(root_tmp), "/proc/%d/root/tmp", (int)pid);
		struct stat st;
		if (stat(root_tmp, &st) != 0 || (st.st_dev == host_tmp.st_dev && st.st_ino == host_tmp.st_ino))
			continue;
		char path[4096];
		if (hotspot_find_perfdata(pid, path, sizeof(path), NULL) == 1)
			hotspot_list_one(out, first, pid, path);
	}
	closedir(proc);
}

void hotspot_list(struct gt_list *out)
{
	size_t first = out->count;
	hotspot_list_host_tmp(out, first);
	hotspot_list_containers(out, first);
}
