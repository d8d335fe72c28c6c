/* The metadata table (event kinds by id) and the per-thread sequence
 * numbers, both bounded open-addressing hash tables. */
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/nettrace/nettrace_tables.h"

static size_t hash_u64(uint64_t v, size_t cap)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)(v & (cap - 1));
}

const struct gt_nettrace_meta *nt_meta_find(const struct gt_nettrace *p, uint32_t id)
{
	if (!p->meta_cap || id == 0)
		return NULL;
	for (size_t i = hash_u64(id, p->meta_cap);; i = (i + 1) & (p->meta_cap - 1)) {
		if (p->metas[i].id == id)
			return &p->metas[i];
		if (p->metas[i].id == 0)
			return NULL;
	}
}

static int meta_grow(struct gt_nettrace *p)
{
	/* A session of gctop's own (GC events and counters) describes a few
	 * dozen events: a small first table, for each of a fleet's .NET
	 * processes (256 slots were 60 KiB each). */
	size_t cap = p->meta_cap ? p->meta_cap * 2 : 64;
	struct gt_nettrace_meta *m = calloc(cap, sizeof(*m));
	if (!m)
		return -1;
	for (size_t i = 0; i < p->meta_cap; i++) {
		if (!p->metas[i].id)
			continue;
		size_t j = hash_u64(p->metas[i].id, cap);
		while (m[j].id)
			j = (j + 1) & (cap - 1);
		m[j] = p->metas[i];
	}
	free(p->metas);
	p->metas = m;
	p->meta_cap = cap;
	return 0;
}

int nt_meta_add(struct gt_nettrace *p, struct gt_nettrace_meta *m)
{
	if (nt_meta_find(p, m->id)) {
		gt_nettrace_meta_clear(m);
		return 0;
	}
	if (p->meta_count >= GT_NETTRACE_MAX_METAS) {
		gt_nettrace_meta_clear(m);
		return nt_fail(p, "the nettrace stream defines more than %d event kinds", GT_NETTRACE_MAX_METAS);
	}
	if ((p->meta_count + 1) * 2 > p->meta_cap && meta_grow(p) != 0) {
		gt_nettrace_meta_clear(m);
		return nt_fail(p, "out of memory for nettrace metadata");
	}
	size_t j = hash_u64(m->id, p->meta_cap);
	while (p->metas[j].id)
		j = (j + 1) & (p->meta_cap - 1);
	p->metas[j] = *m;
	p->meta_count++;
	p->stats.metadata++;
	return 0;
}

static struct thread_seq *thread_slot(struct gt_nettrace *p, uint64_t tid)
{
	if ((p->thread_count + 1) * 2 > p->thread_cap) {
		if (p->thread_count >= GT_NETTRACE_MAX_THREADS)
			return NULL; /* stop tracking new threads; never grow without bound */
		size_t cap = p->thread_cap ? p->thread_cap * 2 : 64;
		struct thread_seq *t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < p->thread_cap; i++) {
			if (!p->threads[i].used)
				continue;
			size_t j = hash_u64(p->threads[i].tid, cap);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = p->threads[i];
		}
		free(p->threads);
		p->threads = t;
		p->thread_cap = cap;
	}
	size_t i = hash_u64(tid, p->thread_cap);
	while (p->threads[i].used && p->threads[i].tid != tid)
		i = (i + 1) & (p->thread_cap - 1);
	if (!p->threads[i].used) {
		p->threads[i].used = true;
		p->threads[i].tid = tid;
		p->threads[i].seq = 0;
		p->thread_count++;
	}
	return &p->threads[i];
}

/* Each capture thread numbers its events 1, 2, 3 ... within the session; a
 * gap means the runtime had to drop events (its buffers were full). The
 * first event of a thread is counted from 0 because numbering starts with
 * the session. */
void nt_note_seq(struct gt_nettrace *p, uint64_t tid, uint32_t seq)
{
	struct thread_seq *t = thread_slot(p, tid);
	if (!t)
		return;
	if (seq > t->seq + 1)
		p->stats.dropped += seq - t->seq - 1;
	if (seq > t->seq)
		t->seq = seq;
}


void nt_note_sequence_point(struct gt_nettrace *p, uint64_t tid, uint32_t seq)
{
	struct thread_seq *t = thread_slot(p, tid);
	if (t && seq > t->seq) {
		p->stats.dropped += seq - t->seq;
		t->seq = seq;
	}
}

void nt_tables_free(struct gt_nettrace *p)
{
	for (size_t i = 0; i < p->meta_cap; i++)
		if (p->metas[i].id)
			gt_nettrace_meta_clear(&p->metas[i]);
	free(p->metas);
	free(p->threads);
}
