/* The shared sample model: what every collector fills and every front end reads.
 *
 * Each figure carries its own validity bit. A value the runtime does not give
 * stays invalid and is rendered as "n/a" or JSON null, never as 0.
 * Samples hold cumulative counters only; per-interval figures come from the
 * pure derive step (model/derive.h). */
#ifndef GCTOP_MODEL_SAMPLE_H
#define GCTOP_MODEL_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/runtime.h"

struct gt_u64 {
	uint64_t value;
	bool valid;
};

struct gt_f64 {
	double value;
	bool valid;
};

static inline void gt_u64_set(struct gt_u64 *f, uint64_t v)
{
	f->value = v;
	f->valid = true;
}

static inline void gt_f64_set(struct gt_f64 *f, double v)
{
	f->value = v;
	f->valid = true;
}

/* Where the allocation figure comes from; the front ends label it. */
enum gt_alloc_source {
	GT_ALLOC_SOURCE_NONE = 0,
	GT_ALLOC_SOURCE_ESTIMATE, /* inferred from heap counters (hsperfdata eden deltas) */
	GT_ALLOC_SOURCE_EXACT,    /* the runtime's own allocated-bytes counter */
	GT_ALLOC_SOURCE_SAMPLED,  /* sum of weights of allocation samples */
};

/* What the cumulative allocation total counts from. */
enum gt_alloc_since {
	GT_ALLOC_SINCE_ATTACH = 0,  /* since gctop started watching */
	GT_ALLOC_SINCE_PROCESS_START,
};

enum gt_target_state {
	GT_TARGET_LIVE = 0,
	GT_TARGET_EXITED,
};

#define GT_MAX_GENERATIONS 5
#define GT_MAX_COLLECTORS 8

#define GT_NAME_LEN 64
#define GT_PAUSE_RING 256
#define GT_LIVE_RING 16

/* Collections by what caused them, cumulative since gctop began watching:
 * the collector counts each collection whose cause it sees. Invalid where
 * the runtime gives no cause. */
struct gt_collection_causes {
	struct gt_u64 seen;             /* collections whose cause was seen (HotSpot: the cause is
					 * read when a poll finds a new collection, so of several
					 * between two polls only the last one's is) */
	struct gt_u64 induced;          /* asked for by the program: System.gc(), GC.Collect */
	struct gt_u64 humongous;        /* G1: started by a humongous allocation */
	struct gt_u64 gen2;             /* .NET: gen2 collections (seen with their reason) */
	struct gt_u64 gen2_alloc_large; /* .NET: gen2 collections with reason AllocLarge */
	/* asked for by gctop's own censuses of this target (each census
	 * collects once: a full GC, a gen2): counted by the session when it
	 * sends the request, so that a sample taken while the census still runs
	 * already holds it; a census that fails before the target collects
	 * (attach refused) thus counts one that never ran */
	struct gt_u64 census;
	/* asked for by a heap inspection or dump of any tool, this gctop's
	 * census, another gctop's, jmap -histo:live or jcmd GC.heap_dump
	 * (HotSpot: the cause "Heap Inspection Initiated GC" or "Heap Dump
	 * Initiated GC"), so that every gctop watching leaves them out of its
	 * findings, not only the one that asked */
	struct gt_u64 inspection;
};

/* One heap generation (or region kind), youngest first. */
struct gt_generation {
	char name[24];               /* "young", "old", "gen0", "loh", ... */
	/* Cumulative collections, each counted once: .NET by the oldest
	 * generation it collected (a gen2 GC counts as gen2 only, as
	 * dotnet-counters' gen-N-gc-count and OpenTelemetry's
	 * dotnet.gc.collections count), HotSpot those of the collector behind
	 * the generation (young and old collectors are separate). */
	struct gt_u64 collections;
	/* .NET: the collections that collected this generation, those of the
	 * older ones included (GC.CollectionCount(n)); invalid on HotSpot. */
	struct gt_u64 collections_inclusive;
	struct gt_u64 used_bytes;
	struct gt_u64 committed_bytes;
	struct gt_u64 max_bytes;
	struct gt_u64 fragmented_bytes;  /* free space inside used_bytes after the last GC (.NET) */
};

