/* The contents of nettrace blocks: event and metadata blocks with their
 * compressed (or plain) event headers, stack blocks and sequence points. */
#include <string.h>

#include "base/cursor.h"
#include "collectors/dotnet/nettrace/nettrace_block.h"
#include "collectors/dotnet/nettrace/nettrace_tables.h"

struct header_state {
	uint32_t meta_id, seq, cpu, stack_id, payload_size;
	uint64_t tid, capture_tid;
	int64_t ts;
};

/* Returns -1 when the stream must end (metadata past its bounds). */
static int deliver(struct gt_nettrace *p, const struct header_state *h, const uint8_t *payload,
		   bool metadata_block)
{
	if (metadata_block) {
		struct gt_nettrace_meta m;
		/* A record gctop cannot read only loses that event kind. */
		if (gt_nettrace_parse_meta(payload, h->payload_size, &m) == 0)
			return nt_meta_add(p, &m);
		return 0;
	}
	if (h->meta_id != 0)
		nt_note_seq(p, h->capture_tid, h->seq);
	const struct gt_nettrace_meta *m = nt_meta_find(p, h->meta_id);
	if (!m) {
		p->stats.unknown_meta++;
		return 0;
	}
	p->stats.events++;
	if (!p->cb.on_event)
		return 0;
	struct gt_nettrace_event e = {
		.meta = m, .seq = h->seq, .thread_id = h->tid, .capture_thread_id = h->capture_tid,
		.cpu = h->cpu, .stack_id = h->stack_id, .timestamp = h->ts,
		.payload = payload, .payload_len = h->payload_size,
	};
	p->cb.on_event(p->cb.ctx, &e);
	return 0;
}

static int parse_compressed(struct gt_nettrace *p, struct gt_cursor *c, struct header_state *h,
			    bool metadata_block)
{
	uint8_t flags = gt_cursor_u8(c);
	if (flags & 0x01)
		h->meta_id = (uint32_t)gt_cursor_varuint(c, 5);
	if (flags & 0x02) {
		h->seq += (uint32_t)gt_cursor_varuint(c, 5) + 1;
		h->capture_tid = gt_cursor_varuint(c, 10);
		h->cpu = (uint32_t)gt_cursor_varuint(c, 5);
	} else if (h->meta_id != 0) {
		h->seq++;
	}
	if (flags & 0x04)
		h->tid = gt_cursor_varuint(c, 10);
	if (flags & 0x08)
		h->stack_id = (uint32_t)gt_cursor_varuint(c, 5);
	/* A hostile delta may pass INT64_MAX: add as unsigned (wraps, defined)
	 * rather than overflow a signed sum. */
	h->ts = (int64_t)((uint64_t)h->ts + gt_cursor_varuint(c, 10));
	if (flags & 0x10)
		gt_cursor_take(c, 16);
	if (flags & 0x20)
		gt_cursor_take(c, 16);
	if (flags & 0x80)
		h->payload_size = (uint32_t)gt_cursor_varuint(c, 5);
	const uint8_t *payload = gt_cursor_take(c, h->payload_size);
	if (c->bad)
		return nt_fail(p, "a nettrace event is truncated or its header is malformed");
	return deliver(p, h, payload, metadata_block);
}

static int parse_uncompressed(struct gt_nettrace *p, struct gt_cursor *c, struct header_state *h,
			      bool metadata_block)
{
	size_t start = c->off;
	uint32_t size = gt_cursor_u32(c);
	h->meta_id = gt_cursor_u32(c) & 0x7FFFFFFFu;
	h->seq = gt_cursor_u32(c);
	h->tid = gt_cursor_u64(c);
	h->capture_tid = gt_cursor_u64(c);
	h->cpu = gt_cursor_u32(c);
	h->stack_id = gt_cursor_u32(c);
	h->ts = (int64_t)gt_cursor_u64(c);
	gt_cursor_take(c, 32);
	h->payload_size = gt_cursor_u32(c);
	const uint8_t *payload = gt_cursor_take(c, h->payload_size);
	if (c->bad || size < c->off - start - 4)
		return nt_fail(p, "an uncompressed nettrace event is truncated");
	if (deliver(p, h, payload, metadata_block) != 0)
		return -1;
	size_t pad = (4 - (c->off & 3)) & 3;
	if (pad > gt_cursor_left(c))
		pad = gt_cursor_left(c);
	c->off += pad;
	return 0;
}

int nt_parse_event_block(struct gt_nettrace *p, const uint8_t *b, size_t n, bool metadata_block)
{
	struct gt_cursor c = gt_cursor_at(b, n);
	uint16_t header_size = gt_cursor_u16(&c);
	uint16_t flags = gt_cursor_u16(&c);
	if (c.bad || header_size < 20 || header_size > n)
		return nt_fail(p, "a nettrace event block has a header of %u bytes in a block of %zu", header_size, n);
	c.off = header_size;
	struct header_state h;
	memset(&h, 0, sizeof(h));
	while (gt_cursor_left(&c) > 0) {
		int rc = (flags & 1) ? parse_compressed(p, &c, &h, metadata_block)
				     : parse_uncompressed(p, &c, &h, metadata_block);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int nt_parse_stack_block(struct gt_nettrace *p, const uint8_t *b, size_t n)
{
	struct gt_cursor c = gt_cursor_at(b, n);
	uint32_t first = gt_cursor_u32(&c);
	uint32_t count = gt_cursor_u32(&c);
	for (uint32_t i = 0; i < count && !c.bad; i++) {
		uint32_t size = gt_cursor_u32(&c);
		const uint8_t *ips = gt_cursor_take(&c, size);
		if (!c.bad && p->on_stack)
			p->on_stack(p->cb.ctx, first + i, ips, size);
	}
	if (c.bad)
		return nt_fail(p, "a nettrace stack block is truncated");
	p->stats.stacks += count;
	return 0;
}

/* A sequence point lists, per thread, the number of its last event written
 * so far: events up to it that never arrived were dropped. */
int nt_parse_sp_block(struct gt_nettrace *p, const uint8_t *b, size_t n)
{
	struct gt_cursor c = gt_cursor_at(b, n);
	gt_cursor_u64(&c);
	uint32_t count = gt_cursor_u32(&c);
	if (c.bad || count > gt_cursor_left(&c) / 12)
		return nt_fail(p, "a nettrace sequence point block is truncated");
	for (uint32_t i = 0; i < count; i++) {
		uint64_t tid = gt_cursor_u64(&c);
		uint32_t seq = gt_cursor_u32(&c);
		nt_note_sequence_point(p, tid, seq);
	}
	p->stats.sequence_points++;
	if (p->on_sequence_point)
		p->on_sequence_point(p->cb.ctx);
	return 0;
}

