/* The .NET allocation sampler's aggregation: stacks by id, first
 * application frames, and weights summed per frame and per type and heap. */
#include "collectors/dotnet/sampler/dotnet_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "base/array.h"
#include "collectors/dotnet/sampler/dotnet_alloc_stacks.h"
#include "collectors/dotnet/sampler/dotnet_alloc_unnamed.h"

#define PREFIXES_MAX 16
#define PREFIX_LEN 64
/* Bounds on what a stream can make gctop keep: stacks per sequence-point
 * region, frames per stack, distinct sites per table. */
#define STACKS_MAX (1u << 18)
#define FRAMES_MAX 256
#define SITES_MAX 8192
#define OTHER_SITE "(other sites)"

struct stack {
	uint64_t *ips;
	uint32_t n;
	int32_t frame_site;    /* by_frame index of its first application frame, -1 not yet */
	bool slot_known;       /* stack_slot is its slot in frame_site's stacks */
	int32_t stack_slot;    /* -1: no room */
};

struct site {
	char name[GT_ALLOC_SITE_NAME_LEN];
	enum gt_alloc_heap heap;
	double bytes;
	uint64_t count;
	struct gt_dn_site_stacks stacks; /* by_frame only */
};

struct site_table {
	struct site *v;
	size_t n, cap;
};

struct gt_dn_alloc {
	bool sampled;
	int pointer_size;
	double scale;                   /* each sample's weight times this */
	char prefixes[PREFIXES_MAX][PREFIX_LEN];
	unsigned n_prefixes;
	struct stack *stacks;           /* indexed by id */
	size_t stacks_cap;
	struct gt_dn_methods methods;
	struct gt_dn_unnamed unnamed;   /* sampled: code no method named yet */
	struct site_table by_frame, by_type;
	size_t n_stacks;                /* distinct stacks over all sites */
	uint64_t samples;
	double est_bytes;
};

