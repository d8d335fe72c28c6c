/* Joining collections and their heap summaries by gcId (jfr_live.h). */
#include "collectors/hotspot/jfr/jfr_live.h"

#include <string.h>

#define JFR_LIVE_KIND_FULL "full GC (JFR)"
#define JFR_LIVE_KIND_Z "ZGC cycle (JFR; upper bound: with what was allocated during it)"
#define JFR_LIVE_NAME_LEN 64

void jfr_live_init(struct jfr_live *l)
{
	memset(l, 0, sizeof(*l));
}

const char *jfr_live_kind(const char *gc_name)
{
	static const char *const full[] = { "G1Full", "ParallelOld", "SerialOld" };
	for (size_t i = 0; i < sizeof(full) / sizeof(full[0]); i++)
		if (strcmp(gc_name, full[i]) == 0)
			return JFR_LIVE_KIND_FULL;
	/* JDK 17's ZGC; generational ZGC's names are "ZGC Major"/"ZGC Minor",
	 * whose heap summaries count both generations */
	if (strcmp(gc_name, "Z") == 0)
		return JFR_LIVE_KIND_Z;
	return NULL;
}

static bool jfr_live_given(const struct jfr_live *l, uint64_t gc_id)
{
	for (size_t i = 0; i < sizeof(l->given) / sizeof(l->given[0]); i++)
		if (l->given[i] == gc_id + 1)
			return true;
	return false;
}

static void jfr_live_give(struct jfr_live *l, uint64_t gc_id)
{
	l->given[l->given_next] = gc_id + 1;
	l->given_next = (l->given_next + 1) % (uint32_t)(sizeof(l->given) / sizeof(l->given[0]));
}

/* The pending entry of gc_id, made (the oldest evicted) when new; NULL
 * when the gcId was given already or is too old to be waited for. */
static struct jfr_live_pending *jfr_live_entry(struct jfr_live *l, uint64_t gc_id)
{
	if (gc_id == UINT64_MAX || jfr_live_given(l, gc_id))
		return NULL;
	if (l->any && gc_id + JFR_LIVE_GCID_WINDOW < l->newest_id)
		return NULL;
	if (!l->any || gc_id > l->newest_id)
		l->newest_id = gc_id;
	l->any = true;
	/* its own entry; else a free one; else the lowest gcId's, which
	 * waited longest for its other half */
	struct jfr_live_pending *slot = NULL;
	for (size_t i = 0; i < JFR_LIVE_PENDING; i++) {
		struct jfr_live_pending *p = &l->pending[i];
		if (p->used && p->gc_id == gc_id)
			return p;
		if (!p->used) {
			if (!slot || slot->used)
				slot = p;
		} else if (!slot || (slot->used && p->gc_id < slot->gc_id)) {
			slot = p;
		}
	}
	*slot = (struct jfr_live_pending){ .used = true, .gc_id = gc_id };
	return slot;
}

/* Both halves in: a point, or nothing for a collection of no old kind. */
static void jfr_live_complete(struct jfr_live *l, struct jfr_live_pending *p)
{
	if (!p->named || (p->kind && !p->have_after))
		return;
	/* only points are remembered: a young collection read again makes
	 * no point either */
	if (p->kind) {
		l->points[l->count++ % JFR_LIVE_POINTS] =
			(struct jfr_live_point){ p->gc_id, p->heap_used, p->after_ns, p->kind };
		jfr_live_give(l, p->gc_id);
	}
	p->used = false;
}

void jfr_live_note_gc(struct jfr_live *l, uint64_t gc_id, const char *name)
{
	struct jfr_live_pending *p = jfr_live_entry(l, gc_id);
	if (!p)
		return;
	p->named = true;
	p->kind = jfr_live_kind(name);
	jfr_live_complete(l, p);
}

void jfr_live_note_after(struct jfr_live *l, uint64_t gc_id, uint64_t heap_used, int64_t at_ns)
{
	struct jfr_live_pending *p = jfr_live_entry(l, gc_id);
	if (!p)
		return;
	p->have_after = true;
	p->heap_used = heap_used;
	p->after_ns = at_ns;
	jfr_live_complete(l, p);
}

void jfr_live_add(struct jfr_live *l, const struct gt_jfr_event *ev)
{
	bool gc = strcmp(ev->type_name, JFR_LIVE_GC_EVENT) == 0;
	if (!gc && strcmp(ev->type_name, JFR_LIVE_HEAP_EVENT) != 0)
		return;
	struct gt_error e;
	int64_t id = 0;
	if (gt_jfr_get_int(&ev->value, "gcId", &id, &e) != GT_JFR_OK || id < 0) {
		l->bad_events++;
		return;
	}
	char text[JFR_LIVE_NAME_LEN];
	if (gc) {
		if (gt_jfr_get_string(&ev->value, "name", text, sizeof(text), &e) != GT_JFR_OK) {
			l->bad_events++;
			return;
		}
		jfr_live_note_gc(l, (uint64_t)id, text);
		return;
	}
	int64_t used = 0;
	if (gt_jfr_get_string(&ev->value, "when", text, sizeof(text), &e) != GT_JFR_OK) {
		l->bad_events++;
		return;
	}
	if (strcmp(text, "After GC") != 0)
		return;
	if (!ev->has_start || gt_jfr_get_int(&ev->value, "heapUsed", &used, &e) != GT_JFR_OK || used < 0) {
		l->bad_events++;
		return;
	}
	jfr_live_note_after(l, (uint64_t)id, (uint64_t)used, ev->start_ns);
}
