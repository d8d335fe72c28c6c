/* The nettrace stream: its header, the FastSerialization object framing
 * (Trace and the blocks, with their alignment), and feeding bytes in pieces. */
#include "collectors/dotnet/nettrace/nettrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cursor.h"
#include "collectors/dotnet/nettrace/nettrace_block.h"
#include "collectors/dotnet/nettrace/nettrace_tables.h"
#include "base/array.h"

enum { TAG_NULL = 1, TAG_BEGIN_PRIVATE = 5, TAG_END = 6 };
enum { NEED_MORE = -2, FAILED = -1, DONE = 1 };

/* The header: "Nettrace", then the FastSerialization signature as an
 * int32-prefixed string. */
#define MAGIC_LEN 8
#define SIGNATURE "!FastSerialization.1"
#define HEADER_LEN (MAGIC_LEN + 4 + 20)

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
	nt_tables_free(p);
	free(p->buf);
	free(p);
}

uint64_t gt_nettrace_end(struct gt_nettrace **p)
{
	uint64_t dropped = *p ? (*p)->stats.dropped : 0;
	gt_nettrace_free(*p);
	*p = NULL;
	return dropped;
}

const char *gt_nettrace_error(const struct gt_nettrace *p)
{
	return p->err.msg;
}

const struct gt_nettrace_stats *gt_nettrace_stats(const struct gt_nettrace *p)
{
	return &p->stats;
}

void gt_nettrace_set_stack_callbacks(struct gt_nettrace *p,
				     void (*on_stack)(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size),
				     void (*on_sequence_point)(void *ctx))
{
	p->on_stack = on_stack;
	p->on_sequence_point = on_sequence_point;
}

const struct gt_nettrace_trace *gt_nettrace_trace_info(const struct gt_nettrace *p)
{
	return p->have_trace ? &p->trace : NULL;
}

static int parse_trace(struct gt_nettrace *p, const uint8_t *b)
{
	struct gt_cursor c = gt_cursor_at(b, 48);
	for (int i = 0; i < 8; i++)
		p->trace.sync_utc[i] = gt_cursor_u16(&c);
	p->trace.sync_qpc = (int64_t)gt_cursor_u64(&c);
	p->trace.qpc_freq = (int64_t)gt_cursor_u64(&c);
	p->trace.pointer_size = (int32_t)gt_cursor_u32(&c);
	p->trace.pid = (int32_t)gt_cursor_u32(&c);
	p->trace.n_processors = (int32_t)gt_cursor_u32(&c);
	p->trace.sampling_rate_ns = (int32_t)gt_cursor_u32(&c);
	if (p->trace.qpc_freq <= 0 || (p->trace.pointer_size != 4 && p->trace.pointer_size != 8))
		return nt_fail(p, "the nettrace Trace object has a clock frequency of %lld and a pointer size of %d",
			    (long long)p->trace.qpc_freq, p->trace.pointer_size);
	p->have_trace = true;
	if (p->cb.on_trace)
		p->cb.on_trace(p->cb.ctx, &p->trace);
	return 0;
}

/* ---- objects ---- */

static int i32_at(const uint8_t *b)
{
	return (int)(int32_t)gt_le(b, 4);
}

static int parse_header(struct gt_nettrace *p)
{
	const uint8_t *b = p->buf + p->pos;
	size_t avail = p->len - p->pos;
	if (avail < MAGIC_LEN + 4)
		return NEED_MORE;
	if (memcmp(b, "Nettrace", MAGIC_LEN) != 0)
		return nt_fail(p, "the EventPipe stream does not start with the nettrace magic");
	uint32_t next = (uint32_t)gt_le(b + MAGIC_LEN, 4);
	if (next == 0) {
		uint32_t major = avail >= 16 ? (uint32_t)gt_le(b + 12, 4) : 0;
		return nt_fail(p, "the runtime sent a nettrace version %u stream, which this gctop does not read (it reads V4 and V5)", major);
	}
	if (next != 20)
		return nt_fail(p, "the nettrace stream has an unknown serializer signature length %u", next);
	if (avail < HEADER_LEN)
		return NEED_MORE;
	if (memcmp(b + 12, SIGNATURE, 20) != 0)
		return nt_fail(p, "the nettrace stream has an unknown serializer signature");
	p->pos += HEADER_LEN;
	p->header_done = true;
	return 0;
}

/* An object whose type header has been read: its bytes from the type on,
 * where its body starts (off) and what the type says. */
struct object {
	const uint8_t *b;
	size_t avail, off;
	int version, min_reader;
	char name[33];
};

/* The Trace object: 48 bytes of clock and process facts. */
static int parse_trace_object(struct gt_nettrace *p, const struct object *o)
{
	if (o->min_reader > 4)
		return nt_fail(p, "the runtime sent a nettrace Trace object of version %d, which this gctop does not read (it reads V4 and V5)", o->version);
	if (o->avail < o->off + 48 + 1)
		return NEED_MORE;
	if (o->b[o->off + 48] != TAG_END)
		return nt_fail(p, "the nettrace Trace object is not closed");
	if (parse_trace(p, o->b + o->off) != 0)
		return FAILED;
	p->pos += o->off + 49;
	return 0;
}

