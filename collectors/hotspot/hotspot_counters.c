/* The counters gctop reads and how each collector's layout maps onto the
 * sample model (reference §2.1-2.7). */
#include "collectors/hotspot/hotspot_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hotspot_gc hotspot_counters_detect_gc(const struct hsperf *p)
{
	char policy[64], c0[GT_NAME_LEN], c1[GT_NAME_LEN], c2[GT_NAME_LEN];
	hsperf_read_string(p, "sun.gc.policy.name", policy, sizeof(policy));
	hsperf_read_string(p, "sun.gc.collector.0.name", c0, sizeof(c0));
	hsperf_read_string(p, "sun.gc.collector.1.name", c1, sizeof(c1));
	hsperf_read_string(p, "sun.gc.collector.2.name", c2, sizeof(c2));
	if (strcmp(policy, "GarbageFirst") == 0 || strncmp(c0, "G1 ", 3) == 0)
		return HOTSPOT_GC_G1;
	if (strcmp(policy, "ParScav:MSC") == 0 || strncmp(c0, "Parallel", 8) == 0 || strcmp(c0, "PSScavenge") == 0)
		return HOTSPOT_GC_PARALLEL;
	if (strcmp(policy, "Copy:MSC") == 0 || strncmp(c0, "Serial", 6) == 0)
		return HOTSPOT_GC_SERIAL;
	/* Generational ZGC names its young collector "ZGC minor collection pauses". */
	if (strncmp(c0, "ZGC minor", 9) == 0)
		return HOTSPOT_GC_Z_GENERATIONAL;
	if (strncmp(c2, "Z ", 2) == 0 || strncmp(c2, "ZGC", 3) == 0)
		return HOTSPOT_GC_Z;
	if (strncmp(c0, "Shenandoah", 10) == 0 || strncmp(c1, "Shenandoah", 10) == 0)
		return HOTSPOT_GC_SHENANDOAH;
	return HOTSPOT_GC_UNKNOWN;
}

const char *hotspot_gc_name(enum hotspot_gc gc)
{
	switch (gc) {
	case HOTSPOT_GC_G1: return "G1";
	case HOTSPOT_GC_PARALLEL: return "Parallel";
	case HOTSPOT_GC_SERIAL: return "Serial";
	case HOTSPOT_GC_Z:
	case HOTSPOT_GC_Z_GENERATIONAL: return "Z";
	case HOTSPOT_GC_SHENANDOAH: return "Shenandoah";
	case HOTSPOT_GC_UNKNOWN: break;
	}
	return "unknown";
}

static hsperf_long hotspot_resolve_collector(const struct hsperf *p, int n, const char *leaf)
{
	char name[128];
	snprintf(name, sizeof(name), "sun.gc.collector.%d.%s", n, leaf);
	return hsperf_resolve_long(p, name);
}

static hsperf_long hotspot_resolve_generation(const struct hsperf *p, int g, int space, const char *leaf)
{
	char name[128];
	if (space < 0)
		snprintf(name, sizeof(name), "sun.gc.generation.%d.%s", g, leaf);
	else
		snprintf(name, sizeof(name), "sun.gc.generation.%d.space.%d.%s", g, space, leaf);
	return hsperf_resolve_long(p, name);
}

/* The Java feature version (17, 25), 0 when the perf data does not say. */
static unsigned hotspot_jdk_major(const struct hsperf *p)
{
	char version[64];
	hsperf_read_string(p, "java.property.java.version", version, sizeof(version));
	unsigned long major = strtoul(version, NULL, 10);
	if (major == 1) /* "1.8.0_..." */
		major = strtoul(version + 2, NULL, 10);
	return major < 10000 ? (unsigned)major : 0;
}

/* Generational Shenandoah (JDK 25) publishes the same counters as the
 * single-generation mode; only its options tell them apart (an option set
 * by other means than the command line is not seen). */
static bool hotspot_shenandoah_generational(const struct hsperf *p)
{
	char args[2048];
	hsperf_read_string(p, "java.rt.vmArgs", args, sizeof(args));
	return strstr(args, "-XX:ShenandoahGCMode=generational") != NULL;
}

