/* Allocation samples into top-allocator tables (jfr_alloc.h). */
#include "collectors/hotspot/jfr/jfr_alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The agent's default (agent/agent_options.c), so both sources name the
 * same frame for the same stack. */
static const char *const jfr_default_prefixes[] = { "java.", "javax.", "jdk.", "sun.", "com.sun." };
/* Frames looked at for the first application frame: JFR's default stack
 * depth (64) is all a sample has. */
#define JFR_ALLOC_MAX_FRAMES 64u
#define JFR_ALLOC_TABLE_START 256u

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

static void jfr_table_add(struct jfr_alloc_table *t, const char *name, uint64_t bytes)
{
	struct jfr_alloc_entry *e = jfr_table_slot(t->slots, t->cap, name);
	if (!e->name) {
		/* kept at most half full, so a probe always ends */
		if (t->n >= JFR_ALLOC_SITES_KEPT || ((t->n + 1) * 2 > t->cap && !jfr_table_grow(t))) {
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

void jfr_alloc_type_name(const char *jvm, char *out, size_t len)
{
	if (!len)
		return;
	unsigned dims = 0;
	while (jvm[dims] == '[')
		dims++;
	const char *base = jvm + dims, *prim = NULL;
	if (dims) {
		switch (*base) {
		case 'B': prim = "byte"; break;
		case 'C': prim = "char"; break;
		case 'D': prim = "double"; break;
		case 'F': prim = "float"; break;
		case 'I': prim = "int"; break;
		case 'J': prim = "long"; break;
		case 'S': prim = "short"; break;
		case 'Z': prim = "boolean"; break;
		case 'L': base++; break;
		default: break;
		}
	}
	size_t o = 0;
	if (prim) {
		o = (size_t)snprintf(out, len, "%s", prim);
		if (o >= len)
			o = len - 1;
	} else {
		for (const char *p = base; *p && !(dims && *p == ';') && o + 1 < len; p++)
			out[o++] = *p == '/' ? '.' : *p;
		out[o] = '\0';
	}
	for (unsigned i = 0; i < dims && o + 3 <= len; i++) {
		memcpy(out + o, "[]", 3);
		o += 2;
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
	if (!a->by_frame || !a->by_type) {
		jfr_alloc_free(a);
		return -1;
	}
	return 0;
}

void jfr_alloc_free(struct jfr_alloc *a)
{
	jfr_table_free(a->by_frame);
	jfr_table_free(a->by_type);
	a->by_frame = a->by_type = NULL;
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
	jfr_alloc_type_name(type, cls, sizeof(cls));
	/* the class cut to half the room, as the agent names a frame */
	size_t c = strnlen(cls, len / 2), m = strnlen(method, len - 2 - c);
	memcpy(out, cls, c);
	out[c] = '.';
	memcpy(out + c + 1, method, m);
	out[c + 1 + m] = '\0';
	return 0;
}

/* The first frame outside the runtime's packages; the top frame when the
 * whole stack is the runtime's (as the agent names it). */
static void jfr_alloc_site(const struct jfr_alloc *a, const struct gt_jfr_value *v, char *out, size_t len)
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
	for (uint32_t i = 0; i < n; i++) {
		if (jfr_alloc_frame(v, i, name, sizeof(name)) != 0)
			continue;
		if (!jfr_alloc_runtime_frame(a, name)) {
			snprintf(out, len, "%s", name);
			return;
		}
		if (!top[0])
			memcpy(top, name, sizeof(top));
	}
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
		jfr_alloc_type_name(jvm, type, sizeof(type));
	else
		snprintf(type, sizeof(type), "(unknown type)");
	jfr_alloc_site(a, &ev->value, site, sizeof(site));
	uint64_t w = (uint64_t)weight;
	a->samples++;
	a->bytes += w;
	jfr_table_add(a->by_frame, site, w);
	jfr_table_add(a->by_type, type, w);
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
