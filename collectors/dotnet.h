/* What the .NET collector offers beyond struct gt_collector_ops: allocation
 * sampling, driven by target.c for a .NET target. */
#ifndef GCTOP_COLLECTORS_DOTNET_H
#define GCTOP_COLLECTORS_DOTNET_H

#include "../model/allocators.h"
#include "../model/error.h"
#include "collector.h"

extern const struct gt_collector_ops gt_dotnet_ops;

/* Restarts gctop's EventPipe session with stacks, the method load events
 * and the allocation events (AllocationSampled on .NET 10, AllocationTick
 * on 8 and 9), after a short rundown session that names the methods
 * already compiled. Nothing is loaded into the process. packages: the
 * runtime prefixes skipped to find the first application frame (NULL:
 * System., Microsoft.). 0, or -1 with err; on failure the collector keeps
 * (or gets back) its session without sampling. */
int gt_dn_enable_allocators(struct gt_collector *c, const char *packages, struct gt_error *err);
/* Back to the session without stacks and allocation events. */
void gt_dn_disable_allocators(struct gt_collector *c);
/* The reading made at the last sample, NULL while sampling is off. */
const struct gt_alloc_snapshot *gt_dn_allocators(const struct gt_collector *c);

#endif
