#include "collectors/dotnet/sampler/dotnet_alloc_stacks.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "collectors/dotnet/sampler/dotnet_alloc.h"

/* A stack walk gctop keeps is at most this deep (dotnet_alloc.c's FRAMES_MAX). */
#define WALK_MAX 256
/* Of a long key or a stack too deep to keep whole: innermost frames kept
 * before the elision mark (the rest, up to the application's callers, come
 * after it); one figure for both, so a stack cut when kept and its key
 * mark the same frames left out. */
#define HEAD_FRAMES 8

void gt_dn_stack_key(const uint64_t *starts, size_t n, long app, struct gt_dn_stack_key *out)
{
	size_t want = n;
	if (app >= 0 && (size_t)app + 1 + GT_DN_STACK_CALLERS < n)
		want = (size_t)app + 1 + GT_DN_STACK_CALLERS;
	if (want > WALK_MAX)
		want = WALK_MAX;
	uint64_t walk[WALK_MAX];
	size_t t = 0;
	for (size_t i = 0; i < want; i++) {
		/* a run of native frames (helpers, stubs) says one thing */
		if (starts[i] == GT_DN_KEY_NATIVE && t > 0 && walk[t - 1] == GT_DN_KEY_NATIVE)
			continue;
		walk[t++] = starts[i];
	}
	memset(out, 0, sizeof(*out));
	if (t <= GT_ALLOC_STACK_FRAMES) {
		memcpy(out->v, walk, t * sizeof(walk[0]));
		out->n = (unsigned)t;
		return;
	}
	size_t tail = GT_ALLOC_STACK_FRAMES - HEAD_FRAMES - 1;
	memcpy(out->v, walk, HEAD_FRAMES * sizeof(walk[0]));
	out->v[HEAD_FRAMES] = GT_DN_KEY_ELIDED;
	memcpy(out->v + HEAD_FRAMES + 1, walk + t - tail, tail * sizeof(walk[0]));
	out->n = GT_ALLOC_STACK_FRAMES;
}

/* A sampled address as kept: the mark's value is taken for native code. */
static uint64_t sampled_ip(uint64_t ip)
{
	return ip == GT_DN_IP_ELIDED ? GT_DN_KEY_NATIVE : ip;
}

size_t gt_dn_stack_keep(const uint64_t *ips, size_t n, long app, uint64_t *out, bool *cut)
{
	/* frames past the application's callers are never shown */
	size_t end = app >= 0 && (size_t)app + 1 + GT_DN_STACK_CALLERS < n ? (size_t)app + 1 + GT_DN_STACK_CALLERS : n;
	size_t head = end, k = 0;
	*cut = end > GT_DN_STACK_IPS;
	if (*cut)
		head = HEAD_FRAMES;
	for (size_t i = 0; i < head; i++)
		out[k++] = sampled_ip(ips[i]);
	if (!*cut)
		return k;
	out[k++] = GT_DN_IP_ELIDED;
	for (size_t i = end - (GT_DN_STACK_IPS - k); i < end; i++)
		out[k++] = sampled_ip(ips[i]);
	return k;
}

long gt_dn_site_stacks_slot(struct gt_dn_site_stacks *s, const uint64_t *ips, size_t n, long app, size_t *total)
{
	uint64_t kept[GT_DN_STACK_IPS];
	bool cut;
	n = gt_dn_stack_keep(ips, n, app, kept, &cut);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].n == n && memcmp(s->v[i].ips, kept, n * sizeof(kept[0])) == 0)
			return (long)i;
	if (s->n >= GT_DN_STACKS_PER_SITE || *total >= GT_DN_STACKS_MAX)
		return -1;
	struct gt_dn_agg_stack *v = gt_array_grow(s->v, &s->cap, s->n + 1, sizeof(*v), 4);
	if (!v)
		return -1;
	s->v = v;
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	memcpy(s->v[s->n].ips, kept, n * sizeof(kept[0]));
	s->v[s->n].n = (unsigned)n;
	s->v[s->n].cut = cut;
	(*total)++;
	return (long)s->n++;
}

void gt_dn_site_stacks_remove(struct gt_dn_site_stacks *s, size_t slot, size_t *total)
{
	if (slot >= s->n)
		return;
	s->v[slot] = s->v[--s->n];
	if (*total > 0)
		(*total)--;
}

void gt_dn_site_stacks_add(struct gt_dn_site_stacks *s, long slot, double w)
{
	if (slot < 0 || (size_t)slot >= s->n) {
		s->dropped++;
		return;
	}
	s->v[slot].bytes += w;
	s->v[slot].count++;
}

void gt_dn_site_stacks_free(struct gt_dn_site_stacks *s, size_t *total)
{
	*total -= s->n <= *total ? s->n : *total;
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static const char *frame_name(struct gt_dn_methods *methods, uint64_t v)
{
	if (v == GT_DN_KEY_ELIDED)
		return GT_ALLOC_FRAME_ELIDED;
	const struct gt_dn_method *m = v == GT_DN_KEY_NATIVE ? NULL : gt_dn_methods_find(methods, v);
	/* an address no method covers is native code, never the application's */
	return m ? m->name : GT_DN_NATIVE_FRAME;
}

/* A key and the samples of every stack that has it. */
struct merged {
	struct gt_dn_stack_key key;
	double bytes;
	uint64_t count;
};

static bool same_key(const struct gt_dn_stack_key *a, const struct gt_dn_stack_key *b)
{
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(a->v[0])) == 0;
}

/* The stacks of s by key into m (room for s->n); returns how many keys. */
static size_t merge_by_key(const struct gt_dn_site_stacks *s, gt_dn_key_fn *key, void *ctx, struct merged *m)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct gt_dn_stack_key k;
		key(ctx, s->v[i].ips, s->v[i].n, &k);
		size_t j = 0;
		while (j < n && !same_key(&m[j].key, &k))
			j++;
		if (j == n) {
			m[n].key = k;
			m[n].bytes = 0;
			m[n++].count = 0;
		}
		m[j].bytes += s->v[i].bytes;
		m[j].count += s->v[i].count;
	}
	return n;
}

static int by_bytes_desc(const void *x, const void *y)
{
	const struct merged *a = x, *b = y;
	return a->bytes > b->bytes ? -1 : a->bytes < b->bytes;
}

void gt_dn_site_stacks_top(const struct gt_dn_site_stacks *s, gt_dn_key_fn *key, void *ctx,
			   struct gt_dn_methods *methods, struct gt_alloc_stacks *pool, struct gt_alloc_site_stacks *out)
{
	out->n = 0;
	out->distinct = 0;
	out->dropped = s->dropped;
	struct merged *m = s->n ? malloc(s->n * sizeof(*m)) : NULL;
	if (!m)
		return;
	size_t n = merge_by_key(s, key, ctx, m);
	qsort(m, n, sizeof(*m), by_bytes_desc);
	out->distinct = n;
	for (size_t k = 0; k < n && k < GT_ALLOC_STACKS_TOP; k++) {
		struct gt_alloc_stack *st = &out->stacks[out->n++];
		st->n_frames = m[k].key.n;
		for (unsigned f = 0; f < m[k].key.n; f++)
			st->frames[f] = gt_alloc_stacks_intern(pool, frame_name(methods, m[k].key.v[f]));
		st->bytes = m[k].bytes > 0 ? (uint64_t)(m[k].bytes < 1.8e19 ? m[k].bytes : 1.8e19) : 0;
		st->count = m[k].count;
	}
	free(m);
}
