/* The names the JVM's own management beans give its collectors and memory
 * pools, so that --serve's jvm_* series carry the label values
 * OpenTelemetry's JVM instrumentation sends (jvm.gc.name, jvm.gc.action,
 * jvm.memory.pool.name). Perf data names neither: its collector names
 * ("G1 young collection pauses") and spaces ("eden", "s0") are mapped here
 * per collector and JDK, as measured against ManagementFactory in the same
 * JVMs (the table below; tests/integration/prometheus_exporter.sh checks it
 * against the MXBeans of live JVMs of every collector on JDK 17 and 25). */
#include "collectors/hotspot/hotspot_internal.h"

#include <stddef.h>

/* GarbageCollectionNotificationInfo's gcAction values. */
#define MX_MINOR "end of minor GC"
#define MX_MAJOR "end of major GC"
#define MX_PAUSE "end of GC pause"
#define MX_CONCURRENT_PAUSE "end of concurrent GC pause"

/* G1's "G1 Concurrent GC" bean (remark and cleanup pauses, perf's
 * collector 2) exists from JDK 20 on; before, those pauses have no bean. */
#define MX_G1_CONCURRENT_SINCE 20

struct mx_collector {
	enum hotspot_gc gc;
	int slot;                  /* sun.gc.collector.N counting the same collections */
	unsigned since_jdk;        /* 0: every JDK */
	const char *name, *action;
};

/* Shenandoah has none: its beans count cycles and pauses, which no perf
 * counter counts (its collector 1 counts phases). ZGC's "Cycles" beans
 * have no perf counter either. */
static const struct mx_collector mx_collectors[] = {
	{ HOTSPOT_GC_SERIAL, 0, 0, "Copy", MX_MINOR },
	{ HOTSPOT_GC_SERIAL, 1, 0, "MarkSweepCompact", MX_MAJOR },
	{ HOTSPOT_GC_PARALLEL, 0, 0, "PS Scavenge", MX_MINOR },
	{ HOTSPOT_GC_PARALLEL, 1, 0, "PS MarkSweep", MX_MAJOR },
	{ HOTSPOT_GC_G1, 0, 0, "G1 Young Generation", MX_MINOR },   /* mixed collections too */
	{ HOTSPOT_GC_G1, 1, 0, "G1 Old Generation", MX_MAJOR },     /* full collections */
	{ HOTSPOT_GC_G1, 2, MX_G1_CONCURRENT_SINCE, "G1 Concurrent GC", MX_CONCURRENT_PAUSE },
	{ HOTSPOT_GC_Z, 2, 0, "ZGC Pauses", MX_PAUSE },
	{ HOTSPOT_GC_Z_GENERATIONAL, 0, 0, "ZGC Minor Pauses", MX_PAUSE },
	{ HOTSPOT_GC_Z_GENERATIONAL, 2, 0, "ZGC Major Pauses", MX_PAUSE },
};

static void mx_collector(const struct hotspot_counters *c, int slot, struct gt_collector_stat *st)
{
	st->mx_name = st->mx_action = NULL;
	for (size_t i = 0; i < sizeof(mx_collectors) / sizeof(mx_collectors[0]); i++) {
		const struct mx_collector *m = &mx_collectors[i];
		/* an unknown JDK is not taken for a new enough one */
		if (m->gc != c->gc || m->slot != slot || (m->since_jdk && c->jdk_major < m->since_jdk))
			continue;
		st->mx_name = m->name;
		st->mx_action = m->action;
		return;
	}
}

/* Which perf spaces make up a heap pool: sun.gc.generation.G.space.S, and
 * with two_spaces also S + 1 (the survivor pool of two survivor spaces). */
struct mx_pool {
	enum hotspot_gc gc;
	const char *name;
	int generation, space;
	bool two_spaces;
};

