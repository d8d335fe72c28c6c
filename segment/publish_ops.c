/* The ops block of the segment, publisher side (gctop_segment.h): read the
 * request a reader wrote, write the answer. */
#include "segment/publish.h"

#include <string.h>

/* A reader rewriting its request is done in a few system calls; a request
 * still odd after this many looks is read at the next tick. */
#define PUB_OPS_TRIES 8

static struct gctop_seg_ops *pub_ops(const struct gctop_pub *p)
{
	const struct gctop_seg_header *h = p->hdr;
	if (!h->ops_offset || h->ops_size != sizeof(struct gctop_seg_ops))
		return NULL;
	return (struct gctop_seg_ops *)((char *)p->hdr + h->ops_offset);
}

/* Copies a reader-written string field; false when it has no NUL. */
static bool pub_ops_copy(char *dst, const char *src, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		if (!dst[i])
			return true;
	}
	dst[len - 1] = '\0';
	return false;
}

bool gctop_pub_ops_request(const struct gctop_pub *p, struct gctop_pub_ops_request *out)
{
	memset(out, 0, sizeof(*out));
	struct gctop_seg_ops *o = pub_ops(p);
	if (!o)
		return false;
	for (int i = 0; i < PUB_OPS_TRIES; i++) {
		uint64_t s1 = __atomic_load_n(&o->req_seq, __ATOMIC_ACQUIRE);
		if (s1 & 1)
			continue;
		uint64_t id = __atomic_load_n(&o->req_id, __ATOMIC_RELAXED);
		bool ok = pub_ops_copy(out->name, o->req_name, sizeof(out->name)) &&
			  pub_ops_copy(out->attr, o->req_attr, sizeof(out->attr));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&o->req_seq, __ATOMIC_RELAXED) != s1)
			continue;
		if (!ok)
			break;
		out->id = id;
		out->beat = __atomic_load_n(&o->req_beat, __ATOMIC_RELAXED);
		return id != 0;
	}
	memset(out, 0, sizeof(*out));
	return false;
}

void gctop_pub_set_ops(struct gctop_pub *p, uint64_t id, enum gctop_seg_ops_status status, uint64_t value,
		       uint32_t matched, uint64_t read_ns, const char *reason)
{
	struct gctop_seg_ops *o = pub_ops(p);
	if (!o)
		return;
	uint64_t s = __atomic_load_n(&o->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&o->seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&o->answer_id, id, __ATOMIC_RELAXED);
	__atomic_store_n(&o->value, value, __ATOMIC_RELAXED);
	__atomic_store_n(&o->read_ns, read_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&o->status, (uint32_t)status, __ATOMIC_RELAXED);
	__atomic_store_n(&o->matched, matched, __ATOMIC_RELAXED);
	size_t n = reason ? strnlen(reason, GCTOP_SEG_OPS_REASON_LEN - 1) : 0;
	for (size_t i = 0; i < GCTOP_SEG_OPS_REASON_LEN; i++)
		__atomic_store_n(&o->reason[i], i < n ? reason[i] : '\0', __ATOMIC_RELAXED);
	__atomic_store_n(&o->seq, s + 2, __ATOMIC_RELEASE);
}
