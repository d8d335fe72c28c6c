/* Reads a recording of gctop -w (record/record_format.h). Recordings are
 * outside bytes: every line is bounded (GT_RECORD_LINE_MAX), so are the
 * samples (GT_RECORD_SAMPLES_MAX), every value is checked against what the
 * writer can write, and anything else ends the reading with one sentence
 * and GT_EXIT_BAD_RECORDING. A partial last line (a gctop killed while
 * writing) is skipped, and gt_record_truncated says so.
 *
 * The lines come from record/record_lines.h, which looks at the quit flag
 * (base/quit.h) before every line and waits on a pipe where a quit signal
 * ends the wait, so an endless or silent input ends on
 * SIGINT/SIGTERM/SIGHUP: the call fails with err's status 0 (GT_EXIT_OK,
 * as gt_wait_interrupted); this file decodes them. */
#ifndef GCTOP_RECORD_RECORD_READER_H
#define GCTOP_RECORD_RECORD_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "model/allocators.h"
#include "model/alloc_stacks.h"
#include "model/sample.h"

struct gt_record_reader;

/* gt_record_next's answer when the deadline of gt_record_set_deadline
 * passed first: nothing was read into out; call again to go on. */
#define GT_RECORD_LATER 2

/* Opens path and reads its header. NULL with err: GT_EXIT_FAILURE when the
 * file cannot be opened, GT_EXIT_BAD_RECORDING when it is not a recording
 * gctop can read. */
struct gt_record_reader *gt_record_open(const char *path, struct gt_error *err);
/* The same for a reader that reads path again to step back: anything but
 * a regular file (a pipe) is refused with GT_EXIT_USAGE before a byte is read. */
struct gt_record_reader *gt_record_open_file(const char *path, struct gt_error *err);
/* The same over an open stream (owned from now on; closed by
 * gt_record_close); name is what sentences call it. */
struct gt_record_reader *gt_record_open_stream(FILE *f, const char *name, struct gt_error *err);
void gt_record_close(struct gt_record_reader *r);

/* The target's facts as of the newest line read. */
const struct gt_target_info *gt_record_info(const struct gt_record_reader *r);

/* The next sample into out; *alloc is the allocator reading it brought, or
 * NULL (valid until the next call). The sample's static strings point into
 * the reader, valid until gt_record_close. Returns 1, 0 at the end,
 * GT_RECORD_LATER, or -1 with err (GT_EXIT_BAD_RECORDING; GT_EXIT_OK on a
 * quit request). */
int gt_record_next(struct gt_record_reader *r, struct gt_sample *out, const struct gt_alloc_snapshot **alloc,
		   struct gt_error *err);
/* The stacks behind the sites of the allocator reading the last sample
 * brought, or NULL (none recorded); valid until the next call. */
const struct gt_alloc_stacks *gt_record_stacks(const struct gt_record_reader *r);
/* The recording ended in a partial line, which was skipped. */
bool gt_record_truncated(const struct gt_record_reader *r);
/* The file system holding the recording has no free block left now: a
 * partial last line was then most likely cut by the disk filling up (a
 * gctop -w that was stopped leaves one too). False for a stream. */
bool gt_record_disk_full(const struct gt_record_reader *r);
/* From now on gt_record_next stops with GT_RECORD_LATER once deadline_ns
 * (CLOCK_MONOTONIC; 0: none) has passed between two lines, having read at
 * least one: a caller with keys to answer reads in slices (record/replay.c). */
void gt_record_set_deadline(struct gt_record_reader *r, uint64_t deadline_ns);

#endif