static int parse_packages(struct gt_dn_alloc *a, const char *packages, struct gt_error *err)
{
	const char *s = packages && *packages ? packages : GT_DN_DEFAULT_PACKAGES;
	while (*s) {
		size_t len = strcspn(s, ",");
		if (len > 0) {
			if (a->n_prefixes == PREFIXES_MAX || len >= PREFIX_LEN)
				return gt_fail(err, GT_EXIT_USAGE,
					       "--allocator-packages takes at most %d prefixes of fewer than %d characters",
					       PREFIXES_MAX, PREFIX_LEN);
			memcpy(a->prefixes[a->n_prefixes], s, len);
			a->prefixes[a->n_prefixes++][len] = '\0';
		}
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

struct gt_dn_alloc *gt_dn_alloc_new(bool sampled, const char *packages, struct gt_error *err)
{
	struct gt_dn_alloc *a = gt_calloc(sizeof(*a), err);
	if (!a)
		return NULL;
	a->sampled = sampled;
	a->pointer_size = 8;
	a->scale = 1;
	if (parse_packages(a, packages, err) != 0) {
		free(a);
		return NULL;
	}
	return a;
}

static void clear_stacks(struct gt_dn_alloc *a)
{
	for (size_t i = 0; i < a->stacks_cap; i++) {
		free(a->stacks[i].ips);
		a->stacks[i].ips = NULL;
		a->stacks[i].n = 0;
	}
}

void gt_dn_alloc_free(struct gt_dn_alloc *a)
{
	if (!a)
		return;
	clear_stacks(a);
	free(a->stacks);
	gt_dn_methods_free(&a->methods);
	gt_dn_unnamed_free(&a->unnamed);
	for (size_t i = 0; i < a->by_frame.n; i++)
		gt_dn_site_stacks_free(&a->by_frame.v[i].stacks, &a->n_stacks);
	free(a->by_frame.v);
	free(a->by_type.v);
	free(a);
}

void gt_dn_alloc_set_pointer_size(struct gt_dn_alloc *a, int pointer_size)
{
	if (pointer_size == 4 || pointer_size == 8)
		a->pointer_size = pointer_size;
}

void gt_dn_alloc_set_scale(struct gt_dn_alloc *a, double scale)
{
	if (scale >= 1)
		a->scale = scale;
}

void gt_dn_alloc_stack(struct gt_dn_alloc *a, uint32_t id, const uint8_t *ips, uint32_t size)
{
	if (id >= STACKS_MAX)
		return;
	struct stack *v = gt_array_grow(a->stacks, &a->stacks_cap, (size_t)id + 1, sizeof(*v), 256);
	if (!v)
		return;
	a->stacks = v;
	struct stack *s = &a->stacks[id];
	free(s->ips);
	s->ips = NULL;
	s->n = 0;
	s->frame_site = -1;
	s->slot_known = false;
	size_t ps = (size_t)a->pointer_size;
	size_t n = size / ps;
	if (n > FRAMES_MAX)
		n = FRAMES_MAX;
	if (n == 0)
		return;
	s->ips = malloc(n * sizeof(uint64_t));
	if (!s->ips)
		return;
	for (size_t i = 0; i < n; i++)
		s->ips[i] = gt_le(ips + i * ps, a->pointer_size);
	s->n = (uint32_t)n;
	/* AllocationSampled's method loads come in a session that is not
	 * always on (dotnet_alloc_unnamed.h) */
	for (size_t i = 0; a->sampled && i < n; i++)
		if (!gt_dn_methods_find(&a->methods, s->ips[i]))
			gt_dn_unnamed_note(&a->unnamed, s->ips[i]);
}

bool gt_dn_alloc_names_wanted(const struct gt_dn_alloc *a)
{
	return gt_dn_unnamed_wanted(&a->unnamed);
}

void gt_dn_alloc_names_settled(struct gt_dn_alloc *a)
{
	gt_dn_unnamed_settle(&a->unnamed);
}

void gt_dn_alloc_sequence_point(struct gt_dn_alloc *a)
{
	clear_stacks(a);
}

void gt_dn_alloc_method(struct gt_dn_alloc *a, const uint8_t *p, size_t n)
{
	struct gt_dn_method m;
	if (gt_dn_parse_method_verbose(p, n, &m) == 0)
		gt_dn_methods_add(&a->methods, &m);
}

static bool is_runtime_frame(const struct gt_dn_alloc *a, const char *name)
{
	for (unsigned i = 0; i < a->n_prefixes; i++)
		if (strncmp(name, a->prefixes[i], strlen(a->prefixes[i])) == 0)
			return true;
	return false;
}

void gt_dn_alloc_first_frame(struct gt_dn_alloc *a, const uint64_t *ips, size_t n, char *out, size_t len)
{
	long unresolved = -1;
	for (size_t i = 0; i < n; i++) {
		const struct gt_dn_method *m = gt_dn_methods_find(&a->methods, ips[i]);
		if (!m) {
			if (unresolved < 0)
				unresolved = (long)i;
			continue;
		}
		if (!is_runtime_frame(a, m->name)) {
			snprintf(out, len, "%s", m->name);
			return;
		}
	}
	/* The application frame is past the frames the runtime walked: its
	 * outermost frame is the middle of whatever recursed, not a site. */
	if (n >= GT_DN_EP_STACK_DEPTH) {
		snprintf(out, len, "%s", GT_DN_CUT_FRAME);
		return;
	}
	/* An address no method covers is native code or a stub: never an
	 * application frame. All such stacks are one site, named for what
	 * they are, not a row per address. */
	if (unresolved >= 0) {
		snprintf(out, len, "%s", GT_DN_NATIVE_FRAME);
		return;
	}
	if (n > 0) {
		/* Every frame is the runtime's own: its outermost caller is what
		 * the application started (a thread pool or finalizer thread). */
		const struct gt_dn_method *m = gt_dn_methods_find(&a->methods, ips[n - 1]);
		snprintf(out, len, "%s", m ? m->name : "?");
		return;
	}
	snprintf(out, len, "(no stack)");
}

/* The site of (name, heap); the catch-all site when the table is full.
 * n_stacks: the distinct-stack total the table's stacks count in. */
static long site_index(struct site_table *t, const char *name, enum gt_alloc_heap heap, size_t *n_stacks)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].heap == heap && strcmp(t->v[i].name, name) == 0)
			return (long)i;
	if (t->n == SITES_MAX) {
		name = OTHER_SITE;
		heap = GT_ALLOC_HEAP_UNKNOWN;
		for (size_t i = 0; i < t->n; i++)
			if (t->v[i].heap == heap && strcmp(t->v[i].name, name) == 0)
				return (long)i;
		/* the last slot becomes the catch-all */
		t->n--;
		gt_dn_site_stacks_free(&t->v[t->n].stacks, n_stacks);
	}
	struct site *v = gt_array_grow(t->v, &t->cap, t->n + 1, sizeof(*v), 64);
	if (!v)
		return -1;
	t->v = v;
	struct site *s = &t->v[t->n];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->heap = heap;
	return (long)t->n++;
}

