/* The census on the screen (tui/app_census.h). */
#include "tui/app_census.h"

#include "base/clock.h"
#include "session/session_census.h"

void gt_app_start_census(struct gt_app *a)
{
	struct gt_error err = { 0 };
	if (gt_session_census_start(&a->session, &err) != 0) {
		gt_app_note(a, "census: %s", err.msg);
		return;
	}
	a->census_since = gt_mono_ns();
	/* The footer says what goes on, with its seconds, not an older note. */
	a->note[0] = '\0';
}

bool gt_app_collect_census(struct gt_app *a)
{
	struct gt_error err = { 0 };
	int r = gt_session_census_finish(&a->session, &err);
	if (r == 0)
		return false;
	if (r < 0) {
		gt_app_note(a, "census: %s", err.msg);
		return true;
	}
	a->help_first = 0;
	if (a->modes.screen != GT_SCREEN_CENSUS)
		gt_app_mode(a, GT_MODE_CENSUS);
	/* A question on the footer keeps the screen: c shows it after. */
	if (a->modes.screen != GT_SCREEN_CENSUS) {
		a->census_unseen = true;
		gt_app_note(a, "the census of PID %d is taken: c shows it", (int)a->session.info.pid);
	}
	return true;
}
