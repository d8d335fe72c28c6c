/* A reader of one chunk of the JDK Flight Recorder's files (format 2.x,
 * JDK 11 and later; the streaming protocol of JDK 14 and later), in C,
 * from the chunk's own metadata: no event's layout is written here. It
 * reads a chunk held in memory (or read from an fd into memory), indexes
 * its constant pools, and hands out its events one at a time, each with
 * typed access to its fields by a path of names ("gcId",
 * "objectClass.name", "stackTrace.frames[2].method.type.name"), the
 * constant-pool references resolved on the way.
 *
 * The chunk belongs to the target's user, so every byte is hostile: reads
 * are held to the chunk, integers to their 9 bytes, offsets and sizes to
 * what was read, and what the reader keeps to struct gt_jfr_limits
 * (gt_jfr_memory_bound() says how much at most). A malformed chunk gives
 * GT_JFR_ERROR and one sentence in the struct gt_error (GT_EXIT_BAD_DATA),
 * never a crash, a loop without end or an allocation past the bound.
 *
 * The format, as the JDK writes and reads it (jdk.jfr.internal.consumer's
 * ChunkHeader, ChunkParser, MetadataReader, RecordingInput):
 * - a 68-byte header, big-endian: "FLR\0", major and minor (2.0, 2.1),
 *   the chunk's size, the offsets of its last checkpoint and its last
 *   metadata event, its start (ns since the epoch), its duration, its start
 *   in ticks, the ticks per second, then the generation byte (0 once the
 *   chunk is finished, 255 while the JVM rewrites the header, else a
 *   counter of flushes) and the flag byte (1 compressed integers, 2 the
 *   recording's final chunk, 4 compressed ticks);
 * - then records, each its size and its type id: 0 the metadata (a string
 *   table and a tree of classes, their fields, settings and annotations),
 *   1 a checkpoint (constant pools, chained backwards by offset), any other
 *   an event whose fields follow in its class's order;
 * - integers are LEB128 of at most 9 bytes, the 9th taken whole (with
 *   compressed integers; else big-endian of the type's width), floats and
 *   doubles big-endian, strings an encoding byte then their bytes or a
 *   reference into the string pool.
 *
 * A chunk being written (generation not 0) is read up to the size its
 * header states: the JVM writes those bytes before it publishes the size.
 * A reader takes one view of a chunk; to read what a later flush added,
 * open a new reader on the new bytes and gt_jfr_seek() it to where the
 * last one stopped (gt_jfr_position()).
 *
 * Not thread-safe: one reader, one thread. Values and events point into
 * the reader and the chunk's bytes, valid until gt_jfr_close().
 *
 * Use (tests/unit/test_jfr_real.c reads every field gctop needs):
 *
 *	struct gt_jfr_reader *r;
 *	if (gt_jfr_open_fd(fd, 0, NULL, &r, &err) != GT_JFR_OK) ... (AGAIN: retry)
 *	uint64_t alloc_id = 0;
 *	gt_jfr_type_id(r, "jdk.ObjectAllocationSample", &alloc_id);
 *	struct gt_jfr_event ev;
 *	while (gt_jfr_next(r, &ev, &err) == GT_JFR_OK) {
 *		if (ev.type_id != alloc_id)
 *			continue;
 *		gt_jfr_get_string(&ev.value, "objectClass.name", name, sizeof(name), &err);
 *		gt_jfr_get_int(&ev.value, "weight", &weight, &err);
 *		gt_jfr_get_ref(&ev.value, "stackTrace", &stack_key, &err);
 *		gt_jfr_get_count(&ev.value, "stackTrace.frames", &n, &err);
 *		... "stackTrace.frames[0].method.type.name", "...[0].method.name"
 *	}
 *	size_t resume = gt_jfr_position(r);   (a later view: gt_jfr_seek there)
 *	gt_jfr_close(r);
 *
 * Class names are as the JVM writes them ("java/lang/String", "[B"), as
 * `jfr print` shows them. Events come in the file's order, which is not
 * time order (each thread's buffer is written as it fills): sort by
 * start_ns where order matters. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_READER_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* What every call returns: GT_JFR_OK, or one of these. */
enum gt_jfr_status {
	GT_JFR_ERROR = -1, /* malformed, truncated or over a limit: err says which */
	GT_JFR_OK = 0,
	GT_JFR_AGAIN = 1,  /* the JVM is rewriting the header (generation 255, or it
			    * changed while the chunk was read): read again shortly */
	GT_JFR_ABSENT = 2, /* the path names no field of this type, or its value is
			    * null (a null string, a reference to no constant), or
			    * an index past the array's end */
	GT_JFR_END = 3,    /* gt_jfr_next: no event left in the bytes read */
};

