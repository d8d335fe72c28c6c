/* Whether a new JVM or .NET process may have come, from /tmp alone: a sum
 * that changes when a hsperfdata_* directory changes (a JVM's perf data
 * came or went) or a .NET diagnostics socket comes or goes, and not with
 * the other temporary files. Read at every round of a fleet. */
#ifndef GCTOP_SESSION_FLEET_TMP_H
#define GCTOP_SESSION_FLEET_TMP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct gt_fleet_tmp {
	const char *root;                /* NULL: /tmp (another for tests) */
	uint64_t dir_stamp;              /* /tmp's own change time when last read */
	uint64_t sockets;                /* the .NET sockets then, summed by pid */
	char (*dirs)[NAME_MAX + 1];      /* its hsperfdata_* directories then */
	size_t n_dirs, cap;
};

/* The sum. /tmp is read again only when it changed itself; the hsperfdata_*
 * directories in it are looked at each time (a JVM's file changes theirs). */
uint64_t gt_fleet_tmp_stamp(struct gt_fleet_tmp *t);
void gt_fleet_tmp_free(struct gt_fleet_tmp *t);

#endif
