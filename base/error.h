/* Errors that reach the user: one sentence and a documented exit status.
 * The statuses are listed in man/gctop.1 (EXIT STATUS) and gctop --help. */
#ifndef GCTOP_BASE_ERROR_H
#define GCTOP_BASE_ERROR_H

#include <stddef.h>

enum gt_exit {
	GT_EXIT_OK = 0,
	GT_EXIT_FAILURE = 1,       /* anything not listed below (out of memory, I/O error) */
	GT_EXIT_USAGE = 2,         /* bad command line */
	GT_EXIT_NO_PROCESS = 3,    /* no such process */
	GT_EXIT_NOT_RUNTIME = 4,   /* the process is of no runtime gctop reads */
	GT_EXIT_PERMISSION = 5,    /* the process or its data belongs to another user */
	GT_EXIT_NO_DATA = 6,       /* the runtime publishes no data (-XX:-UsePerfData, diagnostics off) */
	GT_EXIT_BAD_DATA = 7,      /* the runtime's data is malformed, truncated or unsafe to read */
	GT_EXIT_TARGET_EXITED = 8, /* the target exited while gctop was watching it */
	GT_EXIT_TIMEOUT = 9,       /* the target did not become readable in time (still starting) */
	GT_EXIT_BAD_RECORDING = 10, /* a recording (-r, --compare) is truncated, corrupt or not gctop's */
	GT_EXIT_REGRESSION = 11,   /* --compare --fail-if: the last run regressed against the first */
	/* --doctor: the worst finding (no finding at all is GT_EXIT_OK) */
	GT_EXIT_FINDING_INFO = 12,
	GT_EXIT_FINDING_WARNING = 13,
	GT_EXIT_FINDING_CRITICAL = 14,
	GT_EXIT_UNSAFE_OUTPUT = 15, /* -w FILE is a link, not a regular file of ours, or under another user's link */
	GT_EXIT_CENSUS_NO_ROOM = 16, /* --census: its cost to the target's memory exceeds its headroom */
	GT_EXIT_CENSUS_DIED = 17,   /* --census: the target died during the census (the OOM killer, where told) */
	GT_EXIT_BAD_CONFIG = 18,   /* --serve --web-config FILE is malformed, or a file it names cannot be read or used */
	GT_EXIT_TERMINAL_GONE = 19, /* the screen's terminal went away (SIGHUP, hung up, end of input) */
};

struct gt_error {
	enum gt_exit code;
	char msg[512];
};

/* Sets err (if not NULL) and returns -1, so callers can `return gt_fail(...)`. */
int gt_fail(struct gt_error *err, enum gt_exit code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* calloc of one zeroed object of `size` bytes, or NULL with err saying
 * "out of memory" (GT_EXIT_FAILURE). */
void *gt_calloc(size_t size, struct gt_error *err);

#endif
