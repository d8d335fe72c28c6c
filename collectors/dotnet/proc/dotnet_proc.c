#include "collectors/dotnet/proc/dotnet_proc.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/host/proc.h"

int gt_dotnet_proc_getenv(pid_t pid, const char *name, char *out, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	size_t cap = 256 * 1024;
	char *buf = malloc(cap);
	if (!buf)
		return -1;
	long len = gt_proc_read_small(path, buf, cap);
	size_t nlen = strlen(name);
	int rc = -1;
	for (long i = 0; len > 0 && i < len;) {
		const char *entry = buf + i;
		size_t elen = strnlen(entry, (size_t)(len - i));
		if (elen > nlen && strncmp(entry, name, nlen) == 0 && entry[nlen] == '=') {
			snprintf(out, size, "%.*s", (int)(elen - nlen - 1), entry + nlen + 1);
			rc = 0;
			break;
		}
		i += (long)elen + 1;
	}
	free(buf);
	return rc;
}

void gt_dotnet_proc_tmpdir(pid_t pid, char *out, size_t size)
{
	char v[512];
	if (gt_dotnet_proc_getenv(pid, "TMPDIR", v, sizeof(v)) == 0 && v[0] == '/') {
		size_t n = strlen(v);
		while (n > 1 && v[n - 1] == '/')
			v[--n] = '\0';
		snprintf(out, size, "%s", v);
		return;
	}
	snprintf(out, size, "/tmp");
}

int gt_dotnet_proc_maps_coreclr(pid_t pid)
{
	return gt_proc_maps_file(pid, "/libcoreclr.so");
}

int gt_dotnet_proc_count_threads(pid_t pid, const char *prefix)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int count = 0;
	size_t plen = strlen(prefix);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char cpath[320], name[64];
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		if (gt_proc_read_small(cpath, name, sizeof(name)) > 0 && strncmp(name, prefix, plen) == 0)
			count++;
	}
	closedir(d);
	return count;
}

/* The thread id of the task entry named by `task` in the process's own
 * namespace (its status's innermost NSpid), or 0. */
static uint64_t task_ns_tid(pid_t pid, const char *task)
{
	char path[320], status[4096];
	snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)pid, task);
	pid_t tid;
	if (gt_proc_read_small(path, status, sizeof(status)) <= 0 || gt_proc_parse_nspid(status, &tid) != 0)
		return 0;
	return (uint64_t)tid;
}

int gt_dotnet_proc_thread_named(pid_t pid, uint64_t tid, const char *prefix)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	bool matched = false, named = false;
	struct dirent *e;
	while (!matched && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || task_ns_tid(pid, e->d_name) != tid)
			continue;
		matched = true;
		char cpath[320], name[64];
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		named = gt_proc_read_small(cpath, name, sizeof(name)) > 0 && strncmp(name, prefix, strlen(prefix)) == 0;
	}
	closedir(d);
	return named ? 1 : 0;
}
