/* Summing jdk.ThreadAllocationStatistics (jfr_alloc_total.h). */
#include "collectors/hotspot/jfr/jfr_alloc_total.h"

#include <stdlib.h>
#include <string.h>

#define JFR_ALLOC_TOTAL_FIRST_CAP 256u

void jfr_alloc_total_init(struct jfr_alloc_total *t)
{
	memset(t, 0, sizeof(*t));
}

void jfr_alloc_total_free(struct jfr_alloc_total *t)
{
	free(t->threads);
	memset(t, 0, sizeof(*t));
}

static uint32_t jfr_alloc_total_slot(const struct jfr_alloc_total_thread *tab, uint32_t cap, uint64_t id)
{
	/* Fibonacci hashing: thread ids are small consecutive numbers */
	uint32_t i = (uint32_t)((id * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
	while (tab[i].id != 0 && tab[i].id != id)
		i = (i + 1) & (cap - 1);
	return i;
}

/* Doubles the table (kept at most half full); false when out of memory. */
static bool jfr_alloc_total_grow(struct jfr_alloc_total *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : JFR_ALLOC_TOTAL_FIRST_CAP;
	struct jfr_alloc_total_thread *tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return false;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->threads[i].id)
			tab[jfr_alloc_total_slot(tab, cap, t->threads[i].id)] = t->threads[i];
	free(t->threads);
	t->threads = tab;
	t->cap = cap;
	return true;
}

void jfr_alloc_total_note(struct jfr_alloc_total *t, uint64_t thread_id, uint64_t allocated, int64_t start_ns)
{
	uint64_t id = thread_id + 1;
	if (id == 0)
		id = UINT64_MAX; /* the one id that wraps: no thread has it, but no free slot either */
	if (t->used * 2 >= t->cap && t->used < JFR_ALLOC_TOTAL_THREADS_KEPT && !jfr_alloc_total_grow(t)) {
		t->threads_lost++;
		return;
	}
	uint32_t i = jfr_alloc_total_slot(t->threads, t->cap, id);
	if (t->threads[i].id == 0) {
		if (t->used >= JFR_ALLOC_TOTAL_THREADS_KEPT) {
			t->threads_lost++;
			return;
		}
		t->threads[i].id = id;
		t->used++;
	}
	/* A new period: the total so far is the one as of the period before
	 * (the JVM writes a period's events together, so they arrive
	 * together; an event of an older period only raises its thread). */
	if (start_ns > t->at_ns) {
		t->prev_total = t->total;
		t->prev_ns = t->at_ns;
		t->at_ns = start_ns;
	}
	if (allocated > t->threads[i].allocated) {
		t->total += allocated - t->threads[i].allocated;
		t->threads[i].allocated = allocated;
	}
}

void jfr_alloc_total_add(struct jfr_alloc_total *t, const struct gt_jfr_event *ev)
{
	if (strcmp(ev->type_name, JFR_ALLOC_TOTAL_EVENT) != 0)
		return;
	int64_t allocated = 0, id = 0;
	struct gt_error e;
	if (!ev->has_start || ev->start_ns <= 0 || gt_jfr_get_int(&ev->value, "allocated", &allocated, &e) != GT_JFR_OK ||
	    allocated < 0 || gt_jfr_get_int(&ev->value, "thread.javaThreadId", &id, &e) != GT_JFR_OK || id < 0) {
		t->bad_events++;
		return;
	}
	jfr_alloc_total_note(t, (uint64_t)id, (uint64_t)allocated, ev->start_ns);
}
