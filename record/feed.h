/* A recording fed into a session, one sample at a time: the one way the
 * full-screen replay (record/replay.c), -r with -b or --json
 * (frontends/batch_mode.c) and --compare (record/compare.c) turn a recorded
 * sample into the figures the live view showed for it. */
#ifndef GCTOP_RECORD_FEED_H
#define GCTOP_RECORD_FEED_H

#include "base/error.h"
#include "model/sample.h"
#include "record/record_reader.h"
#include "session/session.h"

/* What of a recorded sample goes in. */
enum gt_feed_what {
	/* Its figures, the target's facts as of it, and the allocator reading
	 * it brought with the stacks behind its sites (which turns the
	 * session's allocation window on): what a replay shows. */
	GT_FEED_ALL,
	/* Its figures and facts only: --compare shows no allocator table, and
	 * a window of readings is a few hundred KiB per run. */
	GT_FEED_FIGURES,
};

/* Reads r's next sample into cur (the caller's room: a sample is large)
 * and feeds it into s. Returns 1 when one was fed, 0 at the end,
 * GT_RECORD_LATER past the reader's deadline (nothing read), or -1 with
 * err (see gt_record_next; out of memory for the allocation window). */
int gt_feed_next(struct gt_record_reader *r, struct gt_session *s, struct gt_sample *cur, enum gt_feed_what what,
		 struct gt_error *err);

#endif
