/* gctop -r FILE in the full-screen view: a recording fed into the
 * dashboard's session one sample at a time, as atop -r steps through its
 * files: t the next sample, T the one before, r back to the start, space
 * plays (one sample every interval, + and - change it) or pauses. */
#ifndef GCTOP_TUI_REPLAY_H
#define GCTOP_TUI_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "record/record_reader.h"
#include "session/session.h"

struct gt_replay {
	const char *path;
	struct gt_record_reader *reader;
	uint64_t pos;        /* samples fed so far: the interval shown ends at sample pos */
	bool at_end;         /* the recording has no sample after pos */
	bool playing;
	uint64_t next_ns;    /* while playing: when the next step is due (CLOCK_MONOTONIC) */
};

/* Opens path into s (initialised here) and shows its first interval.
 * Returns 0, or -1 with err (GT_EXIT_BAD_RECORDING for a file gctop cannot
 * read or one with fewer than two samples). */
int gt_replay_open(struct gt_replay *r, struct gt_session *s, const char *path, struct gt_error *err);
/* One sample on: 1, 0 at the end, -1 with err. */
int gt_replay_next(struct gt_replay *r, struct gt_session *s, struct gt_error *err);
/* Shows the interval ending at sample pos (at least 2), reading the
 * recording again from its start: the history is the one the live view had
 * then. Returns 0, or -1 with err. */
int gt_replay_seek(struct gt_replay *r, struct gt_session *s, uint64_t pos, struct gt_error *err);
void gt_replay_close(struct gt_replay *r);

#endif
