/* gctop's shared-memory segment: the binary layout a runtime agent (or any
 * native program) publishes its allocation samples and GC pauses in, and
 * that gctop maps to read them. This header is the specification.
 *
 * FILE
 *   One regular file per publishing process, "<dir>/.gctop-seg-<pid>", where
 *   <dir> is a directory the publishing user can write (the process's /tmp by
 *   default) and <pid> is the process id as the process itself sees it (its
 *   pid inside its own pid namespace). Mode 0600, owned by the publishing
 *   user, one link, never a symlink. The publisher fills the whole header in a
 *   private file created with O_EXCL|O_NOFOLLOW and renames it into place, so
 *   a reader never sees a half-written header. gctop reaches the file of a
 *   containerised process from the host as /proc/<hostpid>/root/tmp/... The
 *   publisher removes the file when the process exits normally.
 *
 * BYTE ORDER AND TYPES
 *   Native byte order and alignment of the machine (both sides run on the same
 *   kernel). All integers are unsigned and naturally aligned; every 64-bit
 *   field is read and written as one atomic access. Strings are UTF-8 and
 *   NUL-terminated inside their fixed field; a reader must still bound them.
 *
 * LAYOUT
 *   offset 0                       struct gctop_seg_header (header_size bytes)
 *   offset frame_offset            frame_slots x struct gctop_seg_site: by first
 *                                  application frame ("package.Class.method")
 *   offset type_offset             type_slots x struct gctop_seg_site: by
 *                                  allocated type ("byte[]", "java.lang.String")
 *   offset stack_offset            (layout_minor >= 1, stack_slots > 0)
 *                                  stack_slots x struct gctop_seg_stack: the
 *                                  stacks behind the frame table's sites
 *   offset method_offset           (likewise) method_slots x struct
 *                                  gctop_seg_method: the names of the methods
 *                                  the stacks' frames name
 *   offset ops_offset              (layout_minor >= 2, ops_offset > 0) one
 *                                  struct gctop_seg_ops: an operations counter
 *                                  a reader asks the publisher to read (gctop
 *                                  --ops jmx:, an MBean attribute) and its answer
 *   file_size                      the end; tables lie inside it
 *
 * VERSIONS
 *   version changes when a reader of the old layout would misread the new;
 *   layout_minor (0 in the first files) counts additions an older reader
 *   may ignore: 1 added the stack and method tables, in fields that were
 *   zero (reserved3) before; 2 the ops block, likewise (a reader finds
 *   ops_offset 0 in an older file and says the agent is too old for it);
 *   3 the humongous block (region_bytes, humongous_bytes,
 *   humongous_tail_bytes), likewise: region_bytes 0 says there is none.
 *
 * WHO WRITES WHAT
 *   The publisher writes everything except reader_heartbeat,
 *   requested_interval and the ops block's req_* fields, which only a reader
 *   writes. Counters are cumulative
 *   since the segment was created (generation); a reader computes rates from
 *   two readings of the same generation.
 *
 * CONSISTENCY
 *   - seq is a seqlock over state, message and the alloc_total pair: the
 *     single writer makes it odd, writes, makes it even (release). A reader
 *     reads seq (acquire), the fields, seq again, and retries while seq was
 *     odd or changed.
 *   - pause_seq is a second seqlock, the same way, over pause_count,
 *     pause_total_ns and pause_ring (written by the thread that sees GCs end).
 *   - samples, est_bytes, dropped, humongous_bytes, humongous_tail_bytes and
 *     each site's count and bytes are plain atomic counters, updated by many
 *     threads with fetch-add; they only grow. region_bytes is written once,
 *     before the first sample it concerns.
 *   - A site slot is claimed by a compare-and-swap of key from 0 (empty) to 1
 *     (busy); the claimer writes name and heap, then stores the final key
 *     (release). Stack and method slots are claimed the same way (a stack's
 *     site_key, frames and n_frames, a method's id and name, are written
 *     before its key). A reader skips keys 0 and 1 and reads name after an acquire
 *     load of key. A name never changes once its key is published. Keys are a
 *     hash of the name, so two names may share a key: a publisher compares
 *     names, never only keys, before adding to a slot.
 *   - The ops block has two seqlocks: req_seq over req_id, req_name and
 *     req_attr, written by a reader (with pwrite, one field at a time, in
 *     that order: req_seq odd, the fields, req_seq even), and seq over the
 *     answer, written by the publisher's one thread that reads the
 *     counter. req_beat is outside both: a reader that wants answers
 *     changes it at least once a second; a publisher answers only while it
 *     changes. The request is outside input to the publisher: it bounds
 *     both strings and refuses what its runtime refuses.
 */
