#include "record/replay.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "record/feed.h"

/* One sample on: 1, 0 at the end, GT_RECORD_LATER past the reader's
 * deadline, -1 with err. */
static int replay_next(struct gt_replay *r, struct gt_session *s, struct gt_error *err)
{
	if (r->at_end)
		return 0;
	struct gt_sample *cur = malloc(sizeof(*cur));
	if (!cur)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	int rc = gt_feed_next(r->reader, s, cur, GT_FEED_ALL, err);
	free(cur);
	if (rc == 0)
		r->at_end = true;
	if (rc == 1)
		r->pos++;
	return rc;
}

/* The reader and the session from the start, with nothing fed. */
static int restart(struct gt_replay *r, struct gt_session *s, struct gt_error *err)
{
	gt_record_close(r->reader);
	r->reader = gt_record_open_file(r->path, err);
	r->pos = 0;
	r->at_end = false;
	if (!r->reader)
		return -1;
	gt_session_close(s);
	return gt_session_init(s, gt_record_info(r->reader), err);
}

void gt_replay_go(struct gt_replay *r, uint64_t pos)
{
	r->target = pos < 2 ? 2 : pos;
	r->moving = true;
}

int gt_replay_work(struct gt_replay *r, struct gt_session *s, uint64_t deadline_ns, struct gt_error *err)
{
	if (!r->moving)
		return 1;
	if (r->target < r->pos && restart(r, s, err) != 0)
		return -1;
	gt_record_set_deadline(r->reader, deadline_ns);
	for (bool fed = false; r->pos < r->target && !r->at_end; fed = true) {
		/* The deadline between samples too (feeding one costs the derive
		 * step), once one was fed, so that every slice gets on. */
		if (fed && deadline_ns && gt_mono_ns() >= deadline_ns)
			return 0;
		int rc = replay_next(r, s, err);
		if (rc < 0)
			return -1;
		if (rc == GT_RECORD_LATER)
			return 0;
	}
	r->moving = false;
	if (r->pos < 2)
		return gt_fail(err, GT_EXIT_BAD_RECORDING, "%s holds fewer than two samples: no interval to show", r->path);
	return 1;
}

int gt_replay_open(struct gt_replay *r, struct gt_session *s, const char *path, struct gt_error *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->reader = gt_record_open_file(path, err);
	if (!r->reader)
		return -1;
	if (gt_session_init(s, gt_record_info(r->reader), err) != 0)
		return -1;
	gt_replay_go(r, 2);
	return gt_replay_work(r, s, 0, err) < 0 ? -1 : 0;
}

void gt_replay_close(struct gt_replay *r)
{
	gt_record_close(r->reader);
	r->reader = NULL;
}