/* The bounds a collector's pause durations are counted at: the fine grid of
 * gt_pause_hist_bounds_s (model/pause_hist.h), 100 us to 10 s, from which
 * the exporter sums the buckets the user chose (--gc-duration-buckets,
 * OpenTelemetry's four by default). */
#define GT_GC_DURATION_BOUNDS 16

/* One collector as the runtime names it (HotSpot: sun.gc.collector.N). */
struct gt_collector_stat {
	char name[GT_NAME_LEN];
	struct gt_u64 invocations;   /* cumulative */
	struct gt_u64 time_ns;       /* cumulative; pause time except where the runtime says otherwise */
	/* The collector as the runtime's own monitoring names it and what it
	 * calls each collection (HotSpot: the GarbageCollectorMXBean's name and
	 * its notifications' gcAction, per collector and version), static
	 * strings; NULL where the runtime has no name for this one. */
	const char *mx_name;
	const char *mx_action;
	/* Its pauses since gctop began watching, by length: how many fell in
	 * each bucket of gt_pause_hist_bounds_s (each on its own, not
	 * cumulative; +Inf last), how many in all and their total length, and
	 * how many of them were known only together with others and counted
	 * at their mean length (merged). valid false: its pauses are not seen. */
	struct gt_duration_hist {
		bool valid;
		uint64_t buckets[GT_GC_DURATION_BOUNDS + 1];
		uint64_t count;
		uint64_t sum_ns;
		uint64_t merged;
	} durations;
};

/* A memory pool as the runtime's own monitoring names it (HotSpot: the
 * MemoryPoolMXBean's name), where the runtime has such pools. */
#define GT_MAX_MEMORY_POOLS 6
struct gt_memory_pool {
	const char *name;                  /* static string */
	bool heap;                         /* in the heap (else outside it: Metaspace ...) */
	struct gt_u64 used_bytes;
	struct gt_u64 committed_bytes;
	struct gt_u64 max_bytes;           /* invalid where the runtime sets none (-1) */
	struct gt_u64 used_after_gc_bytes; /* as the pool's collection usage gives it, where known exactly */
};

struct gt_sample {
	uint64_t mono_ns;   /* CLOCK_MONOTONIC when the sample was taken */
	int64_t wall_ms;    /* CLOCK_REALTIME, ms since the epoch, for output only */
	pid_t pid;
	enum gt_target_state state;

	/* allocation */
	struct gt_u64 alloc_bytes_total;       /* cumulative, see alloc_since */
	enum gt_alloc_source alloc_source;
	enum gt_alloc_since alloc_since;
	/* Cumulative count of collections before which the estimate could not
	 * see how full eden was (several collections between two polls): while
	 * it grows, alloc_bytes_total is a lower bound. On .NET, the
	 * runtime's polls at which its total had fallen because DATAS took GC
	 * heaps away (collectors/dotnet/dotnet_counters.c). Invalid where every
	 * byte is counted (the agent's exact figure). */
	struct gt_u64 alloc_blind_collections;
	/* When alloc_bytes_total (and opcount_total) was true, where that is not the
	 * sample's own moment: .NET's counters are the runtime's polls, so the
	 * total is as of the last poll, at ns (CLOCK_MONOTONIC), and was
	 * prev_total at the poll before, at prev_ns. derive divides by the
	 * span between the polls, not between the samples, and with no earlier
	 * figure uses the last poll interval alone. valid false: the total is
	 * as of mono_ns. */
	struct {
		bool valid;
		uint64_t ns, prev_ns;
		uint64_t prev_total;
	} alloc_at;
	const char *alloc_bound_reason;        /* static string: why the figure is a bound, or NULL */
	const char *alloc_unavailable;         /* static string: why there is no allocation figure, or NULL */

