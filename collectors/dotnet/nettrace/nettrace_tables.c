/* The metadata table (event kinds by id) and the per-thread sequence
 * numbers, both bounded open-addressing hash tables. What the metadata
 * costs is counted against a budget per stream and one for the process. */
#include <stdatomic.h>
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

/* The metadata bytes of all parsers of the process. Atomic because
 * parsers live in whichever thread runs their session. */
static _Atomic size_t meta_held;

size_t gt_nettrace_meta_held(void)
{
	return atomic_load(&meta_held);
}

const struct gt_nettrace_meta *nt_meta_find(const struct gt_nettrace *p, uint32_t id)
{
	if (!p->meta_cap || id == 0)
		return NULL;
	for (size_t i = hash_u64(id, p->meta_cap);; i = (i + 1) & (p->meta_cap - 1)) {
		if (!p->metas[i])
			return NULL;
		if (p->metas[i]->id == id)
			return p->metas[i];
	}
}

/* Counts bytes against the stream's budget and the process's; fails the
 * stream (nothing charged) when either would be passed. */
static int meta_charge(struct gt_nettrace *p, size_t bytes)
{
	if (p->stats.metadata_bytes + bytes > GT_NETTRACE_META_BUDGET)
		return nt_fail(p, "the process declares more than %u KiB of event metadata, the limit for one stream",
			       GT_NETTRACE_META_BUDGET >> 10);
	size_t held = atomic_load(&meta_held);
	do {
		if (held + bytes > GT_NETTRACE_META_TOTAL)
			return nt_fail(p, "the event metadata of all .NET sessions would pass %u MiB, gctop's limit for them together",
				       GT_NETTRACE_META_TOTAL >> 20);
	} while (!atomic_compare_exchange_weak(&meta_held, &held, held + bytes));
	p->stats.metadata_bytes += bytes;
	return 0;
}

static int meta_grow(struct gt_nettrace *p)
{
	/* A session of gctop's own (GC events and counters) describes a few
	 * dozen events: a small first table, for each of a fleet's .NET
	 * processes. */
	size_t cap = p->meta_cap ? p->meta_cap * 2 : 64;
	if (meta_charge(p, (cap - p->meta_cap) * sizeof(p->metas[0])) != 0)
		return -1;
	struct gt_nettrace_meta **m = calloc(cap, sizeof(*m));
	if (!m)
		return nt_fail(p, "out of memory for nettrace metadata");
	for (size_t i = 0; i < p->meta_cap; i++) {
		if (!p->metas[i])
			continue;
		size_t j = hash_u64(p->metas[i]->id, cap);
		while (m[j])
			j = (j + 1) & (cap - 1);
		m[j] = p->metas[i];
	}
	free(p->metas);
	p->metas = m;
	p->meta_cap = cap;
	return 0;
}

static int meta_insert(struct gt_nettrace *p, const struct gt_nettrace_meta *m)
{
	if (p->meta_count >= GT_NETTRACE_MAX_METAS)
		return nt_fail(p, "the nettrace stream defines more than %d event kinds", GT_NETTRACE_MAX_METAS);
	if ((p->meta_count + 1) * 2 > p->meta_cap && meta_grow(p) != 0)
		return -1;
	struct gt_nettrace_meta *kept = malloc(sizeof(*kept));
	if (!kept)
		return nt_fail(p, "out of memory for nettrace metadata");
	if (meta_charge(p, gt_nettrace_meta_bytes(m)) != 0) {
		free(kept);
		return -1;
	}
	*kept = *m;
	size_t j = hash_u64(m->id, p->meta_cap);
	while (p->metas[j])
		j = (j + 1) & (p->meta_cap - 1);
	p->metas[j] = kept;
	p->meta_count++;
	p->stats.metadata++;
	return 0;
}

int nt_meta_add(struct gt_nettrace *p, struct gt_nettrace_meta *m)
{
	if (nt_meta_find(p, m->id)) {
		gt_nettrace_meta_clear(m);
		return 0;
	}
	if (meta_insert(p, m) != 0) {
		gt_nettrace_meta_clear(m);
		return -1;
	}
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
	for (size_t i = 0; i < p->meta_cap; i++) {
		if (p->metas[i]) {
			gt_nettrace_meta_clear(p->metas[i]);
			free(p->metas[i]);
		}
	}
	free(p->metas);
	atomic_fetch_sub(&meta_held, p->stats.metadata_bytes);
	p->stats.metadata_bytes = 0;
	free(p->threads);
}