#ifndef GCTOP_SEGMENT_H
#define GCTOP_SEGMENT_H

#include <stdint.h>

#define GCTOP_SEG_MAGIC "GCTOPSEG"       /* 8 bytes, no NUL */
#define GCTOP_SEG_VERSION 1u
#define GCTOP_SEG_FILE_PREFIX ".gctop-seg-"
#define GCTOP_SEG_NAME_LEN 224u
#define GCTOP_SEG_MESSAGE_LEN 160u
#define GCTOP_SEG_SOURCE_LEN 16u
#define GCTOP_SEG_PAUSE_RING 64u
#define GCTOP_SEG_LAYOUT_MINOR 3u         /* what this header describes; see VERSIONS */
#define GCTOP_SEG_STACK_FRAMES 24u        /* frames a stack slot holds */
/* A frame id that marks where a deeper stack's middle frames were left out. */
#define GCTOP_SEG_FRAME_ELIDED UINT64_MAX
/* Bounds a reader enforces before trusting any offset. */
#define GCTOP_SEG_MAX_SLOTS 65536u
#define GCTOP_SEG_MAX_FILE_SIZE (64u * 1024 * 1024)

/* What the agent's Agent_OnAttach/Agent_OnLoad return, which gctop's attach
 * client (collectors/hotspot/attach/hotspot_attach_reply.c) turns into sentences: part of
 * the contract between the agent and its reader, so it is kept here. */
#define GCTOP_AGENT_RC_OK 0           /* loaded (BUSY or FAILED is told in the segment) */
#define GCTOP_AGENT_RC_NO_JVMTI 1     /* the JVM offers no JVMTI 11 (JDK older than 11) */
#define GCTOP_AGENT_RC_BAD_OPTIONS 2
#define GCTOP_AGENT_RC_NO_SEGMENT 3   /* the segment could not be created */

#define GCTOP_SEG_KEY_EMPTY 0u
#define GCTOP_SEG_KEY_BUSY 1u

enum gctop_seg_state {
	GCTOP_SEG_STARTING = 0, /* created, sampling not on yet */
	GCTOP_SEG_RUNNING = 1,  /* sampling */
	GCTOP_SEG_STOPPED = 2,  /* sampling off (no reader seen); see GCTOP_SEG_F_LINGER */
	GCTOP_SEG_BUSY = 3,     /* another tool holds the sampling facility; message says which */
	GCTOP_SEG_FAILED = 4,   /* the publisher could not sample; message says why */
};

/* flags: which optional figures the publisher fills. */
#define GCTOP_SEG_F_ALLOC_TOTAL 0x1u /* alloc_total_bytes is the runtime's exact counter */
#define GCTOP_SEG_F_PAUSES 0x2u      /* pause_* are filled from the runtime's GC events */
#define GCTOP_SEG_F_LINGER 0x4u      /* when STOPPED the file stays and a changing
					reader_heartbeat turns sampling back on */

/* heap: where a type's objects went, for runtimes that say so (.NET). */
enum gctop_seg_heap {
	GCTOP_SEG_HEAP_UNKNOWN = 0,
	GCTOP_SEG_HEAP_SMALL = 1,
	GCTOP_SEG_HEAP_LARGE = 2,
	GCTOP_SEG_HEAP_PINNED = 3,
};

