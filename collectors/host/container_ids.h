/* The container and Kubernetes pod a process runs in, named by its cgroup
 * path (the text of /proc/PID/cgroup). Pure: no I/O, so the unit tests and
 * the fuzz target feed it crafted files. The text is the target's (a process
 * may name its own groups when it is delegated them), so only what has the
 * exact shape of an id is taken. */
#ifndef GCTOP_COLLECTORS_CONTAINER_IDS_H
#define GCTOP_COLLECTORS_CONTAINER_IDS_H

#include <stddef.h>

/* Docker, containerd, CRI-O and Podman name a container by 64 hex digits
 * (OpenTelemetry's container detector asks the same); a shorter run of hex
 * in a path is some other group's name. */
#define GT_CONTAINER_ID_LEN 64
/* A Kubernetes pod UID: an RFC 4122 UUID, 8-4-4-4-12. */
#define GT_POD_UID_LEN 36

struct gt_container_ids {
	char container_id[GT_CONTAINER_ID_LEN + 1]; /* "" when the path names none */
	char pod_uid[GT_POD_UID_LEN + 1];           /* "" when the path names none */
};

/* Reads every "ID:CONTROLLERS:PATH" line; the first line whose path names a
 * container gives both ids (its pod UID only under a "kubepods" group), else
 * the first that names a pod gives the pod UID alone. Never fails: ids it
 * cannot find stay "". */
void gt_container_ids_parse(const char *text, size_t len, struct gt_container_ids *out);

/* The ids one group's path names (its first len bytes, the part whose
 * groups root made: collectors/host/cgroup_trust.h); "" where it names
 * none. What gctop reports: the path of the one hierarchy whose groups it
 * checks, not the first of many lines. */
void gt_container_ids_from_path(const char *path, size_t len, struct gt_container_ids *out);

#endif