	/* collections */
	enum gt_alloc_since collections_since;  /* what generations[].collections count from:
						 * HotSpot's perf data from process start, .NET's
						 * events from attach */
	unsigned n_generations;
	struct gt_generation generations[GT_MAX_GENERATIONS];
	unsigned n_collectors;
	struct gt_collector_stat collectors[GT_MAX_COLLECTORS];
	unsigned n_memory_pools;
	struct gt_memory_pool memory_pools[GT_MAX_MEMORY_POOLS];
	char last_gc_cause[GT_NAME_LEN];       /* empty when the runtime gives none */
	struct gt_collection_causes causes;
	bool gc_in_progress;
	struct gt_u64 gc_heap_count;           /* .NET: GC heaps in the last GC (Server GC, changes under DATAS) */

	/* pauses */
	struct gt_u64 pause_total_ns;          /* cumulative stop-the-world time */
	struct gt_u64 last_pause_ns;           /* length of the most recent pause */
	struct gt_u64 pause_max_ns;            /* longest single pause seen since the previous sample */
	/* Pause time by when it happened, where the collector has each pause's
	 * start and end by the runtime's clock (.NET): credited to the
	 * intervals up to this sample (total) and up to the sample before,
	 * taken at prev_ns (prev_total). The interval's pause time is total -
	 * prev_total, at most the interval's length: a pause is split across
	 * the intervals it spans, and time read late goes to the next interval
	 * with room rather than piling into the one that reads it
	 * (collectors/dotnet/dotnet_gc_events.h). pause_total_ns is total where
	 * the figure is the runtime's own (.NET's pause counter), else the sum
	 * of the pauses timed so far. */
	struct gt_pause_at {
		bool valid;
		uint64_t prev_ns;
		uint64_t total, prev_total;
		/* the moment (CLOCK_MONOTONIC) the totals are as of where that
		 * is not the sample's: .NET's pause counter is known up to the
		 * runtime's last poll (collectors/dotnet/dotnet_pause_total.h);
		 * 0: the sample's own moment */
		uint64_t ns;
	} pause_at;
	const char *pause_unavailable;         /* static string: why there is no pause time yet, or NULL */
	/* static string: where the pause figures come from where that is not
	 * the collector's usual source: "jfr", HotSpot's flight recorder
	 * (collectors/hotspot/hotspot_jfr_pauses.c); NULL the usual one */
	const char *pause_source;
	struct gt_u64 safepoints;              /* HotSpot: cumulative safepoint count */
	struct gt_u64 safepoint_ns;            /* HotSpot: cumulative time at and reaching safepoints */
	struct gt_u64 gc_cpu_ns;               /* cumulative CPU time of GC threads (JDK 22+) */

	/* pauses timed one by one by an in-process agent (JVMTI
	 * GarbageCollectionStart/Finish: stop-the-world collections only) */
	struct gt_u64 agent_pauses;            /* cumulative since the agent started */
	struct gt_u64 agent_pause_total_ns;
	struct gt_u64 agent_pause_p50_ns;      /* over the last agent_pause_window pauses */
	struct gt_u64 agent_pause_p99_ns;
	struct gt_u64 agent_pause_max_ns;
	unsigned agent_pause_window;

	/* Individual pauses as the collector saw them (.NET suspend/restart
	 * pairs; HotSpot collector entry/exit times seen by the poll tick), for
	 * the distribution of any window between two samples: pause number k
	 * (counted from 0 since gctop began watching) sits at ns[k % GT_PAUSE_RING].
	 * A window holding more than GT_PAUSE_RING pauses keeps only its last ones,
	 * and the derive step says so. */
	struct {
		bool valid;
		uint64_t count;
		uint64_t ns[GT_PAUSE_RING];
	} pause_log;

