/* HotSpot's traits: its names, its words and its advice, which the layers
 * above read instead of naming the runtime (model/runtime.h). */
#include "collectors/hotspot/hotspot_runtime.h"

static const char *const hotspot_words[] = { "JVM", "java", "hotspot", NULL };

/* agent/agent.h's sources: the JVM's sampler, and the one before JDK 25
 * that samples the wrong objects (JDK-8356372) */
static const struct gt_sampler_name hotspot_samplers[] = {
	{ "jvmti-biased", "JVMTI sampling (biased)" },
	{ "jvmti-sampled", "JVMTI sampling" },
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
};

/* Each JVM's perf data is a file in /tmp/hsperfdata_<user>/: that
 * directory's time moves when one comes or goes. */
const struct gt_discovery gt_hotspot_discovery = {
	.dir_prefix = "hsperfdata_",
};
