/* Which part of a cgroup path its process's user could not have named.
 *
 * A process with a delegated group (root made it and chowned it to the
 * user, as systemd does for user@UID.service and container runtimes for
 * rootless workloads) can make groups of any name below it and move itself
 * there: "kubepods.slice/...pod<UID>.../cri-containerd-<ID>.scope" costs
 * nothing. Only a group root made, under groups root made, names a
 * container or pod gctop may report. */
#ifndef GCTOP_COLLECTORS_CGROUP_TRUST_H
#define GCTOP_COLLECTORS_CGROUP_TRUST_H

#include <stddef.h>

/* The length of the longest leading part of path (a group's path as
 * /proc/PID/cgroup gives it, "/a/b/c") whose every directory, and the
 * mount's root, is owned by root: each opened from the one above it
 * (openat O_NOFOLLOW from the mount's root) and checked with fstat on
 * that descriptor, never by path. It ends before the first group owned by
 * someone else, missing, or not walkable ("..": a group outside gctop's
 * cgroup namespace cannot be checked, so nothing in it counts). 0 when the
 * mount cannot be opened or is not root's. */
size_t gt_cgroup_trusted_len(const char *mount, const char *path);

#endif
