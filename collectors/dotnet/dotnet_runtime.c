/* .NET's traits: its names, its words and its advice, which the layers
 * above read instead of naming the runtime (model/runtime.h). */
#include "collectors/dotnet/dotnet_runtime.h"

#include "collectors/dotnet/dotnet_gens.h"
#include "collectors/dotnet/sampler/dotnet_alloc.h"

static const char *const dotnet_words[] = { ".NET", "dotnet", NULL };

/* The EventPipe sessions' sources (collectors/dotnet/sampler/dotnet_alloc.h): the
 * runtime's AllocationSampled events (.NET 10), or AllocationTick's, which
 * sees an object every 100 KB and so favours the large ones. */
static const struct gt_sampler_name dotnet_samplers[] = {
	{ "allocation-sampled", "AllocationSampled" },
	{ "tick", "AllocationTick (biased)" },
	{ NULL, NULL },
};

/* The findings' next steps in the .NET GC's settings (model/findings_advice.c
 * has the rows every runtime shares). */
static const struct gt_runtime_advice dotnet_advice[] = {
	{ "pause-share",
	  "allocate less; under Workstation GC, Server GC (DOTNET_gcServer=1) collects on every core with a "
	  "larger gen0 budget", true, false },
	{ "long-pause",
	  "look at its reason: a blocking gen2 needs less live data or background GC (DOTNET_gcConcurrent=1, "
	  "the default), and GCSettings.LatencyMode SustainedLowLatency avoids most; gen0 and gen1 pauses grow "
	  "with what survives them", false, false },
	{ "induced-gc",
	  "find the GC.Collect call and remove it; the GC picks a better moment", false, false },
	{ "heap-near-limit",
	  "raise the container's memory limit or lower the GC's hard limit (GCHeapHardLimitPercent) so both "
	  "fit with room for a burst", false, false },
	{ "memory-near-limit",
	  "raise the container's memory limit or lower the GC's hard limit (GCHeapHardLimitPercent) so both "
	  "fit with room for a burst", false, false },
	{ "heap-over-limit",
	  "set the GC's hard limit below the container limit (GCHeapHardLimitPercent), leaving room for the "
	  "rest of the process", false, false },
	{ "live-set-growth",
	  "or compare two heap snapshots (dotnet-gcdump collect -p PID); either induces a gen2 collection",
	  false, true },
	/* the findings only .NET's figures raise */
	{ "loh-gen2",
	  "allocate fewer objects of 85,000 bytes or more: pool or reuse the large buffers (ArrayPool), "
	  "stream instead of building whole arrays", true, false },
	{ "server-gc-one-heap",
	  "use Workstation GC (DOTNET_gcServer=0) or give the container more CPUs", false, false },
};

/* The picker's names for the .NET GC's flavours (dotnet_info.c). */
static const struct gt_gc_name dotnet_gc_names[] = {
	{ "Workstation", "Workstation", "Wkstn" },
	{ "Server", "Server", "Srv" },
	{ NULL, NULL, NULL },
};

const struct gt_runtime_traits gt_dotnet_runtime = {
	.name = "dotnet",
	.display = ".NET",
	.words = dotnet_words,
	.wanted = "a .NET process",
	.collections_counting = "exclusive",
	.condemned_generations = GT_DN_COLLECTED,
	.has_gc_cpu_and_safepoints = false,
	.has_metaspace = false,
	.own_opcount = true,
	.opcount_own = "a .NET process, whose operations are ASP.NET Core's requests where it serves them, shown "
		   "without --ops",
	.allocators_load_code = false,
	.allocators_stop = "its EventPipe session is closed",
	.sampler_names = dotnet_samplers,
	.metrics_namespace = "dotnet",
	/* the heap-dump session's collection reports reason Induced (over
	 * EventPipe the client sequence number that would tell it apart is
	 * not passed on) */
	.census_counts_as_induced = true,
	.census_cost = "induces a blocking gen2 collection that walks the heap: the program stops for about "
		       "0.3-0.5 s at 256 MiB and 2.4-3.4 s at 2 GiB live, and the runtime holds the walk's events in "
		       "its memory meanwhile",
	/* The resident set's peak rise over a census (bench/census.py,
	 * bench/README.md section 4): 44 bytes an object (its node and its
	 * references' edges), 118-123 MiB for 2.8 M objects (256 MiB live)
	 * and 945-950 MiB for 22.4 M (2 GiB), 46-48 % of their bytes at 92
	 * bytes an object; gctop cannot count objects before a census, so it
	 * counts a heap of 44-byte objects: as many bytes as the heap holds,
	 * twice the measured. No cap: whether the session's 1 GiB buffer
	 * bounds a larger walk was not measured. */
	.census_memory = { .fixed_bytes = 16ull << 20, .per_live_percent = 100 },
	.induced_call = "GC.Collect",
	.advice = dotnet_advice,
	.n_advice = sizeof(dotnet_advice) / sizeof(dotnet_advice[0]),
	.gc_names = dotnet_gc_names,
	.help = {
		.reads = "a .NET 8 to 10 process (through its diagnostics socket and an EventPipe session)",
		.allocators = "on .NET a second EventPipe session, nothing loaded",
		.packages = GT_DN_DEFAULT_PACKAGES,
		.opcount = "on .NET, ASP.NET Core's requests where it serves them, counted without --ops",
		.census = "a .NET process collects gen2 and walks its heap, stopped (about 0.3-0.5 s at 256 MiB, "
			  "2.4-3.4 s at 2 GiB), holding the walk in memory (44 bytes an object: ~120 MiB at 256 MiB "
			  "live, ~950 MiB at 2 GiB)",
	},
};

/* Each process's diagnostics socket is /tmp/dotnet-diagnostic-<pid>-...:
 * /tmp's own time moves when one comes or goes. */
const struct gt_discovery gt_dotnet_discovery = {
	.pid_prefix = "dotnet-diagnostic-",
};
