/* The recording format of gctop -w: versioned, self-describing NDJSON.
 *
 * Every line is one JSON object with a "type":
 *   "header"  first line: "format" (GT_RECORD_FORMAT), "version"
 *             (GT_RECORD_VERSION) and "info", the target's facts;
 *   "info"    the facts again, when they changed (a GC mode seen late);
 *   "sample"  one sample as taken: its cumulative counters, each a number
 *             or null when the runtime gave none ("n/a", never 0), and
 *             "allocators" (the sampler's reading) when sampling is on;
 *             "causes", collections by cause (absent in recordings made
 *             before it was written: every count n/a).
 * Each line is written with one write(), so a gctop killed while recording
 * leaves every line but perhaps a partial last one, which the reader skips.
 *
 * The tables below name every field once: the writer (record/record_writer.c)
 * and the reader (record/record_reader.c) both walk them. man/gctop.1
 * (RECORDINGS) lists the format. */
#ifndef GCTOP_RECORD_RECORD_FORMAT_H
#define GCTOP_RECORD_RECORD_FORMAT_H

#include <stddef.h>

#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/sample.h"

#define GT_RECORD_FORMAT "gctop-recording"
/* 2: .NET's generations[].collections count each collection once (by the
 * oldest generation it collected), collections_inclusive as
 * GC.CollectionCount; 1 held the inclusive counts in collections. */
#define GT_RECORD_VERSION 2

/* Bounds on outside bytes: the longest line gctop writes is a sample with
 * two full allocator tables (some 40 KiB); a recording of a week at one
 * sample a second has some 600,000 samples. */
#define GT_RECORD_LINE_MAX (256 * 1024)
#define GT_RECORD_SAMPLES_MAX 2000000
/* JSON nesting: a sample's deepest value is a frame of a stack behind a
 * site (sample, alloc_stacks, sites, site, stacks, stack, frames). */
#define GT_RECORD_DEPTH_MAX 8
/* Distinct frame names of a sample's stacks (each at least one byte and a
 * NUL in a pool of GT_ALLOC_STACK_POOL bytes). */
#define GT_RECORD_STACK_NAMES_MAX (GT_ALLOC_STACK_POOL / 2)

/* A member of a struct (a struct gt_u64, or a const char * where said), by its key. */
struct gt_record_field {
	const char *key;
	size_t offset;
};

/* A char array member, by its key. */
struct gt_record_text_field {
	const char *key;
	size_t offset;
	size_t size;
};

/* A table of fields, and how many. */
struct gt_record_fields {
	const struct gt_record_field *f;
	size_t n;
};

extern const struct gt_record_fields gt_record_sample_u64;
extern const struct gt_record_fields gt_record_sample_strings;  /* const char *: alloc_bound_reason, ... */
extern const struct gt_record_fields gt_record_causes_u64;     /* the sample's "causes" object */
extern const struct gt_record_fields gt_record_info_u64;
extern const struct gt_record_fields gt_record_generation_u64;
extern const struct gt_record_fields gt_record_collector_u64;
extern const struct gt_record_text_field gt_record_info_text[];
extern const size_t gt_record_info_text_count;

/* The enumerations a recording names. */
enum gt_record_enum {
	GT_RECORD_RUNTIME = 0,
	GT_RECORD_ALLOC_SOURCE,
	GT_RECORD_ALLOC_SINCE,
	GT_RECORD_STATE,
	GT_RECORD_SAMPLER_STATE,
	GT_RECORD_HEAP,         /* JSON null is GT_ALLOC_HEAP_UNKNOWN: the caller's */
};

const char *gt_record_state_name(enum gt_target_state s);
/* The value of kind e whose name is name, or -1 for a name not known. */
int gt_record_enum_from(enum gt_record_enum e, const char *name);
/* The runtime whose GT_RECORD_RUNTIME value gt_record_enum_from gave v, or
 * NULL (unknown). */
const struct gt_runtime_traits *gt_record_runtime(int v);

#endif
