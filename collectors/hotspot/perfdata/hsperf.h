/* The HotSpot perf-data format (hsperfdata), read defensively.
 *
 * The JVM writes the buffer while we read it: entries are appended (never
 * moved or removed) and values are plain stores. The parser therefore checks
 * every header field before trusting it, stops at the first entry that is not
 * complete yet and resumes there later, and reads values with relaxed aligned
 * loads. Names are copied out once; per tick a caller only loads values
 * through pointers it resolved before (hsperf_long). */
#ifndef GCTOP_COLLECTORS_HSPERF_H
#define GCTOP_COLLECTORS_HSPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

#define HSPERF_PROLOGUE_SIZE 32
#define HSPERF_ENTRY_HEADER_SIZE 20
/* The JVM's default region is 32 KiB; anything this large is not a perf-data file. */
#define HSPERF_MAX_FILE_SIZE (64u * 1024 * 1024)

enum hsperf_units {
	HSPERF_U_NONE = 1,
	HSPERF_U_BYTES = 2,
	HSPERF_U_TICKS = 3,
	HSPERF_U_EVENTS = 4,
	HSPERF_U_STRING = 5,
	HSPERF_U_HERTZ = 6,
};

struct hsperf_prologue {
	uint8_t byte_order;
	uint8_t major, minor;
	uint8_t accessible;
	uint32_t used, overflow;
	int64_t mod_time_stamp;
	uint32_t entry_offset, num_entries;
};

struct hsperf_entry {
	char *name;              /* our own copy */
	char type;               /* 'J' (jlong) or 'B' (jbyte: strings) */
	uint8_t units, variability;
	uint32_t vector_length;
	uint32_t data_offset;    /* from the start of the buffer */
};

struct hsperf {
	const uint8_t *base;
	size_t size;
	struct hsperf_entry *entries;
	size_t count, capacity;
	uint32_t resume_offset;  /* where the next unparsed entry starts */
	uint32_t parsed;         /* complete entries so far, kept or skipped */
	uint32_t seen_used, seen_num_entries;
	int64_t seen_mod_time;
	bool complete;           /* parsed as many entries as the prologue counts */
};

/* A resolved 'J' scalar: NULL when the counter does not exist. */
typedef const int64_t *hsperf_long;

/* Checks the magic, byte order and version of buf and fills out.
 * Returns 0, or -1 with err (GT_EXIT_BAD_DATA). `what` names the file in messages. */
int hsperf_read_prologue(const uint8_t *buf, size_t size, const char *what,
			 struct hsperf_prologue *out, struct gt_error *err);

/* Starts a parser over buf (8-byte aligned, as a mapping is). Parses what is
 * there already. Returns 0, or -1 with err. */
int hsperf_init(struct hsperf *p, const uint8_t *buf, size_t size, const char *what, struct gt_error *err);

/* Parses entries appended since the last call, if the prologue says there
 * are any or the last scan stopped at an incomplete entry. Cheap otherwise.
 * Returns the number of new entries, or -1 when out of memory. */
int hsperf_refresh(struct hsperf *p);

bool hsperf_accessible(const struct hsperf *p);

const struct hsperf_entry *hsperf_find(const struct hsperf *p, const char *name);

/* Resolves a scalar long counter once; NULL when missing or not a scalar long. */
hsperf_long hsperf_resolve_long(const struct hsperf *p, const char *name);

static inline int64_t hsperf_load(hsperf_long c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* Reads a long counter by name into *v. Returns 0, or -1 when missing. */
int hsperf_read_long(const struct hsperf *p, const char *name, int64_t *v);

/* Copies a string entry (always NUL-terminated, truncated to outsz).
 * Returns 0, or -1 when missing or not a string (out is then ""). */
int hsperf_read_string_entry(const struct hsperf *p, const struct hsperf_entry *e, char *out, size_t outsz);
int hsperf_read_string(const struct hsperf *p, const char *name, char *out, size_t outsz);

void hsperf_free(struct hsperf *p);

/* A part of the file a reader loads between two parses (an entry's data). */
struct hsperf_range {
	uint32_t off, len;
};

/* The prologue's fields that change when the JVM adds entries: used at 8,
 * the modification stamp at 16, the entry count at 28. */
#define HSPERF_PROLOGUE_KEY_LEN 24

/* A read-only shared mapping of a live perf-data file, read through a
 * private copy. The file's owner can truncate it under the mapping, and a
 * load past the new end would kill gctop with SIGBUS; so the mapping is only
 * read by hsperf_map_update, which checks the size first and survives a
 * truncation racing that check. The parser (hsperf_init) reads `base`, the
 * private copy, whose counters change only at each update. */
struct hsperf_map {
	const uint8_t *base;     /* the private copy, 8-byte aligned */
	size_t size;
	dev_t dev;
	ino_t ino;
	const uint8_t *shared;   /* the mapping */
	/* How much of the file is mapped: the pages in use, grown when the
	 * JVM uses more. The kernel maps up to 16 pages around each fault, so
	 * a mapping of the whole file (32 KiB by default) was all resident
	 * where a small JVM uses 12 KiB. */
	size_t mapped;
	int fd;                  /* kept to see the file's size */
	uint64_t stat_ns;        /* when its size was last looked at (CLOCK_MONOTONIC) */
	char path[256];          /* for messages (cut if longer) */
	/* hsperf_map_watch: the ranges to copy while the prologue's key is
	 * as it was then (the caller's array), and whether the last update
	 * copied only them. */
	const struct hsperf_range *watch;
	size_t n_watch;
	uint8_t watch_key[HSPERF_PROLOGUE_KEY_LEN];
	bool watched;
};

/* Opens path without following links and maps it after checking that it is
 * a regular file owned by owner_uid (and by us unless we are root), not
 * group/world-writable, with one link, and of a page-multiple size of at most
 * HSPERF_MAX_FILE_SIZE, then takes the first copy. Never locks the file.
 * Returns 0, or -1 with err. */
int hsperf_map_open(const char *path, uid_t owner_uid, struct hsperf_map *out, struct gt_error *err);

/* Refreshes the private copy from the mapping. Returns 0, or -1 with err
 * (GT_EXIT_BAD_DATA) when the file shrank under it; the copy then keeps its
 * last contents. */
int hsperf_map_update(struct hsperf_map *m, struct gt_error *err);

/* From now on an update copies the prologue and only these ranges (the
 * counters a reader resolved: a few hundred bytes instead of every byte in
 * use), for as long as the prologue's used size, modification stamp and
 * entry count stay as in the copy now; when they change (the JVM added
 * entries) updates copy every byte in use again (m->watched false) until
 * the next call. The ranges stay the caller's. Each is checked against the
 * file at each copy: one outside it is skipped. A truncation that leaves
 * the ranges whole is seen at the next size check (HSPERF_STAT_EVERY_NS),
 * one that cuts them by the copy's SIGBUS guard, as without ranges.
 * n 0: every byte always. */
void hsperf_map_watch(struct hsperf_map *m, const struct hsperf_range *ranges, size_t n);

void hsperf_map_close(struct hsperf_map *m);

#endif
