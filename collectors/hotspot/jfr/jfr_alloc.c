/* Allocation samples into top-allocator tables (jfr_alloc.h). */
#include "collectors/hotspot/jfr/jfr_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jvm_type_name.h"

/* The agent's default (agent/agent_options.c), so both sources name the
 * same frame for the same stack. */
static const char *const jfr_default_prefixes[] = { "java.", "javax.", "jdk.", "sun.", "com.sun." };
/* Frames looked at for the first application frame: JFR's default stack
 * depth (64) is all a sample has. */
#define JFR_ALLOC_MAX_FRAMES 64u
#define JFR_ALLOC_TABLE_START 256u
/* Between a stack key's site and frames: a byte no name holds (names from
 * the target pass through here, so one that does only splits oddly). */
#define JFR_ALLOC_SEP '\x1f'

struct jfr_alloc_entry {
	char *name;                /* NULL: empty slot */
	uint64_t bytes, count;
};

/* An open-addressing table of every site seen, grown by doubling up to
 * JFR_ALLOC_SITES_KEPT sites. */
struct jfr_alloc_table {
	size_t cap, n;
	bool full;                 /* a site was left out */
	struct jfr_alloc_entry *slots;
};

static uint64_t jfr_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct jfr_alloc_table *jfr_table_new(void)
{
	struct jfr_alloc_table *t = calloc(1, sizeof(*t));
	if (t && !(t->slots = calloc(JFR_ALLOC_TABLE_START, sizeof(*t->slots)))) {
		free(t);
		return NULL;
	}
	if (t)
		t->cap = JFR_ALLOC_TABLE_START;
	return t;
}

static void jfr_table_free(struct jfr_alloc_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].name);
	free(t->slots);
	free(t);
}

static struct jfr_alloc_entry *jfr_table_slot(struct jfr_alloc_entry *slots, size_t cap, const char *name)
{
	for (size_t i = jfr_hash(name) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!slots[i].name || strcmp(slots[i].name, name) == 0)
			return &slots[i];
}

static bool jfr_table_grow(struct jfr_alloc_table *t)
{
	size_t cap = t->cap * 2;
	struct jfr_alloc_entry *s = calloc(cap, sizeof(*s));
	if (!s)
		return false;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].name)
			*jfr_table_slot(s, cap, t->slots[i].name) = t->slots[i];
	free(t->slots);
	t->slots = s;
	t->cap = cap;
	return true;
}

static void jfr_table_add(struct jfr_alloc_table *t, const char *name, uint64_t bytes, size_t kept)
{
	struct jfr_alloc_entry *e = jfr_table_slot(t->slots, t->cap, name);
	if (!e->name) {
		/* kept at most half full, so a probe always ends */
		if (t->n >= kept || ((t->n + 1) * 2 > t->cap && !jfr_table_grow(t))) {
			t->full = true;
			return;
		}
		e = jfr_table_slot(t->slots, t->cap, name);
		if (!(e->name = strdup(name))) {
			t->full = true;
			return;
		}
		t->n++;
	}
	e->bytes += bytes;
	e->count++;
}

/* The largest GT_ALLOC_SITES_MAX sites of t into out, largest first. */
static void jfr_table_top(const struct jfr_alloc_table *t, struct gt_alloc_table *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->cap; i++) {
		const struct jfr_alloc_entry *e = &t->slots[i];
		if (!e->name)
			continue;
		unsigned at = out->n;
		if (at == GT_ALLOC_SITES_MAX) {
			if (e->bytes <= out->sites[at - 1].bytes)
				continue;
			at--;
		} else {
			out->n++;
		}
		while (at > 0 && out->sites[at - 1].bytes < e->bytes) {
			out->sites[at] = out->sites[at - 1];
			at--;
		}
		struct gt_alloc_site *s = &out->sites[at];
		snprintf(s->name, sizeof(s->name), "%s", e->name);
		s->heap = GT_ALLOC_HEAP_UNKNOWN;
		s->bytes = e->bytes;
		s->count = e->count;
	}
	out->complete = !t->full && t->n <= GT_ALLOC_SITES_MAX;
}

/* The frames of key (after its site) into st, the middle of a stack deeper
 * than a slot left out as the agent leaves it (its innermost frames, the
 * mark, its outermost). */
