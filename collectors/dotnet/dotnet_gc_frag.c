#include "collectors/dotnet/dotnet_gc_frag.h"

#include <string.h>

static struct gt_dn_frag_thread *thread_of(struct gt_dn_frag *f, uint64_t tid)
{
	for (unsigned i = 0; i < GT_DN_FRAG_THREADS; i++)
		if (f->threads[i].used && f->threads[i].tid == tid)
			return &f->threads[i];
	/* GC work happens on a handful of threads; the oldest entry makes room. */
	struct gt_dn_frag_thread *t = &f->threads[f->next_thread];
	f->next_thread = (f->next_thread + 1) % GT_DN_FRAG_THREADS;
	memset(t, 0, sizeof(*t));
	t->used = true;
	t->tid = tid;
	t->group = -1;
	return t;
}

void gt_dn_frag_global(struct gt_dn_frag *f, uint64_t tid, int32_t heaps)
{
	struct gt_dn_frag_thread *t = thread_of(f, tid);
	int slot = (int)f->next_group;
	f->next_group = (f->next_group + 1) % GT_DN_FRAG_GROUPS;
	/* a thread whose group is reused loses it */
	for (unsigned i = 0; i < GT_DN_FRAG_THREADS; i++)
		if (f->threads[i].group == slot)
			f->threads[i].group = -1;
	struct gt_dn_frag_group *g = &f->groups[slot];
	memset(g, 0, sizeof(*g));
	g->used = true;
	g->tid = tid;
	g->heaps = heaps > 0 ? heaps : 1;
	/* a background GC: its GCEnd came first */
	g->index = t->pending_end;
	g->end_ts = t->pending_end_ts;
	t->pending_end = 0;
	t->group = slot;
}

void gt_dn_frag_heap(struct gt_dn_frag *f, uint64_t tid, const uint64_t fragmented[GT_DN_GENS])
{
	struct gt_dn_frag_thread *t = thread_of(f, tid);
	if (t->group < 0)
		return;
	struct gt_dn_frag_group *g = &f->groups[t->group];
	if (g->records >= g->heaps)
		return;
	for (int k = 0; k < GT_DN_GENS; k++)
		g->fragmented[k] += fragmented[k];
	g->records++;
}

void gt_dn_frag_gc_end(struct gt_dn_frag *f, uint64_t tid, uint32_t index, int64_t ts)
{
	struct gt_dn_frag_thread *t = thread_of(f, tid);
	if (t->group >= 0 && f->groups[t->group].index == 0) {
		/* a blocking GC: its group came first */
		f->groups[t->group].index = index;
		f->groups[t->group].end_ts = ts;
		t->group = -1;
		return;
	}
	t->group = -1;
	t->pending_end = index;
	t->pending_end_ts = ts;
}

/* Ended later: by the runtime's clock, and by number on a tie. */
static bool ended_after(const struct gt_dn_frag_group *a, const struct gt_dn_frag_group *b)
{
	return a->end_ts != b->end_ts ? a->end_ts > b->end_ts : a->index > b->index;
}

bool gt_dn_frag_latest(const struct gt_dn_frag *f, uint64_t out[GT_DN_GENS])
{
	const struct gt_dn_frag_group *best = NULL;
	for (unsigned i = 0; i < GT_DN_FRAG_GROUPS; i++) {
		const struct gt_dn_frag_group *g = &f->groups[i];
		if (g->used && g->index && g->records == g->heaps && (!best || ended_after(g, best)))
			best = g;
	}
	if (!best)
		return false;
	memcpy(out, best->fragmented, 5 * sizeof(out[0]));
	return true;
}
