/* A tiny publisher for gctop's shared-memory segment (gctop_segment.h):
 * create the file safely, count samples into the site tables lock-free, beat
 * the heartbeat, remove the file. Used by the JVMTI agent and by tests that
 * publish crafted segments. No allocation and no locks after create, so the
 * sample path may run in any thread, including a runtime's allocation hook. */
#ifndef GCTOP_SEGMENT_PUBLISH_H
#define GCTOP_SEGMENT_PUBLISH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "segment/gctop_segment.h"

/* "ops" in this public header is the operations counter, kept for compatibility (gctop's own code says "opcount"). */

struct gctop_pub {
	struct gctop_seg_header *hdr;
	size_t size;
	char path[512];
	bool linked;      /* the file still has its name */
};

struct gctop_pub_config {
	uint32_t frame_slots;   /* power of two, at most GCTOP_SEG_MAX_SLOTS */
	uint32_t type_slots;    /* power of two, at most GCTOP_SEG_MAX_SLOTS */
	uint32_t flags;         /* GCTOP_SEG_F_* */
	const char *source;     /* e.g. "jvmti-sampled" */
	uint32_t stack_slots;   /* 0 (no stacks) or a power of two, at most GCTOP_SEG_MAX_SLOTS */
	uint32_t method_slots;  /* a power of two when stack_slots is not 0 */
	bool ops;               /* with an ops block (layout_minor 2) */
};

/* A reader's request in the ops block, as the publisher copied it. */
struct gctop_pub_ops_request {
	uint64_t id;            /* 0: none */
	uint64_t beat;          /* req_beat */
	char name[GCTOP_SEG_OPS_NAME_LEN];
	char attr[GCTOP_SEG_OPS_ATTR_LEN];
};

/* "<dir>/.gctop-seg-<pid>" into buf. Returns 0, or -1 when it does not fit. */
int gctop_pub_path(char *buf, size_t len, const char *dir, pid_t pid);

/* Creates, fills and maps the segment at path (mode 0600, never following a
 * link), replacing a stale file of the same name. Returns 0, or -errno with a
 * sentence in err. */
int gctop_pub_create(struct gctop_pub *p, const char *path, const struct gctop_pub_config *cfg,
		     char *err, size_t errlen);

/* Under the seqlock: state and a sentence (NULL for none). */
void gctop_pub_set_state(struct gctop_pub *p, enum gctop_seg_state state, const char *message);
/* Under the seqlock: the exact allocated-bytes total and when it was read. */
void gctop_pub_set_alloc_total(struct gctop_pub *p, uint64_t bytes, uint64_t mono_ns);

void gctop_pub_set_interval(struct gctop_pub *p, uint64_t bytes);
void gctop_pub_heartbeat(struct gctop_pub *p, uint64_t mono_ns);
uint64_t gctop_pub_reader_heartbeat(const struct gctop_pub *p);
uint64_t gctop_pub_requested_interval(const struct gctop_pub *p);
uint64_t gctop_pub_samples(const struct gctop_pub *p);
uint64_t gctop_pub_est_bytes(const struct gctop_pub *p);

/* The region size of a heap that gives an object larger than half a region
 * whole regions (G1's humongous objects), set once before the samples it
 * concerns; 0 (the default) is none. */
void gctop_pub_set_region(struct gctop_pub *p, uint64_t bytes);

/* One sample of an object of `size` bytes and `weight`: where the object
 * takes whole regions, counts the weight as such an object's and its last
 * region's unused tail, scaled by weight / size (the sample stands for
 * weight bytes of objects like it). Lock-free. */
void gctop_pub_region_object(struct gctop_pub *p, uint64_t size, uint64_t weight);

/* One sample of `weight` bytes: counts it and adds it to the frame and type
 * sites (either name may be NULL). Lock-free; safe from many threads. */
void gctop_pub_sample(struct gctop_pub *p, const char *frame, const char *type,
		      enum gctop_seg_heap heap, uint64_t weight);

/* The stack behind one sample of `weight` bytes at site (the frame table's
 * name): frames are method ids, innermost first, at most
 * GCTOP_SEG_STACK_FRAMES counted. Each id should be named once with
 * gctop_pub_method. Lock-free; a stack that finds no slot counts in
 * stacks_dropped. No-op without a stack table. */
void gctop_pub_stack(struct gctop_pub *p, const char *site, const uint64_t *frames, uint32_t n, uint64_t weight);
/* Names method id (once: a later call for the same id changes nothing).
 * Returns false when the table has no room or no stack table exists. */
bool gctop_pub_method(struct gctop_pub *p, uint64_t id, const char *name);

/* One stop-the-world pause. Call from one thread at a time. */
void gctop_pub_pause(struct gctop_pub *p, uint64_t duration_ns);

/* The request in the ops block: false when there is no block, the
 * request is being written, or a string fills its whole field (no NUL);
 * then out->id is 0. The strings are as the reader wrote them: the caller
 * checks what it accepts. */
bool gctop_pub_ops_request(const struct gctop_pub *p, struct gctop_pub_ops_request *out);
/* Under the ops block's seqlock: the answer to request id (reason NULL for
 * none; cut to GCTOP_SEG_OPS_REASON_LEN - 1). One thread at a time. */
void gctop_pub_set_ops(struct gctop_pub *p, uint64_t id, enum gctop_seg_ops_status status, uint64_t value,
		       uint32_t matched, uint64_t read_ns, const char *reason);

/* Removes the file's name; the mapping stays valid for threads still in it. */
void gctop_pub_unlink(struct gctop_pub *p);
/* Unmaps (after unlinking if still linked). No thread may be inside p. */
void gctop_pub_close(struct gctop_pub *p);

uint64_t gctop_pub_now_ns(void);

#endif
