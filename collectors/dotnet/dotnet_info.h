/* The header facts of a .NET target: what ProcessInfo says, and the GC
 * flavour from its threads and settings. Shared by open and --list. */
#ifndef GCTOP_COLLECTORS_DOTNET_INFO_H
#define GCTOP_COLLECTORS_DOTNET_INFO_H

#include <sys/types.h>

#include "collectors/backend.h"
#include "collectors/dotnet/ipc/diag_ipc_wire.h"

/* Fills runtime, version, command line, entry assembly, GC name and mode,
 * the hard limit when configured, and source. */
void gt_dn_fill_info(pid_t pid, const struct gt_diag_process_info *pi, struct gt_target_info *info);

/* Appends every .NET process the user can reach (the collector's list op). */
void gt_dn_list(struct gt_list *out);

#endif
