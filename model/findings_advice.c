/* The advice table (model/findings_advice.h). A rule's finding looks its
 * advice up here by id, so a new rule adds rows, not code. */
#include "model/findings_advice.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A row for GT_RUNTIME_UNKNOWN is any runtime's, taken when the runtime has
 * no row of its own. who: the step ends by saying where to see who
 * allocates, which each front end says its own way. */
struct advice_row {
	const char *id;
	enum gt_runtime runtime;
	const char *text;
	bool who;
};

static const struct advice_row advice_rows[] = {
	{ "pause-share", GT_RUNTIME_HOTSPOT,
	  "allocate less, or give the young generation more room (-Xmn, or a larger -Xmx) so that it fills "
	  "less often", true },
	{ "pause-share", GT_RUNTIME_DOTNET,
	  "allocate less; under Workstation GC, Server GC (DOTNET_gcServer=1) collects on every core with a "
	  "larger gen0 budget", true },
	{ "long-pause", GT_RUNTIME_HOTSPOT,
	  "look at its cause: a full or old collection needs more heap or earlier marking "
	  "(-XX:InitiatingHeapOccupancyPercent); a smaller young generation or a pause-time goal "
	  "(-XX:MaxGCPauseMillis) shortens young pauses", false },
	{ "long-pause", GT_RUNTIME_DOTNET,
	  "look at its reason: a blocking gen2 needs less live data or background GC (DOTNET_gcConcurrent=1, "
	  "the default), and GCSettings.LatencyMode SustainedLowLatency avoids most; gen0 and gen1 pauses grow "
	  "with what survives them", false },
	{ "g1-full-gc", GT_RUNTIME_UNKNOWN,
	  "G1 ran out of room to evacuate into: raise -Xmx, or start marking earlier "
	  "(-XX:InitiatingHeapOccupancyPercent); the last cause says which", false },
	{ "induced-gc", GT_RUNTIME_HOTSPOT,
	  "find the System.gc() call (or run with -XX:+DisableExplicitGC)", false },
	{ "induced-gc", GT_RUNTIME_DOTNET,
	  "find the GC.Collect call and remove it; the GC picks a better moment", false },
	{ "loh-gen2", GT_RUNTIME_UNKNOWN,
	  "allocate fewer objects of 85,000 bytes or more: pool or reuse the large buffers (ArrayPool), "
	  "stream instead of building whole arrays", true },
	{ "g1-humongous", GT_RUNTIME_UNKNOWN,
	  "raise -XX:G1HeapRegionSize so these objects stay under half a region, or reuse the large buffers",
	  true },
	{ "g1-region-waste", GT_RUNTIME_UNKNOWN,
	  "size large arrays to whole regions less their 16-byte header, or under half a region, or raise "
	  "-XX:G1HeapRegionSize", false },
	{ "alloc-per-op", GT_RUNTIME_UNKNOWN,
	  "allocate less in each operation: reuse or pool its buffers, stream instead of building whole "
	  "results", true },
	{ "heap-near-limit", GT_RUNTIME_HOTSPOT,
	  "raise the container's memory limit or lower the heap's maximum (-Xmx, -XX:MaxRAMPercentage) so "
	  "both fit with room for a burst", false },
	{ "heap-near-limit", GT_RUNTIME_DOTNET,
	  "raise the container's memory limit or lower the GC's hard limit (GCHeapHardLimitPercent) so both "
	  "fit with room for a burst", false },
	{ "memory-near-limit", GT_RUNTIME_HOTSPOT,
	  "raise the container's memory limit or lower the heap's maximum (-Xmx, -XX:MaxRAMPercentage) so "
	  "both fit with room for a burst", false },
	{ "memory-near-limit", GT_RUNTIME_DOTNET,
	  "raise the container's memory limit or lower the GC's hard limit (GCHeapHardLimitPercent) so both "
	  "fit with room for a burst", false },
	{ "oom-kills", GT_RUNTIME_UNKNOWN,
	  "the container has killed processes for memory: compare the heap max and working set with its "
	  "limit", false },
	{ "heap-over-limit", GT_RUNTIME_HOTSPOT,
	  "set the heap max below the container limit (-Xmx, -XX:MaxRAMPercentage), leaving room for the "
	  "rest of the process", false },
	{ "heap-over-limit", GT_RUNTIME_DOTNET,
	  "set the GC's hard limit below the container limit (GCHeapHardLimitPercent), leaving room for the "
	  "rest of the process", false },
	{ "server-gc-one-heap", GT_RUNTIME_UNKNOWN,
	  "use Workstation GC (DOTNET_gcServer=0) or give the container more CPUs", false },
};

#define ADVICE_ROWS (sizeof(advice_rows) / sizeof(advice_rows[0]))

static const struct advice_row *advice_find(const char *id, enum gt_runtime rt)
{
	/* an unknown runtime (a recording without one) takes the id's first row */
	const struct advice_row *any = NULL;
	for (size_t i = 0; i < ADVICE_ROWS; i++) {
		if (strcmp(advice_rows[i].id, id) != 0)
			continue;
		if (advice_rows[i].runtime == rt)
			return &advice_rows[i];
		if (advice_rows[i].runtime == GT_RUNTIME_UNKNOWN || !any)
			any = &advice_rows[i];
	}
	return any;
}

void gt_findings_advice(char *buf, size_t len, const char *id, enum gt_runtime rt, enum gt_front_end fe)
{
	const struct advice_row *row = advice_find(id, rt);
	if (!row) {
		if (len)
			buf[0] = '\0';
		return;
	}
	const char *who = !row->who ? ""
			: fe == GT_FRONT_SCREEN ? "; key a shows who allocates"
						: "; gctop --allocators shows who allocates";
	snprintf(buf, len, "%s%s", row->text, who);
}
