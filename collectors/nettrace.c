/* The nettrace stream: header, FastSerialization objects and blocks, event
 * headers, and sequence-number bookkeeping for lost events. */
#include "nettrace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrace_cursor.h"

enum { TAG_NULL = 1, TAG_BEGIN_PRIVATE = 5, TAG_END = 6 };
enum { NEED_MORE = -2, FAILED = -1, DONE = 1 };

/* The header: "Nettrace", then the FastSerialization signature as an
 * int32-prefixed string. */
#define MAGIC_LEN 8
#define SIGNATURE "!FastSerialization.1"
#define HEADER_LEN (MAGIC_LEN + 4 + 20)

struct thread_seq {
	uint64_t tid;
	uint32_t seq;
	bool used;
};

struct gt_nettrace {
	struct gt_nettrace_callbacks cb;
	uint8_t *buf;
	size_t len, cap, pos;
	uint64_t base;           /* stream offset of buf[0], for block alignment */
	bool header_done, ended, failed;
	bool have_trace;
	struct gt_nettrace_trace trace;
	char error[256];
	struct gt_nettrace_stats stats;

	struct gt_nettrace_meta *metas;   /* open addressing on id */
	size_t meta_cap, meta_count;
	struct thread_seq *threads;       /* open addressing on capture thread id */
	size_t thread_cap, thread_count;
};

static int fail(struct gt_nettrace *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct gt_nettrace *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	p->failed = true;
	return FAILED;
}

struct gt_nettrace *gt_nettrace_new(const struct gt_nettrace_callbacks *cb)
{
	struct gt_nettrace *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	if (cb)
		p->cb = *cb;
	return p;
}

void gt_nettrace_free(struct gt_nettrace *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->meta_cap; i++)
		if (p->metas[i].id)
			gt_nettrace_meta_clear(&p->metas[i]);
	free(p->metas);
	free(p->threads);
	free(p->buf);
	free(p);
}

const char *gt_nettrace_error(const struct gt_nettrace *p)
{
	return p->error;
}

const struct gt_nettrace_stats *gt_nettrace_stats(const struct gt_nettrace *p)
{
	return &p->stats;
}

const struct gt_nettrace_trace *gt_nettrace_trace_info(const struct gt_nettrace *p)
{
	return p->have_trace ? &p->trace : NULL;
}

/* ---- tables ---- */

static size_t hash_u64(uint64_t v, size_t cap)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)(v & (cap - 1));
}

static const struct gt_nettrace_meta *meta_find(const struct gt_nettrace *p, uint32_t id)
{
	if (!p->meta_cap || id == 0)
		return NULL;
	for (size_t i = hash_u64(id, p->meta_cap);; i = (i + 1) & (p->meta_cap - 1)) {
		if (p->metas[i].id == id)
			return &p->metas[i];
		if (p->metas[i].id == 0)
			return NULL;
	}
}

static int meta_grow(struct gt_nettrace *p)
{
	size_t cap = p->meta_cap ? p->meta_cap * 2 : 256;
	struct gt_nettrace_meta *m = calloc(cap, sizeof(*m));
	if (!m)
		return -1;
	for (size_t i = 0; i < p->meta_cap; i++) {
		if (!p->metas[i].id)
			continue;
		size_t j = hash_u64(p->metas[i].id, cap);
		while (m[j].id)
			j = (j + 1) & (cap - 1);
		m[j] = p->metas[i];
	}
	free(p->metas);
	p->metas = m;
	p->meta_cap = cap;
	return 0;
}

/* Takes ownership of m's fields; a repeated id keeps the first definition. */
static int meta_add(struct gt_nettrace *p, struct gt_nettrace_meta *m)
{
	if (meta_find(p, m->id)) {
		gt_nettrace_meta_clear(m);
		return 0;
	}
	if (p->meta_count >= GT_NETTRACE_MAX_METAS) {
		gt_nettrace_meta_clear(m);
		return fail(p, "the nettrace stream defines more than %d event kinds", GT_NETTRACE_MAX_METAS);
	}
	if ((p->meta_count + 1) * 2 > p->meta_cap && meta_grow(p) != 0) {
		gt_nettrace_meta_clear(m);
		return fail(p, "out of memory for nettrace metadata");
	}
	size_t j = hash_u64(m->id, p->meta_cap);
	while (p->metas[j].id)
		j = (j + 1) & (p->meta_cap - 1);
	p->metas[j] = *m;
	p->meta_count++;
	p->stats.metadata++;
	return 0;
}