#define GT_JFR_HEADER_SIZE 68

/* Bounds on what one chunk may make the reader hold or do. */
struct gt_jfr_limits {
	size_t max_chunk_bytes;     /* the largest chunk read (at most 4 GiB - 1) */
	uint32_t max_strings;       /* the metadata's string table */
	uint32_t max_elements;      /* the metadata's elements, all kinds */
	uint32_t max_classes;       /* classes (types) in the metadata */
	uint32_t max_fields;        /* fields of all classes together */
	uint32_t max_pool_entries;  /* constant-pool entries of all pools together */
	uint32_t max_checkpoints;   /* checkpoint events followed */
	uint32_t max_string_bytes;  /* the longest string decoded */
	uint32_t max_depth;         /* nesting: metadata elements, inline types, path,
				     * references followed (at most 200) */
	uint32_t max_metadata_bytes; /* the metadata event */
};

/* 64 MiB chunks (the JVM rotates at 12 MiB by default), 64 Ki strings,
 * 256 Ki elements, 8 Ki classes, 64 Ki fields, 1 Mi pool entries, 64 Ki
 * checkpoints, 64 KiB strings, depth 32, 4 MiB of metadata: a JDK 25 chunk with `profile`
 * settings holds some 1,200 classes, 6,000 fields and a few ten thousand
 * pool entries. */
extern const struct gt_jfr_limits gt_jfr_default_limits;

/* The most memory, in bytes, a reader with these limits holds (the chunk's
 * bytes of gt_jfr_open_fd included, those given to gt_jfr_open not). */
size_t gt_jfr_memory_bound(const struct gt_jfr_limits *lim);

struct gt_jfr_header {
	uint16_t major, minor;
	uint64_t chunk_size;       /* bytes from the chunk's start that are complete */
	uint64_t cp_offset;        /* the last checkpoint, from the chunk's start */
	uint64_t meta_offset;      /* the last metadata event, from the chunk's start */
	int64_t start_ns;          /* ns since the epoch (UTC) */
	int64_t duration_ns;       /* 0 until finished */
	int64_t start_ticks;
	int64_t ticks_per_second;
	uint8_t generation;        /* 0 finished, 255 being rewritten, else flushes */
	uint8_t flags;
	bool finished;             /* generation 0: the chunk will not change */
	bool final_chunk;          /* flag 2: the recording's last chunk */
	bool compressed_ints;      /* flag 1: LEB128 integers */
	bool compressed_ticks;     /* flag 4: event start ticks relative */
};

/* Reads the header at p (len bytes, at least GT_JFR_HEADER_SIZE). GT_JFR_OK;
 * GT_JFR_AGAIN while the JVM rewrites it, or while a chunk not finished
 * has no metadata yet; GT_JFR_ERROR when it is not a chunk of a version
 * read here, or states offsets outside its own size. */
int gt_jfr_header_read(const uint8_t *p, size_t len, struct gt_jfr_header *h, struct gt_error *err);

struct gt_jfr_reader;

/* A reader of the chunk at the start of bytes (len bytes; more than the
 * chunk's size is fine, the rest is not read, as in a file of several
 * chunks). The bytes are not copied: keep them until gt_jfr_close(). The
 * metadata and the constant pools are read here. GT_JFR_ERROR when the
 * header's size passes len. lim NULL: gt_jfr_default_limits. */
int gt_jfr_open(const uint8_t *bytes, size_t len, const struct gt_jfr_limits *lim, struct gt_jfr_reader **out,
		struct gt_error *err);

/* The same on the chunk at offset in fd (a file the caller opened, held to
 * the bytes its header states complete, at most max_chunk_bytes), read
 * into memory the reader owns; GT_JFR_AGAIN when the header was being
 * rewritten or its generation changed while the chunk was read. */
int gt_jfr_open_fd(int fd, uint64_t offset, const struct gt_jfr_limits *lim, struct gt_jfr_reader **out,
		   struct gt_error *err);

void gt_jfr_close(struct gt_jfr_reader *r);

const struct gt_jfr_header *gt_jfr_header_of(const struct gt_jfr_reader *r);

/* The event type's id for a name ("jdk.GarbageCollection"): GT_JFR_OK, or
 * GT_JFR_ABSENT when this chunk's metadata has no such event type. */
int gt_jfr_type_id(const struct gt_jfr_reader *r, const char *name, uint64_t *id);

/* A ticks timestamp as ns since the epoch, and a ticks span as ns, as the
 * JDK converts them (saturated rather than overflowed). */