/* One site: 256 bytes. */
struct gctop_seg_site {
	uint64_t key;     /* 0 empty, 1 being claimed, else the name's hash (>= 2) */
	uint64_t count;   /* samples attributed to the site */
	uint64_t bytes;   /* sum of sample weights: estimated bytes allocated */
	uint32_t heap;    /* enum gctop_seg_heap (type table; 0 in the frame table) */
	uint32_t stacks_dropped; /* atomic, frame table, layout_minor 1: the site's samples whose
				    stack found no slot in the stack table (0 before) */
	char name[GCTOP_SEG_NAME_LEN];
};

/* One stack behind a site: 256 bytes. Its frames run from the allocation
 * (innermost) up to the first application frame and a few callers beyond;
 * each is a method id, the key of a method slot. */
struct gctop_seg_stack {
	uint64_t key;       /* 0 empty, 1 being claimed, else a hash of site_key and frames (>= 2) */
	uint64_t count;     /* samples through this stack */
	uint64_t bytes;     /* their weights */
	uint64_t site_key;  /* the key of its site in the frame table */
	uint32_t n_frames;  /* at most GCTOP_SEG_STACK_FRAMES */
	uint32_t reserved;
	uint64_t frames[GCTOP_SEG_STACK_FRAMES];
	uint64_t reserved2[3];
};

/* A method's name: 256 bytes. */
struct gctop_seg_method {
	uint64_t key;       /* 0 empty, 1 being claimed, else gctop_seg_method_key(id) */
	uint64_t id;        /* the runtime's method id, as the stacks' frames give it */
	uint64_t reserved[2];
	char name[GCTOP_SEG_NAME_LEN];   /* "package.Class.method" */
};

/* The header: 1024 bytes. */
struct gctop_seg_header {
	/* Identity, fixed before the file is renamed into place. */
	char magic[8];                 /*    0 GCTOP_SEG_MAGIC */
	uint32_t version;              /*    8 GCTOP_SEG_VERSION; a reader refuses others */
	uint32_t header_size;          /*   12 sizeof(struct gctop_seg_header) */
	uint64_t file_size;            /*   16 bytes of the whole file */
	uint64_t generation;           /*   24 random, new for each file: counters restart */
	int32_t writer_pid;            /*   32 publisher's pid in its own namespace */
	uint32_t slot_size;            /*   36 sizeof(struct gctop_seg_site) */
	uint32_t frame_offset;         /*   40 byte offset of the frame table */
	uint32_t frame_slots;          /*   44 a power of two */
	uint32_t type_offset;          /*   48 byte offset of the type table */
	uint32_t type_slots;           /*   52 a power of two */
	uint32_t flags;                /*   56 GCTOP_SEG_F_* */
	uint32_t reserved0;            /*   60 */
	char source[GCTOP_SEG_SOURCE_LEN]; /* 64 the sampling method, e.g. "jvmti-sampled" */

	/* Liveness and control. */
	uint64_t writer_heartbeat_ns;  /*   80 CLOCK_MONOTONIC of the publisher's last beat (~every 100 ms) */
	uint64_t reader_heartbeat;     /*   88 READER-WRITTEN: any value that changes at least once a
					   second while a reader watches (gctop writes CLOCK_MONOTONIC ns) */
	uint64_t requested_interval;   /*   96 READER-WRITTEN: mean bytes between samples wanted, 0 = publisher decides */
	uint64_t interval;             /*  104 mean bytes between samples now in effect */

	/* Under seq. */
	uint64_t seq;                  /*  112 seqlock, odd while being written */
	uint32_t state;                /*  120 enum gctop_seg_state */
	uint32_t reserved1;            /*  124 */
	uint64_t alloc_total_bytes;    /*  128 exact bytes allocated by the process since it started */
	uint64_t alloc_total_ns;       /*  136 CLOCK_MONOTONIC when alloc_total_bytes was read; 0 = none yet */
	char message[GCTOP_SEG_MESSAGE_LEN]; /* 144 one sentence for BUSY and FAILED, else "" */

