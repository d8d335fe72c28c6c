/* The skeleton runtime: every hook of struct gt_backend_ops, each with what
 * a real backend does there, for whoever adds a runtime (CONTRIBUTING.md,
 * "Adding a runtime"). It is compiled and its unit test
 * (tests/unit/test_skeleton.c) drives every hook through the target, but
 * the registry does not list it: gctop never offers it a process, and no
 * sentence names it. Copy the folder, rename "skeleton", list the ops in
 * collectors/registry.c. */
#ifndef GCTOP_COLLECTORS_SKELETON_SKELETON_H
#define GCTOP_COLLECTORS_SKELETON_SKELETON_H

#include "collectors/backend.h"

/* The operations counter it counts its polls in, for --ops. */
#define GT_SKELETON_OPCOUNT_COUNTER "polls"

extern const struct gt_backend_ops gt_skeleton_ops;
extern const struct gt_runtime_traits gt_skeleton_runtime;

#endif
