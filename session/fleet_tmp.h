/* Whether a new process of a runtime may have come, from /tmp alone: a sum
 * that changes when a directory a runtime's discovery names changes (a
 * JVM's hsperfdata_* directory: its perf data came or went) or an entry
 * that holds a pid comes or goes (a .NET diagnostics socket), and not with
 * the other temporary files (collectors/backend.h's struct gt_discovery).
 * Read at every round of a fleet. */
#ifndef GCTOP_SESSION_FLEET_TMP_H
#define GCTOP_SESSION_FLEET_TMP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A directory a discovery names, and whether its entries are pids. */
struct gt_fleet_tmp_dir {
	char name[NAME_MAX + 1];
	bool pids;
};

struct gt_fleet_tmp {
	const char *root;                /* NULL: /tmp (another for tests) */
	uint64_t dir_stamp;              /* /tmp's own change time when last read */
	uint64_t sockets;                /* the entries holding a pid then, summed by pid */
	struct gt_fleet_tmp_dir *dirs;   /* the directories a discovery names then */
	size_t n_dirs, cap;
};

/* The sum. /tmp is read again only when it changed itself; the directories
 * in it a discovery names are looked at each time (a JVM's file changes
 * theirs). */
uint64_t gt_fleet_tmp_stamp(struct gt_fleet_tmp *t);
/* The pids /tmp names as of the last gt_fleet_tmp_stamp: the entries
 * named by a number in the directories whose entries are pids (read now;
 * not the .NET sockets', which outlive a runtime that crashed: a pid taken
 * again by another process that loads the runtime is waited for, seconds,
 * by an open, where a listing's ProcessInfo fails at once). Into *pids
 * (grown as gt_array_grow does, *cap its capacity); returns how many, or
 * stops early when out of memory. Each may be a process of another pid
 * namespace, or gone: the open finds out. */
size_t gt_fleet_tmp_pids(const struct gt_fleet_tmp *t, pid_t **pids, size_t *cap);
void gt_fleet_tmp_free(struct gt_fleet_tmp *t);

#endif
