/* The method-name map: code ranges sorted by start, sorted again only when
 * a lookup follows additions (loads come in bursts, lookups steadily). */
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/sampler/dotnet_alloc.h"
#include "base/array.h"

/* Rundown of a large app names a few hundred thousand methods; beyond this
 * the newest are not kept and their frames show as addresses. */
#define METHODS_MAX (1u << 21)

void gt_dn_methods_add(struct gt_dn_methods *m, const struct gt_dn_method *x)
{
	if (m->n == m->cap && m->cap >= METHODS_MAX)
		return;
	struct gt_dn_method *v = gt_array_grow(m->v, &m->cap, m->n + 1, sizeof(*v), 1024);
	if (!v)
		return;
	m->v = v;
	m->v[m->n] = *x;
	m->v[m->n].order = (uint32_t)m->n;
	m->n++;
	m->sorted = false;
}

static int by_start(const void *a, const void *b)
{
	const struct gt_dn_method *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Equal starts: code freed and reused, or a rundown repeating a load;
	 * the newest sorts last, so the backward look below meets it first. */
	return x->order < y->order ? -1 : x->order > y->order;
}

const struct gt_dn_method *gt_dn_methods_find(struct gt_dn_methods *m, uint64_t ip)
{
	if (m->n == 0)
		return NULL;
	if (!m->sorted) {
		qsort(m->v, m->n, sizeof(m->v[0]), by_start);
		m->sorted = true;
	}
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo is the first start above ip; ranges before it may hold ip. A
	 * short backward look covers nested or duplicate entries. */
	for (size_t i = lo, k = 0; i > 0 && k < 8; i--, k++) {
		const struct gt_dn_method *e = &m->v[i - 1];
		if (ip - e->start < e->size)
			return e;
	}
	return NULL;
}

void gt_dn_methods_free(struct gt_dn_methods *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}
