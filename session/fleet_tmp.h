/* Whether a new process of a runtime may have come, from /tmp alone: a sum
 * that changes when a directory a runtime's discovery names changes (a
 * JVM's hsperfdata_* directory: its perf data came or went) or an entry
 * that holds a pid comes or goes (a .NET diagnostics socket), and not with
 * the other temporary files (collectors/backend.h's struct gt_discovery).
 * Read at every round of a fleet. */
#ifndef GCTOP_SESSION_FLEET_TMP_H
#define GCTOP_SESSION_FLEET_TMP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct gt_fleet_tmp {
	const char *root;                /* NULL: /tmp (another for tests) */
	uint64_t dir_stamp;              /* /tmp's own change time when last read */
	uint64_t sockets;                /* the entries holding a pid then, summed by pid */
	char (*dirs)[NAME_MAX + 1];      /* the directories a discovery names then */
	size_t n_dirs, cap;
};

/* The sum. /tmp is read again only when it changed itself; the directories
 * in it a discovery names are looked at each time (a JVM's file changes
 * theirs). */
uint64_t gt_fleet_tmp_stamp(struct gt_fleet_tmp *t);
void gt_fleet_tmp_free(struct gt_fleet_tmp *t);

#endif
