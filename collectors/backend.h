/* The one small interface every runtime backend implements.
 *
 * A runtime backend (HotSpot perf data in collectors/hotspot/, .NET
 * diagnostics IPC and EventPipe in collectors/dotnet/) knows how to
 * recognise its processes, open one, and fill the runtime part of a sample.
 * Process and container figures are filled by collectors/host/ for every
 * runtime alike; collectors/target.c composes the three. Views never see
 * this interface. ("Collector" alone means a garbage collector: the GC's
 * own collectors are struct gt_collector_stat in the sample.) */
#ifndef GCTOP_COLLECTORS_BACKEND_H
#define GCTOP_COLLECTORS_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/list.h"
#include "model/runtime.h"
#include "model/sample.h"

struct gt_backend; /* private to each runtime backend */
struct gt_alloc_snapshot;
struct gt_alloc_stacks;
struct gt_census;

enum gt_probe {
	GT_PROBE_NO = 0,     /* not this runtime */
	GT_PROBE_YES = 1,    /* this runtime, and its data can be read */
	GT_PROBE_ERROR = -1, /* this runtime, but it cannot be read: err says why */
};

/* How a fleet notices, from /tmp alone, that a process of the runtime may
 * have come or gone (session/fleet_tmp.c), before it lists them again, and
 * which pids may be new ones (--serve opens those without a listing).
 * Either may be NULL. */
struct gt_discovery {
	/* Entries named so are directories whose own change time moves when
	 * a process comes or goes (HotSpot's hsperfdata_<user>). */
	const char *dir_prefix;
	/* ... and whose entries are named by the process's pid (in its own
	 * pid namespace: the open finds out whether it is the same process). */
	bool dir_entries_pids;
	/* Entries named so and then a pid come and go with their process
	 * (.NET's diagnostics sockets). */
	const char *pid_prefix;
};

struct gt_backend_ops {
	const char *name;
	/* What every layer above may know of the runtime: names, words,
	 * capabilities, advice. Never NULL. */
	const struct gt_runtime_traits *traits;
	/* What /tmp shows of its processes, or NULL: nothing. */
	const struct gt_discovery *discovery;

	/* Is pid a process of this runtime? Must not touch the target. */
	enum gt_probe (*probe)(pid_t pid, struct gt_error *err);

	/* Opens pid and fills the runtime part of info. May wait, bounded, for a
	 * runtime that is still starting (GT_EXIT_TIMEOUT after that). */
	struct gt_backend *(*open)(pid_t pid, struct gt_target_info *info, struct gt_error *err);

	/* How long until poll() wants to run again (0: never; NULL: never),
	 * e.g. for an estimator that must see every eden fill. Asked again after
	 * every poll, so a backend can slow down while its target is idle. */
	uint64_t (*poll_interval_ns)(const struct gt_backend *c);

	/* A descriptor the main loop should wait on (event stream), or -1. */
	int (*wait_fd)(const struct gt_backend *c);
	/* Whether wait_fd's data may wait a little before it is read (nothing
	 * in it is timed by when it arrives; a sample reads it all anyway), so
	 * that a loop over many targets wakes once for several. May be NULL: no. */
	bool (*wait_may_lag)(const struct gt_backend *c);

	/* Cheap work between samples: called after each poll interval and whenever
	 * wait_fd is readable. May be NULL. */
	void (*poll)(struct gt_backend *c, uint64_t now_ns);

	/* Waits, bounded by deadline_ns, by when the collector expects them and
	 * by quit, until a sample would have what the rates of a first interval
	 * need (.NET: the runtime's first allocation counter, about a second
	 * after the session started), reading what arrives meanwhile: for a
	 * batch's first output, one interval after the first sample. May be
	 * NULL: nothing to wait for. */
	void (*settle)(struct gt_backend *c, uint64_t deadline_ns);

	/* Fills the runtime fields of out (others are left untouched).
	 * Returns 0, or -1 with err set; GT_EXIT_TARGET_EXITED when it is gone. */
	int (*sample)(struct gt_backend *c, struct gt_sample *out, struct gt_error *err);

	void (*close)(struct gt_backend *c);

	/* Appends every process of this runtime the user can see. Never fails as
	 * a whole: unreadable processes are skipped. May be NULL. */
	void (*list)(struct gt_list *out);

	/* The operations counter for bytes per operation (--ops NAME): name
	 * outlives the backend. Read-only, like every sample. NULL where the
	 * runtime has its own (.NET: ASP.NET Core's requests). Returns 0, or -1
	 * with err. A counter the runtime does not publish (yet) is no error:
	 * its samples then say why there is no figure. */
	int (*set_opcount)(struct gt_backend *c, const char *name, struct gt_error *err);
	/* Loads what reads that counter when it lives inside the target
	 * (HotSpot: --ops jmx:, the agent), for it alone and only on the
	 * user's explicit request (--ops-agent with --serve or --doctor);
	 * 0 when the counter needs nothing loaded. May be NULL. Slow (an
	 * attach): never on a screen's loop. */
	int (*enable_opcount_agent)(struct gt_backend *c, struct gt_error *err);

	/* Allocation sampling; NULL where the runtime has none. Called only on the
	 * user's explicit request (--allocators, key a), because it may load code
	 * into the target (HotSpot: the JVMTI agent). packages: the runtime's own
	 * namespace prefixes, comma-separated, or NULL for the default. source:
	 * which of the runtime's sources of samples (--allocators=SOURCE, its
	 * word), or NULL for the runtime's choice; one it lacks is refused
	 * with a sentence (GT_EXIT_USAGE). */
	int (*enable_allocators)(struct gt_backend *c, const char *packages, const char *source, struct gt_error *err);
	void (*disable_allocators)(struct gt_backend *c);
	/* The newest site tables, or NULL while sampling is off. */
	const struct gt_alloc_snapshot *(*allocators)(const struct gt_backend *c);
	/* The top stacks behind the newest reading's sites, or NULL (sampling
	 * off, or a sampler that takes no stacks). May be NULL. */
	const struct gt_alloc_stacks *(*alloc_stacks)(const struct gt_backend *c);

	/* A census of the live objects by type (model/census.h), on the user's
	 * explicit request only (--census, key c after a y/N that states
	 * traits->census_cost), because it stops or collects in the target.
	 * Runs on a worker thread while the target is watched, so it uses only
	 * what info holds, never the open backend's state; bounded by
	 * deadline_ns (CLOCK_MONOTONIC) and the quit flag. Returns 0 (out filled,
	 * sorted by bytes; free it with gt_census_free), or -1 with err. NULL:
	 * the runtime has none. */
	int (*census)(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
		      struct gt_error *err);
};

/* The registry (collectors/registry.h): every runtime gctop knows, in
 * probe order, NULL-terminated. */
extern const struct gt_backend_ops *const gt_backends[];

#endif
