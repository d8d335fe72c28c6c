/* The parts of the perf data that polls read: the data of every counter
 * hotspot_counters_resolve and hotspot_opcount_resolve resolved, and of the
 * strings read at each sample (the collectors' names, the causes). An idle
 * JVM's poll copied all its bytes in use (12 KiB of a small JVM's file,
 * 182 entries) where these are about 90 entries of 8 bytes or a short
 * string (hsperf_map_watch). */
#include "collectors/hotspot/hotspot_internal.h"

struct watch_list {
	const struct hsperf *p;
	struct hsperf_range *out;
	size_t n, max;
};

static void add_range(struct watch_list *w, const void *at, size_t len)
{
	if (!at || w->n >= w->max)
		return;
	const uint8_t *b = at;
	if (b < w->p->base || b >= w->p->base + w->p->size || len > w->p->size - (size_t)(b - w->p->base))
		return;
	w->out[w->n++] = (struct hsperf_range){ (uint32_t)(b - w->p->base), (uint32_t)len };
}

static void add_long(struct watch_list *w, hsperf_long c)
{
	add_range(w, c, sizeof(*c));
}

static void add_string(struct watch_list *w, const struct hsperf_entry *e)
{
	if (e && e->type == 'B')
		add_range(w, w->p->base + e->data_offset, e->vector_length ? e->vector_length : 1);
}

static void add_collectors(struct watch_list *w, const struct hotspot_counters *c)
{
	for (int i = 0; i < HOTSPOT_COLLECTOR_SLOTS; i++) {
		const struct hotspot_collector_counters *k = &c->collector[i];
		add_string(w, k->name);
		add_long(w, k->invocations);
		add_long(w, k->time);
		add_long(w, k->last_entry);
		add_long(w, k->last_exit);
	}
	for (int g = 0; g < HOTSPOT_GENERATIONS; g++) {
		const struct hotspot_generation_counters *gen = &c->generation[g];
		add_long(w, gen->capacity);
		add_long(w, gen->max_capacity);
		for (int s = 0; s < HOTSPOT_SPACES; s++) {
			add_long(w, gen->space[s].used);
			add_long(w, gen->space[s].capacity);
			add_long(w, gen->space[s].max_capacity);
		}
	}
}

size_t hotspot_watch_ranges(const struct hsperf *p, const struct hotspot_counters *c, const struct hotspot_opcount *o,
			    struct hsperf_range *out, size_t max)
{
	struct watch_list w = { p, out, 0, max };
	add_collectors(&w, c);
	const hsperf_long longs[] = {
		c->metaspace_used, c->metaspace_capacity, c->safepoints, c->safepoint_time, c->safepoint_sync_time,
		c->gc_cpu_time, c->create_vm_begin_ms, c->tlab_alloc_words, c->tlab_fills, c->tlab_gc_waste,
		c->tlab_refill_waste, c->tlab_slow_allocs, c->promoted, c->hrt_ticks, c->live_at_last_full_gc,
		c->class_space_used, c->class_space_capacity, o ? o->value : NULL,
	};
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		add_long(&w, longs[i]);
	add_string(&w, c->cause);
	add_string(&w, c->last_cause);
	return w.n;
}