static void add_to(struct site_table *t, long i, double w)
{
	if (i < 0)
		return;
	t->v[i].bytes += w;
	t->v[i].count++;
}

static long frame_site(struct gt_dn_alloc *a, uint32_t stack_id)
{
	char name[GT_ALLOC_SITE_NAME_LEN];
	struct stack *s = stack_id < a->stacks_cap ? &a->stacks[stack_id] : NULL;
	if (!s || !s->ips)
		return site_index(&a->by_frame, "(no stack)", GT_ALLOC_HEAP_UNKNOWN, &a->n_stacks);
	/* Stacks repeat within a region: the choice is made once per stack. */
	if (s->frame_site >= 0 && (size_t)s->frame_site < a->by_frame.n)
		return s->frame_site;
	gt_dn_alloc_first_frame(a, s->ips, s->n, name, sizeof(name));
	long i = site_index(&a->by_frame, name, GT_ALLOC_HEAP_UNKNOWN, &a->n_stacks);
	s->frame_site = (int32_t)i;
	s->slot_known = false;
	return i;
}

/* The index of the first application frame of ips (named now), or -1. */
static long app_index(struct gt_dn_alloc *a, const uint64_t *ips, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct gt_dn_method *m = ips[i] == GT_DN_IP_ELIDED ? NULL : gt_dn_methods_find(&a->methods, ips[i]);
		if (m && !is_runtime_frame(a, m->name))
			return (long)i;
	}
	return -1;
}

/* The slot of stack s among the stacks of its site (-1: no room), chosen
 * once per stack of a region, as its site is. */
static long stack_slot(struct gt_dn_alloc *a, struct stack *s, long site)
{
	if (!s->slot_known) {
		s->stack_slot = (int32_t)gt_dn_site_stacks_slot(&a->by_frame.v[site].stacks, s->ips, s->n,
								 app_index(a, s->ips, s->n), &a->n_stacks);
		s->slot_known = true;
	}
	return s->stack_slot;
}

void gt_dn_alloc_stack_key(void *ctx, const uint64_t *ips, size_t n, struct gt_dn_stack_key *out)
{
	struct gt_dn_alloc *a = ctx;
	uint64_t starts[FRAMES_MAX];
	if (n > FRAMES_MAX)
		n = FRAMES_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct gt_dn_method *m = ips[i] == GT_DN_IP_ELIDED ? NULL : gt_dn_methods_find(&a->methods, ips[i]);
		/* a method said to start at the mark's value is not taken for it */
		starts[i] = ips[i] == GT_DN_IP_ELIDED ? GT_DN_KEY_ELIDED
			    : m && m->start != GT_DN_KEY_ELIDED ? m->start : GT_DN_KEY_NATIVE;
	}
	gt_dn_stack_key(starts, n, app_index(a, ips, n), out);
}

/* One sample's weight to the stack behind its site; samples without a
 * stack have none to name. */
