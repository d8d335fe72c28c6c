/* The JFR chunk's constant pools (ChunkParser.fillConstantPools): the
 * header points at the last checkpoint event, each checkpoint at the one
 * before it by a negative delta (0 ends the chain), and each holds pools,
 * a class id and its constants, a key and a value of that class each.
 * The reader indexes every constant (its class, key and where its bytes
 * start) before the first event is read, so an event may name a constant
 * written later in the chunk; values are decoded only when a path reaches
 * them. A chain that does not go strictly backwards, a checkpoint whose
 * content does not end where its size says, or more checkpoints or
 * constants than the limits, is refused. */
#include <stdlib.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

static size_t jfr_const_slot(uint32_t cls, uint64_t key, size_t mask)
{
	uint64_t h = (key ^ ((uint64_t)cls << 40)) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 17) & mask;
}

const struct jfr_const *jfr_const_find(const struct gt_jfr_reader *r, uint32_t cls, uint64_t key)
{
	if (!r->const_hash_cap)
		return NULL;
	size_t mask = r->const_hash_cap - 1;
	for (size_t h = jfr_const_slot(cls, key, mask);; h = (h + 1) & mask) {
		uint32_t k = r->const_hash[h];
		if (!k)
			return NULL;
		const struct jfr_const *c = &r->consts[k - 1];
		if (c->cls == cls && c->key == key)
			return c;
	}
}

/* The index of every constant; a key given twice keeps the one read last
 * (the oldest checkpoint's), as the JDK's ConstantMap.put does. */
static int jfr_hash_consts(struct gt_jfr_reader *r, struct gt_error *err)
{
	size_t cap = 16;
	while (cap < 2 * r->n_consts)
		cap *= 2;
	r->const_hash = calloc(cap, sizeof(*r->const_hash));
	if (!r->const_hash)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading a flight recording");
	r->const_hash_cap = cap;
	r->held += cap * sizeof(*r->const_hash);
	for (size_t i = 0; i < r->n_consts; i++) {
		const struct jfr_const *c = &r->consts[i];
		size_t h = jfr_const_slot(c->cls, c->key, cap - 1);
		while (r->const_hash[h]) {
			const struct jfr_const *o = &r->consts[r->const_hash[h] - 1];
			if (o->cls == c->cls && o->key == c->key)
				break;
			h = (h + 1) & (cap - 1);
		}
		r->const_hash[h] = (uint32_t)i + 1;
	}
	return GT_JFR_OK;
}

/* One pool of a checkpoint ending at end: its class id, its count, its
 * constants indexed. */
static int jfr_read_pool(struct gt_jfr_reader *r, struct jfr_in *in, size_t end, struct gt_error *err)
{
	uint64_t id = jfr_in_long(in);
	uint32_t n = jfr_in_count(in, INT32_MAX);
	if (in->bad)
		return jfr_bad(err, "the flight recording's checkpoint ending at %zu is truncated", end);
	uint32_t cls = jfr_class_by_id(r, id);
	if (cls == JFR_NO_INDEX)
		return jfr_bad(err, "the flight recording has a constant pool of class id %llu, which its metadata lacks",
			       (unsigned long long)id);
	if (r->classes[cls].n_fields == 0 && r->classes[cls].prim == JFR_PRIM_NONE)
		return jfr_bad(err, "the flight recording has a constant pool of %s, which holds nothing",
			       r->classes[cls].name);
	for (uint32_t i = 0; i < n; i++) {
		if (r->n_consts >= r->lim.max_pool_entries)
			return jfr_bad(err, "the flight recording holds more constants than gctop's limit of %u",
				       r->lim.max_pool_entries);
		uint64_t key = jfr_in_long(in);
		size_t at = in->off;
		if (jfr_skip_class(r, cls, in, 0) != GT_JFR_OK || in->bad)
			return jfr_bad(err, "the flight recording's constant %llu of %s is truncated or malformed",
				       (unsigned long long)key, r->classes[cls].name);
		struct jfr_const *c = jfr_grow(r, r->consts, &r->consts_cap, r->n_consts + 1, sizeof(*c), err);
		if (!c)
			return GT_JFR_ERROR;
		r->consts = c;
		r->consts[r->n_consts++] = (struct jfr_const){ key, cls, (uint32_t)at, (uint32_t)end };
	}
	return GT_JFR_OK;
}

/* The checkpoint at off: its pools indexed, *delta set to the chain's
 * step back to the one before it. */
static int jfr_read_checkpoint(struct gt_jfr_reader *r, size_t off, int64_t *delta, struct gt_error *err)
{
	struct jfr_in in = jfr_in_at(r, off, r->len);
	uint32_t size = jfr_in_count(&in, INT32_MAX);
	if (in.bad || size == 0 || size > r->len - off)
		return jfr_bad(err, "the flight recording's checkpoint at %zu has a size past the chunk's end", off);
	size_t end = off + size;
	in.end = end;
	if (jfr_in_long(&in) != JFR_ID_CHECKPOINT || in.bad)
		return jfr_bad(err, "the flight recording's constant-pool chain leads to %zu, which is no checkpoint", off);
	jfr_in_long(&in); /* start */
	jfr_in_long(&in); /* duration */
	*delta = (int64_t)jfr_in_long(&in);
	jfr_in_u8(&in);   /* its kind: flush, header, statics, threads */
	uint32_t pools = jfr_in_count(&in, INT32_MAX);
	if (in.bad)
		return jfr_bad(err, "the flight recording's checkpoint at %zu is truncated", off);
	for (uint32_t i = 0; i < pools; i++)
		if (jfr_read_pool(r, &in, end, err) != GT_JFR_OK)
			return GT_JFR_ERROR;
	if (in.off != end)
		return jfr_bad(err, "the flight recording's checkpoint at %zu ends %zu bytes before its size says", off,
			       end - in.off);
	return GT_JFR_OK;
}

int jfr_pools_read(struct gt_jfr_reader *r, struct gt_error *err)
{
	size_t off = (size_t)r->hdr.cp_offset;
	while (off != 0) { /* 0: no checkpoint written yet */
		if (++r->checkpoints > r->lim.max_checkpoints)
			return jfr_bad(err, "the flight recording chains more checkpoints than gctop's limit of %u",
				       r->lim.max_checkpoints);
		int64_t delta = 0;
		if (jfr_read_checkpoint(r, off, &delta, err) != GT_JFR_OK)
			return GT_JFR_ERROR;
		if (delta == 0)
			break;
		/* strictly backwards and past the header, so the chain ends */
		if (delta > 0 || (uint64_t)-(delta + 1) + 1 > off - GT_JFR_HEADER_SIZE)
			return jfr_bad(err, "the flight recording's checkpoint at %zu points to %lld bytes from it, "
				       "not back into the chunk", off, (long long)delta);
		off -= (size_t)((uint64_t)-(delta + 1) + 1);
	}
	return jfr_hash_consts(r, err);
}