	/* large objects */
	struct gt_u64 large_bytes;             /* current large-object bytes (LOH; G1 humongous estimate) */
	struct gt_u64 large_alloc_bytes_total; /* cumulative bytes allocated as large objects */
	/* G1 from perf data: large_alloc_bytes_total counts humongous objects in
	 * whole regions, so it (and an estimated alloc_bytes_total, which holds
	 * it) may exceed the objects' bytes by their last regions' unused tails:
	 * cumulative, at most this (half the regions' bytes, the most any mix of
	 * humongous objects leaves unused; collectors/hotspot/hotspot_alloc_estimate.h).
	 * Invalid where the large figure is the objects' own bytes. */
	struct gt_u64 large_waste_max_bytes_total;
	/* G1 from perf data: the most an estimated alloc_bytes_total may also
	 * exceed the allocation by for eden regions' unused tails, where
	 * objects too large for a TLAB left too little room for the next
	 * (cumulative; collectors/hotspot/hotspot_alloc_estimate.h). Invalid
	 * where the total is exact or no such tails are possible. */
	struct gt_u64 alloc_excess_max_bytes_total;
	/* With the agent on G1: the unused tails of the humongous objects'
	 * last regions as its samples measure them (cumulative, since its
	 * segment began; large_alloc_bytes_total is then the objects' sampled
	 * bytes). Invalid elsewhere. */
	struct gt_u64 large_waste_bytes_total;
	/* Cumulative bytes allocated in every generation, counted where and
	 * when large_alloc_bytes_total is (.NET: at each GC), so that the large
	 * objects' share divides two figures of one window. Invalid where the
	 * large figure is counted as alloc_bytes_total is (share of the rates). */
	struct gt_u64 large_alloc_of_total;
	struct gt_u64 pinned_bytes;            /* .NET pinned object heap */
	const char *large_source;              /* static string, e.g. "g1-humongous-estimate" */
	const char *large_unavailable;         /* static string: why there is no figure */

	/* The live set (issue 28): the heap that survived each collection that
	 * reached the old generation, one point per such collection, as the
	 * collector measured it (HotSpot: old used after a full, mixed or old
	 * collection or cycle, per collector; .NET: the bytes a gen2 collection
	 * kept, its promoted bytes of every generation). Point k (counted from
	 * 0 since gctop began watching) sits at points[k % GT_LIVE_RING]; a
	 * reader takes those past the count it saw last. valid false: the
	 * collector measures none, and unavailable says why (static string). */
	struct gt_live_log {
		bool valid;
		uint64_t count;
		struct gt_live_point {
			uint64_t bytes;
			uint64_t at_ns;      /* CLOCK_MONOTONIC when the collection ended (or was seen) */
			const char *kind;    /* static: what measured it, "full GC", "mixed", "gen2", ... */
		} points[GT_LIVE_RING];
	} live_log;
	const char *live_unavailable;

	/* Occupancy of the old generation as jstat's O and OC show it (.NET:
	 * gen2 + LOH + POH): used now, committed, and the most it may grow to
	 * (invalid where the runtime sets no bound of its own). */
	struct gt_u64 old_used_bytes;
	struct gt_u64 old_committed_bytes;
	struct gt_u64 old_max_bytes;

	/* heap and memory */
	struct gt_u64 heap_used_bytes;
	struct gt_u64 heap_committed_bytes;
	struct gt_u64 heap_max_bytes;
	struct gt_u64 metaspace_used_bytes;
	struct gt_u64 metaspace_committed_bytes;
	struct gt_u64 gc_hard_limit_bytes;     /* .NET GCHeapHardLimit */

	/* operations, for bytes per operation: requests on ASP.NET Core, the
	 * perf-data counter of --ops on a JVM */
	struct gt_u64 opcount_total;
	const char *opcount_name;              /* static string: what is counted, "requests" or "operations" */
	const char *opcount_counter;           /* the counter read ("total-requests", --ops NAME), or NULL;
						* lives as long as the process */
	const char *opcount_unavailable;       /* static string: why opcount_total is invalid though a counter
						* was asked for, or NULL */
	/* Collections (each GC once) up to the moment opcount_total is as of,
	 * where that is the runtime's poll (alloc_at) and not the sample's:
	 * collections per operation then counts both over one span. Invalid
	 * where opcount_total is as of mono_ns (the generations' counts are). */
	struct gt_u64 opcount_collections_total;
	/* Where opcount_total is as of a reading of its own (a JVM's agent
	 * reads --ops jmx: every 100 ms): that moment (CLOCK_MONOTONIC, gctop's
	 * clock), and the allocation total as of the same moment, interpolated
	 * between the allocation's readings around it. derive divides their
	 * deltas for bytes per operation and the operations by the span between
	 * the moments: the sample's own allocation total is of another moment,
	 * and a burst of requests between the two read as one interval high and
	 * the next low. Invalid where opcount_total is as of mono_ns or alloc_at. */
	struct gt_u64 opcount_at_ns;
	struct gt_u64 opcount_alloc_total;

