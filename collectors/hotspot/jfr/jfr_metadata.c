/* The JFR chunk's metadata event (MetadataReader): a string table, then a
 * tree of elements, each a name, attributes and children, all strings
 * given by their index in the table. Of the tree the reader keeps the
 * classes under "metadata" (id, name, superType, simpleType), their
 * fields (name, class, constantPool, dimension) and the fields' time
 * annotations; the rest (settings, labels, descriptions, the region) is
 * walked and counted against the limits, not kept. Then every field's
 * type is resolved, and a class that holds itself inline, or nests deeper
 * than the limit, refused: the walks over values then end. */
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

#define JFR_EVENT_SUPER "jdk.jfr.Event"

/* Where an element sits: what its children may be. */
enum jfr_ctx { JFR_CTX_ROOT, JFR_CTX_TOP, JFR_CTX_METADATA, JFR_CTX_CLASS, JFR_CTX_FIELD, JFR_CTX_OTHER };

/* The attributes of an element the reader uses, as string indexes. */
struct jfr_attrs {
	const char *id, *name, *super, *simple, *cls, *pool, *dimension, *value;
};

struct jfr_meta_walk {
	struct gt_jfr_reader *r;
	struct jfr_in in;
	uint32_t elements;
	uint32_t cur_class; /* the class whose fields are being read */
	uint32_t cur_field;
	struct gt_error *err;
};

static const struct { const char *name; uint8_t prim; } jfr_prims[] = {
	{ "boolean", JFR_PRIM_BOOLEAN }, { "byte", JFR_PRIM_BYTE }, { "char", JFR_PRIM_CHAR },
	{ "short", JFR_PRIM_SHORT }, { "int", JFR_PRIM_INT }, { "long", JFR_PRIM_LONG },
	{ "float", JFR_PRIM_FLOAT }, { "double", JFR_PRIM_DOUBLE }, { "java.lang.String", JFR_PRIM_STRING },
};

/* jdk.jfr.Timestamp's and jdk.jfr.Timespan's values. */
static const struct { const char *annotation, *value; uint8_t unit; } jfr_units[] = {
	{ "jdk.jfr.Timestamp", "TICKS", JFR_UNIT_STAMP_TICKS },
	{ "jdk.jfr.Timestamp", "MILLISECONDS_SINCE_EPOCH", JFR_UNIT_STAMP_MS },
	{ "jdk.jfr.Timespan", "TICKS", JFR_UNIT_SPAN_TICKS },
	{ "jdk.jfr.Timespan", "NANOSECONDS", JFR_UNIT_SPAN_NS },
	{ "jdk.jfr.Timespan", "MICROSECONDS", JFR_UNIT_SPAN_US },
	{ "jdk.jfr.Timespan", "MILLISECONDS", JFR_UNIT_SPAN_MS },
	{ "jdk.jfr.Timespan", "SECONDS", JFR_UNIT_SPAN_S },
};

