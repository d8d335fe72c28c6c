/* gctop -r FILE in the full-screen view: a recording fed into the
 * dashboard's session one sample at a time, as atop -r steps through its
 * files: t the next sample, T the one before, r back to the start, space
 * plays (one sample every interval, + and - change it) or pauses.
 *
 * A move (a step, a jump, a rewind) only sets where the replay goes; the
 * reading is done in slices of the screen's loop (gt_replay_work), so a
 * jump to the 400,000th sample, read again from the start, never keeps the
 * loop from answering q, another key or a signal. */
#ifndef GCTOP_RECORD_REPLAY_H
#define GCTOP_RECORD_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "record/record_reader.h"
#include "session/session.h"

struct gt_replay {
	const char *path;
	struct gt_record_reader *reader;
	uint64_t pos;        /* samples fed so far: the interval shown ends at sample pos */
	uint64_t target;     /* while moving: the sample the move goes to */
	bool moving;         /* a move is under way: gt_replay_work has more to read */
	bool at_end;         /* the recording has no sample after pos */
	bool playing;
	uint64_t next_ns;    /* while playing: when the next step is due (CLOCK_MONOTONIC) */
	uint64_t drawn_ns;   /* the screen's: when a move's progress was last drawn */
};

/* Opens path into s (initialised here) and shows its first interval.
 * Returns 0, or -1 with err (GT_EXIT_BAD_RECORDING for a file gctop cannot
 * read or one with fewer than two samples, GT_EXIT_USAGE for a pipe;
 * GT_EXIT_OK on a quit signal while it reads). */
int gt_replay_open(struct gt_replay *r, struct gt_session *s, const char *path, struct gt_error *err);
/* Starts a move to the interval ending at sample pos (at least 2; the last
 * one when the recording ends before), replacing one under way. A move
 * back reads the recording again from its start: the history is the one
 * the live view had then. */
void gt_replay_go(struct gt_replay *r, uint64_t pos);
/* Reads towards the move's sample until it is there or deadline_ns
 * (CLOCK_MONOTONIC; 0: none) passes. Returns 1 when the move is done (or
 * none was under way), 0 when there is more to read, -1 with err. */
int gt_replay_work(struct gt_replay *r, struct gt_session *s, uint64_t deadline_ns, struct gt_error *err);
void gt_replay_close(struct gt_replay *r);

#endif
