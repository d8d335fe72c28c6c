/* Values of a JFR chunk, read by path from where their bytes start: the
 * fields before the one named are skipped (their encodings from the
 * metadata: primitives, strings, arrays, references, structs inline), a
 * reference is followed to its constant, and a simpleType class stands
 * for its one field, as the JDK's ParserFactory reads them. The metadata
 * was checked to hold no class inline in itself and every value takes a
 * byte at least, so a walk ends within the bytes it may read; references
 * followed are counted against the depth limit, so a pool that refers to
 * itself ends too. */
#include <string.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

/* Where a path has reached: a value of class cls at off (a reference to
 * one when pool, an array of them when array), read within end. */
struct jfr_slot {
	uint32_t cls;
	const struct jfr_field *field; /* the last field named; NULL at the start */
	bool pool, array;
	size_t off, end;
	uint32_t depth;
};

static int jfr_malformed(const struct gt_jfr_reader *r, const struct jfr_slot *s, struct gt_error *err)
{
	return jfr_bad(err, "the flight recording's value of %s at %zu is truncated or malformed",
		       r->classes[s->cls].name, s->off);
}

/* Follows references and unwraps simple types until s is a value held
 * inline (or an array). GT_JFR_ABSENT for a reference to no constant. */
static int jfr_deref(const struct gt_jfr_reader *r, struct jfr_slot *s, struct gt_error *err)
{
	while (!s->array) {
		const struct jfr_class *c = &r->classes[s->cls];
		if (s->pool) {
			if (++s->depth > r->lim.max_depth)
				return jfr_bad(err, "the flight recording's constants refer to each other deeper than %u",
					       r->lim.max_depth);
			struct jfr_in in = jfr_in_at(r, s->off, s->end);
			uint64_t key = jfr_in_long(&in);
			if (in.bad)
				return jfr_malformed(r, s, err);
			const struct jfr_const *k = jfr_const_find(r, s->cls, key);
			if (!k)
				return GT_JFR_ABSENT;
			s->off = k->off;
			s->end = k->end;
			s->pool = false;
		} else if (c->simple) {
			if (++s->depth > r->lim.max_depth)
				return jfr_bad(err, "the flight recording's simple types nest deeper than %u", r->lim.max_depth);
			const struct jfr_field *f = &r->fields[c->first_field];
			s->field = f;
			s->cls = f->cls;
			s->pool = f->pool;
			s->array = f->array;
		} else {
			break;
		}
	}
	return GT_JFR_OK;
}

/* Moves s, a struct held inline, to its field named name (name_len bytes). */
static int jfr_step_field(const struct gt_jfr_reader *r, struct jfr_slot *s, const char *name, size_t name_len,
			  struct gt_error *err)
{
	const struct jfr_class *c = &r->classes[s->cls];
	if (c->prim != JFR_PRIM_NONE)
		return GT_JFR_ABSENT;
	int k = jfr_field_index(r, s->cls, name, name_len);
	if (k < 0)
		return GT_JFR_ABSENT;
	struct jfr_in in = jfr_in_at(r, s->off, s->end);
	for (int i = 0; i < k; i++)
		if (jfr_skip_field(r, &r->fields[c->first_field + (uint32_t)i], &in, 0) != GT_JFR_OK)
			return jfr_malformed(r, s, err);
	const struct jfr_field *f = &r->fields[c->first_field + (uint32_t)k];
	s->field = f;
	s->cls = f->cls;
	s->pool = f->pool;
	s->array = f->array;
	s->off = in.off;
	return GT_JFR_OK;
}

/* Moves s, an array, to its element i. */
static int jfr_step_index(const struct gt_jfr_reader *r, struct jfr_slot *s, uint64_t i, struct gt_error *err)
{
	struct jfr_in in = jfr_in_at(r, s->off, s->end);
	uint32_t n = jfr_in_count(&in, INT32_MAX);
	if (in.bad)
		return jfr_malformed(r, s, err);
	if (i >= n)
		return GT_JFR_ABSENT;
	struct jfr_field elem = *s->field;
	elem.array = false;
	for (uint64_t k = 0; k < i; k++)
		if (jfr_skip_field(r, &elem, &in, 0) != GT_JFR_OK)
			return jfr_malformed(r, s, err);
	s->array = false;
	s->off = in.off;
	return GT_JFR_OK;
}