/* A decimal attribute (Long.parseLong of an id): 0 and ok, or -1. */
static int jfr_decimal(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* The string table, decoded into one arena; r->strings point into it. */
static int jfr_read_strings(struct gt_jfr_reader *r, struct jfr_in *in, struct gt_error *err)
{
	r->n_strings = jfr_in_count(in, r->lim.max_strings);
	if (in->bad)
		return jfr_bad(err, "the flight recording's metadata declares more strings than gctop's limit of %u",
			       r->lim.max_strings);
	char *tmp = malloc((size_t)r->lim.max_string_bytes + 1);
	uint32_t *offs = calloc(r->n_strings ? r->n_strings : 1, sizeof(*offs));
	if (!tmp || !offs) {
		free(tmp);
		free(offs);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
	}
	int rc = GT_JFR_OK;
	for (uint32_t i = 0; i < r->n_strings && rc == GT_JFR_OK; i++) {
		uint64_t key;
		int kind = jfr_string_decode(in, tmp, (size_t)r->lim.max_string_bytes + 1, &key);
		if (kind < 0 || kind == 1) {
			rc = jfr_bad(err, "the flight recording's metadata string %u is %s", i,
				     kind < 0 ? "truncated or of an unknown encoding" : "a pool reference");
			break;
		}
		size_t n = strlen(tmp) + 1;
		char *names = jfr_grow(r, r->names, &r->names_cap, r->names_len + n, 1, err);
		if (!names) {
			rc = GT_JFR_ERROR;
			break;
		}
		r->names = names;
		offs[i] = (uint32_t)r->names_len;
		memcpy(r->names + r->names_len, tmp, n);
		r->names_len += n;
	}
	free(tmp);
	if (rc == GT_JFR_OK) {
		r->strings = calloc(r->n_strings ? r->n_strings : 1, sizeof(*r->strings));
		if (!r->strings)
			rc = gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
		else
			r->held += (r->n_strings ? r->n_strings : 1) * sizeof(*r->strings);
		for (uint32_t i = 0; r->strings && i < r->n_strings; i++)
			r->strings[i] = r->names + offs[i];
	}
	free(offs);
	return rc;
}

/* A string index read from the tree, or NULL (and bad) past the table. */
static const char *jfr_string_at(struct jfr_meta_walk *w)
{
	uint32_t i = jfr_in_count(&w->in, UINT32_MAX >> 1);
	if (w->in.bad || i >= w->r->n_strings) {
		w->in.bad = true;
		return NULL;
	}
	return w->r->strings[i];
}

static int jfr_read_attrs(struct jfr_meta_walk *w, struct jfr_attrs *a)
{
	memset(a, 0, sizeof(*a));
	uint32_t n = jfr_in_count(&w->in, INT32_MAX);
	for (uint32_t i = 0; i < n && !w->in.bad; i++) {
		const char *k = jfr_string_at(w), *v = jfr_string_at(w);
		if (w->in.bad)
			break;
		const char **slot = !strcmp(k, "id") ? &a->id : !strcmp(k, "name") ? &a->name
			: !strcmp(k, "superType") ? &a->super : !strcmp(k, "simpleType") ? &a->simple
			: !strcmp(k, "class") ? &a->cls : !strcmp(k, "constantPool") ? &a->pool
			: !strcmp(k, "dimension") ? &a->dimension : !strcmp(k, "value") ? &a->value : NULL;
		if (slot)
			*slot = v;
	}
	return w->in.bad ? jfr_bad(w->err, "the flight recording's metadata is truncated in an element's attributes")
			 : GT_JFR_OK;
}

static int jfr_add_class(struct jfr_meta_walk *w, const struct jfr_attrs *a)
{
	struct gt_jfr_reader *r = w->r;
	uint64_t id;
	if (jfr_decimal(a->id, &id) < 0 || !a->name)
		return jfr_bad(w->err, "the flight recording's metadata has a class without an id or a name");
	if (r->n_classes >= r->lim.max_classes)
		return jfr_bad(w->err, "the flight recording's metadata declares more classes than gctop's limit of %u",
			       r->lim.max_classes);
	struct jfr_class *c = jfr_grow(r, r->classes, &r->classes_cap, r->n_classes + 1, sizeof(*c), w->err);
	if (!c)
		return GT_JFR_ERROR;
	r->classes = c;
	c += r->n_classes;
	c->id = id;
	c->name = a->name;
	c->first_field = (uint32_t)r->n_fields;
	c->simple = a->simple && !strcmp(a->simple, "true");
	c->event = a->super && !strcmp(a->super, JFR_EVENT_SUPER);
	c->start_field = JFR_NO_INDEX;
	w->cur_class = (uint32_t)r->n_classes++;
	return GT_JFR_OK;
}

static int jfr_add_field(struct jfr_meta_walk *w, const struct jfr_attrs *a)
{
	struct gt_jfr_reader *r = w->r;
	uint64_t type_id, dim = 0;
	if (!a->name || jfr_decimal(a->cls, &type_id) < 0 || (a->dimension && jfr_decimal(a->dimension, &dim) < 0))
		return jfr_bad(w->err, "the flight recording's metadata has a field without a name or a class");
	if (dim > 1)
		return jfr_bad(w->err, "the flight recording's field %s has %llu dimensions; the format has 0 or 1",
			       a->name, (unsigned long long)dim);
	if (r->n_fields >= r->lim.max_fields)
		return jfr_bad(w->err, "the flight recording's metadata declares more fields than gctop's limit of %u",
			       r->lim.max_fields);
	struct jfr_field *f = jfr_grow(r, r->fields, &r->fields_cap, r->n_fields + 1, sizeof(*f), w->err);
	if (!f)
		return GT_JFR_ERROR;
	r->fields = f;
	f += r->n_fields;
	memset(f, 0, sizeof(*f));
	f->name = a->name;
	f->type_id = type_id;
	f->pool = a->pool != NULL; /* present at all, as the JDK reads it */
	f->array = dim == 1;
	w->cur_field = (uint32_t)r->n_fields++;
	r->classes[w->cur_class].n_fields++;
	return GT_JFR_OK;
}

/* A field's annotation: kept when its value names a time unit; its class
 * is matched once every class is known. */
static void jfr_add_annotation(struct jfr_meta_walk *w, const struct jfr_attrs *a)
{
	uint64_t cls;
	if (!a->value || jfr_decimal(a->cls, &cls) < 0)
		return;
	for (size_t i = 0; i < sizeof(jfr_units) / sizeof(jfr_units[0]); i++)
		if (!strcmp(a->value, jfr_units[i].value)) {
			struct jfr_field *f = &w->r->fields[w->cur_field];
			f->unit_class = cls;
			f->unit_value = a->value;
			return;
		}
}

/* The unit of a field's time annotation, by its class's name and value. */
static uint8_t jfr_unit_of(const struct gt_jfr_reader *r, const struct jfr_field *f)
{
	uint32_t ann = f->unit_value ? jfr_class_by_id(r, f->unit_class) : JFR_NO_INDEX;
	for (size_t i = 0; ann != JFR_NO_INDEX && i < sizeof(jfr_units) / sizeof(jfr_units[0]); i++)
		if (!strcmp(r->classes[ann].name, jfr_units[i].annotation) && !strcmp(f->unit_value, jfr_units[i].value))
			return jfr_units[i].unit;
	return JFR_UNIT_NONE;
}

/* What an element named name under ctx is, and keeps what the reader uses. */
static int jfr_element_use(struct jfr_meta_walk *w, enum jfr_ctx ctx, const char *name, const struct jfr_attrs *a,
			   enum jfr_ctx *child)
{
	*child = JFR_CTX_OTHER;
	if (ctx == JFR_CTX_ROOT) {
		*child = JFR_CTX_TOP;
	} else if (ctx == JFR_CTX_TOP && !strcmp(name, "metadata")) {
		*child = JFR_CTX_METADATA;
	} else if (ctx == JFR_CTX_METADATA && !strcmp(name, "class")) {
		*child = JFR_CTX_CLASS;
		return jfr_add_class(w, a);
	} else if (ctx == JFR_CTX_CLASS && !strcmp(name, "field")) {
		*child = JFR_CTX_FIELD;
		return jfr_add_field(w, a);
	} else if (ctx == JFR_CTX_FIELD && !strcmp(name, "annotation")) {
		jfr_add_annotation(w, a);
	}
	return GT_JFR_OK;
}

static int jfr_element(struct jfr_meta_walk *w, enum jfr_ctx ctx, uint32_t depth)
{
	if (depth > w->r->lim.max_depth)
		return jfr_bad(w->err, "the flight recording's metadata nests deeper than gctop's limit of %u",
			       w->r->lim.max_depth);
	if (++w->elements > w->r->lim.max_elements)
		return jfr_bad(w->err, "the flight recording's metadata has more elements than gctop's limit of %u",
			       w->r->lim.max_elements);
	const char *name = jfr_string_at(w);
	struct jfr_attrs a;
	if (!name || jfr_read_attrs(w, &a) != GT_JFR_OK)
		return jfr_bad(w->err, "the flight recording's metadata is truncated in an element");
	enum jfr_ctx child;
	if (jfr_element_use(w, ctx, name, &a, &child) != GT_JFR_OK)
		return GT_JFR_ERROR;
	uint32_t n = jfr_in_count(&w->in, INT32_MAX);
	for (uint32_t i = 0; i < n && !w->in.bad; i++)
		if (jfr_element(w, child, depth + 1) != GT_JFR_OK)
			return GT_JFR_ERROR;
	if (w->in.bad)
		return jfr_bad(w->err, "the flight recording's metadata is truncated in an element's children");
	return GT_JFR_OK;
}

uint32_t jfr_class_by_id(const struct gt_jfr_reader *r, uint64_t id)
{
	if (!r->class_hash_cap)
		return JFR_NO_INDEX;
	size_t mask = r->class_hash_cap - 1;
	for (size_t h = (size_t)(id * 0x9E3779B97F4A7C15ull) & mask;; h = (h + 1) & mask) {
		uint32_t k = r->class_hash[h];
		if (!k)
			return JFR_NO_INDEX;
		if (r->classes[k - 1].id == id)
			return k - 1;
	}
}

int jfr_field_index(const struct gt_jfr_reader *r, uint32_t cls, const char *name, size_t name_len)
{
	const struct jfr_class *c = &r->classes[cls];
	for (uint32_t i = 0; i < c->n_fields; i++) {
		const char *f = r->fields[c->first_field + i].name;
		if (strncmp(f, name, name_len) == 0 && f[name_len] == '\0')
			return (int)i;
	}
	return -1;
}

static int jfr_hash_classes(struct gt_jfr_reader *r, struct gt_error *err)
{
	size_t cap = 16;
	while (cap < 2 * r->n_classes)
		cap *= 2;
	r->class_hash = calloc(cap, sizeof(*r->class_hash));
	if (!r->class_hash)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
	r->class_hash_cap = cap;
	r->held += cap * sizeof(*r->class_hash);
	for (size_t i = 0; i < r->n_classes; i++) {
		if (jfr_class_by_id(r, r->classes[i].id) != JFR_NO_INDEX)
			return jfr_bad(err, "the flight recording's metadata declares class id %llu twice",
				       (unsigned long long)r->classes[i].id);
		size_t h = (size_t)(r->classes[i].id * 0x9E3779B97F4A7C15ull) & (cap - 1);
		while (r->class_hash[h])
			h = (h + 1) & (cap - 1);
		r->class_hash[h] = (uint32_t)i + 1;
	}
	return GT_JFR_OK;
}

/* Each class's primitive kind, each field's class and unit, each event's
 * startTime; a field of a type that is neither a primitive nor has
 * fields is refused, as the JDK's ParserFactory refuses it. */
static int jfr_resolve(struct gt_jfr_reader *r, struct gt_error *err)
{
	for (size_t i = 0; i < r->n_classes; i++) {
		struct jfr_class *c = &r->classes[i];
		for (size_t k = 0; c->n_fields == 0 && k < sizeof(jfr_prims) / sizeof(jfr_prims[0]); k++)
			if (!strcmp(c->name, jfr_prims[k].name))
				c->prim = jfr_prims[k].prim;
		if (c->prim == JFR_PRIM_STRING)
			r->string_cls = (uint32_t)i;
		c->simple = c->simple && c->n_fields == 1;
	}
	for (size_t i = 0; i < r->n_classes; i++) {
		struct jfr_class *c = &r->classes[i];
		for (uint32_t k = 0; k < c->n_fields; k++) {
			struct jfr_field *f = &r->fields[c->first_field + k];
			f->cls = jfr_class_by_id(r, f->type_id);
			if (f->cls == JFR_NO_INDEX)
				return jfr_bad(err, "the flight recording's field %s.%s names class id %llu, which its metadata lacks",
					       c->name, f->name, (unsigned long long)f->type_id);
			const struct jfr_class *t = &r->classes[f->cls];
			if (t->n_fields == 0 && t->prim == JFR_PRIM_NONE)
				return jfr_bad(err, "the flight recording's field %s.%s is of %s, which is no primitive and has no fields",
					       c->name, f->name, t->name);
			f->unit = jfr_unit_of(r, f);
			if (c->event && !strcmp(f->name, "startTime") && t->prim == JFR_PRIM_LONG)
				c->start_field = k;
		}
	}
	return GT_JFR_OK;
}

/* How deep a class nests inline (0 for a primitive), or -1 on a cycle or
 * past the limit, with level the depth it is reached at: the recursion
 * stops at the limit, so a chain of thousands of classes cannot run the
 * stack out. state: 0 unseen, 1 on the path, 2 done (its depth kept). */
static int jfr_inline_depth(const struct gt_jfr_reader *r, uint32_t cls, uint32_t level, uint8_t *state,
			    uint8_t *depth)
{
	if (state[cls] == 2)
		return level + depth[cls] > r->lim.max_depth ? -1 : depth[cls];
	if (state[cls] == 1 || level > r->lim.max_depth)
		return -1;
	state[cls] = 1;
	int d = 0;
	const struct jfr_class *c = &r->classes[cls];
	for (uint32_t k = 0; k < c->n_fields; k++) {
		const struct jfr_field *f = &r->fields[c->first_field + k];
		if (f->pool)
			continue;
		int sub = jfr_inline_depth(r, f->cls, level + 1, state, depth);
		if (sub < 0)
			return -1;
		if (sub + 1 > d)
			d = sub + 1;
	}
	state[cls] = 2;
	depth[cls] = (uint8_t)d;
	return d;
}

static int jfr_check_nesting(struct gt_jfr_reader *r, struct gt_error *err)
{
	uint8_t *state = calloc(r->n_classes ? r->n_classes : 1, 2);
	if (!state)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
	int rc = GT_JFR_OK;
	for (uint32_t i = 0; i < r->n_classes && rc == GT_JFR_OK; i++)
		if (jfr_inline_depth(r, i, 0, state, state + r->n_classes) < 0)
			rc = jfr_bad(err, "the flight recording's class %s holds itself inline or nests deeper than %u",
				     r->classes[i].name, r->lim.max_depth);
	free(state);
	return rc;
}

int jfr_metadata_read(struct gt_jfr_reader *r, struct gt_error *err)
{
	size_t at = (size_t)r->hdr.meta_offset;
	struct jfr_in in = jfr_in_at(r, at, r->len);
	uint32_t size = jfr_in_count(&in, INT32_MAX);
	if (in.bad || size == 0 || size > r->len - at)
		return jfr_bad(err, "the flight recording's metadata event at %zu has a size past the chunk's end", at);
	if (size > r->lim.max_metadata_bytes)
		return jfr_bad(err, "the flight recording's metadata of %u bytes is over gctop's limit of %u", size,
			       r->lim.max_metadata_bytes);
	in.end = at + size;
	if (jfr_in_long(&in) != JFR_ID_METADATA || in.bad)
		return jfr_bad(err, "the flight recording's header points at no metadata event (offset %zu)", at);
	for (int i = 0; i < 3; i++) /* start, duration, metadata id */
		jfr_in_long(&in);
	int rc = jfr_read_strings(r, &in, err);
	if (rc != GT_JFR_OK)
		return rc;
	struct jfr_meta_walk w = { r, in, 0, 0, 0, err };
	if (jfr_element(&w, JFR_CTX_ROOT, 0) != GT_JFR_OK)
		return GT_JFR_ERROR;
	if (r->n_classes == 0)
		return jfr_bad(err, "the flight recording's metadata declares no class");
	rc = jfr_hash_classes(r, err);
	if (rc == GT_JFR_OK)
		rc = jfr_resolve(r, err);
	if (rc == GT_JFR_OK)
		rc = jfr_check_nesting(r, err);
	return rc;
}
