/* The collections another tool's heap dump forced, told apart from the
 * program's GC.Collect in gctop's own session (model/sample.h
 * causes.inspection), so that no gctop watching a process takes another
 * gctop's census (or dotnet-gcdump's dump) for the program's doing.
 *
 * What the runtime gives a session that did not ask: a session's
 * GCHeapCollect keyword makes the runtime collect (ETW::GCLog::ForceGC) on
 * the thread that enabled the session, the diagnostics server's (named
 * ".NET EventPipe" on Linux, .NET 8 to 10), and GCTriggered (GC keyword,
 * Informational) is written on the thread that asked for a collection.
 * Everything else is the same as GC.Collect(): GCStart's reason Induced,
 * depth 2, type NonConcurrent, and a ClientSequenceNumber of 0 (on Linux
 * the runtime reads none from the session's arguments,
 * dotnet/runtime#102572). So an induced GCTriggered on the diagnostics
 * server's thread is an inspection. The name is the target's to set: a
 * program that names one of its threads so hides its own GC.Collect
 * calls on it from the induced-gc finding, nothing more. */
#ifndef GCTOP_COLLECTORS_DOTNET_INSPECTION_H
#define GCTOP_COLLECTORS_DOTNET_INSPECTION_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "collectors/dotnet/nettrace/nettrace.h"

/* Threads found not to be the diagnostics server's, not read again. */
#define GT_DN_INSPECTION_OTHERS 16

struct gt_dn_inspection {
	uint64_t count;            /* inspections seen since the session began */
	uint64_t server_tid;       /* the diagnostics server's thread, once seen */
	bool have_server;
	uint64_t others[GT_DN_INSPECTION_OTHERS];
	unsigned n_others;
};

/* One event of gctop's session from the runtime provider; pid is the
 * process (its /proc entry names the threads). */
void gt_dn_inspection_event(struct gt_dn_inspection *s, pid_t pid, const struct gt_nettrace_event *e);

#endif
