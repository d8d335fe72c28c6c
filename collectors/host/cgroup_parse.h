/* Pure parsers for the text of /proc/PID/cgroup and of the memory cgroup's
 * value files. No I/O: collectors/host/cgroup.c reads, these interpret, and the
 * unit tests and the fuzz target feed them fixture text.
 *
 * Every parser takes text with an explicit length (no NUL needed, an interior
 * NUL is garbage) and never reads past it. */
#ifndef GCTOP_COLLECTORS_CGROUP_PARSE_H
#define GCTOP_COLLECTORS_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest cgroup path kept; a longer one is treated as unusable rather than
 * truncated, because a truncated path would name another group's files. */
#define GT_CGROUP_PATH_MAX 1024

/* A v1 limit at or above this is "unlimited": the kernel reports no limit as
 * LONG_MAX rounded down to a page (9223372036854771712 with 4 KiB pages). */
#define GT_CGROUP_V1_UNLIMITED_MIN (UINT64_C(1) << 62)

/* Where a process sits, from /proc/PID/cgroup. */
struct gt_cgroup_membership {
	bool has_v1_memory;                    /* a v1 line whose controller list holds "memory" */
	char v1_memory_path[GT_CGROUP_PATH_MAX];
	bool has_v2;                           /* the unified "0::" line */
	char v2_path[GT_CGROUP_PATH_MAX];
};

/* Returns 0 when at least one of the two paths was found, -1 otherwise.
 * Malformed lines are skipped, so one bad line does not hide a good one. */
int gt_cgroup_parse_membership(const char *text, size_t len, struct gt_cgroup_membership *out);

enum gt_cgroup_limit {
	GT_CGROUP_LIMIT_BAD = -1,        /* not a limit: garbage, empty, overflow */
	GT_CGROUP_LIMIT_SET = 0,         /* *bytes holds the limit */
	GT_CGROUP_LIMIT_UNLIMITED = 1,   /* v2 "max" or the v1 near-2^63 value */
};

/* v2 memory.max or v1 memory.limit_in_bytes. */
enum gt_cgroup_limit gt_cgroup_parse_limit(const char *text, size_t len, uint64_t *bytes);

/* A file holding one unsigned decimal (memory.current, memory.usage_in_bytes).
 * Returns 0, or -1 for anything else (sign, spaces inside, overflow, empty). */
int gt_cgroup_parse_u64(const char *text, size_t len, uint64_t *value);

/* The value of KEY in a "key value" table (memory.stat, memory.events,
 * memory.oom_control). The key must match a whole first word: "inactive_file"
 * does not match "total_inactive_file". Returns 0, or -1 when the key is
 * absent or its value is not an unsigned decimal. */
/* The number of PIDs in a cgroup.procs text (one per line); a text cut at
 * a line end counts the lines it has. */
uint64_t gt_cgroup_parse_count_lines(const char *text, size_t len);

int gt_cgroup_parse_keyed(const char *text, size_t len, const char *key, uint64_t *value);

/* The "some avg10=" percentage of a PSI file (memory.pressure or
 * /proc/pressure/memory). Parsed without strtod, so a locale with a decimal
 * comma (main calls setlocale) cannot change the result. Returns 0 with a
 * value in [0, 100], or -1. */
int gt_cgroup_parse_psi_some_avg10(const char *text, size_t len, double *percent);

#endif
