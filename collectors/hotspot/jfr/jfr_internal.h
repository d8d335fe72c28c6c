/* What the JFR reader's files share: the reader's state, the metadata's
 * classes and fields, the constant-pool index and the bounded input. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_INTERNAL_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "collectors/hotspot/jfr/jfr_reader.h"

/* The record type ids of the format (ChunkParser, ChunkHeader). */
enum { JFR_ID_METADATA = 0, JFR_ID_CHECKPOINT = 1 };
enum { JFR_NO_INDEX = UINT32_MAX };

/* The fixed widths of floats and doubles, big-endian. */
enum { JFR_FLOAT_BYTES = 4, JFR_DOUBLE_BYTES = 8 };

/* A value's encoding, from its class's name (ParserFactory's primitives);
 * JFR_PRIM_NONE is a class of fields. */
enum jfr_prim {
	JFR_PRIM_NONE, JFR_PRIM_BOOLEAN, JFR_PRIM_BYTE, JFR_PRIM_CHAR, JFR_PRIM_SHORT, JFR_PRIM_INT,
	JFR_PRIM_LONG, JFR_PRIM_FLOAT, JFR_PRIM_DOUBLE, JFR_PRIM_STRING,
};

/* A time field's unit, from its @Timestamp or @Timespan annotation. */
enum jfr_unit {
	JFR_UNIT_NONE, JFR_UNIT_STAMP_TICKS, JFR_UNIT_STAMP_MS, JFR_UNIT_SPAN_TICKS, JFR_UNIT_SPAN_NS,
	JFR_UNIT_SPAN_US, JFR_UNIT_SPAN_MS, JFR_UNIT_SPAN_S,
};

struct jfr_field {
	const char *name;
	uint64_t type_id;    /* as the metadata names it; cls once resolved */
	uint32_t cls;
	bool pool, array;
	uint8_t unit;        /* enum jfr_unit */
	uint64_t unit_class; /* a time annotation's class id and value, */
	const char *unit_value; /* matched once every class is read */
};

struct jfr_class {
	uint64_t id;
	const char *name;
	uint32_t first_field, n_fields;
	uint8_t prim;        /* enum jfr_prim */
	bool simple;         /* simpleType: stands for its one field */
	bool event;          /* superType jdk.jfr.Event */
	uint32_t start_field; /* its startTime field's position, or JFR_NO_INDEX */
};

/* One constant: its pool's class, its key, and where its bytes are (a
 * chunk is held under 4 GiB). */
struct jfr_const {
	uint64_t key;
	uint32_t cls;
	uint32_t off, end;
};

struct gt_jfr_reader {
	struct gt_jfr_limits lim;
	struct gt_jfr_header hdr;
	const uint8_t *p;    /* the chunk */
	size_t len;          /* its complete bytes: the header's size */
	uint8_t *owned;      /* the chunk's bytes when read from an fd */
	size_t held;         /* bytes allocated, for the stats and the bound */

	char *names;         /* the metadata's strings, decoded, NUL-ended */
	size_t names_len, names_cap;
	const char **strings; /* the string table: pointers into names */
	uint32_t n_strings;

	struct jfr_class *classes;
	size_t n_classes, classes_cap;
	struct jfr_field *fields;
	size_t n_fields, fields_cap;
	uint32_t *class_hash; /* class index + 1 by id; 0 empty */
	size_t class_hash_cap;
	uint32_t string_cls;  /* java.lang.String's class, or JFR_NO_INDEX */

	struct jfr_const *consts;
	size_t n_consts, consts_cap;
	uint32_t *const_hash; /* constant index + 1; 0 empty */
	size_t const_hash_cap;
	uint32_t checkpoints;

	size_t pos;          /* where gt_jfr_next goes on */
	int64_t ticks_base;  /* compressed ticks: the last full start */
	uint64_t events, unknown_events;
};

/* The bounded input: a cursor over [off, end) of the chunk. Its integers
 * are LEB128 whatever the header's flag says, as the JDK's RecordingInput
 * reads them (HotSpot has written no other kind since JDK 11). bad
 * latches: later reads return 0. */
struct jfr_in {
	const uint8_t *p;
	size_t off, end;
	bool bad;
};

static inline struct jfr_in jfr_in_at(const struct gt_jfr_reader *r, size_t off, size_t end)
{
	return (struct jfr_in){ r->p, off, end, off > end };
}

/* jfr_varint.c */
uint8_t jfr_in_u8(struct jfr_in *in);
uint64_t jfr_in_be(struct jfr_in *in, int bytes);
/* LEB128 of at most 9 bytes, the 9th taken whole (RecordingInput.readLong). */
uint64_t jfr_in_long(struct jfr_in *in);
/* A count or index (an int): bad when negative or past max. */
uint32_t jfr_in_count(struct jfr_in *in, uint32_t max);
void jfr_in_skip(struct jfr_in *in, uint64_t n);
/* A string at in: its encoding byte and then its bytes, skipped; or decoded
 * into buf (UTF-8, cut to size - 1). *pool_key is set for a reference into
 * the string pool (encoding 2) and 1 returned; 0 for a null string; 2 for
 * any other. */
int jfr_string_skip(struct jfr_in *in, uint64_t *pool_key);
int jfr_string_decode(struct jfr_in *in, char *buf, size_t size, uint64_t *pool_key);

/* jfr_metadata.c */
int jfr_metadata_read(struct gt_jfr_reader *r, struct gt_error *err);
uint32_t jfr_class_by_id(const struct gt_jfr_reader *r, uint64_t id);
int jfr_field_index(const struct gt_jfr_reader *r, uint32_t cls, const char *name, size_t name_len);

/* jfr_pool.c */
int jfr_pools_read(struct gt_jfr_reader *r, struct gt_error *err);
/* The constant of class cls and key, or NULL. */
const struct jfr_const *jfr_const_find(const struct gt_jfr_reader *r, uint32_t cls, uint64_t key);

/* jfr_skip.c */
/* Skips one value of the field f (an array, a reference or inline). */
int jfr_skip_field(const struct gt_jfr_reader *r, const struct jfr_field *f, struct jfr_in *in, uint32_t depth);
int jfr_skip_class(const struct gt_jfr_reader *r, uint32_t cls, struct jfr_in *in, uint32_t depth);

/* jfr_fail.c */
int jfr_bad(struct gt_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *jfr_grow(struct gt_jfr_reader *r, void *items, size_t *cap, size_t need, size_t elem, struct gt_error *err);

#endif
