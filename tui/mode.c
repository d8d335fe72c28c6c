/* The screen's modes and their one table of transitions (tui/mode.h). */
#include "tui/mode.h"

#include "tui/keys.h"

#define PICK GT_SCREEN_PICKER
#define PICK_H GT_SCREEN_PICKER_HELP
#define DASH GT_SCREEN_DASHBOARD
#define DASH_H GT_SCREEN_DASHBOARD_HELP
#define FIND GT_SCREEN_FINDINGS
#define STACK GT_SCREEN_STACKS
#define CENS GT_SCREEN_CENSUS

/* The screen after each of the events that move it (GT_MODE_OPEN to
 * GT_MODE_BACK). The help keeps what it covers when a dashboard opens or
 * closes under it; the findings and the stacks are the dashboard's figures
 * and close with it. f from the help shows the findings of a dashboard,
 * and closes the help over the picker, which has none. The census opens
 * when one is taken, over whatever overlay shows, or by c in an overlay. */
static const enum gt_screen_mode screen_after[GT_SCREEN_MODE_COUNT][GT_MODE_BACK + 1] = {
	/*          OPEN    CLOSE   HELP    FINDINGS STACKS CENSUS BACK */
	[PICK]   = { DASH,   PICK,   PICK_H, PICK,   PICK,   PICK,  PICK },
	[PICK_H] = { DASH_H, PICK_H, PICK,   PICK,   PICK_H, PICK,  PICK },
	[DASH]   = { DASH,   PICK,   DASH_H, FIND,   STACK,  CENS,  DASH },
	[DASH_H] = { DASH_H, PICK_H, DASH,   FIND,   DASH_H, CENS,  DASH },
	[FIND]   = { FIND,   PICK,   DASH,   DASH,   FIND,   CENS,  DASH },
	[STACK]  = { STACK,  PICK,   DASH,   FIND,   STACK,  CENS,  DASH },
	[CENS]   = { CENS,   PICK,   DASH,   FIND,   CENS,   DASH,  DASH },
};

/* The input mode each question or prompt asks for (GT_MODE_ASK_*). */
static const enum gt_input_mode input_asked[GT_MODE_EVENT_COUNT] = {
	[GT_MODE_ASK_INTERVAL] = GT_INPUT_INTERVAL,
	[GT_MODE_ASK_SAMPLE] = GT_INPUT_SAMPLE,
	[GT_MODE_ASK_FILTER] = GT_INPUT_FILTER,
	[GT_MODE_ASK_START] = GT_INPUT_CONFIRM_START,
	[GT_MODE_ASK_STOP] = GT_INPUT_CONFIRM_STOP,
	[GT_MODE_ASK_CENSUS] = GT_INPUT_CONFIRM_CENSUS,
};

/* Where a prompt or question belongs: none under an overlay, the filter on
 * the picker, a replay's sample and the allocators' questions on the
 * dashboard, the interval on either. */
static bool input_fits(enum gt_input_mode in, enum gt_screen_mode s)
{
	switch (in) {
	case GT_INPUT_KEYS: return true;
	case GT_INPUT_INTERVAL: return s == PICK || s == DASH;
	case GT_INPUT_FILTER: return s == PICK;
	case GT_INPUT_SAMPLE: case GT_INPUT_CONFIRM_START: case GT_INPUT_CONFIRM_STOP: case GT_INPUT_CONFIRM_CENSUS:
		return s == DASH;
	default: return false;
	}
}

bool gt_mode_valid(struct gt_modes m)
{
	return (unsigned)m.screen < GT_SCREEN_MODE_COUNT && (unsigned)m.input < GT_INPUT_MODE_COUNT &&
	       input_fits(m.input, m.screen);
}

struct gt_modes gt_mode_after(struct gt_modes m, enum gt_mode_event e)
{
	if (!gt_mode_valid(m) || (unsigned)e >= GT_MODE_EVENT_COUNT)
		return m;
	if (e == GT_MODE_ANSWERED) {
		m.input = GT_INPUT_KEYS;
		return m;
	}
	if (e >= GT_MODE_ASK_INTERVAL) {
		/* Asked by a key, which a prompt already open would have taken. */
		struct gt_modes asked = { m.screen, input_asked[e] };
		return m.input == GT_INPUT_KEYS && input_fits(asked.input, asked.screen) ? asked : m;
	}
	/* A key that moves the screen goes to the prompt while one is open;
	 * a dashboard opens or closes whatever the keys do. */
	if (e != GT_MODE_OPEN && e != GT_MODE_CLOSE && m.input != GT_INPUT_KEYS)
		return m;
	m.screen = screen_after[m.screen][e];
	if (!input_fits(m.input, m.screen))
		m.input = GT_INPUT_KEYS;
	return m;
}

bool gt_mode_in_dashboard(enum gt_screen_mode s)
{
	return s == DASH || s == DASH_H || s == FIND || s == STACK || s == CENS;
}

bool gt_mode_overlay(enum gt_screen_mode s)
{
	return s == PICK_H || s == DASH_H || s == FIND || s == STACK || s == CENS;
}

unsigned gt_mode_key_context(enum gt_screen_mode s)
{
	return gt_mode_overlay(s) ? GT_KEYS_HELP : gt_mode_in_dashboard(s) ? GT_KEYS_DASHBOARD : GT_KEYS_PICKER;
}