/* G1 reports eden capacity including the GC locker's expansion allowance
 * (GCLockerEdenExpansionPercent, 5 by default until the flag went away in
 * JDK 23), but starts a collection when eden reaches its target size. */
static unsigned hotspot_g1_eden_slack_pct(const struct hsperf *p)
{
	char args[2048];
	hsperf_read_string(p, "java.rt.vmArgs", args, sizeof(args));
	const char *flag = strstr(args, "-XX:GCLockerEdenExpansionPercent=");
	if (flag) {
		unsigned pct = (unsigned)strtoul(flag + 33, NULL, 10);
		return pct > 100 ? 100 : pct;
	}
	unsigned major = hotspot_jdk_major(p);
	return major != 0 && major < 23 ? 5 : 0;
}

void hotspot_counters_resolve(struct hotspot_counters *c, const struct hsperf *p)
{
	memset(c, 0, sizeof(*c));
	c->gc = hotspot_counters_detect_gc(p);
	int64_t freq = 0;
	c->frequency = hsperf_read_long(p, "sun.os.hrt.frequency", &freq) == 0 && freq > 0 ? freq : 1000000000;
	if (c->gc == HOTSPOT_GC_G1)
		c->g1_eden_slack_pct = hotspot_g1_eden_slack_pct(p);
	c->jdk_major = hotspot_jdk_major(p);
	c->shenandoah_generational = c->gc == HOTSPOT_GC_SHENANDOAH && hotspot_shenandoah_generational(p);
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		struct hotspot_collector_counters *k = &c->collector[i];
		char name[64];
		snprintf(name, sizeof(name), "sun.gc.collector.%d.name", i);
		k->name = hsperf_find(p, name);
		k->invocations = hotspot_resolve_collector(p, i, "invocations");
		k->time = hotspot_resolve_collector(p, i, "time");
		k->last_entry = hotspot_resolve_collector(p, i, "lastEntryTime");
		k->last_exit = hotspot_resolve_collector(p, i, "lastExitTime");
	}
	for (int g = 0; g < HOTSPOT_GENERATIONS; g++) {
		struct hotspot_generation_counters *gen = &c->generation[g];
		gen->capacity = hotspot_resolve_generation(p, g, -1, "capacity");
		gen->max_capacity = hotspot_resolve_generation(p, g, -1, "maxCapacity");
		for (int s = 0; s < HOTSPOT_SPACES; s++) {
			struct hotspot_space_counters *sp = &gen->space[s];
			sp->used = hotspot_resolve_generation(p, g, s, "used");
			sp->capacity = hotspot_resolve_generation(p, g, s, "capacity");
			sp->max_capacity = hotspot_resolve_generation(p, g, s, "maxCapacity");
		}
	}
	c->metaspace_used = hsperf_resolve_long(p, "sun.gc.metaspace.used");
	c->metaspace_capacity = hsperf_resolve_long(p, "sun.gc.metaspace.capacity");
	c->class_space_used = hsperf_resolve_long(p, "sun.gc.compressedclassspace.used");
	c->class_space_capacity = hsperf_resolve_long(p, "sun.gc.compressedclassspace.capacity");
	c->safepoints = hsperf_resolve_long(p, "sun.rt.safepoints");
	c->safepoint_time = hsperf_resolve_long(p, "sun.rt.safepointTime");
	c->safepoint_sync_time = hsperf_resolve_long(p, "sun.rt.safepointSyncTime");
	/* ZGC's threads are not counted there (it reads 0), so it would mislead. */
	if (c->gc != HOTSPOT_GC_Z && c->gc != HOTSPOT_GC_Z_GENERATIONAL)
		c->gc_cpu_time = hsperf_resolve_long(p, "sun.threads.total_gc_cpu_time");
	c->create_vm_begin_ms = hsperf_resolve_long(p, "sun.rt.createVmBeginTime");
	c->tlab_alloc_words = hsperf_resolve_long(p, "sun.gc.tlab.alloc");
	c->tlab_fills = hsperf_resolve_long(p, "sun.gc.tlab.fills");
	c->tlab_gc_waste = hsperf_resolve_long(p, "sun.gc.tlab.gcWaste");
	c->tlab_refill_waste = hsperf_resolve_long(p, "sun.gc.tlab.refillWaste");
	c->tlab_slow_allocs = hsperf_resolve_long(p, "sun.gc.tlab.slowAlloc");
	c->hrt_ticks = hsperf_resolve_long(p, "sun.os.hrt.ticks");
	if (c->gc == HOTSPOT_GC_PARALLEL) {
		c->promoted = hsperf_resolve_long(p, "sun.gc.policy.promoted");
		c->live_at_last_full_gc = hsperf_resolve_long(p, "sun.gc.policy.liveAtLastFullGc");
	}
	c->cause = hsperf_find(p, "sun.gc.cause");
	c->last_cause = hsperf_find(p, "sun.gc.lastCause");
}

