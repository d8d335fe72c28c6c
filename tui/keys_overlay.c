/* The keys of the overlays: the help, the findings, the stacks and the
 * census. */
#include <ncurses.h>

#include "tui/app_keys.h"
#include "tui/panes/pane_help.h"

void gt_keys_overlay(struct gt_app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_QUIT: case GT_ACT_BACK: gt_app_mode(a, GT_MODE_BACK); break;
	case GT_ACT_HELP: gt_app_mode(a, GT_MODE_HELP); break;
	/* from the help to the findings (in a process view), or closed */
	case GT_ACT_FINDINGS: gt_app_mode(a, GT_MODE_FINDINGS); break;
	/* the last census, from another overlay; in the census, closes it */
	case GT_ACT_CENSUS: gt_app_mode(a, GT_MODE_CENSUS); break;
	case GT_ACT_UP: a->help_first = a->help_first > 0 ? a->help_first - 1 : 0; break;
	case GT_ACT_DOWN: a->help_first++; break;
	case GT_ACT_PAGE_UP: a->help_first = a->help_first > 10 ? a->help_first - 10 : 0; break;
	case GT_ACT_PAGE_DOWN: a->help_first += 10; break;
	case GT_ACT_HOME: a->help_first = 0; break;
	case GT_ACT_END: a->help_first = gt_help_lines(COLS); break;
	default: break;
	}
}
