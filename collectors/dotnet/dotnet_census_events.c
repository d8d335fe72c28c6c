/* The heap-dump payloads of a .NET census and the table that sums them by
 * type (dotnet_census_events.h). */
#include "collectors/dotnet/dotnet_census_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "base/text_buf.h"

/* The table starts at this many slots and doubles at half full. */
#define TABLE_FIRST_SLOTS 1024u
/* BulkType's record before its name: TypeID, ModuleID, TypeNameID, Flags,
 * CorElementType. */
#define TYPE_RECORD_HEAD 25
/* How deep generic arguments are named inside each other ("..." below). */
#define NAME_DEPTH 4

struct census_entry {
	uint64_t id;
	uint64_t count, bytes;
	uint32_t flags;
	uint8_t n_params;
	bool more_params;        /* the type had more than GT_DN_CENSUS_MAX_PARAMS */
	bool used, named;
	uint64_t params[GT_DN_CENSUS_MAX_PARAMS];
	char name[GT_CENSUS_NAME_LEN];
};

struct gt_dn_census_table {
	struct census_entry *slots;
	size_t n_slots, n_used;
	uint64_t nodes, bytes;
	uint64_t aligned_bytes;  /* each object's size rounded up to GT_DN_OBJECT_ALIGN */
	const char *partial;
};

