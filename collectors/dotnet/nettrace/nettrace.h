/* A streaming parser for the nettrace format (V4/V5) that EventPipe writes
 * over the diagnostics IPC socket: the FastSerialization objects (Trace,
 * MetadataBlock, EventBlock, StackBlock, SPBlock), compressed event headers,
 * metadata records and sequence numbers, from which it counts lost events.
 *
 * Bytes are fed in arbitrary pieces; complete objects are parsed as they
 * arrive and each event is handed to a callback. Every size read from the
 * stream is checked before use, and what is kept is bounded (block size,
 * metadata count and bytes, fields per event, threads), so hostile input
 * ends in an error, never in a crash or unbounded allocation. */
#ifndef GCTOP_COLLECTORS_NETTRACE_H
#define GCTOP_COLLECTORS_NETTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds on what a stream may make the parser keep. The runtime writes
 * blocks of at most about 100 KiB and a few hundred metadata records. */
#define GT_NETTRACE_MAX_BLOCK (16u << 20)
#define GT_NETTRACE_MAX_METAS 16384
/* What the metadata a stream declares may cost gctop's memory: each kept
 * record is charged its actual bytes (its fields as declared) and the
 * table its slots, one stream at most GT_NETTRACE_META_BUDGET and all the
 * streams of the process together GT_NETTRACE_META_TOTAL; a record that
 * would pass either ends the stream with a sentence. gctop's own session
 * keeps some 10 KiB (23 kinds in the captured stream of
 * tests/unit/test_nettrace.c), so a target that holds its whole budget
 * needs 31 others like it to crowd a well-behaved session out. */
#define GT_NETTRACE_META_BUDGET (1u << 20)
#define GT_NETTRACE_META_TOTAL (32u << 20)
#define GT_NETTRACE_MAX_FIELDS 128
#define GT_NETTRACE_MAX_DEPTH 8
#define GT_NETTRACE_MAX_THREADS 65536

/* System.TypeCode values used by EventSource metadata. */
enum gt_nettrace_type {
	GT_NT_OBJECT = 1, GT_NT_BOOLEAN = 3, GT_NT_CHAR16 = 4, GT_NT_SBYTE = 5, GT_NT_BYTE = 6,
	GT_NT_INT16 = 7, GT_NT_UINT16 = 8, GT_NT_INT32 = 9, GT_NT_UINT32 = 10, GT_NT_INT64 = 11,
	GT_NT_UINT64 = 12, GT_NT_SINGLE = 13, GT_NT_DOUBLE = 14, GT_NT_DECIMAL = 15,
	GT_NT_DATETIME = 16, GT_NT_GUID = 17, GT_NT_STRING = 18, GT_NT_ARRAY = 19,
};

/* One field of an event's schema, in pre-order: an Object's children follow
 * it, and `subtree` counts the entries of the field and all its children. */
struct gt_nettrace_field {
	uint32_t type;
	uint32_t element_type;   /* for GT_NT_ARRAY */
	uint16_t subtree;
	uint16_t n_children;     /* direct children of an Object */
	char name[48];
};

struct gt_nettrace_meta {
	uint32_t id;
	uint32_t event_id;
	uint32_t version;
	uint32_t level;
	uint64_t keywords;
	uint8_t opcode;
	char provider[96];
	char event_name[96];
	uint16_t n_fields;            /* entries in fields[] */
	uint16_t n_top;               /* top-level fields */
	bool fields_decodable;        /* false: a schema gctop cannot walk (too deep, arrays in V1) */
	struct gt_nettrace_field *fields;
};

struct gt_nettrace_trace {
	uint16_t sync_utc[8];         /* SYSTEMTIME */
	int64_t sync_qpc;
	int64_t qpc_freq;
	int32_t pointer_size;
	int32_t pid;
	int32_t n_processors;
	int32_t sampling_rate_ns;
};

