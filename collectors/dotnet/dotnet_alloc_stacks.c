#include "collectors/dotnet/dotnet_alloc_stacks.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "collectors/dotnet/dotnet_alloc.h"

/* A stack walk gctop keeps is at most this deep (dotnet_alloc.c's FRAMES_MAX). */
#define WALK_MAX 256
/* Of a long key: innermost frames kept before the elision mark (the rest,
 * up to the application's callers, come after it). */
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
		walk[t++] = starts[i] == GT_DN_KEY_ELIDED ? GT_DN_KEY_NATIVE : starts[i];
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

static bool same_key(const struct gt_dn_stack_key *a, const struct gt_dn_stack_key *b)
{
	return a->n == b->n && memcmp(a->v, b->v, a->n * sizeof(a->v[0])) == 0;
}

long gt_dn_site_stacks_slot(struct gt_dn_site_stacks *s, const struct gt_dn_stack_key *key, size_t *total)
{
	for (size_t i = 0; i < s->n; i++)
		if (same_key(&s->v[i].key, key))
			return (long)i;
	if (s->n >= GT_DN_STACKS_PER_SITE || *total >= GT_DN_STACKS_MAX)
		return -1;
	struct gt_dn_agg_stack *v = gt_array_grow(s->v, &s->cap, s->n + 1, sizeof(*v), 4);
	if (!v)
		return -1;
	s->v = v;
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	s->v[s->n].key = *key;
	(*total)++;
	return (long)s->n++;
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

/* Index of the heaviest stack not yet taken, or -1. */
static long heaviest(const struct gt_dn_site_stacks *s, const bool *taken)
{
	long best = -1;
	for (size_t i = 0; i < s->n; i++)
		if (!taken[i] && (best < 0 || s->v[i].bytes > s->v[best].bytes))
			best = (long)i;
	return best;
}

void gt_dn_site_stacks_top(const struct gt_dn_site_stacks *s, struct gt_dn_methods *methods,
			   struct gt_alloc_stacks *pool, struct gt_alloc_site_stacks *out)
{
	bool taken[GT_DN_STACKS_PER_SITE] = { false };
	out->n = 0;
	out->distinct = s->n;
	out->dropped = s->dropped;
	for (unsigned k = 0; k < GT_ALLOC_STACKS_TOP; k++) {
		long i = heaviest(s, taken);
		if (i < 0)
			break;
		taken[i] = true;
		const struct gt_dn_agg_stack *a = &s->v[i];
		struct gt_alloc_stack *st = &out->stacks[out->n++];
		st->n_frames = a->key.n;
		for (unsigned f = 0; f < a->key.n; f++)
			st->frames[f] = gt_alloc_stacks_intern(pool, frame_name(methods, a->key.v[f]));
		st->bytes = a->bytes > 0 ? (uint64_t)(a->bytes < 1.8e19 ? a->bytes : 1.8e19) : 0;
		st->count = a->count;
	}
}