static void add_stack(struct gt_dn_alloc *a, uint32_t stack_id, long site, double w)
{
	struct stack *s = stack_id < a->stacks_cap ? &a->stacks[stack_id] : NULL;
	if (site < 0 || !s || !s->ips)
		return;
	struct gt_dn_site_stacks *ss = &a->by_frame.v[site].stacks;
	gt_dn_site_stacks_add(ss, stack_slot(a, s, site), w);
}

void gt_dn_alloc_event(struct gt_dn_alloc *a, uint32_t event_id, uint32_t stack_id, const uint8_t *p, size_t n)
{
	struct gt_dn_alloc_event e;
	int rc;
	if (a->sampled && event_id == GT_DN_EV_ALLOCATION_SAMPLED)
		rc = gt_dn_parse_allocation_sampled(p, n, a->pointer_size, &e);
	else if (!a->sampled && event_id == GT_DN_EV_ALLOCATION_TICK)
		rc = gt_dn_parse_allocation_tick(p, n, a->pointer_size, &e);
	else
		return;
	if (rc != 0)
		return;
	e.weight *= a->scale;
	a->samples++;
	a->est_bytes += e.weight;
	long site = frame_site(a, stack_id);
	add_to(&a->by_frame, site, e.weight);
	add_stack(a, stack_id, site, e.weight);
	const char *type = e.type_name[0] ? e.type_name : NULL;
	char addr[32];
	if (!type) {
		snprintf(addr, sizeof(addr), "type 0x%llx", (unsigned long long)e.type_id);
		type = addr;
	}
	add_to(&a->by_type, site_index(&a->by_type, type, e.heap, &a->n_stacks), e.weight);
}

/* Weights summed from a hostile stream can pass 2^64 (AllocationAmount64 is
 * the target's word); converting such a double to an integer is undefined,
 * so the sum saturates. NaN cannot occur (weights are finite and >= 0) but
 * costs nothing to map to 0. */
static uint64_t bytes_u64(double d)
{
	if (!(d > 0))
		return 0;
	if (d >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)d;
}

static int by_bytes_desc(const void *x, const void *y)
{
	const struct site *a = *(const struct site *const *)x, *b = *(const struct site *const *)y;
	return a->bytes > b->bytes ? -1 : a->bytes < b->bytes;
}

/* The sites of t by bytes, largest first (free it), or NULL when t is
 * empty or memory is short. */
static struct site **sites_by_bytes(const struct site_table *t)
{
	struct site **order = t->n ? malloc(t->n * sizeof(*order)) : NULL;
	if (!order)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		order[i] = &t->v[i];
	qsort(order, t->n, sizeof(*order), by_bytes_desc);
	return order;
}

static void fill_table(const struct site_table *t, struct gt_alloc_table *out)
{
	memset(out, 0, sizeof(*out));
	out->complete = true;
	if (t->n == 0)
		return;
	struct site **order = sites_by_bytes(t);
	if (!order) {
		out->complete = false;
		return;
	}
	size_t shown = t->n < GT_ALLOC_SITES_MAX ? t->n : GT_ALLOC_SITES_MAX;
	out->complete = shown == t->n;
	for (size_t i = 0; i < shown; i++) {
		struct gt_alloc_site *s = &out->sites[i];
		memcpy(s->name, order[i]->name, sizeof(s->name));
		s->heap = order[i]->heap;
		s->bytes = bytes_u64(order[i]->bytes);
		s->count = order[i]->count;
	}
	out->n = (unsigned)shown;
	free(order);
}

/* Moves stack k of site i, with its bytes and samples, to site j; false
 * when j has no room for it. */