	/* events lost between the runtime and gctop */
	struct gt_u64 dropped_events;

	/* process facts (collectors/host/proc.c) */
	struct gt_u64 rss_bytes;               /* working set */
	struct gt_u64 rss_anon_bytes;
	struct gt_u64 rss_file_bytes;
	struct gt_u64 swap_bytes;
	struct gt_u64 cpu_ticks;               /* utime + stime, cumulative */
	struct gt_u64 cpu_hz;                  /* ticks per second for cpu_ticks */
	struct gt_u64 threads;
	/* The host's memory (MemTotal): what no figure of one process's
	 * memory can exceed; the derive step's plausibility rules hold the
	 * target's counters to it (model/live_set.c). */
	struct gt_u64 host_mem_total_bytes;

	/* container facts (collectors/host/cgroup.c) */
	struct gt_u64 cgroup_limit_bytes;      /* invalid when there is no limit */
	struct gt_u64 cgroup_usage_bytes;
	struct gt_u64 cgroup_working_set_bytes; /* usage less inactive file cache */
	struct gt_u64 cgroup_processes;        /* processes whose memory the usage counts (at least);
						* 1: the usage is the process's own */
	struct gt_u64 oom_kills;
	struct gt_f64 memory_pressure_avg10;   /* PSI "some avg10", percent */
	bool memory_pressure_system_wide;      /* PSI came from /proc/pressure, not the cgroup */
};

/* Facts about the target that change rarely: the header. */
struct gt_target_info {
	pid_t pid;
	pid_t nspid;                    /* pid inside its own pid namespace */
	const struct gt_runtime_traits *runtime; /* NULL: unknown (model/runtime.h) */
	char runtime_version[GT_NAME_LEN];
	char gc_name[GT_NAME_LEN];      /* "G1", "Parallel", "Serial", "Z", "Shenandoah", "Server", ... */
	char gc_mode[GT_NAME_LEN];      /* free text: "generational", "concurrent", "DATAS" ... */
	char main_class[256];           /* main class or jar, or the .NET entry assembly */
	char command_line[1024];
	char heap_flags[512];           /* the options that size the heap, space separated */
	char user[32];
	struct gt_u64 start_time_ms;    /* process start, ms since the epoch */
	struct gt_u64 heap_max_bytes;
	struct gt_u64 cgroup_limit_bytes;
	char cgroup_path[256];
	int cgroup_version;             /* 0 unknown, 1 or 2 */
	char container_id[65];          /* 64 hex from the cgroup path, "" when none (collectors/host/container_ids.h) */
	char k8s_pod_uid[37];           /* the Kubernetes pod's UID from the cgroup path, "" when none */
	char source[GT_NAME_LEN];       /* what gctop reads: "hsperfdata", "eventpipe", ... */
	/* The screen's question before --allocators' default source starts,
	 * where that source loads no code but still changes the target (a
	 * JVM's flight recording): which source and what it costs, ending in
	 * "?". "": the runtime's traits say it (allocators_load_code). */
	char alloc_question[192];
	char alloc_stopped[96];         /* what stopping that source does, "" likewise */
	/* The sources --allocators may use (its SOURCE words, comma-separated,
	 * the default first: "jfr,agent"), found without touching the target;
	 * "" unknown. */
	char alloc_sources[32];
};

const char *gt_alloc_source_name(enum gt_alloc_source s);
const char *gt_alloc_since_name(enum gt_alloc_since s);

#endif