struct gt_dn_census_table *gt_dn_census_table_new(void)
{
	struct gt_dn_census_table *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->slots = calloc(TABLE_FIRST_SLOTS, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->n_slots = TABLE_FIRST_SLOTS;
	return t;
}

void gt_dn_census_table_free(struct gt_dn_census_table *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

/* a + b, held at UINT64_MAX: a node's Size is the target's word, and a
 * crafted one must not wrap a type's or the census's bytes to a small
 * figure (the JVM's histogram saturates alike, hotspot_histo.c). */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* size rounded up to GT_DN_OBJECT_ALIGN, held at UINT64_MAX */
static uint64_t aligned(uint64_t size)
{
	uint64_t mask = GT_DN_OBJECT_ALIGN - 1;
	return size > UINT64_MAX - mask ? UINT64_MAX : (size + mask) & ~mask;
}

static size_t slot_of(const struct census_entry *slots, size_t n_slots, uint64_t id)
{
	/* TypeIDs are MethodTable addresses: their low bits are alignment */
	uint64_t h = (id >> 3) * 0x9E3779B97F4A7C15ull;
	size_t i = (size_t)(h >> 32) & (n_slots - 1);
	while (slots[i].used && slots[i].id != id)
		i = (i + 1) & (n_slots - 1);
	return i;
}

static int grow(struct gt_dn_census_table *t)
{
	size_t n = t->n_slots * 2;
	struct census_entry *s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < t->n_slots; i++)
		if (t->slots[i].used)
			s[slot_of(s, n, t->slots[i].id)] = t->slots[i];
	free(t->slots);
	t->slots = s;
	t->n_slots = n;
	return 0;
}

/* The sentence below names the cap. */
_Static_assert(GT_DN_CENSUS_MAX_TYPES == 65536, "the partial sentence names the type cap");

/* The entry of id, made when new; NULL past the cap (the table says why). */
static struct census_entry *entry(struct gt_dn_census_table *t, uint64_t id)
{
	size_t i = slot_of(t->slots, t->n_slots, id);
	if (t->slots[i].used)
		return &t->slots[i];
	if (t->n_used >= GT_DN_CENSUS_MAX_TYPES) {
		t->partial = "the heap held more types than a census keeps (65536); objects of the rest are not counted";
		return NULL;
	}
	if (t->n_used + 1 > t->n_slots / 2) {
		if (grow(t) != 0) {
			t->partial = "gctop ran out of memory for the census's types; objects of the rest are not counted";
			return NULL;
		}
		i = slot_of(t->slots, t->n_slots, id);
	}
	t->n_used++;
	t->slots[i].used = true;
	t->slots[i].id = id;
	return &t->slots[i];
}

/* One BulkType record: the type named, its parameters kept. */
static void type_record(struct gt_dn_census_table *t, struct gt_cursor *c)
{
	const uint8_t *head = gt_cursor_take(c, TYPE_RECORD_HEAD);
	char name[GT_CENSUS_NAME_LEN];
	gt_cursor_utf16z(c, name, sizeof(name));
	uint32_t n_params = gt_cursor_u32(c);
	/* a count the payload cannot hold is malformed, checked before use */
	if (c->bad || n_params > gt_cursor_left(c) / 8) {
		c->bad = true;
		return;
	}
	const uint8_t *params = gt_cursor_take(c, (size_t)n_params * 8);
	struct census_entry *e = entry(t, gt_le(head, 8));
	if (!e || e->named)
		return;
	e->named = true;
	e->flags = (uint32_t)gt_le(head + 20, 4);
	memcpy(e->name, name, sizeof(e->name));
	e->more_params = n_params > GT_DN_CENSUS_MAX_PARAMS;
	e->n_params = (uint8_t)(e->more_params ? GT_DN_CENSUS_MAX_PARAMS : n_params);
	for (unsigned k = 0; k < e->n_params; k++)
		e->params[k] = gt_le(params + 8 * k, 8);
}

int gt_dn_census_bulk_type(struct gt_dn_census_table *t, const uint8_t *p, size_t n)
{
	struct gt_cursor c = gt_cursor_at(p, n);
	uint32_t count = gt_cursor_u32(&c);
	gt_cursor_u16(&c);  /* ClrInstanceID */
	for (uint32_t i = 0; i < count && !c.bad; i++)
		type_record(t, &c);
	return c.bad ? -1 : 0;
}

int gt_dn_census_bulk_node(struct gt_dn_census_table *t, const uint8_t *p, size_t n, uint32_t *index)
{
	if (n < GT_DN_BULK_NODE_HEADER)
		return -1;
	*index = (uint32_t)gt_le(p, 4);
	uint64_t count = gt_le(p + 4, 4);
	if (count > (n - GT_DN_BULK_NODE_HEADER) / GT_DN_BULK_NODE_VALUE)
		return -1;
	const uint8_t *v = p + GT_DN_BULK_NODE_HEADER;
	for (uint64_t i = 0; i < count; i++, v += GT_DN_BULK_NODE_VALUE) {
		if (t->nodes >= GT_DN_CENSUS_MAX_NODES) {
			t->partial = "the heap held more objects than a census counts (200,000,000); the rest are not "
				     "counted";
			return 0;
		}
		struct census_entry *e = entry(t, gt_le(v + 16, 8));
		if (!e)
			continue;
		uint64_t size = gt_le(v + 8, 8);
		e->count++;
		e->bytes = sat_add(e->bytes, size);
		t->nodes++;
		t->bytes = sat_add(t->bytes, size);
		t->aligned_bytes = sat_add(t->aligned_bytes, aligned(size));
	}
	return 0;
}

const char *gt_dn_census_table_partial(const struct gt_dn_census_table *t)
{
	return t->partial;
}

uint64_t gt_dn_census_table_nodes(const struct gt_dn_census_table *t)
{
	return t->nodes;
}

uint64_t gt_dn_census_table_bytes(const struct gt_dn_census_table *t)
{
	return t->bytes;
}

uint64_t gt_dn_census_table_aligned_bytes(const struct gt_dn_census_table *t)
{
	return t->aligned_bytes;
}

int gt_dn_census_total_promoted(const uint8_t *p, size_t n, uint64_t *out)
{
	/* GenerationSize0..3 each followed by its TotalPromotedSize (8 bytes
	 * each), then 30 bytes to ClrInstanceID; V2 appends GenerationSize4
	 * and TotalPromotedSize4 (POH) at 94 and 102. */
	if (n < 64)
		return -1;
	uint64_t sum = 0;
	for (int g = 0; g < 4; g++)
		sum += gt_le(p + 16 * g + 8, 8);
	if (n >= 110)
		sum += gt_le(p + 102, 8);
	*out = sum;
	return 0;
}

static const struct census_entry *find(const struct gt_dn_census_table *t, uint64_t id)
{
	size_t i = slot_of(t->slots, t->n_slots, id);
	return t->slots[i].used ? &t->slots[i] : NULL;
}

static void compose(const struct gt_dn_census_table *t, const struct census_entry *e, struct gt_text_buf *b, int depth);

/* e's type parameters as "<A,B>" */
static void put_params(const struct gt_dn_census_table *t, const struct census_entry *e, struct gt_text_buf *b,
		       int depth)
{
	gt_text_buf_puts(b, "<");
	for (unsigned k = 0; k < e->n_params; k++) {
		if (k > 0)
			gt_text_buf_puts(b, ",");
		const struct census_entry *p = find(t, e->params[k]);
		if (p && depth < NAME_DEPTH)
			compose(t, p, b, depth + 1);
		else
			gt_text_buf_puts(b, "?");
	}
	if (e->more_params)
		gt_text_buf_puts(b, ",...");
	gt_text_buf_puts(b, ">");
}

/* The end of the bracket group that opens at s[0] within n, or 0. */
static size_t group_end(const char *s, size_t n)
{
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		depth += s[i] == '[';
		depth -= s[i] == ']';
		if (depth == 0)
			return i;
	}
	return 0;
}

