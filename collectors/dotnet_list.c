/* gctop --list for .NET: every process with a diagnostics socket the user
 * can reach. One ProcessInfo command each; no EventPipe session is opened. */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "diag_ipc.h"
#include "dotnet_info.h"

void gt_dn_list(struct gt_list *out)
{
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == getpid())
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
	closedir(d);
}

