/* gctop --list for .NET: every process with a diagnostics socket the user
 * can reach. One ProcessInfo command each; no EventPipe session is opened. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/wait.h"
#include "collectors/dotnet/ipc/diag_ipc.h"
#include "collectors/dotnet/dotnet_info.h"
#include "collectors/dotnet/proc/dotnet_proc.h"
#include "collectors/host/proc.h"
#include "base/array.h"

/* The pids named by sockets in our own /tmp, read once per listing: most
 * processes share it, and listing it once for every process in /proc was
 * most of the picker's cost with many processes running. */
struct dn_tmp_pids {
	pid_t *pids;
	size_t count, cap;
};

static int dn_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

static void dn_scan_tmp(struct dn_tmp_pids *t)
{
	DIR *d = opendir("/tmp");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid;
		if (sscanf(e->d_name, "dotnet-diagnostic-%d-", &pid) != 1 || pid <= 0)
			continue;
		pid_t *p = gt_array_grow(t->pids, &t->cap, t->count + 1, sizeof(*p), 32);
		if (!p)
			break;
		t->pids = p;
		t->pids[t->count++] = (pid_t)pid;
	}
	closedir(d);
	/* no socket: no array yet, and qsort's is declared nonnull */
	if (t->count > 1)
		qsort(t->pids, t->count, sizeof(*t->pids), dn_pid_cmp);
}

/* Worth a full socket search: named in our /tmp, or looking elsewhere (its
 * own mount namespace, or a TMPDIR of its own). */
static bool dn_may_have_socket(const struct dn_tmp_pids *t, pid_t pid)
{
	if (bsearch(&pid, t->pids, t->count, sizeof(*t->pids), dn_pid_cmp))
		return true;
	if (gt_proc_same_mount_ns(pid) != 1)
		return true;
	char tmpdir[512];
	gt_dotnet_proc_tmpdir(pid, tmpdir, sizeof(tmpdir));
	return strcmp(tmpdir, "/tmp") != 0 && strcmp(tmpdir, "/tmp/") != 0;
}

void gt_dn_list(struct gt_list *out)
{
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dn_tmp_pids tmp = { 0 };
	dn_scan_tmp(&tmp);
	struct dirent *e;
	/* A quit (or the fleet's worker told to end) ends the listing here:
	 * each process left would fail its ProcessInfo at once anyway, after
	 * a look at its /proc files and its TMPDIR. */
	while (!gt_wait_stop_requested() && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == getpid() || gt_list_skips(out, (pid_t)pid) ||
		    !dn_may_have_socket(&tmp, (pid_t)pid))
			continue;
		char path[GT_DIAG_PATH_MAX];
		if (gt_diag_find_socket((pid_t)pid, path, sizeof(path), NULL) != 0)
			continue;
		struct gt_diag_process_info pi;
		/* ProcessInfo is one short command, not a session: cheap for the target. */
		if (gt_diag_process_info((pid_t)pid, path, 300, &pi, NULL) != 0)
			continue;
		struct gt_list_entry *le = gt_list_add(out);
		if (!le)
			break;
		le->info.pid = (pid_t)pid;
		gt_dn_fill_info((pid_t)pid, &pi, &le->info);
	}
	free(tmp.pids);
	closedir(d);
}
