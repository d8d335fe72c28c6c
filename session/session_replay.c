/* A recorded sample fed into a session as gt_session_sample feeds a live
 * one (session/session.h). Apart from session/session.c and
 * session/session_alloc.c, which it feeds through, so neither needs the
 * other. */
#include "session/session.h"

int gt_session_replay_sample(struct gt_session *s, const struct gt_sample *cur, const struct gt_alloc_snapshot *alloc,
			     const struct gt_alloc_stacks *stacks, const struct gt_target_info *info,
			     struct gt_error *err)
{
	if (alloc && !s->live.alloc) {
		if (gt_session_alloc_begin(s, err) != 0)
			return -1;
		gt_session_alloc_end(s, true);
	}
	gt_session_feed(s, cur);
	s->info = *info;
	gt_session_feed_allocators(s, alloc);
	/* as live: the stacks come with the reading they go with */
	if (alloc)
		gt_session_feed_alloc_stacks(s, stacks);
	return 0;
}