static const struct mx_pool mx_pools[] = {
	{ HOTSPOT_GC_SERIAL, "Eden Space", 0, 0, false },
	{ HOTSPOT_GC_SERIAL, "Survivor Space", 0, 1, true },
	{ HOTSPOT_GC_SERIAL, "Tenured Gen", 1, 0, false },
	{ HOTSPOT_GC_PARALLEL, "PS Eden Space", 0, 0, false },
	{ HOTSPOT_GC_PARALLEL, "PS Survivor Space", 0, 1, true },
	{ HOTSPOT_GC_PARALLEL, "PS Old Gen", 1, 0, false },
	{ HOTSPOT_GC_G1, "G1 Eden Space", 0, 0, false },
	{ HOTSPOT_GC_G1, "G1 Survivor Space", 0, 1, true },
	{ HOTSPOT_GC_G1, "G1 Old Gen", 1, 0, false },
	{ HOTSPOT_GC_Z, "ZHeap", 1, 0, false },
	{ HOTSPOT_GC_Z_GENERATIONAL, "ZGC Young Generation", 0, 0, false },
	{ HOTSPOT_GC_Z_GENERATIONAL, "ZGC Old Generation", 1, 0, false },
	/* generational Shenandoah's young and old pools are not in perf data
	 * (one space holds the whole heap): left out, not guessed */
	{ HOTSPOT_GC_SHENANDOAH, "Shenandoah", 1, 0, false },
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Parallel's young pools' max as its MXBeans give it (psMemoryPool.cpp):
 * eden's is the young generation's max less both survivors' capacity now,
 * a survivor's is one survivor's capacity now. */
static void mx_parallel_young_max(const struct hotspot_counters *c, const struct mx_pool *m, struct gt_memory_pool *out)
{
	const struct hotspot_generation_counters *young = &c->generation[0];
	uint64_t s0 = hotspot_load_u64(young->space[1].capacity), s1 = hotspot_load_u64(young->space[2].capacity);
	uint64_t max = hotspot_load_u64(young->max_capacity);
	if (m->two_spaces)
		gt_u64_set(&out->max_bytes, max_u64(s0, s1));
	else if (young->max_capacity && max >= s0 + s1)
		gt_u64_set(&out->max_bytes, max - s0 - s1);
}

/* One heap pool from its spaces. The survivor pool's used is both
 * survivors', its committed and max one survivor's (the larger: G1 keeps
 * s0 empty), as the MXBean gives them. G1's eden and survivor pools have
 * no max (-1). */
static void mx_heap_pool(const struct hotspot_counters *c, const struct mx_pool *m, struct gt_memory_pool *out)
{
	const struct hotspot_space_counters *a = &c->generation[m->generation].space[m->space];
	const struct hotspot_space_counters *b = m->two_spaces ? a + 1 : NULL;
	*out = (struct gt_memory_pool){ .name = m->name, .heap = true };
	gt_u64_set(&out->used_bytes, hotspot_load_u64(a->used) + (b ? hotspot_load_u64(b->used) : 0));
	gt_u64_set(&out->committed_bytes,
		   max_u64(hotspot_capacity(c, a->capacity), b ? hotspot_capacity(c, b->capacity) : 0));
	bool young_g1 = c->gc == HOTSPOT_GC_G1 && m->generation == 0;
	if (c->gc == HOTSPOT_GC_PARALLEL && m->generation == 0)
		mx_parallel_young_max(c, m, out);
	else if (a->max_capacity && !young_g1)
		gt_u64_set(&out->max_bytes,
			   max_u64(hotspot_capacity(c, a->max_capacity), b ? hotspot_capacity(c, b->max_capacity) : 0));
	/* Parallel's old pool after the last full collection, which its
	 * collection usage equals exactly (measured); 0 before the first. */
	if (c->live_at_last_full_gc && m->generation == 1 && c->collector[1].invocations &&
	    hotspot_load_u64(c->collector[1].invocations) > 0)
		gt_u64_set(&out->used_after_gc_bytes, hotspot_load_u64(c->live_at_last_full_gc));
}

static void mx_non_heap_pool(struct gt_sample *out, const char *name, hsperf_long used, hsperf_long committed)
{
	if (!used || out->n_memory_pools >= GT_MAX_MEMORY_POOLS)
		return;
	struct gt_memory_pool *p = &out->memory_pools[out->n_memory_pools++];
	*p = (struct gt_memory_pool){ .name = name, .heap = false };
	gt_u64_set(&p->used_bytes, hotspot_load_u64(used));
	if (committed)
		gt_u64_set(&p->committed_bytes, hotspot_load_u64(committed));
}

static void mx_pools_fill(const struct hotspot_counters *c, struct gt_sample *out)
{
	out->n_memory_pools = 0;
	for (size_t i = 0; i < sizeof(mx_pools) / sizeof(mx_pools[0]); i++) {
		const struct mx_pool *m = &mx_pools[i];
		if (m->gc != c->gc || (c->gc == HOTSPOT_GC_SHENANDOAH && c->shenandoah_generational) ||
		    !c->generation[m->generation].space[m->space].used || out->n_memory_pools >= GT_MAX_MEMORY_POOLS)
			continue;
		mx_heap_pool(c, m, &out->memory_pools[out->n_memory_pools++]);
	}
	mx_non_heap_pool(out, "Metaspace", c->metaspace_used, c->metaspace_capacity);
	mx_non_heap_pool(out, "Compressed Class Space", c->class_space_used, c->class_space_capacity);
}

void hotspot_mx_fill(const struct hotspot_counters *c, struct gt_sample *out)
{
	unsigned n = 0;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS && n < out->n_collectors; i++)
		if (hotspot_collector_listed(&c->collector[i]))
			mx_collector(c, i, &out->collectors[n++]);
	mx_pools_fill(c, out);
}
