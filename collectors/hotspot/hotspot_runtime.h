/* What the layers above know of HotSpot (model/runtime.h). */
#ifndef GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_RUNTIME_H
#define GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_RUNTIME_H

#include "collectors/backend.h"
#include "model/runtime.h"

extern const struct gt_runtime_traits gt_hotspot_runtime;
extern const struct gt_discovery gt_hotspot_discovery;

#endif