static struct thread_seq *thread_slot(struct gt_nettrace *p, uint64_t tid)
{
	if ((p->thread_count + 1) * 2 > p->thread_cap) {
		if (p->thread_count >= GT_NETTRACE_MAX_THREADS)
			return NULL; /* stop tracking new threads; never grow without bound */
		size_t cap = p->thread_cap ? p->thread_cap * 2 : 64;
		struct thread_seq *t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < p->thread_cap; i++) {
			if (!p->threads[i].used)
				continue;
			size_t j = hash_u64(p->threads[i].tid, cap);
			while (t[j].used)
				j = (j + 1) & (cap - 1);
			t[j] = p->threads[i];
		}
		free(p->threads);
		p->threads = t;
		p->thread_cap = cap;
	}
	size_t i = hash_u64(tid, p->thread_cap);
	while (p->threads[i].used && p->threads[i].tid != tid)
		i = (i + 1) & (p->thread_cap - 1);
	if (!p->threads[i].used) {
		p->threads[i].used = true;
		p->threads[i].tid = tid;
		p->threads[i].seq = 0;
		p->thread_count++;
	}
	return &p->threads[i];
}

/* Each capture thread numbers its events 1, 2, 3 ... within the session; a
 * gap means the runtime had to drop events (its buffers were full). The
 * first event of a thread is counted from 0 because numbering starts with
 * the session. */
static void note_seq(struct gt_nettrace *p, uint64_t tid, uint32_t seq)
{
	struct thread_seq *t = thread_slot(p, tid);
	if (!t)
		return;
	if (seq > t->seq + 1)
		p->stats.dropped += seq - t->seq - 1;
	if (seq > t->seq)
		t->seq = seq;
}

/* ---- blocks ---- */

struct header_state {
	uint32_t meta_id, seq, cpu, stack_id, payload_size;
	uint64_t tid, capture_tid;
	int64_t ts;
};

static void deliver(struct gt_nettrace *p, const struct header_state *h, const uint8_t *payload,
		    bool metadata_block)
{
	if (metadata_block) {
		struct gt_nettrace_meta m;
		/* A record gctop cannot read only loses that event kind. */
		if (gt_nettrace_parse_meta(payload, h->payload_size, &m) == 0)
			meta_add(p, &m);
		return;
	}
	if (h->meta_id != 0)
		note_seq(p, h->capture_tid, h->seq);
	const struct gt_nettrace_meta *m = meta_find(p, h->meta_id);
	if (!m) {
		p->stats.unknown_meta++;
		return;
	}
	p->stats.events++;
	if (!p->cb.on_event)
		return;
	struct gt_nettrace_event e = {
		.meta = m, .seq = h->seq, .thread_id = h->tid, .capture_thread_id = h->capture_tid,
		.cpu = h->cpu, .stack_id = h->stack_id, .timestamp = h->ts,
		.payload = payload, .payload_len = h->payload_size,
	};
	p->cb.on_event(p->cb.ctx, &e);
}

