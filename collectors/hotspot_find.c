/* Which process is a JVM, and where its perf-data file lives (reference §1.2).
 * Plain /proc and directory reads; nothing here touches the target. */
#include "hotspot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

/* Reads a small /proc file whole; returns its length or -1 (errno kept). */
static ssize_t hotspot_read_proc(pid_t pid, const char *leaf, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, leaf);
	return gt_proc_read_small(path, buf, len);
}

static bool hotspot_basename_is_java(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "java") == 0 || strcmp(base, "java (deleted)") == 0;
}

static bool hotspot_maps_libjvm(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char line[4096];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "/libjvm.so") != NULL;
	fclose(f);
	return found;
}

bool hotspot_find_is_java(pid_t pid)
{
	char path[64], exe[4096];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		if (hotspot_basename_is_java(exe))
			return true;
	}
	if (hotspot_maps_libjvm(pid))
		return true;
	if (n > 0)
		return false;
	/* Another user's process: exe and maps are closed to us, comm and the
	 * command line are not. */
	char buf[256];
	if (hotspot_read_proc(pid, "comm", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, "java") == 0)
			return true;
	}
	return hotspot_read_proc(pid, "cmdline", buf, sizeof(buf)) > 0 && hotspot_basename_is_java(buf);
}

int hotspot_find_euid(pid_t pid, uid_t *uid)
{
	char buf[4096];
	if (hotspot_read_proc(pid, "status", buf, sizeof(buf)) <= 0)
		return -1;
	const char *line = strstr(buf, "\nUid:");
	unsigned long real, eff;
	if (!line || sscanf(line + 5, "%lu %lu", &real, &eff) != 2)
		return -1;
	*uid = (uid_t)eff;
	return 0;
}

/* Applies the perf-data options found in a list of words, last one winning. */
static void hotspot_scan_options(const char *words, size_t len, char sep, int *use_perf, int *disable_shared)
{
	const char *s = words, *end = words + len;
	while (s < end) {
		const char *w = s;
		while (s < end && *s != sep && *s != '\0')
			s++;
		size_t n = (size_t)(s - w);
		if (n == 16 && strncmp(w, "-XX:-UsePerfData", 16) == 0)
			*use_perf = 0;
		else if (n == 16 && strncmp(w, "-XX:+UsePerfData", 16) == 0)
			*use_perf = 1;
		else if (n == 25 && strncmp(w, "-XX:+PerfDisableSharedMem", 25) == 0)
			*disable_shared = 1;
		else if (n == 25 && strncmp(w, "-XX:-PerfDisableSharedMem", 25) == 0)
			*disable_shared = 0;
		s++;
	}
}

/* The value of NAME=... in a NUL-separated environment block, or NULL. */
static const char *hotspot_env_value(const char *env, size_t len, const char *name)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < len;) {
		const char *var = env + i;
		size_t vl = strnlen(var, len - i);
		if (vl > nl && strncmp(var, name, nl) == 0 && var[nl] == '=')
			return var + nl + 1;
		i += vl + 1;
	}
	return NULL;
}

const char *hotspot_find_disabled_flag(pid_t pid)
{
	enum { BLOCK = 65536 };
	char *env = malloc(BLOCK), *cmd = malloc(BLOCK);
	if (!env || !cmd) {
		free(env);
		free(cmd);
		return NULL;
	}
	int use_perf = 1, disable_shared = 0;
	ssize_t el = hotspot_read_proc(pid, "environ", env, BLOCK);
	ssize_t cl = hotspot_read_proc(pid, "cmdline", cmd, BLOCK);
	/* The JVM reads JAVA_TOOL_OPTIONS, then the command line (with
	 * JDK_JAVA_OPTIONS before it), then _JAVA_OPTIONS, later ones winning. */
	const char *v;
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "JAVA_TOOL_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "JDK_JAVA_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	if (cl > 0)
		hotspot_scan_options(cmd, (size_t)cl, '\0', &use_perf, &disable_shared);
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "_JAVA_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	free(env);
	free(cmd);
	if (!use_perf)
		return "-XX:-UsePerfData";
	if (disable_shared)
		return "-XX:+PerfDisableSharedMem";
	return NULL;
}

/* Looks for TMP/hsperfdata_* /NAME, keeping the newest by ctime, as HotSpot
 * does when several users' directories hold the same pid.
 * Returns 1 found, 0 not, -1 when tmp itself cannot be read (errno kept). */
static int hotspot_scan_tmp(const char *tmp, pid_t name, char *path, size_t path_len)
{
	DIR *d = opendir(tmp);
	if (!d)
		return -1;
	struct dirent *e;
	int found = 0;
	struct timespec newest = { 0, 0 };
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "hsperfdata_", 11) != 0)
			continue;
		char candidate[4096];
		int n = snprintf(candidate, sizeof(candidate), "%s/%s/%d", tmp, e->d_name, (int)name);
		if (n < 0 || (size_t)n >= sizeof(candidate) || (size_t)n >= path_len)
			continue;
		struct stat st;
		if (lstat(candidate, &st) != 0)
			continue;
		if (!found || st.st_ctim.tv_sec > newest.tv_sec ||
		    (st.st_ctim.tv_sec == newest.tv_sec && st.st_ctim.tv_nsec > newest.tv_nsec)) {
			newest = st.st_ctim;
			memcpy(path, candidate, (size_t)n + 1);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

int hotspot_find_perfdata(pid_t pid, char *path, size_t path_len, struct gt_error *err)
{
	pid_t nspid = pid;
	if (gt_proc_nspid(pid, &nspid) != 0 || nspid <= 0)
		nspid = pid;
	if (gt_proc_same_mount_ns(pid) == 1 && nspid == pid) {
		if (hotspot_scan_tmp("/tmp", pid, path, path_len) == 1)
			return 1;
	}
	char root_tmp[64];
	snprintf(root_tmp, sizeof(root_tmp), "/proc/%d/root/tmp", (int)pid);
	int rc = hotspot_scan_tmp(root_tmp, nspid, path, path_len);
	if (rc < 0) {
		if (errno == EACCES || errno == EPERM)
			return gt_fail(err, GT_EXIT_PERMISSION,
				       "process %d belongs to another user, so gctop cannot look into its /tmp; "
				       "run gctop as that user or as root", (int)pid);
		return 0;
	}
	/* A container sharing the host's pid namespace names the file by host pid. */
	if (rc == 0 && nspid != pid)
		rc = hotspot_scan_tmp(root_tmp, pid, path, path_len);
	return rc > 0 ? 1 : 0;
}

int hotspot_find_alive(pid_t pid)
{
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return 0;
	/* A zombie still answers kill(); its state says it has exited. */
	char buf[512];
	if (hotspot_read_proc(pid, "stat", buf, sizeof(buf)) <= 0)
		return 0;
	const char *paren = strrchr(buf, ')');
	if (!paren || paren[1] != ' ')
		return 1;
	char state = paren[2];
	return state == 'Z' || state == 'X' ? 0 : 1;
}
