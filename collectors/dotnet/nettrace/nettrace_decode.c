/* Walking a self-describing (EventSource, TraceLogging) payload with the
 * schema from its metadata record. */
#include "collectors/dotnet/nettrace/nettrace.h"

#include <string.h>

#include "base/cursor.h"

struct walk {
	const struct gt_nettrace_meta *meta;
	struct gt_cursor c;
	void (*cb)(void *ctx, const char *name, const struct gt_nettrace_value *v);
	void *ctx;
	char text[512];
};

static int scalar_size(uint32_t type)
{
	switch (type) {
	case GT_NT_SBYTE: case GT_NT_BYTE: return 1;
	case GT_NT_CHAR16: case GT_NT_INT16: case GT_NT_UINT16: return 2;
	case GT_NT_BOOLEAN: case GT_NT_INT32: case GT_NT_UINT32: case GT_NT_SINGLE: return 4;
	case GT_NT_INT64: case GT_NT_UINT64: case GT_NT_DOUBLE: case GT_NT_DATETIME: return 8;
	case GT_NT_DECIMAL: case GT_NT_GUID: return 16;
	default: return 0;
	}
}

static int read_scalar(struct walk *w, uint32_t type, struct gt_nettrace_value *v)
{
	memset(v, 0, sizeof(*v));
	v->type = type;
	if (type == GT_NT_STRING) {
		gt_cursor_utf16z(&w->c, w->text, sizeof(w->text));
		v->string = w->text;
		return w->c.bad ? -1 : 0;
	}
	int size = scalar_size(type);
	if (size == 0)
		return -1;
	const uint8_t *b = gt_cursor_take(&w->c, (size_t)size);
	if (!b)
		return -1;
	uint64_t raw = size <= 8 ? gt_le(b, size) : 0;
	switch (type) {
	case GT_NT_SBYTE: v->number = (int8_t)raw; break;
	case GT_NT_INT16: v->number = (int16_t)raw; break;
	case GT_NT_INT32: v->number = (int32_t)raw; break;
	case GT_NT_INT64: v->number = (double)(int64_t)raw; break;
	case GT_NT_SINGLE: { float f; uint32_t r32 = (uint32_t)raw; memcpy(&f, &r32, 4); v->number = f; break; }
	case GT_NT_DOUBLE: memcpy(&v->number, &raw, 8); break;
	default: v->number = (double)raw; break;
	}
	v->u64 = raw;
	return 0;
}

/* Walks `count` fields starting at fields[idx]; returns the index after them. */
static int walk_fields(struct walk *w, int idx, unsigned count, int depth)
{
	if (depth > GT_NETTRACE_MAX_DEPTH)
		return -1;
	for (unsigned i = 0; i < count; i++) {
		if (idx < 0 || idx >= w->meta->n_fields)
			return -1;
		const struct gt_nettrace_field *f = &w->meta->fields[idx];
		if (f->type == GT_NT_OBJECT) {
			if (walk_fields(w, idx + 1, f->n_children, depth + 1) < 0)
				return -1;
		} else if (f->type == GT_NT_ARRAY) {
			uint16_t n = gt_cursor_u16(&w->c);
			struct gt_nettrace_value v;
			for (unsigned k = 0; k < n && !w->c.bad; k++)
				if (read_scalar(w, f->element_type, &v) != 0)
					return -1;
		} else {
			struct gt_nettrace_value v;
			if (read_scalar(w, f->type, &v) != 0)
				return -1;
			w->cb(w->ctx, f->name, &v);
		}
		idx += f->subtree ? f->subtree : 1;
	}
	return w->c.bad ? -1 : idx;
}

int gt_nettrace_decode(const struct gt_nettrace_meta *meta, const uint8_t *payload, size_t len,
		       void (*cb)(void *ctx, const char *name, const struct gt_nettrace_value *v), void *ctx)
{
	if (!meta->fields_decodable || (meta->n_fields > 0 && !meta->fields))
		return -1;
	struct walk w = { meta, { payload, len, 0, false }, cb, ctx, "" };
	return walk_fields(&w, 0, meta->n_top, 0) < 0 ? -1 : 0;
}
