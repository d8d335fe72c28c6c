#include "model/alloc_stacks.h"

#include <string.h>

static uint32_t name_hash(const char *name, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	return h;
}

static uint32_t add_name(struct gt_alloc_stacks *s, const char *name, size_t n)
{
	if (n + 1 > GT_ALLOC_STACK_POOL - s->pool_used)
		return UINT32_MAX;
	uint32_t off = s->pool_used;
	memcpy(s->pool + off, name, n);
	s->pool[off + n] = '\0';
	s->pool_used += (uint32_t)n + 1;
	return off;
}

uint32_t gt_alloc_stacks_intern(struct gt_alloc_stacks *s, const char *name)
{
	size_t n = strnlen(name, GT_ALLOC_SITE_NAME_LEN - 1);
	uint32_t h = name_hash(name, n);
	for (uint32_t probe = 0; probe < GT_ALLOC_STACK_SLOTS; probe++) {
		uint32_t *slot = &s->slots[(h + probe) & (GT_ALLOC_STACK_SLOTS - 1)];
		if (*slot == 0) {
			uint32_t off = add_name(s, name, n);
			if (off == UINT32_MAX)
				break;
			*slot = off + 1;
			return off;
		}
		const char *have = s->pool + *slot - 1;
		if (strncmp(have, name, n) == 0 && have[n] == '\0')
			return *slot - 1;
	}
	/* The pool or its index is full: the marker clear put first. */
	return 0;
}

void gt_alloc_stacks_clear(struct gt_alloc_stacks *s)
{
	s->n_sites = 0;
	s->pool_used = 0;
	memset(s->slots, 0, sizeof(s->slots));
	gt_alloc_stacks_intern(s, GT_ALLOC_FRAME_LOST);
}

const char *gt_alloc_stacks_name(const struct gt_alloc_stacks *s, uint32_t off)
{
	return off < s->pool_used ? s->pool + off : "";
}

const struct gt_alloc_site_stacks *gt_alloc_stacks_find(const struct gt_alloc_stacks *s, const char *site)
{
	for (unsigned i = 0; i < s->n_sites && i < GT_ALLOC_SITES_MAX; i++)
		if (strcmp(s->sites[i].site, site) == 0)
			return &s->sites[i];
	return NULL;
}

struct gt_f64 gt_alloc_stack_share(const struct gt_alloc_site_stacks *site, const struct gt_alloc_stack *st)
{
	struct gt_f64 r = { 0, false };
	if (site->bytes > 0)
		gt_f64_set(&r, st->bytes >= site->bytes ? 1.0 : (double)st->bytes / (double)site->bytes);
	return r;
}

void gt_alloc_stacks_begin(struct gt_alloc_stacks *out, const struct gt_alloc_snapshot *snap)
{
	gt_alloc_stacks_clear(out);
	unsigned n = snap->by_frame.n < GT_ALLOC_SITES_MAX ? snap->by_frame.n : GT_ALLOC_SITES_MAX;
	for (unsigned j = 0; j < n; j++) {
		struct gt_alloc_site_stacks *s = &out->sites[j];
		memset(s, 0, sizeof(*s));
		memcpy(s->site, snap->by_frame.sites[j].name, sizeof(s->site));
		s->bytes = snap->by_frame.sites[j].bytes;
	}
	out->n_sites = n;
}

int gt_alloc_stacks_keep(struct gt_alloc_site_stacks *site, uint64_t bytes, uint64_t count)
{
	unsigned k = site->n;
	if (k >= GT_ALLOC_STACKS_TOP) {
		/* full: the smallest gives way to a larger one */
		k = 0;
		for (unsigned i = 1; i < GT_ALLOC_STACKS_TOP; i++)
			if (site->stacks[i].bytes < site->stacks[k].bytes)
				k = i;
		if (site->stacks[k].bytes >= bytes)
			return -1;
	} else {
		site->n++;
	}
	site->stacks[k].bytes = bytes;
	site->stacks[k].count = count;
	site->stacks[k].n_frames = 0;
	return (int)k;
}

void gt_alloc_stacks_sort(struct gt_alloc_site_stacks *site)
{
	for (unsigned i = 1; i < site->n && i < GT_ALLOC_STACKS_TOP; i++)
		for (unsigned j = i; j > 0 && site->stacks[j - 1].bytes < site->stacks[j].bytes; j--) {
			struct gt_alloc_stack x = site->stacks[j];
			site->stacks[j] = site->stacks[j - 1];
			site->stacks[j - 1] = x;
		}
}
