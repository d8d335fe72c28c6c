/* Inside the .NET collector, shared by its files:
 *   dotnet.c          the collector interface and its life (probe, open, close,
 *                     allocation sampling on and off)
 *   dotnet_session.c  gctop's EventPipe session: started, read, settled,
 *                     stopped, and restarted or joined by the sampler's
 *   dotnet_sample.c   each sample filled from what the stream said
 *   dotnet_list.c     every .NET process the user can see, for gctop --list
 *   dotnet_info.c, dotnet_config.c  the process's facts and GC settings
 *   dotnet_counters.c, dotnet_gc_events.c, dotnet_gc_frag.c  the decoders of
 *                     the runtime's counters and GC events
 *   dotnet_census.c, dotnet_census_run.c, dotnet_census_events.c  the census
 *                     of live objects: its session, its events, its table
 * and in sub-folders, none of which includes a header of this folder:
 *   ipc/              the diagnostics IPC protocol and its socket
 *   nettrace/         the nettrace stream format
 *   proc/             the process's environment and maps
 *   sampler/          allocation sampling: the events, stacks and method
 *                     names, and .NET 10's sampling session and its duty cycle */
#ifndef GCTOP_COLLECTORS_DOTNET_INTERNAL_H
#define GCTOP_COLLECTORS_DOTNET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/backend.h"
#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/dotnet_inspection.h"
#include "collectors/dotnet/ipc/diag_ipc.h"
#include "collectors/dotnet/nettrace/nettrace.h"
#include "collectors/dotnet/sampler/dotnet_alloc.h"
#include "collectors/dotnet/sampler/dotnet_sampler.h"
#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/sample.h"

/* Every request on the diagnostics socket (ProcessInfo, CollectTracing). */
#define DOTNET_IPC_TIMEOUT_MS 2000
/* The buffer the stream is read into (struct gt_backend's read_buf). */
#define DOTNET_READ_BUF_SIZE 65536

struct gt_backend {
	pid_t pid;
	char socket_path[GT_DIAG_PATH_MAX];
	int fd;
	uint64_t session_id;
	struct gt_nettrace *parser;
	bool ended;              /* the runtime closed the stream */
	bool failed;
	enum gt_exit fail_code;
	char fail_msg[300];
	bool have_offset;
	int64_t clock_offset;    /* monotonic ns minus event timestamp */
	bool same_clock;         /* same time namespace: the offset is 0, not learned */
	struct gt_u64 hard_limit;   /* the GC heap hard limit, configured or by default */
	struct gt_dn_gc gc;
	struct gt_dn_inspection inspection;  /* kept across session restarts, as causes are cumulative */
	struct gt_dn_counters counters;
	/* gctop's clock when the runtime answered the request for the session
	 * whose enable reset its allocation counter: where the first poll's
	 * increment starts (counters.first_counts). */
	uint64_t enable_ns;
	uint64_t dropped_before;  /* lost in sessions this one replaced */
	int runtime_major;
	struct gt_dn_alloc *alloc;           /* allocation sampling, when on */
	struct gt_alloc_snapshot *alloc_snap;
	struct gt_alloc_stacks *alloc_stacks;  /* the stacks behind alloc_snap's sites */
	struct gt_dn_sampler *sampler;       /* .NET 10: AllocationSampled in a session of its own */
	/* The stream is read into this, one backend's own: gctop may read two
	 * targets' streams on two threads (session/job.h). Allocated apart and
	 * not cleared: a read touches only the pages it fills (a few KiB a
	 * second for an idle runtime), where a buffer inside the calloc'd
	 * backend was cleared whole, 64 KiB of each .NET process resident in
	 * gctop --serve. */
	uint8_t *read_buf;
};

/* ---- dotnet_session.c ---- */

/* Starts gctop's session (c->fd, c->parser): 0, or -1 with err. */
int dotnet_session_start(struct gt_backend *c, struct gt_error *err);
/* Stops it (StopTracing, then the stream closed), counting its drops. */
void dotnet_session_stop(struct gt_backend *c);
/* The backend's poll and settle (collectors/backend.h): the stream read. */
void dotnet_poll(struct gt_backend *c, uint64_t now_ns);
void dotnet_settle(struct gt_backend *c, uint64_t deadline_ns);
/* Allocation sampling's sessions, with c->alloc set: started (0, or -1
 * with err), stopped (gctop's session restarted without it where it had
 * it), and its state freed. */
int dotnet_session_start_sampling(struct gt_backend *c, struct gt_error *err);
void dotnet_session_stop_sampling(struct gt_backend *c);
void dotnet_session_free_sampling(struct gt_backend *c);

/* ---- dotnet_sample.c ---- */

/* The backend's sample (collectors/backend.h). */
int dotnet_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err);

#endif
