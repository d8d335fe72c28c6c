/* Sends each key by the screen's modes (tui/mode.h): to the prompt or
 * the question on the footer, else to the screen that shows. */
#include <ncurses.h>

#include "tui/app_keys.h"
#include "tui/term.h"

void gt_keys_handle(struct gt_app *a, int ch)
{
	if (ch == KEY_RESIZE) {
		gt_term_resized = 1;
		return;
	}
	/* A new key replaces the last one-off message. */
	a->note[0] = '\0';
	enum gt_screen_mode screen = a->modes.screen;
	switch (a->modes.input) {
	case GT_INPUT_INTERVAL: case GT_INPUT_SAMPLE: case GT_INPUT_FILTER:
		gt_keys_prompt(a, ch);
		return;
	case GT_INPUT_CONFIRM_START: case GT_INPUT_CONFIRM_STOP: case GT_INPUT_CONFIRM_CENSUS:
		gt_keys_confirm(a, ch);
		return;
	default:
		break;
	}
	const struct gt_key_binding *b = gt_keys_lookup(ch, gt_mode_key_context(screen));
	if (!b)
		return;
	if (gt_mode_overlay(screen))
		gt_keys_overlay(a, b->action);
	else if (gt_mode_in_dashboard(screen))
		gt_keys_dashboard(a, b, ch);
	else
		gt_keys_picker(a, b);
}
