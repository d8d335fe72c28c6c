/* The operations counter of --ops: a perf-data counter the application
 * publishes itself (jdk.internal.perf.PerfCounter or Perf.createLong, which HotSpot puts
 * in the same hsperfdata file as its own counters), for bytes per
 * operation. It is read from the same copy of the file as the allocation
 * estimate, so both figures are of one moment. An MBean attribute
 * (--ops jmx:...) is read by gctop's agent instead
 * (collectors/hotspot/attach/hotspot_sampler_opcount.c); until the agent's
 * sampler fills it, the sample says that it is not being read. */
#include "collectors/hotspot/hotspot_internal.h"

#include <string.h>

#include "model/opcount_spec.h"

/* The reasons, static: the sample keeps only a pointer. The front ends name the
 * counter beside them. */
#define OPCOUNT_MISSING "the JVM publishes no perf-data counter of this name (yet); an application creates one " \
			"with jdk.internal.perf.PerfCounter.newPerfCounter, see gctop(1) under --ops"
#define OPCOUNT_NOT_LONG "this perf-data counter is not one whole number (a string or an array)"
#define OPCOUNT_NEGATIVE "this perf-data counter holds a negative number, which counts no operations"
#define OPCOUNT_NO_AGENT "gctop's agent reads this attribute, and gctop is not reading the agent in this JVM (the " \
			 "allocators pane says why); --allocators loads it, or --ops-agent with --doctor and with --serve " \
			 "for the JVMs of -p or of --ops-agent-match"

void hotspot_opcount_init(struct hotspot_opcount *o, const char *name)
{
	*o = (struct hotspot_opcount){ .name = name, .jmx = name && gt_opcount_is_jmx(name) };
}

void hotspot_opcount_resolve(struct hotspot_opcount *o, const struct hsperf *p)
{
	if (!o->name || o->value || o->jmx)
		return;
	const struct hsperf_entry *e = hsperf_find(p, o->name);
	o->value = e ? hsperf_resolve_long(p, o->name) : NULL;
	o->why = !e ? OPCOUNT_MISSING : !o->value ? OPCOUNT_NOT_LONG : NULL;
}

void hotspot_opcount_fill(const struct hotspot_opcount *o, struct gt_sample *out)
{
	if (!o->name)
		return;
	out->opcount_name = "operations";
	out->opcount_counter = o->name;
	if (o->jmx) {
		out->opcount_unavailable = OPCOUNT_NO_AGENT;
		return;
	}
	int64_t v = o->value ? hsperf_load(o->value) : -1;
	if (v >= 0)
		gt_u64_set(&out->opcount_total, (uint64_t)v);
	else
		out->opcount_unavailable = o->value ? OPCOUNT_NEGATIVE : o->why;
}
