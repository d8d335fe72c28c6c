/* The keys of the picker: move, sort, filter, open. */
#include <ncurses.h>
#include <stdio.h>

#include "tui/app_keys.h"
#include "tui/app_session.h"

/* s: the next order; the selected process stays selected. */
static void sort_key(struct gt_app *a)
{
	struct gt_picker *p = &a->picker;
	pid_t keep = gt_picker_selected_pid(p);
	p->sort = (enum gt_picker_sort)((p->sort + 1) % GT_SORT_COUNT);
	gt_picker_sort_rows(p->slots, p->count, p->sort);
	for (size_t i = 0; i < p->count; i++)
		if (p->slots[i].row.pid == keep)
			p->selected = i;
	gt_app_note(a, "sorted by %s", gt_picker_sort_name(p->sort));
}

void gt_keys_picker(struct gt_app *a, const struct gt_key_binding *b)
{
	struct gt_picker *p = &a->picker;
	long page = LINES > 4 ? LINES - 4 : 1;
	switch (b->action) {
	case GT_ACT_QUIT: a->quit = true; break;
	case GT_ACT_UP: gt_picker_move(p, -1); break;
	case GT_ACT_DOWN: gt_picker_move(p, +1); break;
	case GT_ACT_PAGE_UP: gt_picker_move(p, -page); break;
	case GT_ACT_PAGE_DOWN: gt_picker_move(p, +page); break;
	case GT_ACT_HOME: gt_picker_move(p, -(long)p->count); break;
	case GT_ACT_END: gt_picker_move(p, (long)p->count); break;
	case GT_ACT_SORT: sort_key(a); break;
	case GT_ACT_FILTER:
		gt_app_mode(a, GT_MODE_ASK_FILTER);
		snprintf(a->prompt_buf, sizeof(a->prompt_buf), "%s", p->filter);
		break;
	case GT_ACT_OPEN:
		if (gt_picker_selected_pid(p))
			gt_app_open_dashboard(a, gt_picker_selected_pid(p));
		break;
	default: gt_keys_common(a, b->action); break;
	}
}