static bool move_stack(struct gt_dn_alloc *a, size_t i, size_t k, long j)
{
	struct site *from = &a->by_frame.v[i], *to = &a->by_frame.v[j];
	struct gt_dn_agg_stack st = from->stacks.v[k];
	/* kept already: to its application's callers, and never cut */
	long slot = gt_dn_site_stacks_slot(&to->stacks, st.ips, st.n, -1, &a->n_stacks);
	if (slot < 0)
		return false;
	to->stacks.v[slot].bytes += st.bytes;
	to->stacks.v[slot].count += st.count;
	to->stacks.v[slot].cut = st.cut;
	to->bytes += st.bytes;
	to->count += st.count;
	from->bytes = from->bytes > st.bytes ? from->bytes - st.bytes : 0;
	from->count = from->count > st.count ? from->count - st.count : 0;
	gt_dn_site_stacks_remove(&from->stacks, k, &a->n_stacks);
	return true;
}

/* A site is chosen when a sample arrives, with the methods known then; a
 * method whose load comes later (tier-1 code) leaves its samples to the
 * caller's site. Read out, each whole stack kept (not cut) is given its
 * site again, and moves there with its bytes when that has changed. The
 * window's rates take the move as one step. Not while the table is full:
 * a new site would push out the last. */
static void reattribute(struct gt_dn_alloc *a)
{
	char name[GT_ALLOC_SITE_NAME_LEN];
	bool moved = false;
	for (size_t i = 0; i < a->by_frame.n; i++) {
		for (size_t k = 0; k < a->by_frame.v[i].stacks.n && a->by_frame.n < SITES_MAX;) {
			struct gt_dn_agg_stack *st = &a->by_frame.v[i].stacks.v[k];
			/* names change only with new methods */
			if (st->cut || st->site_checked == a->methods.n) {
				k++;
				continue;
			}
			st->site_checked = a->methods.n;
			gt_dn_alloc_first_frame(a, st->ips, st->n, name, sizeof(name));
			long j = strcmp(name, a->by_frame.v[i].name) == 0 ? -1
				 : site_index(&a->by_frame, name, GT_ALLOC_HEAP_UNKNOWN, &a->n_stacks);
			if (j >= 0 && (size_t)j != i && move_stack(a, i, k, j))
				moved = true;
			else
				k++;
		}
	}
	/* the stacks of the region name sites and slots that may have moved */
	for (size_t i = 0; moved && i < a->stacks_cap; i++) {
		a->stacks[i].frame_site = -1;
		a->stacks[i].slot_known = false;
	}
}

void gt_dn_alloc_snapshot(struct gt_dn_alloc *a, uint64_t mono_ns, struct gt_alloc_snapshot *s)
{
	reattribute(a);
	memset(s, 0, sizeof(*s));
	s->mono_ns = mono_ns;
	s->generation = 1;
	snprintf(s->source, sizeof(s->source), "%s", a->sampled ? GT_DN_SOURCE_SAMPLED : GT_DN_SOURCE_TICK);
	s->state = GT_SAMPLER_RUNNING;
	gt_f64_set(&s->sampled_share, 1);   /* a duty-cycled sampler says less (dotnet.c) */
	if (!a->sampled)
		snprintf(s->message, sizeof(s->message),
			 "AllocationTick gives each ~100 KB to one object's type and stack: shares are biased");
	s->samples = a->samples;
	s->est_bytes = bytes_u64(a->est_bytes);
	fill_table(&a->by_frame, &s->by_frame);
	fill_table(&a->by_type, &s->by_type);
}

void gt_dn_alloc_stacks(struct gt_dn_alloc *a, struct gt_alloc_stacks *out)
{
	reattribute(a);
	gt_alloc_stacks_clear(out);
	struct site **order = sites_by_bytes(&a->by_frame);
	if (!order)
		return;
	size_t shown = a->by_frame.n < GT_ALLOC_SITES_MAX ? a->by_frame.n : GT_ALLOC_SITES_MAX;
	for (size_t i = 0; i < shown; i++) {
		struct gt_alloc_site_stacks *o = &out->sites[out->n_sites++];
		memcpy(o->site, order[i]->name, sizeof(o->site));
		o->bytes = bytes_u64(order[i]->bytes);
		gt_dn_site_stacks_top(&order[i]->stacks, gt_dn_alloc_stack_key, a, &a->methods, out, o);
	}
	free(order);
}
