/* The keys the picker and the dashboard share: help, sample now, the
 * interval, repaint. */
#include <ncurses.h>

#include "base/clock.h"
#include "tui/app_keys.h"

/* The steps of + and -, in seconds. */
static const double interval_steps[] = { 0.1, 0.2, 0.5, 1, 2, 3, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600 };
#define N_STEPS (sizeof(interval_steps) / sizeof(interval_steps[0]))

static void step_interval(struct gt_app *a, int dir)
{
	double cur = (double)a->interval_ns / 1e9;
	double pick = cur;
	if (dir > 0) {
		for (size_t i = 0; i < N_STEPS; i++)
			if (interval_steps[i] > cur + 1e-9) {
				pick = interval_steps[i];
				break;
			}
	} else {
		for (size_t i = N_STEPS; i-- > 0;)
			if (interval_steps[i] < cur - 1e-9) {
				pick = interval_steps[i];
				break;
			}
	}
	gt_app_set_interval(a, (uint64_t)(pick * 1e9 + 0.5));
}

void gt_keys_common(struct gt_app *a, enum gt_action act)
{
	switch (act) {
	case GT_ACT_HELP: gt_app_mode(a, GT_MODE_HELP); break;
	case GT_ACT_REFRESH: gt_schedule_sample_now(gt_app_schedule(a), gt_mono_ns()); break;
	case GT_ACT_INTERVAL:
		gt_app_mode(a, GT_MODE_ASK_INTERVAL);
		a->prompt_buf[0] = '\0';
		break;
	case GT_ACT_SLOWER: step_interval(a, +1); break;
	case GT_ACT_FASTER: step_interval(a, -1); break;
	case GT_ACT_REDRAW: clearok(curscr, TRUE); break;
	default: break;
	}
}
