/* The screen's modes: what it shows (the screen mode) and what a key means
 * (the input mode), and every way they change, in one table. Pure: no
 * ncurses, no app, so tests/unit/test_screen_mode.c walks the whole table.
 *
 * An overlay names what it covers, and a prompt or question the screen it
 * belongs to, so that what cannot happen cannot be written down either:
 * findings without a dashboard, a prompt under the help, the agent's
 * question over the picker. */
#ifndef GCTOP_TUI_MODE_H
#define GCTOP_TUI_MODE_H

#include <stdbool.h>

enum gt_screen_mode {
	GT_SCREEN_PICKER = 0,       /* the list of processes (gctop without -p) */
	GT_SCREEN_PICKER_HELP,      /* the help over the list */
	GT_SCREEN_DASHBOARD,        /* one process's panes (also while it opens) */
	GT_SCREEN_DASHBOARD_HELP,   /* the help over them */
	GT_SCREEN_FINDINGS,         /* the findings of the figures shown (f) */
	GT_SCREEN_STACKS,           /* the stacks behind the marked site (Enter) */
	GT_SCREEN_CENSUS,           /* the census of the live objects and its change (c) */
	GT_SCREEN_MODE_COUNT
};

enum gt_input_mode {
	GT_INPUT_KEYS = 0,          /* keys mean what the key table says on this screen */
	GT_INPUT_INTERVAL,          /* the footer asks for the interval (d) */
	GT_INPUT_SAMPLE,            /* for a replay's sample to jump to (b) */
	GT_INPUT_FILTER,            /* edits the picker's filter (/) */
	GT_INPUT_CONFIRM_START,     /* y/N: load the agent and sample allocations (a) */
	GT_INPUT_CONFIRM_STOP,      /* y/N: stop allocation sampling (a) */
	GT_INPUT_CONFIRM_CENSUS,    /* y/N: take a census, at the cost the runtime states (c) */
	GT_INPUT_MODE_COUNT
};

struct gt_modes {
	enum gt_screen_mode screen;
	enum gt_input_mode input;
};

/* What changes the modes: a key, or a dashboard that opens or closes. */
enum gt_mode_event {
	GT_MODE_OPEN = 0,           /* a process's dashboard opens */
	GT_MODE_CLOSE,              /* back to the picker (a key, or an open that failed) */
	GT_MODE_HELP,               /* h or ?: the help; in an overlay it closes it */
	GT_MODE_FINDINGS,           /* f: the findings; from the help too; again to close */
	GT_MODE_STACKS,             /* Enter on an allocation site */
	GT_MODE_CENSUS,             /* a census was taken (or c in an overlay): the census; again to close */
	GT_MODE_BACK,               /* q or Esc in an overlay: it closes */
	GT_MODE_ASK_INTERVAL,
	GT_MODE_ASK_SAMPLE,
	GT_MODE_ASK_FILTER,
	GT_MODE_ASK_START,
	GT_MODE_ASK_STOP,
	GT_MODE_ASK_CENSUS,
	GT_MODE_ANSWERED,           /* the prompt or the question ended */
	GT_MODE_EVENT_COUNT
};

/* The modes after event e; an event that means nothing in m leaves it. */
struct gt_modes gt_mode_after(struct gt_modes m, enum gt_mode_event e);
/* m is a combination the screen can be in. */
bool gt_mode_valid(struct gt_modes m);

/* A process's dashboard is open (under an overlay or not). */
bool gt_mode_in_dashboard(enum gt_screen_mode s);
/* The help, the findings, the stacks or the census cover the screen. */
bool gt_mode_overlay(enum gt_screen_mode s);
/* Where the key table is looked up (tui/keys.h's GT_KEYS_*). */
unsigned gt_mode_key_context(enum gt_screen_mode s);

#endif
