/* What every part of the screen uses (tui/app.h): the modes, the
 * footer's one-off message, the interval. Kept apart from the loop and the
 * keys, so that the session handling (tui/app_session.c) and the replay
 * (tui/app_replay.c) need nothing of theirs. */
#include <stdarg.h>
#include <stdio.h>

#include "base/clock.h"
#include "tui/app.h"

/* A one-off message stays this long, then the key hints come back (htop's
 * messages time out too); a key replaces it sooner. */
#define APP_NOTE_SHOW_NS 5000000000ull

void gt_app_mode(struct gt_app *a, enum gt_mode_event e)
{
	a->modes = gt_mode_after(a->modes, e);
	/* A help, findings, stacks or census overlay opens at its top. */
	bool opens = e == GT_MODE_HELP || e == GT_MODE_FINDINGS || e == GT_MODE_STACKS || e == GT_MODE_CENSUS;
	if (opens && gt_mode_overlay(a->modes.screen))
		a->help_first = 0;
	if (a->modes.screen == GT_SCREEN_CENSUS)
		a->census_unseen = false;
}

/* Sets the footer's one-off message; it goes after APP_NOTE_SHOW_NS. */
void gt_app_note(struct gt_app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->note, sizeof(a->note), fmt, ap);
	va_end(ap);
	a->note_until = gt_mono_ns() + APP_NOTE_SHOW_NS;
}

struct gt_schedule *gt_app_schedule(struct gt_app *a)
{
	return gt_app_in_dashboard(a) ? &a->session.schedule : &a->picker.schedule;
}

void gt_app_set_interval(struct gt_app *a, uint64_t ns)
{
	a->interval_ns = ns;
	/* The next sample comes one new interval after now, not after the
	 * old deadline, so a shorter interval takes effect at once. */
	gt_schedule_set_interval(gt_app_schedule(a), ns, gt_mono_ns());
	gt_app_note(a, "interval %gs", (double)ns / 1e9);
}
