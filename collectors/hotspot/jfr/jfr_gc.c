/* Pauses from jdk.GCPhasePause, each once, in start order (jfr_gc.h). */
#include "collectors/hotspot/jfr/jfr_gc.h"

#include <stdlib.h>
#include <string.h>

void jfr_gc_init(struct jfr_gc *g)
{
	memset(g, 0, sizeof(*g));
}

static bool jfr_gc_seen(const struct jfr_gc *g, uint64_t gc_id, int64_t start_ns)
{
	for (uint32_t i = 0; i < g->seen_n; i++)
		if (g->seen[i].gc_id == gc_id && g->seen[i].start_ns == start_ns)
			return true;
	return false;
}

bool jfr_gc_note(struct jfr_gc *g, uint64_t gc_id, int64_t start_ns, uint64_t duration_ns)
{
	if (jfr_gc_seen(g, gc_id, start_ns))
		return false;
	struct jfr_gc_pause p = { gc_id, start_ns, duration_ns };
	g->seen[g->seen_next] = p;
	g->seen_next = (g->seen_next + 1) % JFR_GC_SEEN;
	if (g->seen_n < JFR_GC_SEEN)
		g->seen_n++;
	g->pauses++;
	if (g->n_fresh == JFR_GC_FRESH) {
		g->lost++;
		return true;
	}
	g->fresh[g->n_fresh++] = p;
	return true;
}

void jfr_gc_add(struct jfr_gc *g, const struct gt_jfr_event *ev)
{
	if (strcmp(ev->type_name, JFR_GC_PAUSE_EVENT) != 0)
		return;
	struct gt_error e;
	int64_t id = 0, dur = 0;
	if (!ev->has_start || gt_jfr_get_int(&ev->value, "gcId", &id, &e) != GT_JFR_OK || id < 0 ||
	    gt_jfr_get_ns(&ev->value, "duration", &dur, &e) != GT_JFR_OK || dur < 0) {
		g->bad_events++;
		return;
	}
	jfr_gc_note(g, (uint64_t)id, ev->start_ns, (uint64_t)dur);
}

static int jfr_gc_by_start(const void *a, const void *b)
{
	const struct jfr_gc_pause *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->gc_id < y->gc_id ? -1 : x->gc_id > y->gc_id;
}

size_t jfr_gc_take(struct jfr_gc *g, struct jfr_gc_pause *out, size_t max)
{
	qsort(g->fresh, g->n_fresh, sizeof(g->fresh[0]), jfr_gc_by_start);
	size_t n = g->n_fresh < max ? g->n_fresh : max;
	memcpy(out, g->fresh, n * sizeof(out[0]));
	memmove(g->fresh, g->fresh + n, (g->n_fresh - n) * sizeof(g->fresh[0]));
	g->n_fresh -= (uint32_t)n;
	return n;
}
