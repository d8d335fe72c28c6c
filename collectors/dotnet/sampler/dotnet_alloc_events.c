#include "collectors/dotnet/sampler/dotnet_alloc_events.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/utf16.h"
#include "base/cursor.h"
#include "collectors/dotnet/sampler/dotnet_demangle.h"

double gt_dn_sampled_weight(uint64_t size)
{
	if (size == 0)
		return 0;
	/* 1 - q^size = -expm1(size * log1p(-p)): exact for small objects,
	 * where 1 - q^size is tiny and a direct subtraction would lose it. */
	double miss = -expm1((double)size * log1p(-1.0 / GT_DN_SAMPLING_MEAN_BYTES));
	return (double)size / miss;
}

enum gt_alloc_heap gt_dn_alloc_heap(uint32_t kind)
{
	switch (kind) {
	case 0: return GT_ALLOC_HEAP_SMALL;
	case 1: return GT_ALLOC_HEAP_LARGE;
	case 2: return GT_ALLOC_HEAP_PINNED;
	default: return GT_ALLOC_HEAP_UNKNOWN;
	}
}

/* A UTF-16z string at off: its UTF-8 into dst and the offset after it, or
 * 0 when it has no terminator within n. */
static size_t read_string(const uint8_t *p, size_t n, size_t off, char *dst, size_t dst_size)
{
	if (off > n)
		return 0;
	long units = gt_utf16z_units(p + off, n - off);
	if (units < 0)
		return 0;
	gt_utf16_to_utf8(p + off, (size_t)units, dst, dst_size);
	return off + 2 * (size_t)units + 2;
}

static bool valid_pointer_size(int ps)
{
	return ps == 4 || ps == 8;
}

int gt_dn_parse_allocation_sampled(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_alloc_event *out)
{
	memset(out, 0, sizeof(*out));
	size_t ps = (size_t)pointer_size;
	if (!valid_pointer_size(pointer_size) || n < 6 + ps + 2)
		return -1;
	out->heap = gt_dn_alloc_heap((uint32_t)gt_le(p, 4));
	out->type_id = gt_le(p + 6, pointer_size);
	size_t off = read_string(p, n, 6 + ps, out->type_name, sizeof(out->type_name));
	if (off == 0)
		return -1;
	size_t rest = n - off;
	/* Shipping layout: Address, ObjectSize, SampledByteOffset; an
	 * intermediate one put a u32 HeapIndex first. */
	if (rest == 4 + ps + 16)
		off += 4;
	else if (rest < ps + 16)
		return -1;
	out->object_size = gt_le(p + off + ps, 8);
	out->weight = gt_dn_sampled_weight(out->object_size);
	return 0;
}

int gt_dn_parse_allocation_tick(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_alloc_event *out)
{
	memset(out, 0, sizeof(*out));
	size_t ps = (size_t)pointer_size;
	/* V2 and later: Amount, Kind, ClrInstanceID, Amount64, TypeID, TypeName. */
	if (!valid_pointer_size(pointer_size) || n < 18 + ps + 2)
		return -1;
	out->heap = gt_dn_alloc_heap((uint32_t)gt_le(p + 4, 4));
	uint64_t amount = gt_le(p + 10, 8);
	out->type_id = gt_le(p + 18, pointer_size);
	size_t off = read_string(p, n, 18 + ps, out->type_name, sizeof(out->type_name));
	if (off == 0)
		return -1;
	/* V4 appends HeapIndex, Address and ObjectSize. */
	if (n - off >= 4 + ps + 8)
		out->object_size = gt_le(p + off + 4 + ps, 8);
	out->weight = (double)amount;
	return 0;
}

int gt_dn_parse_method_verbose(const uint8_t *p, size_t n, struct gt_dn_method *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 36 + 6)
		return -1;
	char ns[GT_DN_METHOD_NAME_LEN], name[GT_DN_METHOD_NAME_LEN];
	size_t off = read_string(p, n, 36, ns, sizeof(ns));
	if (off != 0)
		off = read_string(p, n, off, name, sizeof(name));
	uint32_t size = (uint32_t)gt_le(p + 24, 4);
	if (off == 0 || size == 0)
		return -1;
	out->start = gt_le(p + 16, 8);
	out->size = size;
	/* the name a developer wrote, not the compiler's for what it made */
	gt_dn_demangle(ns, name, out->name, sizeof(out->name));
	return 0;
}

bool gt_dn_is_method_name_event(const char *provider, uint32_t event_id)
{
	if (strcmp(provider, GT_DN_RUNTIME_PROVIDER) == 0)
		return event_id == GT_DN_EV_METHOD_LOAD_VERBOSE;
	return strcmp(provider, GT_DN_RUNDOWN_PROVIDER) == 0 &&
	       (event_id == GT_DN_EV_METHOD_LOAD_VERBOSE || event_id == GT_DN_EV_METHOD_DC_END_VERBOSE);
}