static int parse_compressed(struct gt_nettrace *p, struct nt_cursor *c, struct header_state *h,
			    bool metadata_block)
{
	uint8_t flags = nt_u8(c);
	if (flags & 0x01)
		h->meta_id = (uint32_t)nt_varuint(c, 5);
	if (flags & 0x02) {
		h->seq += (uint32_t)nt_varuint(c, 5) + 1;
		h->capture_tid = nt_varuint(c, 10);
		h->cpu = (uint32_t)nt_varuint(c, 5);
	} else if (h->meta_id != 0) {
		h->seq++;
	}
	if (flags & 0x04)
		h->tid = nt_varuint(c, 10);
	if (flags & 0x08)
		h->stack_id = (uint32_t)nt_varuint(c, 5);
	h->ts += (int64_t)nt_varuint(c, 10);
	if (flags & 0x10)
		nt_take(c, 16);
	if (flags & 0x20)
		nt_take(c, 16);
	if (flags & 0x80)
		h->payload_size = (uint32_t)nt_varuint(c, 5);
	const uint8_t *payload = nt_take(c, h->payload_size);
	if (c->bad)
		return fail(p, "a nettrace event is truncated or its header is malformed");
	deliver(p, h, payload, metadata_block);
	return 0;
}

static int parse_uncompressed(struct gt_nettrace *p, struct nt_cursor *c, struct header_state *h,
			      bool metadata_block)
{
	size_t start = c->off;
	uint32_t size = nt_u32(c);
	h->meta_id = nt_u32(c) & 0x7FFFFFFFu;
	h->seq = nt_u32(c);
	h->tid = nt_u64(c);
	h->capture_tid = nt_u64(c);
	h->cpu = nt_u32(c);
	h->stack_id = nt_u32(c);
	h->ts = (int64_t)nt_u64(c);
	nt_take(c, 32);
	h->payload_size = nt_u32(c);
	const uint8_t *payload = nt_take(c, h->payload_size);
	if (c->bad || size < c->off - start - 4)
		return fail(p, "an uncompressed nettrace event is truncated");
	deliver(p, h, payload, metadata_block);
	size_t pad = (4 - (c->off & 3)) & 3;
	if (pad > nt_left(c))
		pad = nt_left(c);
	c->off += pad;
	return 0;
}

