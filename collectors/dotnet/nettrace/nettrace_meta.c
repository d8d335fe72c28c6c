/* Metadata records: which provider and event an id stands for, and for
 * self-describing (EventSource) events the schema of their payload. Native
 * runtime events carry no field list; their layouts live in dotnet_gc_events.c. */
#include "collectors/dotnet/nettrace/nettrace.h"

#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"

struct schema {
	struct gt_nettrace_field *fields;
	uint16_t n;
	bool decodable;
};

static int add_field(struct schema *s)
{
	if (s->n >= GT_NETTRACE_MAX_FIELDS)
		return -1;
	memset(&s->fields[s->n], 0, sizeof(s->fields[0]));
	return s->n++;
}

/* The V1 field list: { u32 TypeCode; [Object: u32 count, fields]; UTF-16z name }. */
static int parse_fields_v1(struct gt_cursor *c, struct schema *s, uint32_t count, int depth)
{
	if (depth > GT_NETTRACE_MAX_DEPTH || count > GT_NETTRACE_MAX_FIELDS)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		int idx = add_field(s);
		if (idx < 0)
			return -1;
		uint32_t type = gt_cursor_u32(c);
		s->fields[idx].type = type;
		if (type == GT_NT_OBJECT) {
			uint32_t n = gt_cursor_u32(c);
			if (c->bad || parse_fields_v1(c, s, n, depth + 1) != 0)
				return -1;
			s->fields[idx].n_children = (uint16_t)n;
		} else if (type == GT_NT_ARRAY) {
			/* V1 lists cannot say what an array holds. */
			s->decodable = false;
		}
		s->fields[idx].subtree = (uint16_t)(s->n - idx);
		gt_cursor_utf16z(c, s->fields[idx].name, sizeof(s->fields[idx].name));
		if (c->bad)
			return -1;
	}
	return 0;
}

/* The V2Params tag: { u32 size incl. itself; UTF-16z name; u32 TypeCode;
 * [Array: u32 element type]; [Object: u32 count, fields] }. */
static int parse_fields_v2(struct gt_cursor *c, struct schema *s, uint32_t count, int depth)
{
	if (depth > GT_NETTRACE_MAX_DEPTH || count > GT_NETTRACE_MAX_FIELDS)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		size_t start = c->off;
		uint32_t size = gt_cursor_u32(c);
		if (c->bad || size < 4 || size > c->len - start)
			return -1;
		int idx = add_field(s);
		if (idx < 0)
			return -1;
		gt_cursor_utf16z(c, s->fields[idx].name, sizeof(s->fields[idx].name));
		uint32_t type = gt_cursor_u32(c);
		s->fields[idx].type = type;
		if (type == GT_NT_ARRAY) {
			s->fields[idx].element_type = gt_cursor_u32(c);
			if (s->fields[idx].element_type == GT_NT_OBJECT || s->fields[idx].element_type == GT_NT_ARRAY)
				s->decodable = false;
		} else if (type == GT_NT_OBJECT) {
			uint32_t n = gt_cursor_u32(c);
			if (c->bad || parse_fields_v2(c, s, n, depth + 1) != 0)
				return -1;
			s->fields[idx].n_children = (uint16_t)n;
		}
		s->fields[idx].subtree = (uint16_t)(s->n - idx);
		if (c->bad || c->off > start + size)
			return -1;
		c->off = start + size;
	}
	return 0;
}

static uint16_t count_top(const struct schema *s)
{
	uint16_t top = 0;
	for (uint16_t i = 0; i < s->n; i += s->fields[i].subtree ? s->fields[i].subtree : 1)
		top++;
	return top;
}

int gt_nettrace_parse_meta(const uint8_t *p, size_t n, struct gt_nettrace_meta *out)
{
	struct gt_cursor c = gt_cursor_at(p, n);
	memset(out, 0, sizeof(*out));
	out->id = gt_cursor_u32(&c);
	gt_cursor_utf16z(&c, out->provider, sizeof(out->provider));
	out->event_id = gt_cursor_u32(&c);
	gt_cursor_utf16z(&c, out->event_name, sizeof(out->event_name));
	out->keywords = gt_cursor_u64(&c);
	out->version = gt_cursor_u32(&c);
	out->level = gt_cursor_u32(&c);
	if (c.bad || out->id == 0)
		return -1;

	/* The schema is parsed into room for the most fields a record may have
	 * and then kept in an allocation of the size it actually has: 128
	 * fields of room per record were 7.7 KiB for every event kind a target
	 * declared, even one with no fields (16,383 kinds took 138 MB). */
	struct gt_nettrace_field room[GT_NETTRACE_MAX_FIELDS];
	struct schema s = { room, 0, true };
	if (gt_cursor_left(&c) >= 4) {
		uint32_t count = gt_cursor_u32(&c);
		if (parse_fields_v1(&c, &s, count, 0) != 0)
			goto bad;
	}
	/* V5 tags follow the field list until the end of the record. */
	while (gt_cursor_left(&c) >= 5) {
		uint32_t tag_len = gt_cursor_u32(&c);
		uint8_t kind = gt_cursor_u8(&c);
		if (c.bad || tag_len > gt_cursor_left(&c))
			goto bad;
		struct gt_cursor t = gt_cursor_at(c.p + c.off, tag_len);
		if (kind == 1) {
			out->opcode = gt_cursor_u8(&t);
		} else if (kind == 2) {
			/* V2Params replaces the (then empty) V1 list. */
			s.n = 0;
			s.decodable = true;
			uint32_t count = gt_cursor_u32(&t);
			if (t.bad || parse_fields_v2(&t, &s, count, 0) != 0)
				goto bad;
		}
		c.off += tag_len;
	}
	if (gt_cursor_left(&c) != 0)
		goto bad;
	if (s.n > 0) {
		out->fields = malloc(s.n * sizeof(s.fields[0]));
		if (!out->fields)
			goto bad;
		memcpy(out->fields, s.fields, s.n * sizeof(s.fields[0]));
	}
	out->n_fields = s.n;
	out->n_top = count_top(&s);
	out->fields_decodable = s.decodable;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -1;
}

size_t gt_nettrace_meta_bytes(const struct gt_nettrace_meta *m)
{
	return sizeof(*m) + m->n_fields * sizeof(m->fields[0]);
}

void gt_nettrace_meta_clear(struct gt_nettrace_meta *m)
{
	free(m->fields);
	memset(m, 0, sizeof(*m));
}
