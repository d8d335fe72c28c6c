/* A recording's lines, as record/record_reader.c decodes them: each one
 * bounded (GT_RECORD_LINE_MAX), read from a file, a pipe or a stream, and
 * read so that a quit signal (base/quit.h) ends every wait, however close
 * before the wait it lands: the quit flag is looked at before every line,
 * and anything but a regular file is waited on with ppoll (base/wait.h),
 * so an endless or silent input ends on SIGINT/SIGTERM/SIGHUP with err's
 * status 0 (GT_EXIT_OK, as gt_wait_interrupted). Nothing here knows what
 * a line holds. */
#ifndef GCTOP_RECORD_RECORD_LINES_H
#define GCTOP_RECORD_RECORD_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

struct gt_record_lines {
	FILE *f;                  /* gt_record_lines_stream's, or NULL */
	int fd;                   /* gt_record_lines_open's, or -1 */
	bool regular;             /* fd is a regular file: no wait before a read */
	char *buf;                /* bytes read, from buf_pos on not yet used */
	size_t buf_pos, buf_len;
	bool eof;
	char name[256];           /* what sentences call the recording */
	char *line;               /* the line read last, '\0'-terminated (GT_RECORD_LINE_MAX + 1 bytes) */
	uint64_t line_no;         /* its number, from 1 */
	bool truncated;           /* the input ended in a partial line, which was skipped */
};

/* Opens path for reading without waiting (a FIFO's open would wait for its
 * writer, where a quit signal landing just before is missed). file_only:
 * anything but a regular file is refused with GT_EXIT_USAGE before a byte
 * is read. 0, or -1 with err (GT_EXIT_FAILURE when it cannot be opened);
 * on failure l holds nothing to close. */
int gt_record_lines_open(struct gt_record_lines *l, const char *path, bool file_only, struct gt_error *err);
/* Reads the stream f (owned from now on: closed by gt_record_lines_close,
 * or here on failure); name is what sentences call it. 0, or -1 with err. */
int gt_record_lines_stream(struct gt_record_lines *l, FILE *f, const char *name, struct gt_error *err);
void gt_record_lines_close(struct gt_record_lines *l);

/* The next line into l->line, its length in *len: 1, 0 at the end (a
 * partial last line is skipped and l->truncated set), or -1 with err (a
 * line longer than GT_RECORD_LINE_MAX: GT_EXIT_BAD_RECORDING; a read
 * error; a quit request, status 0). */
int gt_record_lines_next(struct gt_record_lines *l, size_t *len, struct gt_error *err);

/* One sentence naming the recording, the line read last and what is wrong
 * with it (GT_EXIT_BAD_RECORDING); returns -1. */
int gt_record_lines_bad(const struct gt_record_lines *l, struct gt_error *err, const char *what);

/* The file system holding the recording has no free block left now. False
 * for a stream. */
bool gt_record_lines_disk_full(const struct gt_record_lines *l);

#endif
