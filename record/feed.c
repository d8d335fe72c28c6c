#include "record/feed.h"

int gt_feed_next(struct gt_record_reader *r, struct gt_session *s, struct gt_sample *cur, enum gt_feed_what what,
		 struct gt_error *err)
{
	const struct gt_alloc_snapshot *alloc;
	int rc = gt_record_next(r, cur, &alloc, err);
	if (rc != 1)
		return rc;
	if (what == GT_FEED_FIGURES) {
		gt_session_feed(s, cur);
		s->info = *gt_record_info(r);
		return 1;
	}
	if (gt_session_replay_sample(s, cur, alloc, gt_record_stacks(r), gt_record_info(r), err) != 0)
		return -1;
	return 1;
}