uint64_t hotspot_ticks_at_to_ns(int64_t ticks, int64_t frequency)
{
	if (ticks <= 0 || frequency <= 0)
		return 0;
	if (frequency == 1000000000)
		return (uint64_t)ticks;
	unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / (uint64_t)frequency;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t hotspot_ticks_to_ns(const struct hotspot_counters *c, int64_t ticks)
{
	return hotspot_ticks_at_to_ns(ticks, c->frequency);
}

uint64_t hotspot_load_u64(hsperf_long c)
{
	if (!c)
		return 0;
	int64_t v = hsperf_load(c);
	return v > 0 ? (uint64_t)v : 0;
}

/* JDK 17's G1 pads every space capacity by 8 bytes (24 for the three young
 * spaces) so jstat never divides by zero. Real G1 sizes are whole regions
 * (1 MiB or more), so a remainder of 8..24 bytes is that padding. */
static uint64_t hotspot_g1_unpad(uint64_t v)
{
	uint64_t rest = v % (1024 * 1024);
	return (rest > 0 && rest <= 24 && rest % 8 == 0) ? v - rest : v;
}

uint64_t hotspot_capacity(const struct hotspot_counters *c, hsperf_long counter)
{
	uint64_t v = hotspot_load_u64(counter);
	return c->gc == HOTSPOT_GC_G1 ? hotspot_g1_unpad(v) : v;
}

static uint64_t hotspot_generation_used(const struct hotspot_counters *c, int g)
{
	uint64_t used = 0;
	for (int s = 0; s < HOTSPOT_SPACES; s++)
		used += hotspot_load_u64(c->generation[g].space[s].used);
	return used;
}

static bool hotspot_generation_exists(const struct hotspot_counters *c, int g)
{
	return c->generation[g].capacity != NULL;
}

/* What says when collections ran: invocations (counted at a collection's
 * start) and the entry and exit stamps of collectors 0-2. */
struct hotspot_gc_stamps {
	int64_t invocations[3], entry[3], exit[3];
};

static void hotspot_read_stamps(const struct hotspot_counters *c, struct hotspot_gc_stamps *st)
{
	for (int i = 0; i < 3; i++) {
		const struct hotspot_collector_counters *k = &c->collector[i];
		st->invocations[i] = k->invocations ? hsperf_load(k->invocations) : 0;
		st->entry[i] = k->last_entry ? hsperf_load(k->last_entry) : 0;
		st->exit[i] = k->last_exit ? hsperf_load(k->last_exit) : 0;
	}
}

/* A collection under way (entered, not yet left), or one that began or
 * ended between the two looks at the stamps around the sizes. */
static bool hotspot_stamps_unsettled(const struct hotspot_gc_stamps *a, const struct hotspot_gc_stamps *b)
{
	if (memcmp(a, b, sizeof(*a)) != 0)
		return true;
	for (int i = 0; i < 3; i++)
		if (b->entry[i] > b->exit[i])
			return true;
	return false;
}

static void hotspot_alloc_times(const struct hotspot_counters *c, const struct hotspot_gc_stamps *st,
				struct hotspot_alloc_reading *r)
{
	int64_t newest = c->hrt_ticks ? hsperf_load(c->hrt_ticks) : 0;
	for (int i = 0; i < 3; i++) {
		if (st->entry[i] > newest)
			newest = st->entry[i];
		if (st->exit[i] > newest)
			newest = st->exit[i];
	}
	r->jvm_clock_ns = hotspot_ticks_to_ns(c, newest);
	r->jvm_young_entry_ns = hotspot_ticks_to_ns(c, st->entry[0]);
	r->jvm_young_exit_ns = hotspot_ticks_to_ns(c, st->exit[0]);
	r->jvm_full_entry_ns = hotspot_ticks_to_ns(c, st->entry[1]);
	r->jvm_full_exit_ns = hotspot_ticks_to_ns(c, st->exit[1]);
	r->jvm_other_entry_ns = hotspot_ticks_to_ns(c, st->entry[2]);
	r->jvm_other_exit_ns = hotspot_ticks_to_ns(c, st->exit[2]);
}

/* The JVM sets sun.gc.cause when a pause's VM operation starts (moving the
 * cause before it, "No GC", into lastCause) and puts "No GC" back when the
 * operation ends, after the collector's counters: the invocation count rises
 * at the collection's entry, before lastEntryTime is written, and lastCause
 * names this collection only once the operation is over. A reading between
 * those points has settled stamps and a new count but lastCause "No GC",
 * which would take a full eden for an empty one (measured: 1 to 3 of about
 * 300 collections a run on JDK 25 Parallel, more on a loaded machine), so it
 * waits for the operation's end: while the cause is set, or while lastCause
 * is "No GC" after a collection (a copy of the file preempted between the
 * two strings can see the one without the other). Only for the collectors
 * whose cause setter spans a pause: ZGC and Shenandoah keep a cause through
 * concurrent cycles. */
static bool hotspot_pause_under_way(const struct hsperf *p, const struct hotspot_counters *c,
				    const char *last_cause, uint64_t collections)
{
	if (c->gc != HOTSPOT_GC_G1 && c->gc != HOTSPOT_GC_PARALLEL && c->gc != HOTSPOT_GC_SERIAL)
		return false;
	if (collections && strcmp(last_cause, HOTSPOT_CAUSE_NONE) == 0)
		return true;
	char cause[96];
	if (hsperf_read_string_entry(p, c->cause, cause, sizeof(cause)) != 0)
		return false;
	return strcmp(cause, HOTSPOT_CAUSE_NONE) != 0;
}

void hotspot_counters_alloc_reading(const struct hsperf *p, const struct hotspot_counters *c,
				    struct hotspot_alloc_reading *r)
{
	memset(r, 0, sizeof(*r));
	struct hotspot_gc_stamps before, after;
	hotspot_read_stamps(c, &before);
	r->young_gcs = before.invocations[0] > 0 ? (uint64_t)before.invocations[0] : 0;
	r->full_gcs = before.invocations[1] > 0 ? (uint64_t)before.invocations[1] : 0;
	r->other_pauses = before.invocations[2] > 0 ? (uint64_t)before.invocations[2] : 0;
	const struct hotspot_space_counters *eden = &c->generation[0].space[0];
	r->eden_used = hotspot_load_u64(eden->used);
	r->eden_capacity = hotspot_capacity(c, eden->capacity);
	if (c->gc == HOTSPOT_GC_G1 && c->g1_eden_slack_pct) {
		/* The allowance is a share of the young target, survivors included. */
		uint64_t survivors = hotspot_capacity(c, c->generation[0].space[2].capacity);
		uint64_t young = (r->eden_capacity + survivors) * 100 / (100 + c->g1_eden_slack_pct);
		r->eden_capacity = young > survivors ? young - survivors : 0;
	}
	r->old_used = hotspot_load_u64(c->generation[1].space[0].used);
	r->heap_used = hotspot_generation_used(c, 0) + hotspot_generation_used(c, 1);
	/* In HeapWords despite its Bytes unit (reference §2.5). */
	r->tlab_bytes = hotspot_load_u64(c->tlab_alloc_words) * 8;
	r->tlab_fills = hotspot_load_u64(c->tlab_fills);
	r->tlab_slow_allocs = hotspot_load_u64(c->tlab_slow_allocs);
	r->tlab_waste_bytes = (hotspot_load_u64(c->tlab_gc_waste) + hotspot_load_u64(c->tlab_refill_waste)) * 8;
	if (c->safepoint_sync_time)
		r->safepoint_sync_ns = hotspot_ticks_to_ns(c, hsperf_load(c->safepoint_sync_time));
	r->has_promoted = c->promoted != NULL;
	r->promoted_bytes = hotspot_load_u64(c->promoted);
	hsperf_read_string_entry(p, c->last_cause, r->last_cause, sizeof(r->last_cause));
	r->eden_was_full = hotspot_alloc_estimate_cause_fills_eden(r->last_cause);
	hotspot_read_stamps(c, &after);
	r->in_progress = hotspot_stamps_unsettled(&before, &after) ||
			  hotspot_pause_under_way(p, c, r->last_cause, r->young_gcs + r->full_gcs);
	hotspot_alloc_times(c, &after, r);
}

void hotspot_counters_live_reading(const struct hsperf *p, const struct hotspot_counters *c,
				   const struct hotspot_alloc_reading *a, struct hotspot_live_reading *r)
{
	memset(r, 0, sizeof(*r));
	r->mono_ns = a->mono_ns;
	r->in_progress = a->in_progress;
	r->invocations[0] = a->young_gcs;
	r->invocations[1] = a->full_gcs;
	r->invocations[2] = a->other_pauses;
	r->old_used = a->old_used;
	r->has_live_at_full = c->live_at_last_full_gc != NULL;
	r->live_at_full = hotspot_load_u64(c->live_at_last_full_gc);
	/* Only their rules look at the cause between collections (a string
	 * read at every poll is kept to the collectors that need it). */
	if (c->gc == HOTSPOT_GC_Z_GENERATIONAL || c->gc == HOTSPOT_GC_SHENANDOAH)
		hsperf_read_string_entry(p, c->cause, r->cause, sizeof(r->cause));
}

void hotspot_counters_fill_old(const struct hotspot_counters *c, struct gt_sample *out)
{
	/* jstat: OU = generation.1.space.0.used, OC = its capacity, OGCMX =
	 * generation.1.maxCapacity (the whole heap where old is not split off:
	 * G1, ZGC, Shenandoah). */
	const struct hotspot_generation_counters *old = &c->generation[1];
	if (!old->space[0].used)
		return;
	gt_u64_set(&out->old_used_bytes, hotspot_load_u64(old->space[0].used));
	if (old->space[0].capacity)
		gt_u64_set(&out->old_committed_bytes, hotspot_capacity(c, old->space[0].capacity));
	if (old->max_capacity)
		gt_u64_set(&out->old_max_bytes, hotspot_capacity(c, old->max_capacity));
}

/* Which collector counts a generation's collections, per collector layout. */
struct hotspot_generation_map {
	const char *name;
	int generation;  /* sun.gc.generation.G */
	int collector;   /* sun.gc.collector.N */
};

static size_t hotspot_generation_layout(enum hotspot_gc gc, struct hotspot_generation_map map[2])
{
	switch (gc) {
	case HOTSPOT_GC_Z:
		map[0] = (struct hotspot_generation_map){ "old", 1, 2 };
		return 1;
	case HOTSPOT_GC_Z_GENERATIONAL:
		map[0] = (struct hotspot_generation_map){ "young", 0, 0 };
		map[1] = (struct hotspot_generation_map){ "old", 1, 2 };
		return 2;
	case HOTSPOT_GC_SHENANDOAH:
		map[0] = (struct hotspot_generation_map){ "heap", 1, 1 };
		return 1;
	case HOTSPOT_GC_G1:
	case HOTSPOT_GC_PARALLEL:
	case HOTSPOT_GC_SERIAL:
	case HOTSPOT_GC_UNKNOWN:
		break;
	}
	map[0] = (struct hotspot_generation_map){ "young", 0, 0 };
	map[1] = (struct hotspot_generation_map){ "old", 1, 1 };
	return 2;
}

static void hotspot_fill_generations(const struct hotspot_counters *c, struct gt_sample *out)
{
	struct hotspot_generation_map map[2];
	size_t n = hotspot_generation_layout(c->gc, map);
	out->n_generations = 0;
	/* the collectors' invocation counters run from the JVM's start */
	out->collections_since = GT_ALLOC_SINCE_PROCESS_START;
	for (size_t i = 0; i < n; i++) {
		int g = map[i].generation;
		if (!hotspot_generation_exists(c, g))
			continue;
		struct gt_generation *gen = &out->generations[out->n_generations++];
		memset(gen, 0, sizeof(*gen));
		snprintf(gen->name, sizeof(gen->name), "%s", map[i].name);
		hsperf_long inv = c->collector[map[i].collector].invocations;
		if (inv)
			gt_u64_set(&gen->collections, hotspot_load_u64(inv));
		gt_u64_set(&gen->used_bytes, hotspot_generation_used(c, g));
		uint64_t committed = 0;
		if (c->gc == HOTSPOT_GC_G1) {
			/* Sum the unpadded spaces rather than the padded total. */
			for (int s = 0; s < HOTSPOT_SPACES; s++)
				committed += hotspot_capacity(c, c->generation[g].space[s].capacity);
		} else {
			committed = hotspot_load_u64(c->generation[g].capacity);
		}
		gt_u64_set(&gen->committed_bytes, committed);
		if (c->generation[g].max_capacity)
			gt_u64_set(&gen->max_bytes, hotspot_capacity(c, c->generation[g].max_capacity));
	}
}

static void hotspot_fill_heap(const struct hotspot_counters *c, struct gt_sample *out)
{
	uint64_t used = 0, committed = 0, max_sum = 0, max_largest = 0;
	bool any = false;
	for (int g = 0; g < HOTSPOT_GENERATIONS; g++) {
		if (!hotspot_generation_exists(c, g))
			continue;
		any = true;
		used += hotspot_generation_used(c, g);
		if (c->gc == HOTSPOT_GC_G1) {
			for (int s = 0; s < HOTSPOT_SPACES; s++)
				committed += hotspot_capacity(c, c->generation[g].space[s].capacity);
		} else {
			committed += hotspot_load_u64(c->generation[g].capacity);
		}
		uint64_t max = hotspot_capacity(c, c->generation[g].max_capacity);
		max_sum += max;
		if (max > max_largest)
			max_largest = max;
	}
	if (!any)
		return;
	gt_u64_set(&out->heap_used_bytes, used);
	gt_u64_set(&out->heap_committed_bytes, committed);
	/* Serial and Parallel split the heap between generations; the others
	 * give every generation the whole heap as its maximum. */
	bool split = c->gc == HOTSPOT_GC_SERIAL || c->gc == HOTSPOT_GC_PARALLEL;
	gt_u64_set(&out->heap_max_bytes, split ? max_sum : max_largest);
}

bool hotspot_collector_listed(const struct hotspot_collector_counters *k)
{
	return k->invocations || k->time;
}

static void hotspot_fill_collectors(const struct hsperf *p, const struct hotspot_counters *c, struct gt_sample *out)
{
	out->n_collectors = 0;
	uint64_t pause_ns = 0;
	bool any_time = false;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS && out->n_collectors < GT_MAX_COLLECTORS; i++) {
		const struct hotspot_collector_counters *k = &c->collector[i];
		if (!hotspot_collector_listed(k))
			continue;
		struct gt_collector_stat *st = &out->collectors[out->n_collectors++];
		memset(st, 0, sizeof(*st));
		if (hsperf_read_string_entry(p, k->name, st->name, sizeof(st->name)) != 0 || !st->name[0])
			snprintf(st->name, sizeof(st->name), "collector %d", i);
		if (k->invocations)
			gt_u64_set(&st->invocations, hotspot_load_u64(k->invocations));
		if (k->time) {
			uint64_t ns = hotspot_ticks_to_ns(c, hsperf_load(k->time));
			gt_u64_set(&st->time_ns, ns);
			pause_ns += ns;
			any_time = true;
		}
	}
	if (c->gc == HOTSPOT_GC_SHENANDOAH) {
		/* Its collector time includes concurrent cycles; the time at and
		 * reaching safepoints is its stop-the-world time. */
		if (c->safepoint_time && c->safepoint_sync_time)
			gt_u64_set(&out->pause_total_ns,
				   hotspot_ticks_to_ns(c, hsperf_load(c->safepoint_time)) +
				   hotspot_ticks_to_ns(c, hsperf_load(c->safepoint_sync_time)));
	} else if (any_time) {
		gt_u64_set(&out->pause_total_ns, pause_ns);
	}
}