#define JFR_ALLOC_STACK_HEAD 8u
static void jfr_stacks_frames(const char *key, struct gt_alloc_stack *st, struct gt_alloc_stacks *out)
{
	const char *names[JFR_ALLOC_MAX_FRAMES + JFR_ALLOC_STACK_CALLERS + 1];
	size_t lens[JFR_ALLOC_MAX_FRAMES + JFR_ALLOC_STACK_CALLERS + 1];
	unsigned n = 0;
	for (const char *p = strchr(key, JFR_ALLOC_SEP); p && n < sizeof(names) / sizeof(names[0]);) {
		const char *q = strchr(p + 1, JFR_ALLOC_SEP);
		names[n] = p + 1;
		lens[n++] = (size_t)((q ? q : p + 1 + strlen(p + 1)) - (p + 1));
		p = q;
	}
	unsigned keep = n, tail = 0;
	if (n > GT_ALLOC_STACK_FRAMES) {
		keep = JFR_ALLOC_STACK_HEAD;
		tail = GT_ALLOC_STACK_FRAMES - JFR_ALLOC_STACK_HEAD - 1;
	}
	char name[GT_ALLOC_SITE_NAME_LEN];
	st->n_frames = 0;
	for (unsigned i = 0; i < n; i++) {
		if (tail && i == keep) {
			st->frames[st->n_frames++] = gt_alloc_stacks_intern(out, GT_ALLOC_FRAME_ELIDED);
			i = n - tail;
		}
		size_t l = lens[i] < sizeof(name) - 1 ? lens[i] : sizeof(name) - 1;
		memcpy(name, names[i], l);
		name[l] = '\0';
		st->frames[st->n_frames++] = gt_alloc_stacks_intern(out, name);
	}
}

void jfr_alloc_stacks(const struct jfr_alloc *a, const struct gt_alloc_snapshot *snap, struct gt_alloc_stacks *out)
{
	gt_alloc_stacks_begin(out, snap);
	unsigned n = out->n_sites;
	const char *where[GT_ALLOC_SITES_MAX][GT_ALLOC_STACKS_TOP];
	const struct jfr_alloc_table *t = a->stacks;
	for (size_t i = 0; t && i < t->cap; i++) {
		const struct jfr_alloc_entry *e = &t->slots[i];
		const char *sep = e->name ? strchr(e->name, JFR_ALLOC_SEP) : NULL;
		if (!sep)
			continue;
		size_t sl = (size_t)(sep - e->name);
		for (unsigned j = 0; j < n; j++) {
			struct gt_alloc_site_stacks *s = &out->sites[j];
			if (strlen(s->site) == sl && memcmp(s->site, e->name, sl) == 0) {
				s->distinct++;
				int k = gt_alloc_stacks_keep(s, e->bytes, e->count);
				if (k >= 0)
					where[j][k] = e->name;
				break;
			}
		}
	}
	for (unsigned j = 0; j < n; j++) {
		struct gt_alloc_site_stacks *s = &out->sites[j];
		for (unsigned k = 0; k < s->n; k++)
			jfr_stacks_frames(where[j][k], &s->stacks[k], out);
		gt_alloc_stacks_sort(s);
	}
}

int jfr_alloc_init(struct jfr_alloc *a, const char *packages)
{
	memset(a, 0, sizeof(*a));
	if (!packages || !*packages) {
		for (size_t i = 0; i < sizeof(jfr_default_prefixes) / sizeof(jfr_default_prefixes[0]); i++)
			snprintf(a->prefixes[a->n_prefixes++], JFR_ALLOC_PREFIX_LEN, "%s", jfr_default_prefixes[i]);
	} else {
		for (const char *p = packages; *p;) {
			size_t n = strcspn(p, ",");
			if (n) {
				if (a->n_prefixes == JFR_ALLOC_PREFIXES_MAX || n >= JFR_ALLOC_PREFIX_LEN)
					return -1;
				memcpy(a->prefixes[a->n_prefixes], p, n);
				a->prefixes[a->n_prefixes++][n] = '\0';
			}
			p += n + (p[n] == ',');
		}
	}
	a->by_frame = jfr_table_new();
	a->by_type = jfr_table_new();
	a->stacks = jfr_table_new();
	if (!a->by_frame || !a->by_type || !a->stacks) {
		jfr_alloc_free(a);
		return -1;
	}
	return 0;
}

void jfr_alloc_free(struct jfr_alloc *a)
{
	jfr_table_free(a->by_frame);
	jfr_table_free(a->by_type);
	jfr_table_free(a->stacks);
	a->by_frame = a->by_type = a->stacks = NULL;
}

static bool jfr_alloc_runtime_frame(const struct jfr_alloc *a, const char *name)
{
	for (unsigned i = 0; i < a->n_prefixes; i++)
		if (strncmp(name, a->prefixes[i], strlen(a->prefixes[i])) == 0)
			return true;
	return false;
}

/* Frame i of v's stack as "package.Class.method". 0, or -1. */
static int jfr_alloc_frame(const struct gt_jfr_value *v, uint32_t i, char *out, size_t len)
{
	char path[64], type[GT_ALLOC_SITE_NAME_LEN], cls[GT_ALLOC_SITE_NAME_LEN], method[GT_ALLOC_SITE_NAME_LEN];
	struct gt_error e;
	snprintf(path, sizeof(path), "stackTrace.frames[%u].method.type.name", i);
	if (gt_jfr_get_string(v, path, type, sizeof(type), &e) != GT_JFR_OK)
		return -1;
	snprintf(path, sizeof(path), "stackTrace.frames[%u].method.name", i);
	if (gt_jfr_get_string(v, path, method, sizeof(method), &e) != GT_JFR_OK)
		return -1;
	gt_jvm_type_name(type, GT_JVM_INTERNAL, cls, sizeof(cls));
	/* the class cut to half the room, as the agent names a frame */
	size_t c = strnlen(cls, len / 2), m = strnlen(method, len - 2 - c);
	memcpy(out, cls, c);
	out[c] = '.';
	memcpy(out + c + 1, method, m);
	out[c + 1 + m] = '\0';
	return 0;
}

