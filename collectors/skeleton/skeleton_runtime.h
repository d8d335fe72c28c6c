/* What the layers above know of the skeleton runtime (model/runtime.h), as
 * collectors/hotspot/hotspot_runtime.h and collectors/dotnet/dotnet_runtime.h
 * say it of theirs. */
#ifndef GCTOP_COLLECTORS_SKELETON_SKELETON_RUNTIME_H
#define GCTOP_COLLECTORS_SKELETON_SKELETON_RUNTIME_H

#include "collectors/backend.h"
#include "model/runtime.h"

extern const struct gt_runtime_traits gt_skeleton_runtime;
extern const struct gt_discovery gt_skeleton_discovery;

#endif
