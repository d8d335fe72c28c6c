/* The session takes a target opened elsewhere: by gt_session_open
 * (session/session.c) or on a job's worker (session/job.c). A file of its
 * own so that the job, which session.c stops on close, needs nothing of
 * session.c. */
#include "session/session.h"

#include "collectors/target.h"

void gt_session_adopt(struct gt_session *s, struct gt_target *t)
{
	s->target = t;
	s->info = *gt_target_info(t);
}
