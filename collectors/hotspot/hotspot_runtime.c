/* HotSpot's traits: its names, its words and its advice, which the layers
 * above read instead of naming the runtime (model/runtime.h). */
#include "collectors/hotspot/hotspot_runtime.h"

static const char *const hotspot_words[] = { "JVM", "java", "hotspot", NULL };

/* agent/agent.h's sources: the JVM's sampler, and the one before JDK 25
 * that samples the wrong objects (JDK-8356372); and the flight recorder's
 * jdk.ObjectAllocationSample (jfr/jfr_alloc.h) */
static const struct gt_sampler_name hotspot_samplers[] = {
	{ "jvmti-biased", "JVMTI sampling (biased)" },
	{ "jvmti-sampled", "JVMTI sampling" },
	{ "jfr-sampled", "JFR allocation samples" },
	{ NULL, NULL },
};

/* The findings' next steps in a JVM's flags (model/findings_advice.c has
 * the rows every runtime shares). */
static const struct gt_runtime_advice hotspot_advice[] = {
	{ "pause-share",
	  "allocate less, or give the young generation more room (-Xmn, or a larger -Xmx) so that it fills "
	  "less often", true, false },
	{ "long-pause",
	  "look at its cause: a full or old collection needs more heap or earlier marking "
	  "(-XX:InitiatingHeapOccupancyPercent); a smaller young generation or a pause-time goal "
	  "(-XX:MaxGCPauseMillis) shortens young pauses", false, false },
	{ "induced-gc",
	  "find the System.gc() call (or run with -XX:+DisableExplicitGC)", false, false },
	{ "heap-near-limit",
	  "raise the container's memory limit or lower the heap's maximum (-Xmx, -XX:MaxRAMPercentage) so "
	  "both fit with room for a burst", false, false },
	{ "memory-near-limit",
	  "raise the container's memory limit or lower the heap's maximum (-Xmx, -XX:MaxRAMPercentage) so "
	  "both fit with room for a burst", false, false },
	{ "heap-over-limit",
	  "set the heap max below the container limit (-Xmx, -XX:MaxRAMPercentage), leaving room for the "
	  "rest of the process", false, false },
	{ "live-set-growth",
	  "or compare two class histograms (jcmd PID GC.class_histogram); either stops the JVM for a time that "
	  "grows with the heap. -XX:+HeapDumpOnOutOfMemoryError keeps the evidence", false, true },
	/* the findings only G1's figures raise */
	{ "g1-full-gc",
	  "G1 ran out of room to evacuate into: raise -Xmx, or start marking earlier "
	  "(-XX:InitiatingHeapOccupancyPercent); the last cause says which", false, false },
	{ "g1-humongous",
	  "raise -XX:G1HeapRegionSize so these objects stay under half a region, or reuse the large buffers",
	  true, false },
	{ "g1-region-waste",
	  "size large arrays to whole regions less their 16-byte header, or under half a region, or raise "
	  "-XX:G1HeapRegionSize", false, false },
};

/* The picker's names for HotSpot's collectors (as hotspot_counters.c
 * names them). */
static const struct gt_gc_name hotspot_gc_names[] = {
	{ "G1", "G1", "G1" },
	{ "Parallel", "Parallel", "Par" },
	{ "Serial", "Serial", "Ser" },
	{ "Z", "ZGC", "ZGC" },
	{ "Shenandoah", "Shenandoah", "Shen" },
	{ NULL, NULL, NULL },
};

const struct gt_runtime_traits gt_hotspot_runtime = {
	.name = "hotspot",
	.display = "JVM",
	.words = hotspot_words,
	.wanted = "a JVM with perf data",
	.collections_counting = "per collector",
	.condemned_generations = 0,  /* each collector counts its own collections */
	.has_gc_cpu_and_safepoints = true,
	.has_metaspace = true,
	.own_opcount = false,
	.opcount_takes = "a JVM's perf-data counter",
	.allocators_load_code = true,
	.allocators_stop = "the agent goes dormant within seconds",
	.sampler_busy = "another agent holds the JVM's sampling capability",
	.sampler_names = hotspot_samplers,
	.metrics_namespace = "jvm",
	/* Measured on 2 shared cores, beside jmap -histo:live and jcmd
	 * GC.class_histogram (bench/census.py, bench/README.md). */
	.census_cost = "stops the JVM for a full collection and a walk of its heap: about 0.2-1 s at 256 MiB "
		       "and 1.2-3.2 s at 2 GiB of heap",
	/* The resident set's peak rise over a census (bench/census.py): the
	 * first one touches the full collection's mark bitmap (a 64th of the
	 * heap): 7.6 MiB at 256 MiB, 26.8 MiB at 2 GiB; later ones under 1
	 * MiB. 16 MiB and 2 % of the heap in use cover both. */
	.census_memory = { .fixed_bytes = 16ull << 20, .per_live_percent = 2 },
	.induced_call = "System.gc()",
	.advice = hotspot_advice,
	.n_advice = sizeof(hotspot_advice) / sizeof(hotspot_advice[0]),
	.gc_names = hotspot_gc_names,
	/* G1's region size ergonomics (g1HeapRegionSize.cpp, JDK 15+): the
	 * heap max over 2048 regions, rounded down to a power of two, 1 MiB to
	 * 32 MiB, unless -XX:G1HeapRegionSize says. */
	.regions = { .size_flag = "-XX:G1HeapRegionSize=", .target_count = 2048, .min_bytes = 1ull << 20,
		     .max_bytes = 32ull << 20 },
	.help = {
		.reads = "a JVM (HotSpot 11 to 25, through its perf data)",
		.allocators = "on a JVM of JDK 17 or later this starts a flight recording of the JVM's own "
			      "allocation samples (SOURCE jfr; nothing loaded, under 1% of its CPU by the JDK's account; the recording "
			      "is stopped when gctop exits and ends by itself within 2 minutes if gctop is killed); "
			      "before JDK 17, or with --allocators=agent, it loads gctop's agent (with --ops-agent "
			      "the only option that loads code into the target; it stops by itself a few seconds "
			      "after gctop exits), which also gives the exact allocation total",
		/* agent/agent_options.c's default_prefixes */
		.packages = "java.,javax.,jdk.,sun.,com.sun.",
		.opcount = "on a JVM, the perf-data counter NAME the application publishes (see gctop(1)); --ops "
			   "jmx:OBJECTNAME:ATTRIBUTE reads an MBean attribute instead (summed over a pattern's MBeans, "
			   "at most 64), through the agent: only with --allocators or --ops-agent; --ops jmx:requests "
			   "finds Tomcat's, Jetty's or WildFly's request counter itself",
		.census = "a JVM stops for a full collection and a walk of its heap (about 0.2-1 s at 256 MiB, "
			  "1.2-3.2 s at 2 GiB), through the attach mechanism, nothing loaded",
	},
};

/* Each JVM's perf data is a file in /tmp/hsperfdata_<user>/: that
 * directory's time moves when one comes or goes. */
const struct gt_discovery gt_hotspot_discovery = {
	.dir_prefix = "hsperfdata_",
	.dir_entries_pids = true,
};