/* The runtime's type name in source form: its arity marks dropped and its
 * instantiations in angle brackets ("System.Collections.Generic.List`1
 * [System.String]" is "System.Collections.Generic.List<System.String>",
 * "Entry[System.Int32,CacheEntry][]" is "Entry<System.Int32,CacheEntry>[]");
 * an array's brackets (empty or commas) stay. */
static void source_form(const char *s, size_t n, struct gt_text_buf *b, int depth)
{
	size_t i = 0;
	while (i < n) {
		if (s[i] == '`' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9') {
			for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				;
			continue;
		}
		size_t close = s[i] == '[' ? group_end(s + i, n - i) : 0;
		if (close == 0) {
			gt_text_buf_put(b, s + i++, 1);
			continue;
		}
		size_t inner = close - 1;
		if (strspn(s + i + 1, ",") >= inner || depth >= NAME_DEPTH) {
			gt_text_buf_put(b, s + i, close + 1);
		} else {
			gt_text_buf_puts(b, "<");
			source_form(s + i + 1, inner, b, depth + 1);
			gt_text_buf_puts(b, ">");
		}
		i += close + 1;
	}
}

/* A type named by its definition alone ("List`1", no instantiation in the
 * name) gets its type parameters' names in its place; every other name is
 * the runtime's in source form. */
static void compose(const struct gt_dn_census_table *t, const struct census_entry *e, struct gt_text_buf *b, int depth)
{
	if (!e->named) {
		char unnamed[40];
		snprintf(unnamed, sizeof(unnamed), "(type 0x%llx)", (unsigned long long)e->id);
		gt_text_buf_puts(b, unnamed);
		return;
	}
	const char *tick = strchr(e->name, '`');
	if (!tick || e->n_params == 0 || strchr(tick, '[') || (e->flags & GT_DN_TYPE_FLAG_ARRAY)) {
		source_form(e->name, strlen(e->name), b, 0);
		return;
	}
	gt_text_buf_put(b, e->name, (size_t)(tick - e->name));
	const char *rest = tick + 1;
	while (*rest >= '0' && *rest <= '9')
		rest++;
	put_params(t, e, b, depth);
	source_form(rest, strlen(rest), b, 0);
}

static int by_bytes(const void *a, const void *b)
{
	const struct gt_census_type *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

int gt_dn_census_table_result(const struct gt_dn_census_table *t, struct gt_census *out)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n_slots; i++)
		n += t->slots[i].used && t->slots[i].count > 0;
	out->types = calloc(n ? n : 1, sizeof(*out->types));
	if (!out->types)
		return -1;
	n = 0;
	for (size_t i = 0; i < t->n_slots; i++) {
		const struct census_entry *e = &t->slots[i];
		if (!e->used || e->count == 0)
			continue;
		struct gt_census_type *ct = &out->types[n++];
		struct gt_text_buf b = gt_text_buf_at(ct->name, sizeof(ct->name));
		compose(t, e, &b, 0);
		ct->count = e->count;
		ct->bytes = e->bytes;
	}
	qsort(out->types, n, sizeof(*out->types), by_bytes);
	out->n_types = n;
	out->total_count = t->nodes;
	out->total_bytes = t->bytes;
	return 0;
}
