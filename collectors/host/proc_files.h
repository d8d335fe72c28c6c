/* A watched process's /proc/PID/stat and status, kept open between samples
 * and read again with pread (collectors/host/proc_files.c says why), within
 * a budget of descriptors shared by every watched process. */
#ifndef GCTOP_COLLECTORS_PROC_FILES_H
#define GCTOP_COLLECTORS_PROC_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "collectors/host/proc.h"

struct gt_proc_files {
	int stat_fd, status_fd;   /* both open, or both -1 */
	bool read_before;         /* kept from the second read on */
};

void gt_proc_files_init(struct gt_proc_files *f);
void gt_proc_files_close(struct gt_proc_files *f);

/* Read and parse pid's stat: through the kept descriptor (opened at the
 * second read while the budget allows: a process read once, as a listing
 * does, is not worth three opens), else by path as gt_proc_read_stat.
 * A kept descriptor that no longer reads (its process is gone) is closed
 * and the file read by path. 0, or -1 (gone, hidden or unreadable). */
int gt_proc_files_stat(struct gt_proc_files *f, pid_t pid, struct gt_proc_stat *out);
/* The same for status; read it after stat, whose start time says whether
 * the kept descriptors are still the watched process's. */
int gt_proc_files_status(struct gt_proc_files *f, pid_t pid, struct gt_proc_status *out);

/* The budget: how many descriptors may be kept open at once (the first
 * call to any function here sets it from RLIMIT_NOFILE, raising the soft
 * limit to the hard one), and how many are. */
size_t gt_proc_files_budget(void);
size_t gt_proc_files_kept(void);
/* Tests: another budget (0: keep none). */
void gt_proc_files_set_budget(size_t max);

#endif
