#include "segment/reader_stacks.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "segment/gctop_segment.h"
#include "segment/reader_text.h"

/* As the publisher: a method is looked for this far from its key's slot. */
#define STACKS_MAX_PROBES 64
#define UNKNOWN_METHOD "(unknown method)"

#define HOFF(field) offsetof(struct gctop_seg_header, field)

static uint64_t ld64(const void *base, size_t off)
{
	return __atomic_load_n((const uint64_t *)((const uint8_t *)base + off), __ATOMIC_RELAXED);
}

static uint32_t ld32(const void *base, size_t off)
{
	return __atomic_load_n((const uint32_t *)((const uint8_t *)base + off), __ATOMIC_RELAXED);
}

static bool fits(uint64_t off, uint64_t slots, uint64_t slot_size, uint64_t size)
{
	return slots && slots <= GCTOP_SEG_MAX_SLOTS && (slots & (slots - 1)) == 0 &&
	       off >= sizeof(struct gctop_seg_header) && off % 8 == 0 && off + slots * slot_size <= size;
}

struct tables {
	uint64_t so, ss, mo, ms, fo, fs;
};

static bool stack_tables(const void *buf, size_t len, struct tables *t)
{
	uint64_t size = ld64(buf, HOFF(file_size));
	if (size > len || ld32(buf, HOFF(layout_minor)) < 1)
		return false;
	t->so = ld32(buf, HOFF(stack_offset));
	t->ss = ld32(buf, HOFF(stack_slots));
	t->mo = ld32(buf, HOFF(method_offset));
	t->ms = ld32(buf, HOFF(method_slots));
	t->fo = ld32(buf, HOFF(frame_offset));
	t->fs = ld32(buf, HOFF(frame_slots));
	/* overlapping tables would only read as nonsense names, never outside */
	return fits(t->so, t->ss, sizeof(struct gctop_seg_stack), size) &&
	       fits(t->mo, t->ms, sizeof(struct gctop_seg_method), size);
}

/* The frame table's key of each site of snap (0 where none is found), and
 * its dropped stacks into out's sites: names in the snapshot are cleaned
 * copies, so they are matched cleaned. */
static void site_keys(const void *buf, const struct tables *t, const struct gt_alloc_snapshot *snap, uint64_t *keys,
		      struct gt_alloc_stacks *out)
{
	char name[GCTOP_SEG_NAME_LEN];
	memset(keys, 0, GT_ALLOC_SITES_MAX * sizeof(keys[0]));
	for (uint64_t i = 0; i < t->fs; i++) {
		size_t so = t->fo + i * sizeof(struct gctop_seg_site);
		uint64_t key = ld64(buf, so);
		if (key == GCTOP_SEG_KEY_EMPTY || key == GCTOP_SEG_KEY_BUSY)
			continue;
		gt_segment_copy_text(name, sizeof(name), buf, so + offsetof(struct gctop_seg_site, name), GCTOP_SEG_NAME_LEN);
		for (unsigned j = 0; j < snap->by_frame.n && j < GT_ALLOC_SITES_MAX; j++)
			if (!keys[j] && strcmp(snap->by_frame.sites[j].name, name) == 0) {
				keys[j] = key;
				out->sites[j].dropped = ld32(buf, so + offsetof(struct gctop_seg_site, stacks_dropped));
			}
	}
}

static const char *method_name(const void *buf, const struct tables *t, uint64_t id, char *scratch, size_t len)
{
	if (id == GCTOP_SEG_FRAME_ELIDED)
		return GT_ALLOC_FRAME_ELIDED;
	uint64_t key = gctop_seg_method_key(id);
	for (uint64_t i = 0; i < t->ms && i < STACKS_MAX_PROBES; i++) {
		size_t mo = t->mo + ((key + i) & (t->ms - 1)) * sizeof(struct gctop_seg_method);
		uint64_t k = ld64(buf, mo);
		if (k == GCTOP_SEG_KEY_EMPTY)
			break;
		if (k == key && ld64(buf, mo + offsetof(struct gctop_seg_method, id)) == id) {
			gt_segment_copy_text(scratch, len, buf, mo + offsetof(struct gctop_seg_method, name),
					     GCTOP_SEG_NAME_LEN);
			return scratch[0] ? scratch : UNKNOWN_METHOD;
		}
	}
	return UNKNOWN_METHOD;
}

/* Frames of the kept stacks, named; the stacks by bytes, largest first. */
static void name_frames(const void *buf, const struct tables *t, struct gt_alloc_site_stacks *s, const size_t *where,
			struct gt_alloc_stacks *out)
{
	char name[GCTOP_SEG_NAME_LEN];
	for (unsigned k = 0; k < s->n; k++) {
		uint32_t n = ld32(buf, where[k] + offsetof(struct gctop_seg_stack, n_frames));
		if (n > GCTOP_SEG_STACK_FRAMES || n > GT_ALLOC_STACK_FRAMES)
			n = GCTOP_SEG_STACK_FRAMES < GT_ALLOC_STACK_FRAMES ? GCTOP_SEG_STACK_FRAMES : GT_ALLOC_STACK_FRAMES;
		for (uint32_t f = 0; f < n; f++) {
			uint64_t id = ld64(buf, where[k] + offsetof(struct gctop_seg_stack, frames) + 8 * (size_t)f);
			s->stacks[k].frames[f] = gt_alloc_stacks_intern(out, method_name(buf, t, id, name, sizeof(name)));
		}
		s->stacks[k].n_frames = n;
	}
	gt_alloc_stacks_sort(s);
}

int gt_segment_parse_stacks(const void *buf, size_t len, const struct gt_alloc_snapshot *snap,
			    struct gt_alloc_stacks *out)
{
	struct tables t;
	uint64_t keys[GT_ALLOC_SITES_MAX];
	size_t where[GT_ALLOC_SITES_MAX][GT_ALLOC_STACKS_TOP];
	gt_alloc_stacks_clear(out);
	if (len < sizeof(struct gctop_seg_header) || !stack_tables(buf, len, &t))
		return -1;
	gt_alloc_stacks_begin(out, snap);
	unsigned n = out->n_sites;
	site_keys(buf, &t, snap, keys, out);
	for (uint64_t i = 0; i < t.ss; i++) {
		size_t so = t.so + i * sizeof(struct gctop_seg_stack);
		uint64_t key = ld64(buf, so), site = ld64(buf, so + offsetof(struct gctop_seg_stack, site_key));
		if (key == GCTOP_SEG_KEY_EMPTY || key == GCTOP_SEG_KEY_BUSY)
			continue;
		for (unsigned j = 0; j < n; j++)
			if (keys[j] && keys[j] == site) {
				out->sites[j].distinct++;
				int k = gt_alloc_stacks_keep(&out->sites[j], ld64(buf, so + offsetof(struct gctop_seg_stack, bytes)),
							     ld64(buf, so + offsetof(struct gctop_seg_stack, count)));
				if (k >= 0)
					where[j][k] = so;
				break;
			}
	}
	for (unsigned j = 0; j < n; j++)
		name_frames(buf, &t, &out->sites[j], where[j], out);
	return 0;
}
