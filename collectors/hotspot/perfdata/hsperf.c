#include "collectors/hotspot/perfdata/hsperf.h"
#include "base/array.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t hsperf_magic[4] = { 0xCA, 0xFE, 0xC0, 0xC0 };

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HSPERF_HOST_ORDER 0
#else
#define HSPERF_HOST_ORDER 1
#endif

/* Fields the JVM may be changing are loaded atomically when aligned (always,
 * for a mapping); an unaligned caller buffer falls back to a byte copy. */
static uint32_t hsperf_load_u32(const uint8_t *base, size_t off)
{
	const uint8_t *p = base + off;
	if (((uintptr_t)p & 3) == 0)
		return __atomic_load_n((const uint32_t *)(const void *)p, __ATOMIC_RELAXED);
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static int64_t hsperf_load_i64(const uint8_t *base, size_t off)
{
	const uint8_t *p = base + off;
	if (((uintptr_t)p & 7) == 0)
		return __atomic_load_n((const int64_t *)(const void *)p, __ATOMIC_RELAXED);
	int64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint8_t hsperf_load_u8(const uint8_t *base, size_t off)
{
	return __atomic_load_n(base + off, __ATOMIC_RELAXED);
}

int hsperf_read_prologue(const uint8_t *buf, size_t size, const char *what,
			 struct hsperf_prologue *out, struct gt_error *err)
{
	if (!buf || size < HSPERF_PROLOGUE_SIZE)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is truncated (%zu bytes, shorter than the 32-byte perf-data header)",
			       what, size);
	if (memcmp(buf, hsperf_magic, sizeof(hsperf_magic)) != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is not a HotSpot perf-data file (wrong magic number)", what);
	out->byte_order = buf[4];
	out->major = buf[5];
	out->minor = buf[6];
	if (out->byte_order > 1)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s has an invalid byte-order flag (%u)", what, out->byte_order);
	if (out->byte_order != HSPERF_HOST_ORDER)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s was written in %s byte order, which this machine cannot read",
			       what, out->byte_order ? "little-endian" : "big-endian");
	if (out->major != 2)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s uses perf-data format version %u.%u; gctop reads version 2 (JDK 1.5 and later)",
			       what, out->major, out->minor);
	out->accessible = hsperf_load_u8(buf, 7);
	out->used = hsperf_load_u32(buf, 8);
	out->overflow = hsperf_load_u32(buf, 12);
	out->mod_time_stamp = hsperf_load_i64(buf, 16);
	out->entry_offset = hsperf_load_u32(buf, 24);
	out->num_entries = hsperf_load_u32(buf, 28);
	if (out->entry_offset < HSPERF_PROLOGUE_SIZE || out->entry_offset > size || (out->entry_offset & 7) != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s has an invalid first-entry offset (%u)", what, out->entry_offset);
	return 0;
}

int hsperf_init(struct hsperf *p, const uint8_t *buf, size_t size, const char *what, struct gt_error *err)
{
	memset(p, 0, sizeof(*p));
	if (((uintptr_t)buf & 7) != 0)
		return gt_fail(err, GT_EXIT_BAD_DATA, "%s is not 8-byte aligned in memory", what);
	struct hsperf_prologue pro;
	if (hsperf_read_prologue(buf, size, what, &pro, err) != 0)
		return -1;
	p->base = buf;
	p->size = size;
	p->resume_offset = pro.entry_offset;
	if (hsperf_refresh(p) < 0) {
		hsperf_free(p);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory while reading %s", what);
	}
	return 0;
}

bool hsperf_accessible(const struct hsperf *p)
{
	return hsperf_load_u8(p->base, 7) != 0;
}

enum hsperf_scan {
	HSPERF_SCAN_STORED,   /* a complete entry we keep */
	HSPERF_SCAN_SKIPPED,  /* a complete entry of a type HotSpot does not emit */
	HSPERF_SCAN_STOP,     /* zero, partial or invalid: resume here later */
	HSPERF_SCAN_NOMEM,
};

static enum hsperf_scan hsperf_scan_entry(struct hsperf *p, uint32_t off, uint32_t limit, uint32_t *len_out)
{
	const uint8_t *b = p->base;
	if (off > limit || limit - off < HSPERF_ENTRY_HEADER_SIZE + 2)
		return HSPERF_SCAN_STOP;
	uint32_t len = hsperf_load_u32(b, off);
	if (len == 0 || len % 4 != 0 || len > limit - off || len < HSPERF_ENTRY_HEADER_SIZE + 2)
		return HSPERF_SCAN_STOP;
	uint32_t name_off = hsperf_load_u32(b, off + 4);
	uint32_t vlen = hsperf_load_u32(b, off + 8);
	char type = (char)hsperf_load_u8(b, off + 12);
	uint8_t units = hsperf_load_u8(b, off + 14);
	uint8_t variability = hsperf_load_u8(b, off + 15);
	uint32_t data_off = hsperf_load_u32(b, off + 16);
	if (name_off != HSPERF_ENTRY_HEADER_SIZE || data_off <= name_off || data_off > len)
		return HSPERF_SCAN_STOP;
	if (units < HSPERF_U_NONE || units > HSPERF_U_HERTZ || variability < 1 || variability > 3)
		return HSPERF_SCAN_STOP;
	const char *name = (const char *)b + off + name_off;
	size_t name_len = strnlen(name, data_off - name_off);
	if (name_len == 0 || name_len == data_off - name_off)
		return HSPERF_SCAN_STOP;

	uint64_t elem;
	if (type == 'J')
		elem = 8;
	else if (type == 'B')
		elem = 1;
	else {
		*len_out = len;
		return HSPERF_SCAN_SKIPPED;
	}
	uint64_t need = elem * (vlen ? (uint64_t)vlen : 1);
	if ((uint64_t)data_off + need > len)
		return HSPERF_SCAN_STOP;
	if (type == 'J' && ((off + data_off) & 7) != 0)
		return HSPERF_SCAN_STOP;

	struct hsperf_entry *grown = gt_array_grow(p->entries, &p->capacity, p->count + 1, sizeof(*grown), 256);
	if (!grown)
		return HSPERF_SCAN_NOMEM;
	p->entries = grown;
	char *copy = malloc(name_len + 1);
	if (!copy)
		return HSPERF_SCAN_NOMEM;
	memcpy(copy, name, name_len);
	copy[name_len] = '\0';
	p->entries[p->count++] = (struct hsperf_entry){
		.name = copy,
		.type = type,
		.units = units,
		.variability = variability,
		.vector_length = vlen,
		.data_offset = off + data_off,
	};
	*len_out = len;
	return HSPERF_SCAN_STORED;
}

int hsperf_refresh(struct hsperf *p)
{
	uint32_t used = hsperf_load_u32(p->base, 8);
	uint32_t num = hsperf_load_u32(p->base, 28);
	int64_t mod = hsperf_load_i64(p->base, 16);
	if (p->complete && used == p->seen_used && num == p->seen_num_entries && mod == p->seen_mod_time)
		return 0;
	p->seen_used = used;
	p->seen_num_entries = num;
	p->seen_mod_time = mod;

	/* `used` is bumped before an entry is filled in, so it only bounds the scan. */
	uint32_t limit = (used >= HSPERF_PROLOGUE_SIZE && used <= p->size) ? used : (uint32_t)p->size;
	int added = 0;
	for (;;) {
		uint32_t len = 0;
		enum hsperf_scan s = hsperf_scan_entry(p, p->resume_offset, limit, &len);
		if (s == HSPERF_SCAN_NOMEM)
			return -1;
		if (s == HSPERF_SCAN_STOP)
			break;
		if (s == HSPERF_SCAN_STORED)
			added++;
		p->parsed++;
		p->resume_offset += len;
	}
	/* An entry counted but not yet filled in keeps us incomplete, so the
	 * next refresh looks again even if the prologue does not change. */
	p->complete = p->parsed >= num;
	return added;
}

const struct hsperf_entry *hsperf_find(const struct hsperf *p, const char *name)
{
	for (size_t i = 0; i < p->count; i++)
		if (strcmp(p->entries[i].name, name) == 0)
			return &p->entries[i];
	return NULL;
}

hsperf_long hsperf_resolve_long(const struct hsperf *p, const char *name)
{
	const struct hsperf_entry *e = hsperf_find(p, name);
	if (!e || e->type != 'J' || e->vector_length != 0)
		return NULL;
	return (const int64_t *)(const void *)(p->base + e->data_offset);
}

int hsperf_read_long(const struct hsperf *p, const char *name, int64_t *v)
{
	hsperf_long c = hsperf_resolve_long(p, name);
	if (!c)
		return -1;
	*v = hsperf_load(c);
	return 0;
}

int hsperf_read_string_entry(const struct hsperf *p, const struct hsperf_entry *e, char *out, size_t outsz)
{
	if (outsz == 0)
		return -1;
	out[0] = '\0';
	if (!e || e->type != 'B')
		return -1;
	size_t cap = e->vector_length ? e->vector_length : 1;
	size_t n = 0;
	/* Byte by byte: the JVM may rewrite a variable string while we copy it,
	 * and bytes after the first NUL may be stale. */
	for (; n < cap && n + 1 < outsz; n++) {
		char c = (char)hsperf_load_u8(p->base, e->data_offset + n);
		if (c == '\0')
			break;
		out[n] = c;
	}
	out[n] = '\0';
	return 0;
}

int hsperf_read_string(const struct hsperf *p, const char *name, char *out, size_t outsz)
{
	return hsperf_read_string_entry(p, hsperf_find(p, name), out, outsz);
}

void hsperf_free(struct hsperf *p)
{
	for (size_t i = 0; i < p->count; i++)
		free(p->entries[i].name);
	free(p->entries);
	memset(p, 0, sizeof(*p));
}