/* One segment of a path at *p: a name and an optional [index]. */
static int jfr_step(const struct gt_jfr_reader *r, struct jfr_slot *s, const char **p, struct gt_error *err)
{
	const char *name = *p;
	size_t n = strcspn(name, ".[");
	if (n == 0)
		return jfr_bad(err, "the path \"%s\" names an empty field", name);
	int rc = jfr_deref(r, s, err);
	if (rc != GT_JFR_OK)
		return rc;
	if (s->array)
		return jfr_bad(err, "the path names a field of an array; index it first (\"%.*s\")", (int)n, name);
	rc = jfr_step_field(r, s, name, n, err);
	if (rc != GT_JFR_OK)
		return rc;
	const char *q = name + n;
	if (*q == '[') {
		uint64_t i = 0;
		for (q++; *q >= '0' && *q <= '9' && i < UINT32_MAX; q++)
			i = i * 10 + (uint64_t)(*q - '0');
		if (*q != ']' || !s->array)
			return jfr_bad(err, "the path's index after \"%.*s\" is malformed or not of an array", (int)n, name);
		q++;
		rc = jfr_step_index(r, s, i, err);
		if (rc != GT_JFR_OK)
			return rc;
	}
	if (*q == '.')
		q++;
	else if (*q)
		return jfr_bad(err, "the path \"%s\" is malformed", name);
	*p = q;
	return GT_JFR_OK;
}

/* The slot a path reaches from v, not dereferenced at its end. */
static int jfr_resolve_path(const struct gt_jfr_value *v, const char *path, struct jfr_slot *s, struct gt_error *err)
{
	const struct gt_jfr_reader *r = v->reader;
	*s = (struct jfr_slot){ v->cls, NULL, false, false, v->off, v->end, v->depth };
	uint32_t steps = 0;
	while (*path) {
		if (++steps > r->lim.max_depth)
			return jfr_bad(err, "the path has more than %u fields", r->lim.max_depth);
		int rc = jfr_step(r, s, &path, err);
		if (rc != GT_JFR_OK)
			return rc;
	}
	return GT_JFR_OK;
}

/* The slot a path reaches, dereferenced to a value held inline. */
static int jfr_resolve_value(const struct gt_jfr_value *v, const char *path, struct jfr_slot *s, struct gt_error *err)
{
	int rc = jfr_resolve_path(v, path, s, err);
	if (rc == GT_JFR_OK)
		rc = jfr_deref(v->reader, s, err);
	if (rc == GT_JFR_OK && s->array)
		rc = jfr_bad(err, "the path \"%s\" names an array; name an element or count it", path);
	return rc;
}

int gt_jfr_get(const struct gt_jfr_value *v, const char *path, struct gt_jfr_value *out, struct gt_error *err)
{
	struct jfr_slot s;
	int rc = jfr_resolve_value(v, path, &s, err);
	if (rc == GT_JFR_OK)
		*out = (struct gt_jfr_value){ v->reader, s.cls, s.depth, s.off, s.end };
	return rc;
}

/* An integer or a floating-point value at s (inline), as the JDK narrows
 * each: *is_float tells which of *i and *d holds it. */
static int jfr_read_number(const struct gt_jfr_reader *r, const struct jfr_slot *s, int64_t *i, double *d,
			   bool *is_float, struct gt_error *err)
{
	struct jfr_in in = jfr_in_at(r, s->off, s->end);
	*is_float = false;
	switch (r->classes[s->cls].prim) {
	case JFR_PRIM_BOOLEAN: *i = jfr_in_u8(&in) != 0; break;
	case JFR_PRIM_BYTE: *i = (int8_t)jfr_in_u8(&in); break;
	case JFR_PRIM_CHAR: *i = (uint16_t)jfr_in_long(&in); break;
	case JFR_PRIM_SHORT: *i = (int16_t)jfr_in_long(&in); break;
	case JFR_PRIM_INT: *i = (int32_t)jfr_in_long(&in); break;
	case JFR_PRIM_LONG: *i = (int64_t)jfr_in_long(&in); break;
	case JFR_PRIM_FLOAT: {
		uint32_t b = (uint32_t)jfr_in_be(&in, JFR_FLOAT_BYTES);
		float f;
		memcpy(&f, &b, sizeof(f));
		*d = f;
		*is_float = true;
		break;
	}
	case JFR_PRIM_DOUBLE: {
		uint64_t b = jfr_in_be(&in, JFR_DOUBLE_BYTES);
		memcpy(d, &b, sizeof(*d));
		*is_float = true;
		break;
	}
	default:
		return jfr_bad(err, "the flight recording's field is of %s, not a number", r->classes[s->cls].name);
	}
	return in.bad ? jfr_malformed(r, s, err) : GT_JFR_OK;
}

int gt_jfr_get_int(const struct gt_jfr_value *v, const char *path, int64_t *out, struct gt_error *err)
{
	struct jfr_slot s;
	double d;
	bool is_float;
	int rc = jfr_resolve_value(v, path, &s, err);
	if (rc == GT_JFR_OK)
		rc = jfr_read_number(v->reader, &s, out, &d, &is_float, err);
	if (rc == GT_JFR_OK && is_float)
		return jfr_bad(err, "the flight recording's field \"%s\" is of %s, not an integer", path,
			       v->reader->classes[s.cls].name);
	return rc;
}

