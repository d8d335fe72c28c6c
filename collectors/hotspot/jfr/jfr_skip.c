/* Passing over one value of a JFR chunk without decoding it, by its
 * class's encoding: primitives, strings, references (a key), arrays (a
 * count, then the elements) and structs held inline (their fields in
 * order). The metadata was checked to hold no class inline in itself and
 * every value takes a byte at least, so a skip ends within the bytes it
 * may read, whatever counts the bytes claim. */
#include "collectors/hotspot/jfr/jfr_internal.h"

int jfr_skip_class(const struct gt_jfr_reader *r, uint32_t cls, struct jfr_in *in, uint32_t depth)
{
	const struct jfr_class *c = &r->classes[cls];
	uint64_t key;
	switch (c->prim) {
	case JFR_PRIM_BOOLEAN:
	case JFR_PRIM_BYTE:
		jfr_in_skip(in, 1);
		break;
	case JFR_PRIM_CHAR:
	case JFR_PRIM_SHORT:
	case JFR_PRIM_INT:
	case JFR_PRIM_LONG:
		jfr_in_long(in);
		break;
	case JFR_PRIM_FLOAT:
		jfr_in_skip(in, JFR_FLOAT_BYTES);
		break;
	case JFR_PRIM_DOUBLE:
		jfr_in_skip(in, JFR_DOUBLE_BYTES);
		break;
	case JFR_PRIM_STRING:
		jfr_string_skip(in, &key);
		break;
	default:
		if (depth > r->lim.max_depth)
			in->bad = true;
		for (uint32_t k = 0; k < c->n_fields && !in->bad; k++)
			jfr_skip_field(r, &r->fields[c->first_field + k], in, depth + 1);
	}
	return in->bad ? GT_JFR_ERROR : GT_JFR_OK;
}

static void jfr_skip_one(const struct gt_jfr_reader *r, const struct jfr_field *f, struct jfr_in *in, uint32_t depth)
{
	if (f->pool)
		jfr_in_long(in);
	else
		jfr_skip_class(r, f->cls, in, depth);
}

int jfr_skip_field(const struct gt_jfr_reader *r, const struct jfr_field *f, struct jfr_in *in, uint32_t depth)
{
	if (!f->array) {
		jfr_skip_one(r, f, in, depth);
	} else {
		/* every element takes a byte at least: the count is held to
		 * what is left */
		uint32_t n = jfr_in_count(in, (uint32_t)(in->end - in->off > INT32_MAX ? INT32_MAX : in->end - in->off));
		for (uint32_t i = 0; i < n && !in->bad; i++)
			jfr_skip_one(r, f, in, depth);
	}
	return in->bad ? GT_JFR_ERROR : GT_JFR_OK;
}