int hotspot_counters_last_pause(const struct hotspot_counters *c, int64_t *exit_ticks, uint64_t *ns)
{
	/* Shenandoah's entry and exit times bracket concurrent cycles too. */
	if (c->gc == HOTSPOT_GC_SHENANDOAH)
		return -1;
	int found = -1;
	int64_t best_exit = 0;
	uint64_t best_ns = 0;
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		const struct hotspot_collector_counters *k = &c->collector[i];
		if (!k->last_entry || !k->last_exit)
			continue;
		int64_t entry = hsperf_load(k->last_entry), exit = hsperf_load(k->last_exit);
		/* entry > exit: a pause of this collector is under way. A
		 * negative tick count is no real one (and exit - entry of it
		 * could overflow). */
		if (exit <= 0 || entry < 0 || entry > exit)
			continue;
		if (found < 0 || exit > best_exit) {
			best_exit = exit;
			best_ns = hotspot_ticks_to_ns(c, exit - entry);
			found = 0;
		}
	}
	if (found == 0) {
		*exit_ticks = best_exit;
		*ns = best_ns;
	}
	return found;
}

static void hotspot_fill_large(const struct hotspot_counters *c, struct gt_sample *out)
{
	switch (c->gc) {
	case HOTSPOT_GC_G1:
		out->large_source = "g1-humongous-estimate";
		return; /* the figures come from the estimator */
	case HOTSPOT_GC_PARALLEL:
		out->large_unavailable = "Parallel has no separate large-object space";
		return;
	case HOTSPOT_GC_SERIAL:
		out->large_unavailable = "Serial has no separate large-object space";
		return;
	case HOTSPOT_GC_Z:
	case HOTSPOT_GC_Z_GENERATIONAL:
		out->large_unavailable = "ZGC publishes no large-object figure in hsperfdata";
		return;
	case HOTSPOT_GC_SHENANDOAH:
		out->large_unavailable = "Shenandoah publishes no humongous figure in hsperfdata";
		return;
	case HOTSPOT_GC_UNKNOWN:
		break;
	}
	out->large_unavailable = "unknown collector";
}

