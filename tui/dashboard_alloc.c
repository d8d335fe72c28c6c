/* Allocation sampling in the dashboard: the target's sampler readings go
 * into a window ring, derived over GT_ALLOC_WINDOW_NS, as batch mode does. */
#include <stdlib.h>
#include <string.h>

#include "tui/dashboard.h"

int gt_dashboard_enable_allocators(struct gt_dashboard *db, const char *packages, struct gt_error *err)
{
	if (db->alloc)
		return 0;
	struct gt_alloc_window *w = calloc(1, sizeof(*w));
	struct gt_alloc_derived *a = calloc(1, sizeof(*a));
	if (!w || !a) {
		free(w);
		free(a);
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	}
	if (gt_target_enable_allocators(db->target, packages, err) != 0) {
		free(w);
		free(a);
		return -1;
	}
	/* Until the next sample the pane says it is starting, not "off". */
	a->state = GT_SAMPLER_STARTING;
	db->alloc_window = w;
	db->alloc = a;
	db->alloc_message[0] = '\0';
	return 0;
}

void gt_dashboard_disable_allocators(struct gt_dashboard *db)
{
	if (!db->alloc)
		return;
	gt_target_disable_allocators(db->target);
	free(db->alloc_window);
	free(db->alloc);
	db->alloc_window = NULL;
	db->alloc = NULL;
	db->alloc_message[0] = '\0';
}

void gt_dashboard_update_allocators(struct gt_dashboard *db)
{
	if (!db->alloc)
		return;
	const struct gt_alloc_snapshot *snap = gt_target_allocators(db->target);
	if (!snap)
		return;
	gt_alloc_window_push(db->alloc_window, snap);
	gt_alloc_window_derive(db->alloc_window, GT_ALLOC_WINDOW_NS, db->alloc);
	memcpy(db->alloc_message, snap->message, sizeof(db->alloc_message));
	db->alloc_message[sizeof(db->alloc_message) - 1] = '\0';
}

void gt_dashboard_freeze_allocators(struct gt_dashboard *db)
{
	if (!db->alloc) {
		free(db->frozen_alloc);
		db->frozen_alloc = NULL;
		return;
	}
	if (!db->frozen_alloc)
		db->frozen_alloc = malloc(sizeof(*db->frozen_alloc));
	if (db->frozen_alloc)
		*db->frozen_alloc = *db->alloc;
	memcpy(db->frozen_alloc_message, db->alloc_message, sizeof(db->frozen_alloc_message));
}

void gt_dashboard_free_allocators(struct gt_dashboard *db)
{
	free(db->alloc_window);
	free(db->alloc);
	free(db->frozen_alloc);
	db->alloc_window = NULL;
	db->alloc = NULL;
	db->frozen_alloc = NULL;
}