int64_t gt_jfr_ticks_to_ns(const struct gt_jfr_reader *r, int64_t ticks);
int64_t gt_jfr_span_to_ns(const struct gt_jfr_reader *r, int64_t ticks);

/* A value: an event, a constant, an element of an array, a struct held
 * inline. Its fields are for the reader only. */
struct gt_jfr_value {
	const struct gt_jfr_reader *reader;
	uint32_t cls;    /* its class's index in the metadata */
	uint32_t depth;  /* references followed to reach it */
	size_t off;      /* where its bytes start in the chunk */
	size_t end;      /* where the record holding it ends */
};

struct gt_jfr_event {
	const char *type_name;   /* "jdk.ObjectAllocationSample" */
	uint64_t type_id;
	int64_t start_ticks;     /* its startTime, compressed ticks undone */
	int64_t start_ns;        /* the same, ns since the epoch */
	bool has_start;          /* the type has a startTime field */
	size_t offset;           /* where the event starts in the chunk */
	uint32_t size;           /* its bytes, size and type id included */
	struct gt_jfr_value value; /* its fields */
};

/* The next event after the last one returned (the first one after the
 * header at first): GT_JFR_OK, GT_JFR_END, or GT_JFR_ERROR. Metadata,
 * checkpoints and events of a type the metadata does not describe are
 * passed over (gt_jfr_stats counts the last). */
int gt_jfr_next(struct gt_jfr_reader *r, struct gt_jfr_event *ev, struct gt_error *err);

/* Where gt_jfr_next goes on (an offset from the chunk's start), and a
 * way to go on from such a place in a reader of a later view of the same
 * chunk. A place that is no event's start gives GT_JFR_ERROR at the next
 * event, never a read outside the chunk. */
size_t gt_jfr_position(const struct gt_jfr_reader *r);
int gt_jfr_seek(struct gt_jfr_reader *r, size_t offset, struct gt_error *err);

/* Fields by path, from a value (an event's .value): names joined by '.',
 * an array's element by "[i]" ("stackTrace.frames[0].lineNumber"); ""
 * is the value itself. A constant-pool reference is followed to its
 * constant, and a class the metadata marks simpleType (jdk.types.Symbol)
 * stands for its one field, as the JDK reads them. Each returns
 * GT_JFR_OK, GT_JFR_ABSENT or GT_JFR_ERROR. */
int gt_jfr_get(const struct gt_jfr_value *v, const char *path, struct gt_jfr_value *out, struct gt_error *err);
/* boolean, byte, short, char, int, long (as the JDK narrows each) */
int gt_jfr_get_int(const struct gt_jfr_value *v, const char *path, int64_t *out, struct gt_error *err);
/* float, double, and the integers above */
int gt_jfr_get_double(const struct gt_jfr_value *v, const char *path, double *out, struct gt_error *err);
/* A string as UTF-8, cut to size - 1 bytes and NUL-terminated; not
 * sanitised (a target wrote it: pass it through base/sanitize.h). */
int gt_jfr_get_string(const struct gt_jfr_value *v, const char *path, char *buf, size_t size,
		      struct gt_error *err);
/* The number of elements of an array field ("stackTrace.frames"). */
int gt_jfr_get_count(const struct gt_jfr_value *v, const char *path, uint32_t *n, struct gt_error *err);
/* The constant-pool key of a reference field ("stackTrace"), not
 * followed: equal keys in one chunk are the same constant. */
int gt_jfr_get_ref(const struct gt_jfr_value *v, const char *path, uint64_t *key, struct gt_error *err);
/* A time field in ns, by its annotation as the JDK converts it:
 * @Timestamp (TICKS or MILLISECONDS_SINCE_EPOCH) to ns since the epoch,
 * @Timespan (TICKS, NANOSECONDS, MICROSECONDS, MILLISECONDS, SECONDS) to
 * ns; an integer field with neither is GT_JFR_ABSENT. */
int gt_jfr_get_ns(const struct gt_jfr_value *v, const char *path, int64_t *ns, struct gt_error *err);
/* The name of a value's type ("jdk.types.StackFrame", "long"). */
const char *gt_jfr_value_type(const struct gt_jfr_value *v);

struct gt_jfr_stats {
	uint32_t classes;         /* in the metadata */
	uint32_t pool_entries;    /* constants indexed */
	uint32_t checkpoints;     /* checkpoint events followed */
	uint64_t events;          /* returned by gt_jfr_next */
	uint64_t unknown_events;  /* passed over: a type id the metadata lacks */
	size_t bytes_held;        /* what the reader allocated */
};
void gt_jfr_stats(const struct gt_jfr_reader *r, struct gt_jfr_stats *out);

#endif