	/* Atomic counters. */
	uint64_t samples;              /*  304 samples taken */
	uint64_t est_bytes;            /*  312 sum of all sample weights */
	uint64_t dropped;              /*  320 samples not attributed to a site (table full) */
	uint64_t reserved2;            /*  328 */

	/* Under pause_seq. */
	uint64_t pause_seq;            /*  336 seqlock of the pause block */
	uint64_t pause_count;          /*  344 stop-the-world pauses seen since creation */
	uint64_t pause_total_ns;       /*  352 their summed length */
	uint64_t pause_ring[GCTOP_SEG_PAUSE_RING]; /* 360 lengths in ns of the last pauses: pause n
					   (1-based) is at index (n - 1) % GCTOP_SEG_PAUSE_RING */

	/* layout_minor 1: the stacks (all zero in an older file). */
	uint32_t layout_minor;         /*  872 GCTOP_SEG_LAYOUT_MINOR */
	uint32_t stack_offset;         /*  876 byte offset of the stack table */
	uint32_t stack_slots;          /*  880 a power of two; 0: no stacks */
	uint32_t method_offset;        /*  884 byte offset of the method table */
	uint32_t method_slots;         /*  888 a power of two */
	uint32_t reserved4;            /*  892 */
	uint64_t stacks_dropped;       /*  896 atomic: samples whose stack found no slot */

	/* layout_minor 2: the ops block (zero in an older file). */
	uint32_t ops_offset;           /*  904 byte offset of struct gctop_seg_ops; 0: none */
	uint32_t ops_size;             /*  908 sizeof(struct gctop_seg_ops) */

	/* layout_minor 3: objects the heap gives whole regions (G1's humongous
	 * objects, larger than half a region), from the samples (zero in an
	 * older file). */
	uint64_t region_bytes;         /*  912 the region size; 0: no such heap, or unknown */
	uint64_t humongous_bytes;      /*  920 atomic: the weights of the samples of such objects */
	uint64_t humongous_tail_bytes; /*  928 atomic: their last regions' unused tails, each
					   scaled by its sample's weight over its size */
	uint8_t reserved3[1024 - 936]; /*  936 zero */
};

/* The ops block (layout_minor 2). "ops" in this public header is the operations
 * counter, kept for compatibility (gctop's own code says "opcount"). */
#define GCTOP_SEG_OPS_NAME_LEN 256u    /* an ObjectName or ObjectName pattern */
#define GCTOP_SEG_OPS_ATTR_LEN 64u     /* an attribute's name */
#define GCTOP_SEG_OPS_REASON_LEN 128u
/* A pattern is summed over at most this many MBeans; more is TOO_MANY. */
#define GCTOP_SEG_OPS_MAX_MBEANS 64u
/* A request of this name and attribute asks the publisher for the request
 * counter of whichever web server it finds (gctop --ops jmx:requests); an
 * OK answer's reason then names the one read, as "OBJECTNAME:ATTRIBUTE".
 * An older publisher reads it as an ObjectName no MBean has. */
#define GCTOP_SEG_OPS_SERVER_NAME "gctop:counter=server-requests"
#define GCTOP_SEG_OPS_SERVER_ATTR "requests"

enum gctop_seg_ops_status {
	GCTOP_SEG_OPS_NONE = 0,         /* no answer yet */
	GCTOP_SEG_OPS_OK = 1,           /* value: the attribute summed over matched MBeans */
	GCTOP_SEG_OPS_NO_MBEAN = 2,     /* no MBean has the name (or matches the pattern) */
	GCTOP_SEG_OPS_NO_ATTRIBUTE = 3, /* an MBean has no attribute of that name */
	GCTOP_SEG_OPS_NOT_NUMBER = 4,   /* the value is no java.lang.Number; reason: its class */
	GCTOP_SEG_OPS_NEGATIVE = 5,     /* a value below 0 */
	GCTOP_SEG_OPS_FAILED = 6,       /* reading threw; reason: the exception's class */
	GCTOP_SEG_OPS_BAD_NAME = 7,     /* the runtime refuses the name; reason: why */
	GCTOP_SEG_OPS_TOO_MANY = 8,     /* matched (> GCTOP_SEG_OPS_MAX_MBEANS) MBeans match */
	GCTOP_SEG_OPS_NO_JMX = 9,       /* the runtime has no MBean server; reason: why */
};
#define GCTOP_SEG_OPS_STATUS_MAX GCTOP_SEG_OPS_NO_JMX