/* A block: its size, padding to a 4-byte offset of the stream, contents. */
static int parse_block_object(struct gt_nettrace *p, const struct object *o)
{
	enum { EVENTS, METADATA, STACKS, SP } kind;
	if (strcmp(o->name, "EventBlock") == 0)
		kind = EVENTS;
	else if (strcmp(o->name, "MetadataBlock") == 0)
		kind = METADATA;
	else if (strcmp(o->name, "StackBlock") == 0)
		kind = STACKS;
	else if (strcmp(o->name, "SPBlock") == 0)
		kind = SP;
	else
		return nt_fail(p, "the nettrace stream holds an object of unknown type %s", o->name);
	if (o->min_reader > 2)
		return nt_fail(p, "the nettrace %s has version %d, which this gctop does not read", o->name, o->version);
	size_t off = o->off;
	if (o->avail < off + 4)
		return NEED_MORE;
	int32_t size = (int32_t)i32_at(o->b + off);
	if (size < 0 || (uint32_t)size > GT_NETTRACE_MAX_BLOCK)
		return nt_fail(p, "a nettrace %s claims %d bytes (limit %u)", o->name, size, GT_NETTRACE_MAX_BLOCK);
	off += 4;
	/* Block content starts at a 4-byte aligned offset of the whole stream. */
	size_t pad = (size_t)((4 - ((p->base + p->pos + off) & 3)) & 3);
	if (o->avail < off + pad + (size_t)size + 1)
		return NEED_MORE;
	for (size_t i = 0; i < pad; i++)
		if (o->b[off + i] != 0)
			return nt_fail(p, "a nettrace %s has non-zero padding", o->name);
	const uint8_t *content = o->b + off + pad;
	if (content[size] != TAG_END)
		return nt_fail(p, "the nettrace %s is not closed where its size says", o->name);
	int rc;
	switch (kind) {
	case EVENTS: rc = nt_parse_event_block(p, content, (size_t)size, false); break;
	case METADATA: rc = nt_parse_event_block(p, content, (size_t)size, true); break;
	case STACKS: rc = nt_parse_stack_block(p, content, (size_t)size); break;
	default: rc = nt_parse_sp_block(p, content, (size_t)size); break;
	}
	if (rc != 0)
		return FAILED;
	p->stats.blocks++;
	p->pos += off + pad + (size_t)size + 1;
	return 0;
}

static int parse_object(struct gt_nettrace *p)
{
	struct object o = { .b = p->buf + p->pos, .avail = p->len - p->pos };
	const uint8_t *b = o.b;
	if (o.avail < 1)
		return NEED_MORE;
	if (b[0] == TAG_NULL) {
		p->pos++;
		p->ended = true;
		return DONE;
	}
	if (b[0] != TAG_BEGIN_PRIVATE)
		return nt_fail(p, "unexpected tag %u where a nettrace object should begin", b[0]);
	/* object tag, type tag, null tag, version, min reader version, name length */
	if (o.avail < 3 + 12)
		return NEED_MORE;
	if (b[1] != TAG_BEGIN_PRIVATE || b[2] != TAG_NULL)
		return nt_fail(p, "a nettrace object has a malformed type header");
	o.version = i32_at(b + 3);
	o.min_reader = i32_at(b + 7);
	int name_len = i32_at(b + 11);
	if (name_len <= 0 || name_len > 32)
		return nt_fail(p, "a nettrace object type name has %d bytes", name_len);
	o.off = 15 + (size_t)name_len;
	if (o.avail < o.off + 1)
		return NEED_MORE;
	memcpy(o.name, b + 15, (size_t)name_len);
	o.name[name_len] = '\0';
	if (b[o.off] != TAG_END)
		return nt_fail(p, "the nettrace type %s is not closed", o.name);
	o.off++;
	if (strcmp(o.name, "Trace") == 0)
		return parse_trace_object(p, &o);
	return parse_block_object(p, &o);
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
		return nt_fail(p, "the nettrace stream buffers too much data");
	uint8_t *nb = gt_array_grow(p->buf, &p->cap, p->len + len, 1, 65536);
	if (!nb)
		return nt_fail(p, "out of memory for the nettrace stream");
	p->buf = nb;
	memcpy(p->buf + p->len, data, len);
	p->len += len;
	return 0;
}

int gt_nettrace_feed(struct gt_nettrace *p, const uint8_t *data, size_t len)
{
	if (p->failed)
		return -1;
	if (p->ended)
		return len == 0 ? 1 : nt_fail(p, "bytes follow the end of the nettrace stream");
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
				return len == 0 && p->pos == p->len ? 1 : nt_fail(p, "bytes follow the end of the nettrace stream");
			if (rc == NEED_MORE)
				break;
		}
		if (len == 0)
			break;
	}
	return 0;
}
