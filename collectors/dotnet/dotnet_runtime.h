/* What the layers above know of .NET (model/runtime.h). */
#ifndef GCTOP_COLLECTORS_DOTNET_DOTNET_RUNTIME_H
#define GCTOP_COLLECTORS_DOTNET_DOTNET_RUNTIME_H

#include "collectors/backend.h"
#include "model/runtime.h"

extern const struct gt_runtime_traits gt_dotnet_runtime;
extern const struct gt_discovery gt_dotnet_discovery;

#endif