/* 1024 bytes. */
struct gctop_seg_ops {
	/* READER-WRITTEN. */
	uint64_t req_seq;              /*    0 seqlock of the request */
	uint64_t req_id;               /*    8 the reader's id for this request; 0: none */
	uint64_t req_beat;             /*   16 changes while the requester wants answers */
	uint64_t req_reserved;         /*   24 */
	char req_name[GCTOP_SEG_OPS_NAME_LEN]; /* 32 e.g. "Catalina:type=GlobalRequestProcessor,name=*" */
	char req_attr[GCTOP_SEG_OPS_ATTR_LEN]; /* 288 e.g. "requestCount" */

	/* PUBLISHER-WRITTEN, under seq. */
	uint64_t seq;                  /*  352 seqlock of the answer */
	uint64_t answer_id;            /*  360 the req_id answered */
	uint64_t value;                /*  368 the sum, when OK */
	uint64_t read_ns;              /*  376 CLOCK_MONOTONIC of the reading */
	uint32_t status;               /*  384 enum gctop_seg_ops_status */
	uint32_t matched;              /*  388 MBeans summed (found, for TOO_MANY) */
	char reason[GCTOP_SEG_OPS_REASON_LEN]; /* 392 a short detail, ASCII, or ""; with
					   NO_MBEAN for a name that is no pattern: the same
					   name with its values quoted, when that one is registered */
	uint8_t reserved[1024 - 520];  /*  520 zero */
};

_Static_assert(sizeof(struct gctop_seg_site) == 256, "site slot is 256 bytes");
_Static_assert(sizeof(struct gctop_seg_header) == 1024, "header is 1024 bytes");
_Static_assert(sizeof(struct gctop_seg_stack) == 256, "stack slot is 256 bytes");
_Static_assert(sizeof(struct gctop_seg_method) == 256, "method slot is 256 bytes");
_Static_assert(__builtin_offsetof(struct gctop_seg_header, layout_minor) == 872, "layout_minor offset");
_Static_assert(__builtin_offsetof(struct gctop_seg_header, ops_offset) == 904, "ops_offset offset");
_Static_assert(sizeof(struct gctop_seg_ops) == 1024, "ops block is 1024 bytes");
_Static_assert(__builtin_offsetof(struct gctop_seg_ops, seq) == 352, "ops seq offset");
_Static_assert(__builtin_offsetof(struct gctop_seg_ops, reserved) == 520, "ops reserved offset");
_Static_assert(__builtin_offsetof(struct gctop_seg_header, seq) == 112, "seq offset");
_Static_assert(__builtin_offsetof(struct gctop_seg_header, samples) == 304, "samples offset");
_Static_assert(__builtin_offsetof(struct gctop_seg_header, pause_ring) == 360, "pause ring offset");

/* FNV-1a over the name; never 0 or 1, so it can be a slot key. */
static inline uint64_t gctop_seg_key(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return h < 2 ? h + 2 : h;
}

/* A method slot's key: the id mixed (ids are aligned pointers), never 0 or 1. */
static inline uint64_t gctop_seg_method_key(uint64_t id)
{
	uint64_t h = id;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h < 2 ? h + 2 : h;
}

/* A stack slot's key: FNV-1a over the site key and the frames. */
static inline uint64_t gctop_seg_stack_key(uint64_t site_key, const uint64_t *frames, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ull ^ site_key;
	for (uint32_t i = 0; i < n; i++) {
		h ^= frames[i];
		h *= 0x100000001b3ull;
	}
	return h < 2 ? h + 2 : h;
}

#endif
