#include "dotnet_proc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

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

pid_t gt_dotnet_parse_nspid(const char *status_text)
{
	const char *p = strstr(status_text, "\nNSpid:");
	if (!p)
		return 0;
	p += 7;
	long last = 0;
	while (*p && *p != '\n') {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		last = v;
		p = end;
	}
	return last > 0 ? (pid_t)last : 0;
}

pid_t gt_dotnet_proc_nspid(pid_t pid)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (gt_proc_read_small(path, buf, sizeof(buf)) <= 0)
		return pid;
	pid_t ns = gt_dotnet_parse_nspid(buf);
	return ns > 0 ? ns : pid;
}

int gt_dotnet_proc_same_mount_ns(pid_t pid)
{
	char path[64], a[64], b[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	ssize_t na = readlink("/proc/self/ns/mnt", a, sizeof(a) - 1);
	ssize_t nb = readlink(path, b, sizeof(b) - 1);
	if (na <= 0 || nb <= 0)
		return -1;
	return na == nb && memcmp(a, b, (size_t)na) == 0;
}

int gt_dotnet_proc_start_ticks(pid_t pid, unsigned long long *ticks)
{
	char path[64], buf[2048];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (gt_proc_read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	/* The command name (field 2) may hold spaces and parentheses: count
	 * fields from the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	char *end;
	unsigned long long v = strtoull(p + 1, &end, 10);
	if (end == p + 1)
		return -1;
	*ticks = v;
	return 0;
}

int gt_dotnet_proc_maps_coreclr(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char line[1024];
	int found = 0;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "/libcoreclr.so")) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
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