int gt_jfr_get_double(const struct gt_jfr_value *v, const char *path, double *out, struct gt_error *err)
{
	struct jfr_slot s;
	int64_t i;
	bool is_float;
	int rc = jfr_resolve_value(v, path, &s, err);
	if (rc == GT_JFR_OK)
		rc = jfr_read_number(v->reader, &s, &i, out, &is_float, err);
	if (rc == GT_JFR_OK && !is_float)
		*out = (double)i;
	return rc;
}

int gt_jfr_get_string(const struct gt_jfr_value *v, const char *path, char *buf, size_t size, struct gt_error *err)
{
	const struct gt_jfr_reader *r = v->reader;
	struct jfr_slot s;
	if (size)
		buf[0] = '\0';
	int rc = jfr_resolve_value(v, path, &s, err);
	if (rc != GT_JFR_OK)
		return rc;
	if (r->classes[s.cls].prim != JFR_PRIM_STRING)
		return jfr_bad(err, "the flight recording's field \"%s\" is of %s, not a string", path, r->classes[s.cls].name);
	/* a string may be a reference into the string pool, whose constant
	 * is a string again: followed as far as the depth limit */
	for (uint32_t depth = s.depth; depth <= r->lim.max_depth; depth++) {
		struct jfr_in in = jfr_in_at(r, s.off, s.end);
		uint64_t key = 0;
		int kind = jfr_string_decode(&in, buf, size, &key);
		if (kind < 0)
			return jfr_malformed(r, &s, err);
		if (kind != 1)
			return kind == 0 ? GT_JFR_ABSENT : GT_JFR_OK;
		const struct jfr_const *k = jfr_const_find(r, s.cls, key);
		if (!k)
			return GT_JFR_ABSENT;
		s.off = k->off;
		s.end = k->end;
	}
	return jfr_bad(err, "the flight recording's strings refer to each other deeper than %u", r->lim.max_depth);
}

int gt_jfr_get_count(const struct gt_jfr_value *v, const char *path, uint32_t *n, struct gt_error *err)
{
	struct jfr_slot s;
	int rc = jfr_resolve_path(v, path, &s, err);
	if (rc != GT_JFR_OK)
		return rc;
	if (!s.array)
		return jfr_bad(err, "the flight recording's field \"%s\" is not an array", path);
	struct jfr_in in = jfr_in_at(v->reader, s.off, s.end);
	*n = jfr_in_count(&in, INT32_MAX);
	return in.bad ? jfr_malformed(v->reader, &s, err) : GT_JFR_OK;
}

int gt_jfr_get_ref(const struct gt_jfr_value *v, const char *path, uint64_t *key, struct gt_error *err)
{
	struct jfr_slot s;
	int rc = jfr_resolve_path(v, path, &s, err);
	if (rc != GT_JFR_OK)
		return rc;
	if (!s.pool || s.array)
		return jfr_bad(err, "the flight recording's field \"%s\" is not a constant-pool reference", path);
	struct jfr_in in = jfr_in_at(v->reader, s.off, s.end);
	*key = jfr_in_long(&in);
	if (in.bad)
		return jfr_malformed(v->reader, &s, err);
	return jfr_const_find(v->reader, s.cls, *key) ? GT_JFR_OK : GT_JFR_ABSENT;
}

/* ns from a count in a unit, saturated. */
static int64_t jfr_scale(int64_t v, int64_t per)
{
	if (v > INT64_MAX / per)
		return INT64_MAX;
	if (v < INT64_MIN / per)
		return INT64_MIN;
	return v * per;
}

int gt_jfr_get_ns(const struct gt_jfr_value *v, const char *path, int64_t *ns, struct gt_error *err)
{
	struct jfr_slot s;
	int64_t i;
	double d;
	bool is_float;
	int rc = jfr_resolve_value(v, path, &s, err);
	if (rc == GT_JFR_OK)
		rc = jfr_read_number(v->reader, &s, &i, &d, &is_float, err);
	if (rc != GT_JFR_OK)
		return rc;
	if (is_float || !s.field)
		return GT_JFR_ABSENT;
	switch (s.field->unit) {
	case JFR_UNIT_STAMP_TICKS: *ns = gt_jfr_ticks_to_ns(v->reader, i); break;
	case JFR_UNIT_STAMP_MS: *ns = jfr_scale(i, 1000000); break;
	case JFR_UNIT_SPAN_TICKS: *ns = gt_jfr_span_to_ns(v->reader, i); break;
	case JFR_UNIT_SPAN_NS: *ns = i; break;
	case JFR_UNIT_SPAN_US: *ns = jfr_scale(i, 1000); break;
	case JFR_UNIT_SPAN_MS: *ns = jfr_scale(i, 1000000); break;
	case JFR_UNIT_SPAN_S: *ns = jfr_scale(i, 1000000000); break;
	default: return GT_JFR_ABSENT;
	}
	return GT_JFR_OK;
}

const char *gt_jfr_value_type(const struct gt_jfr_value *v)
{
	return v->reader->classes[v->cls].name;
}
