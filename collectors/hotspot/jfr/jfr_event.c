/* The JFR chunk's events in order (ChunkParser.readEvent): from the end of
 * the header to the chunk's complete size, each record its size and its
 * type id; the metadata and checkpoints (read when the reader opened) and
 * records of a type the metadata does not describe as an event are passed
 * over. A size of 0 or past the chunk ends the walk with a sentence. */
#include <string.h>

#include "collectors/hotspot/jfr/jfr_internal.h"

/* The event's start in ticks, from its startTime field; with compressed
 * ticks (flag 4) a value not past the chunk's start is relative to the
 * last one that was (TimeConverter.unpackStartTicks). */
static int jfr_start_ticks(struct gt_jfr_reader *r, struct gt_jfr_event *ev, const struct jfr_class *c,
			   struct gt_error *err)
{
	ev->has_start = c->start_field != JFR_NO_INDEX;
	if (!ev->has_start)
		return GT_JFR_OK;
	struct jfr_in in = jfr_in_at(r, ev->value.off, ev->value.end);
	for (uint32_t k = 0; k < c->start_field; k++)
		jfr_skip_field(r, &r->fields[c->first_field + k], &in, 0);
	int64_t t = (int64_t)jfr_in_long(&in);
	if (in.bad)
		return jfr_bad(err, "the flight recording's %s event at %zu is truncated", c->name, ev->offset);
	if (r->hdr.compressed_ticks) {
		if (t > r->hdr.start_ticks)
			r->ticks_base = t;
		else
			t = (int64_t)((uint64_t)t + (uint64_t)r->ticks_base);
	}
	ev->start_ticks = t;
	ev->start_ns = gt_jfr_ticks_to_ns(r, t);
	return GT_JFR_OK;
}

int gt_jfr_next(struct gt_jfr_reader *r, struct gt_jfr_event *ev, struct gt_error *err)
{
	while (r->pos < r->len) {
		size_t at = r->pos;
		struct jfr_in in = jfr_in_at(r, at, r->len);
		uint32_t size = jfr_in_count(&in, INT32_MAX);
		uint64_t id = jfr_in_long(&in);
		if (in.bad || size == 0 || size > r->len - at || in.off > at + size)
			return jfr_bad(err, "the flight recording's record at %zu has a size of %u, %s", at, size,
				       size == 0 ? "which cannot be" : "past the chunk's complete bytes");
		r->pos = at + size;
		if (id == JFR_ID_METADATA || id == JFR_ID_CHECKPOINT)
			continue;
		uint32_t cls = jfr_class_by_id(r, id);
		if (cls == JFR_NO_INDEX || !r->classes[cls].event) {
			r->unknown_events++;
			continue;
		}
		const struct jfr_class *c = &r->classes[cls];
		memset(ev, 0, sizeof(*ev));
		ev->type_name = c->name;
		ev->type_id = id;
		ev->offset = at;
		ev->size = size;
		ev->value = (struct gt_jfr_value){ r, cls, 0, in.off, at + size };
		if (jfr_start_ticks(r, ev, c, err) != GT_JFR_OK)
			return GT_JFR_ERROR;
		r->events++;
		return GT_JFR_OK;
	}
	return GT_JFR_END;
}

size_t gt_jfr_position(const struct gt_jfr_reader *r)
{
	return r->pos;
}

int gt_jfr_seek(struct gt_jfr_reader *r, size_t offset, struct gt_error *err)
{
	if (offset < GT_JFR_HEADER_SIZE || offset > r->len)
		return jfr_bad(err, "cannot go on at %zu in a flight recording's chunk of %zu complete bytes", offset,
			       r->len);
	r->pos = offset;
	return GT_JFR_OK;
}

int gt_jfr_type_id(const struct gt_jfr_reader *r, const char *name, uint64_t *id)
{
	for (size_t i = 0; i < r->n_classes; i++)
		if (r->classes[i].event && !strcmp(r->classes[i].name, name)) {
			*id = r->classes[i].id;
			return GT_JFR_OK;
		}
	return GT_JFR_ABSENT;
}