void hotspot_counters_fill_sample(const struct hsperf *p, const struct hotspot_counters *c, struct gt_sample *out)
{
	hotspot_fill_generations(c, out);
	hotspot_fill_heap(c, out);
	hotspot_fill_collectors(p, c, out);

	int64_t exit_ticks;
	uint64_t last_ns;
	if (hotspot_counters_last_pause(c, &exit_ticks, &last_ns) == 0)
		gt_u64_set(&out->last_pause_ns, last_ns);

	if (c->safepoints)
		gt_u64_set(&out->safepoints, hotspot_load_u64(c->safepoints));
	if (c->safepoint_time && c->safepoint_sync_time)
		gt_u64_set(&out->safepoint_ns, hotspot_ticks_to_ns(c, hsperf_load(c->safepoint_time)) +
						       hotspot_ticks_to_ns(c, hsperf_load(c->safepoint_sync_time)));
	if (c->gc_cpu_time)
		gt_u64_set(&out->gc_cpu_ns, hotspot_ticks_to_ns(c, hsperf_load(c->gc_cpu_time)));
	if (c->metaspace_used)
		gt_u64_set(&out->metaspace_used_bytes, hotspot_load_u64(c->metaspace_used));
	if (c->metaspace_capacity)
		gt_u64_set(&out->metaspace_committed_bytes, hotspot_load_u64(c->metaspace_capacity));

	hsperf_read_string_entry(p, c->last_cause, out->last_gc_cause, sizeof(out->last_gc_cause));
	char cause[96];
	if (hsperf_read_string_entry(p, c->cause, cause, sizeof(cause)) == 0)
		out->gc_in_progress = cause[0] && strcmp(cause, HOTSPOT_CAUSE_NONE) != 0;
	hotspot_fill_large(c, out);
}