/* A sample's stack as a key: its site, then its frames innermost first up
 * to the first application frame and JFR_ALLOC_STACK_CALLERS callers, each
 * after JFR_ALLOC_SEP. */

struct jfr_alloc_key {
	char text[JFR_ALLOC_STACK_KEY_MAX];
	size_t len;
	bool cut;                  /* a frame did not fit */
};

static void jfr_key_add(struct jfr_alloc_key *k, const char *name)
{
	size_t n = strlen(name);
	if (k->cut || k->len + 1 + n + 1 > sizeof(k->text)) {
		k->cut = true;
		return;
	}
	k->text[k->len++] = JFR_ALLOC_SEP;
	memcpy(k->text + k->len, name, n + 1);
	k->len += n;
}

/* The first frame outside the runtime's packages; the top frame when the
 * whole stack is the runtime's (as the agent names it); and the frames
 * behind it into stack (the site goes in front of them later). */
static void jfr_alloc_site(const struct jfr_alloc *a, const struct gt_jfr_value *v, char *out, size_t len,
			   struct jfr_alloc_key *stack)
{
	uint32_t n = 0;
	struct gt_error e;
	if (gt_jfr_get_count(v, "stackTrace.frames", &n, &e) != GT_JFR_OK || n == 0) {
		snprintf(out, len, "(no Java frame)");
		return;
	}
	if (n > JFR_ALLOC_MAX_FRAMES)
		n = JFR_ALLOC_MAX_FRAMES;
	char top[GT_ALLOC_SITE_NAME_LEN] = "", name[GT_ALLOC_SITE_NAME_LEN];
	uint32_t app = UINT32_MAX;
	for (uint32_t i = 0; i < n && (app == UINT32_MAX || i <= app + JFR_ALLOC_STACK_CALLERS); i++) {
		if (jfr_alloc_frame(v, i, name, sizeof(name)) != 0)
			snprintf(name, sizeof(name), "(unknown method)");
		jfr_key_add(stack, name);
		if (app != UINT32_MAX)
			continue;
		if (!jfr_alloc_runtime_frame(a, name)) {
			snprintf(out, len, "%s", name);
			app = i;
		} else if (!top[0]) {
			memcpy(top, name, sizeof(top));
		}
	}
	if (app == UINT32_MAX)
		snprintf(out, len, "%s", top[0] ? top : "(unknown method)");
}

void jfr_alloc_add(struct jfr_alloc *a, const struct gt_jfr_event *ev)
{
	if (strcmp(ev->type_name, JFR_ALLOC_EVENT) != 0)
		return;
	int64_t weight = 0;
	char jvm[GT_ALLOC_SITE_NAME_LEN], type[GT_ALLOC_SITE_NAME_LEN], site[GT_ALLOC_SITE_NAME_LEN];
	struct gt_error e;
	if (gt_jfr_get_int(&ev->value, "weight", &weight, &e) != GT_JFR_OK || weight < 0) {
		a->bad_events++;
		return;
	}
	if (gt_jfr_get_string(&ev->value, "objectClass.name", jvm, sizeof(jvm), &e) == GT_JFR_OK)
		gt_jvm_type_name(jvm, GT_JVM_INTERNAL, type, sizeof(type));
	else
		snprintf(type, sizeof(type), "(unknown type)");
	struct jfr_alloc_key frames = { .len = 0 }, key = { .len = 0 };
	frames.text[0] = '\0';
	jfr_alloc_site(a, &ev->value, site, sizeof(site), &frames);
	uint64_t w = (uint64_t)weight;
	a->samples++;
	a->bytes += w;
	jfr_table_add(a->by_frame, site, w, JFR_ALLOC_SITES_KEPT);
	jfr_table_add(a->by_type, type, w, JFR_ALLOC_SITES_KEPT);
	size_t sl = strlen(site);
	if (sl + frames.len + 1 <= sizeof(key.text) && frames.len) {
		memcpy(key.text, site, sl);
		memcpy(key.text + sl, frames.text, frames.len + 1);
		jfr_table_add(a->stacks, key.text, w, JFR_ALLOC_STACKS_KEPT);
	} else if (frames.len) {
		a->stacks_lost++;
	}
}

void jfr_alloc_snapshot(const struct jfr_alloc *a, struct gt_alloc_snapshot *out)
{
	out->samples = a->samples;
	out->est_bytes = a->bytes;
	out->dropped = a->dropped;
	out->sampled_share = (struct gt_f64){ .valid = true, .value = 1.0 };
	jfr_table_top(a->by_frame, &out->by_frame);
	jfr_table_top(a->by_type, &out->by_type);
}
