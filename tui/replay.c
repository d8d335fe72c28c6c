#include "tui/replay.h"

#include <stdlib.h>
#include <string.h>

int gt_replay_next(struct gt_replay *r, struct gt_session *s, struct gt_error *err)
{
	if (r->at_end)
		return 0;
	struct gt_sample *cur = malloc(sizeof(*cur));
	if (!cur)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	const struct gt_alloc_snapshot *alloc;
	int rc = gt_record_next(r->reader, cur, &alloc, err);
	if (rc > 0 && gt_session_replay_sample(s, cur, alloc, gt_record_stacks(r->reader), gt_record_info(r->reader),
					       err) != 0)
		rc = -1;
	free(cur);
	if (rc == 0)
		r->at_end = true;
	if (rc > 0)
		r->pos++;
	return rc;
}

/* The reader and the session from the start, with nothing fed. */
static int restart(struct gt_replay *r, struct gt_session *s, struct gt_error *err)
{
	gt_record_close(r->reader);
	r->reader = gt_record_open(r->path, err);
	r->pos = 0;
	r->at_end = false;
	if (!r->reader)
		return -1;
	gt_session_close(s);
	return gt_session_init(s, gt_record_info(r->reader), err);
}

int gt_replay_seek(struct gt_replay *r, struct gt_session *s, uint64_t pos, struct gt_error *err)
{
	if (pos < 2)
		pos = 2;
	if (pos < r->pos && restart(r, s, err) != 0)
		return -1;
	while (r->pos < pos) {
		int rc = gt_replay_next(r, s, err);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
	}
	if (r->pos < 2)
		return gt_fail(err, GT_EXIT_BAD_RECORDING, "%s holds fewer than two samples: no interval to show", r->path);
	return 0;
}

int gt_replay_open(struct gt_replay *r, struct gt_session *s, const char *path, struct gt_error *err)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	r->reader = gt_record_open(path, err);
	if (!r->reader)
		return -1;
	if (gt_session_init(s, gt_record_info(r->reader), err) != 0)
		return -1;
	return gt_replay_seek(r, s, 2, err);
}

void gt_replay_close(struct gt_replay *r)
{
	gt_record_close(r->reader);
	r->reader = NULL;
}