struct gt_nettrace_event {
	const struct gt_nettrace_meta *meta;
	uint32_t seq;
	uint64_t thread_id;
	uint64_t capture_thread_id;
	uint32_t cpu;
	uint32_t stack_id;
	int64_t timestamp;            /* QPC ticks, see gt_nettrace_trace.qpc_freq */
	const uint8_t *payload;
	uint32_t payload_len;
};

struct gt_nettrace_callbacks {
	void *ctx;
	void (*on_trace)(void *ctx, const struct gt_nettrace_trace *t);   /* may be NULL */
	void (*on_event)(void *ctx, const struct gt_nettrace_event *e);   /* may be NULL */
};

struct gt_nettrace_stats {
	uint64_t events;          /* events delivered */
	uint64_t metadata;        /* metadata records kept */
	uint64_t metadata_bytes;  /* what they and their table cost (see GT_NETTRACE_META_BUDGET) */
	uint64_t unknown_meta;    /* events whose metadata id was never defined (skipped) */
	uint64_t dropped;         /* events the runtime wrote no further (sequence gaps) */
	uint64_t stacks;
	uint64_t sequence_points;
	uint64_t blocks;
	uint64_t bytes;
};

struct gt_nettrace;

struct gt_nettrace *gt_nettrace_new(const struct gt_nettrace_callbacks *cb);
void gt_nettrace_free(struct gt_nettrace *p);
/* Frees *p and sets it NULL; returns the events it counted as dropped
 * (0 for NULL), which a session that ends keeps in its own count. */
uint64_t gt_nettrace_end(struct gt_nettrace **p);

/* Feeds the next len bytes of the stream. Returns 0 (more expected), 1 when
 * the end-of-stream tag was read, -1 on malformed or unsupported input
 * (gt_nettrace_error says why; the parser stays failed). */
int gt_nettrace_feed(struct gt_nettrace *p, const uint8_t *data, size_t len);

const char *gt_nettrace_error(const struct gt_nettrace *p);
const struct gt_nettrace_stats *gt_nettrace_stats(const struct gt_nettrace *p);
/* Stacks, for sessions that ask the runtime to walk them. on_stack gets
 * each stack of a StackBlock: its id (what gt_nettrace_event.stack_id
 * names) and its instruction pointers, size bytes of pointer_size each,
 * innermost first. Ids restart at every sequence point, which
 * on_sequence_point announces (before the ids are reused); the runtime
 * writes a stack block before the events that name its stacks. Either
 * may be NULL. */
void gt_nettrace_set_stack_callbacks(struct gt_nettrace *p,
				     void (*on_stack)(void *ctx, uint32_t id, const uint8_t *ips, uint32_t size),
				     void (*on_sequence_point)(void *ctx));

/* The Trace object, or NULL before it arrived. */
const struct gt_nettrace_trace *gt_nettrace_trace_info(const struct gt_nettrace *p);

/* Decodes one metadata record (the payload of an event in a MetadataBlock).
 * 0, or -1 when malformed; on success the caller frees with
 * gt_nettrace_meta_clear. */
int gt_nettrace_parse_meta(const uint8_t *p, size_t n, struct gt_nettrace_meta *out);
void gt_nettrace_meta_clear(struct gt_nettrace_meta *m);
/* What a decoded record occupies: the struct and its fields. */
size_t gt_nettrace_meta_bytes(const struct gt_nettrace_meta *m);
/* The metadata bytes all live parsers of the process hold together. */
size_t gt_nettrace_meta_held(void);

/* A value found while walking a self-describing payload. */
struct gt_nettrace_value {
	uint32_t type;
	double number;          /* every numeric type, as a double */
	uint64_t u64;           /* integer types, exact */
	const char *string;     /* GT_NT_STRING, UTF-8, bounded; NULL otherwise */
};

/* Walks payload with meta's schema and calls cb for every leaf field
 * (name is the leaf's own name). Returns 0, or -1 when the payload does not
 * match the schema or the schema is not decodable. */
int gt_nettrace_decode(const struct gt_nettrace_meta *meta, const uint8_t *payload, size_t len,
		       void (*cb)(void *ctx, const char *name, const struct gt_nettrace_value *v), void *ctx);

#endif
