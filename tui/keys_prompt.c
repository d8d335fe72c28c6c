/* The footer's prompts (the interval, a replay's sample, the picker's
 * filter) and its y/N questions (allocation sampling on or off, a census). */
#include <ncurses.h>
#include <string.h>

#include "base/interval.h"
#include "tui/app_keys.h"
#include "tui/app_replay.h"
#include "tui/app_census.h"
#include "tui/app_session.h"

static bool is_enter(int ch)
{
	return ch == '\n' || ch == '\r' || ch == KEY_ENTER;
}

/* Backspace, or a printable key added to the prompt's text. */
static void edit_key(struct gt_app *a, int ch)
{
	size_t len = strlen(a->prompt_buf);
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
		a->prompt_buf[len - 1] = '\0';
	} else if (ch >= ' ' && ch < 127 && len + 1 < sizeof(a->prompt_buf)) {
		/* Any printable key is kept, so a wrong entry is shown back in the
		 * message that refuses it, not dropped unseen. */
		a->prompt_buf[len] = (char)ch;
		a->prompt_buf[len + 1] = '\0';
	}
}

/* The picker's filter applies as it is typed, as htop's does. */
static void filter_prompt_key(struct gt_app *a, int ch)
{
	if (ch == 27) {
		gt_app_mode(a, GT_MODE_ANSWERED);
		a->prompt_buf[0] = '\0';
	} else if (is_enter(ch)) {
		gt_app_mode(a, GT_MODE_ANSWERED);
	} else {
		edit_key(a, ch);
	}
	gt_picker_set_filter(&a->picker, a->prompt_buf);
}

static void interval_answered(struct gt_app *a)
{
	uint64_t ns;
	if (gt_interval_parse(a->prompt_buf, &ns) != GT_INTERVAL_OK)
		gt_app_note(a, "interval \"%s\" ignored: give " GT_INTERVAL_WANTS, a->prompt_buf);
	else
		gt_app_set_interval(a, ns);
}

void gt_keys_prompt(struct gt_app *a, int ch)
{
	enum gt_input_mode asked = a->modes.input;
	if (asked == GT_INPUT_FILTER) {
		filter_prompt_key(a, ch);
		return;
	}
	if (ch != 27 && !is_enter(ch)) {
		edit_key(a, ch);
		return;
	}
	gt_app_mode(a, GT_MODE_ANSWERED);
	if (ch == 27)
		return;
	if (asked == GT_INPUT_SAMPLE)
		gt_app_replay_branch(a);
	else
		interval_answered(a);
}

/* Any other key than y is no. */
void gt_keys_confirm(struct gt_app *a, int ch)
{
	bool yes = ch == 'y' || ch == 'Y';
	enum gt_input_mode asked = a->modes.input;
	gt_app_mode(a, GT_MODE_ANSWERED);
	if (asked == GT_INPUT_CONFIRM_START) {
		if (yes)
			gt_app_start_allocators(a);
		else
			gt_app_note(a, "%s PID %d", gt_app_source_question(a) ? "nothing started in" : "nothing loaded into",
				    (int)a->session.info.pid);
	} else if (asked == GT_INPUT_CONFIRM_CENSUS) {
		if (yes)
			gt_app_start_census(a);
		else
			gt_app_note(a, "no census taken; nothing asked of PID %d", (int)a->session.info.pid);
	} else if (asked == GT_INPUT_CONFIRM_STOP) {
		if (yes) {
			gt_session_disable_allocators(&a->session);
			const char *q = gt_app_source_question(a) ? gt_app_allocators_stop(a) : NULL;
			gt_app_note(a, "allocation sampling stopped%s%s", q ? "; " : "",
				    q ? q : gt_app_loads_code(a) ? "; the agent goes dormant within seconds" : "");
		} else {
			gt_app_note(a, "allocation sampling goes on");
		}
	}
}