static int parse_event_block(struct gt_nettrace *p, const uint8_t *b, size_t n, bool metadata_block)
{
	struct nt_cursor c = { b, n, 0, false };
	uint16_t header_size = nt_u16(&c);
	uint16_t flags = nt_u16(&c);
	if (c.bad || header_size < 20 || header_size > n)
		return fail(p, "a nettrace event block has a header of %u bytes in a block of %zu", header_size, n);
	c.off = header_size;
	struct header_state h;
	memset(&h, 0, sizeof(h));
	while (nt_left(&c) > 0) {
		int rc = (flags & 1) ? parse_compressed(p, &c, &h, metadata_block)
				     : parse_uncompressed(p, &c, &h, metadata_block);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int parse_stack_block(struct gt_nettrace *p, const uint8_t *b, size_t n)
{
	struct nt_cursor c = { b, n, 0, false };
	nt_u32(&c); /* first id: gctop asks for no stacks, so ids are not kept */
	uint32_t count = nt_u32(&c);
	for (uint32_t i = 0; i < count && !c.bad; i++) {
		uint32_t size = nt_u32(&c);
		nt_take(&c, size);
	}
	if (c.bad)
		return fail(p, "a nettrace stack block is truncated");
	p->stats.stacks += count;
	return 0;
}

/* A sequence point lists, per thread, the number of its last event written
 * so far: events up to it that never arrived were dropped. */
static int parse_sp_block(struct gt_nettrace *p, const uint8_t *b, size_t n)
{
	struct nt_cursor c = { b, n, 0, false };
	nt_u64(&c);
	uint32_t count = nt_u32(&c);
	if (c.bad || count > nt_left(&c) / 12)
		return fail(p, "a nettrace sequence point block is truncated");
	for (uint32_t i = 0; i < count; i++) {
		uint64_t tid = nt_u64(&c);
		uint32_t seq = nt_u32(&c);
		struct thread_seq *t = thread_slot(p, tid);
		if (t && seq > t->seq) {
			p->stats.dropped += seq - t->seq;
			t->seq = seq;
		}
	}
	p->stats.sequence_points++;
	return 0;
}

static int parse_trace(struct gt_nettrace *p, const uint8_t *b)
{
	struct nt_cursor c = { b, 48, 0, false };
	for (int i = 0; i < 8; i++)
		p->trace.sync_utc[i] = nt_u16(&c);
	p->trace.sync_qpc = (int64_t)nt_u64(&c);
	p->trace.qpc_freq = (int64_t)nt_u64(&c);
	p->trace.pointer_size = (int32_t)nt_u32(&c);
	p->trace.pid = (int32_t)nt_u32(&c);
	p->trace.n_processors = (int32_t)nt_u32(&c);
	p->trace.sampling_rate_ns = (int32_t)nt_u32(&c);
	if (p->trace.qpc_freq <= 0 || (p->trace.pointer_size != 4 && p->trace.pointer_size != 8))
		return fail(p, "the nettrace Trace object has a clock frequency of %lld and a pointer size of %d",
			    (long long)p->trace.qpc_freq, p->trace.pointer_size);
	p->have_trace = true;
	if (p->cb.on_trace)
		p->cb.on_trace(p->cb.ctx, &p->trace);
	return 0;
}

/* ---- objects ---- */

static int i32_at(const uint8_t *b)
{
	return (int)(int32_t)nt_le(b, 4);
}

static int parse_header(struct gt_nettrace *p)
{
	const uint8_t *b = p->buf + p->pos;
	size_t avail = p->len - p->pos;
	if (avail < MAGIC_LEN + 4)
		return NEED_MORE;
	if (memcmp(b, "Nettrace", MAGIC_LEN) != 0)
		return fail(p, "the EventPipe stream does not start with the nettrace magic");
	uint32_t next = (uint32_t)nt_le(b + MAGIC_LEN, 4);
	if (next == 0) {
		uint32_t major = avail >= 16 ? (uint32_t)nt_le(b + 12, 4) : 0;
		return fail(p, "the runtime sent a nettrace version %u stream, which this gctop does not read (it reads V4 and V5)", major);
	}
	if (next != 20)
		return fail(p, "the nettrace stream has an unknown serializer signature length %u", next);
	if (avail < HEADER_LEN)
		return NEED_MORE;
	if (memcmp(b + 12, SIGNATURE, 20) != 0)
		return fail(p, "the nettrace stream has an unknown serializer signature");
	p->pos += HEADER_LEN;
	p->header_done = true;
	return 0;
}

static int parse_object(struct gt_nettrace *p)
{
	const uint8_t *b = p->buf + p->pos;
	size_t avail = p->len - p->pos;
	if (avail < 1)
		return NEED_MORE;
	if (b[0] == TAG_NULL) {
		p->pos++;
		p->ended = true;
		return DONE;
	}
	if (b[0] != TAG_BEGIN_PRIVATE)
		return fail(p, "unexpected tag %u where a nettrace object should begin", b[0]);
	/* object tag, type tag, null tag, version, min reader version, name length */
	if (avail < 3 + 12)
		return NEED_MORE;
	if (b[1] != TAG_BEGIN_PRIVATE || b[2] != TAG_NULL)
		return fail(p, "a nettrace object has a malformed type header");
	int version = i32_at(b + 3);
	int min_reader = i32_at(b + 7);
	int name_len = i32_at(b + 11);
	if (name_len <= 0 || name_len > 32)
		return fail(p, "a nettrace object type name has %d bytes", name_len);
	size_t off = 15 + (size_t)name_len;
	if (avail < off + 1)
		return NEED_MORE;
	char name[33];
	memcpy(name, b + 15, (size_t)name_len);
	name[name_len] = '\0';
	if (b[off] != TAG_END)
		return fail(p, "the nettrace type %s is not closed", name);
	off++;

	if (strcmp(name, "Trace") == 0) {
		if (min_reader > 4)
			return fail(p, "the runtime sent a nettrace Trace object of version %d, which this gctop does not read (it reads V4 and V5)", version);
		if (avail < off + 48 + 1)
			return NEED_MORE;
		if (b[off + 48] != TAG_END)
			return fail(p, "the nettrace Trace object is not closed");
		if (parse_trace(p, b + off) != 0)
			return FAILED;
		p->pos += off + 49;
		return 0;
	}

	enum { EVENTS, METADATA, STACKS, SP } kind;
	if (strcmp(name, "EventBlock") == 0)
		kind = EVENTS;
	else if (strcmp(name, "MetadataBlock") == 0)
		kind = METADATA;
	else if (strcmp(name, "StackBlock") == 0)
		kind = STACKS;
	else if (strcmp(name, "SPBlock") == 0)
		kind = SP;
	else
		return fail(p, "the nettrace stream holds an object of unknown type %s", name);
	if (min_reader > 2)
		return fail(p, "the nettrace %s has version %d, which this gctop does not read", name, version);
	if (avail < off + 4)
		return NEED_MORE;
	int32_t size = (int32_t)i32_at(b + off);
	if (size < 0 || (uint32_t)size > GT_NETTRACE_MAX_BLOCK)
		return fail(p, "a nettrace %s claims %d bytes (limit %u)", name, size, GT_NETTRACE_MAX_BLOCK);
	off += 4;
	/* Block content starts at a 4-byte aligned offset of the whole stream. */
	size_t pad = (size_t)((4 - ((p->base + p->pos + off) & 3)) & 3);
	if (avail < off + pad + (size_t)size + 1)
		return NEED_MORE;
	for (size_t i = 0; i < pad; i++)
		if (b[off + i] != 0)
			return fail(p, "a nettrace %s has non-zero padding", name);
	const uint8_t *content = b + off + pad;
	if (content[size] != TAG_END)
		return fail(p, "the nettrace %s is not closed where its size says", name);
	int rc;
	switch (kind) {
	case EVENTS: rc = parse_event_block(p, content, (size_t)size, false); break;
	case METADATA: rc = parse_event_block(p, content, (size_t)size, true); break;
	case STACKS: rc = parse_stack_block(p, content, (size_t)size); break;
	default: rc = parse_sp_block(p, content, (size_t)size); break;
	}
	if (rc != 0)
		return FAILED;
	p->stats.blocks++;
	p->pos += off + pad + (size_t)size + 1;
	return 0;
}

static int append(struct gt_nettrace *p, const uint8_t *data, size_t len)
{
	if (p->pos > 0) {
		memmove(p->buf, p->buf + p->pos, p->len - p->pos);
		p->len -= p->pos;
		p->base += p->pos;
		p->pos = 0;
	}
	/* One pending object is at most a maximal block plus its framing. */
	size_t limit = GT_NETTRACE_MAX_BLOCK + 4096;
	if (len > limit || p->len + len > limit + len)
		return fail(p, "the nettrace stream buffers too much data");
	if (p->len + len > p->cap) {
		size_t cap = p->cap ? p->cap : 65536;
		while (cap < p->len + len)
			cap *= 2;
		uint8_t *nb = realloc(p->buf, cap);
		if (!nb)
			return fail(p, "out of memory for the nettrace stream");
		p->buf = nb;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, data, len);
	p->len += len;
	return 0;
}

int gt_nettrace_feed(struct gt_nettrace *p, const uint8_t *data, size_t len)
{
	if (p->failed)
		return -1;
	if (p->ended)
		return len == 0 ? 1 : fail(p, "bytes follow the end of the nettrace stream");
	p->stats.bytes += len;
	/* Feeding in slices keeps the buffer small when a caller hands over a
	 * large read at once. */
	while (len > 0 || p->pos < p->len) {
		size_t chunk = len > 65536 ? 65536 : len;
		if (chunk && append(p, data, chunk) != 0)
			return -1;
		data += chunk;
		len -= chunk;
		for (;;) {
			int rc = p->header_done ? parse_object(p) : parse_header(p);
			if (rc == FAILED)
				return -1;
			if (rc == DONE)
				return len == 0 && p->pos == p->len ? 1 : fail(p, "bytes follow the end of the nettrace stream");
			if (rc == NEED_MORE)
				break;
		}
		if (len == 0)
			break;
	}
	return 0;
}
