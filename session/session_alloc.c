/* Allocation sampling in a session: the target's sampler readings go into
 * a window ring, derived over GT_ALLOC_WINDOW_NS. One code for the screen
 * and for --allocators in batch mode. */
#include <stdlib.h>
#include <string.h>

#include "collectors/target.h"
#include "session/session.h"

int gt_session_alloc_begin(struct gt_session *s, struct gt_error *err)
{
	struct gt_alloc_window *w = calloc(1, sizeof(*w));
	struct gt_alloc_derived *a = calloc(1, sizeof(*a));
	if (!w || !a) {
		free(w);
		free(a);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	free(s->alloc_window);
	free(s->alloc_pending);
	/* While the target turns sampling on, a view may show this one: it
	 * says sampling is starting, not "off". */
	a->state = GT_SAMPLER_STARTING;
	s->alloc_window = w;
	s->alloc_pending = a;
	return 0;
}

void gt_session_alloc_end(struct gt_session *s, bool ok)
{
	if (!ok) {
		free(s->alloc_window);
		free(s->alloc_pending);
		s->alloc_window = NULL;
		s->alloc_pending = NULL;
		return;
	}
	/* Until the next sample the pane says it is starting, not "off". */
	s->live.alloc = s->alloc_pending;
	s->alloc_pending = NULL;
	s->live.alloc_message[0] = '\0';
}

int gt_session_enable_allocators(struct gt_session *s, const char *packages, const char *source, struct gt_error *err)
{
	if (s->live.alloc)
		return 0;
	if (gt_session_alloc_begin(s, err) != 0)
		return -1;
	bool ok = gt_target_enable_allocators(s->target, packages, source, err) == 0;
	gt_session_alloc_end(s, ok);
	return ok ? 0 : -1;
}

void gt_session_feed_allocators(struct gt_session *s, const struct gt_alloc_snapshot *snap)
{
	s->alloc_fresh = false;
	if (!s->live.alloc || !snap)
		return;
	gt_alloc_window_push(s->alloc_window, snap);
	gt_alloc_window_derive(s->alloc_window, GT_ALLOC_WINDOW_NS, s->live.alloc);
	memcpy(s->live.alloc_message, snap->message, sizeof(s->live.alloc_message));
	s->live.alloc_message[sizeof(s->live.alloc_message) - 1] = '\0';
	s->alloc_fresh = true;
}

void gt_session_copy_stacks(struct gt_alloc_stacks **dst, const struct gt_alloc_stacks *src)
{
	if (src && !*dst)
		*dst = malloc(sizeof(**dst));
	if (src && *dst) {
		**dst = *src;
		return;
	}
	/* none to copy, or no room for the copy: no stacks rather than old ones */
	free(*dst);
	*dst = NULL;
}

void gt_session_feed_alloc_stacks(struct gt_session *s, const struct gt_alloc_stacks *stacks)
{
	if (s->live.alloc)
		gt_session_copy_stacks(&s->live.stacks, stacks);
}

void gt_session_disable_allocators(struct gt_session *s)
{
	if (!s->live.alloc)
		return;
	gt_target_disable_allocators(s->target);
	free(s->alloc_window);
	free(s->live.alloc);
	s->alloc_window = NULL;
	s->live.alloc = NULL;
	s->live.alloc_message[0] = '\0';
	gt_session_copy_stacks(&s->live.stacks, NULL);
}

void gt_session_free_allocators(struct gt_session *s)
{
	free(s->alloc_window);
	free(s->alloc_pending);
	free(s->live.alloc);
	gt_session_copy_stacks(&s->live.stacks, NULL);
	if (s->frozen_figures) {
		free(s->frozen_figures->alloc);
		s->frozen_figures->alloc = NULL;
		gt_session_copy_stacks(&s->frozen_figures->stacks, NULL);
	}
	s->alloc_window = NULL;
	s->alloc_pending = NULL;
	s->live.alloc = NULL;
}
