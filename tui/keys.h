/* Every key gctop knows, in one table: the screen's loop looks keys up here
 * and the help pane is printed from it, so the two cannot disagree. */
#ifndef GCTOP_TUI_KEYS_H
#define GCTOP_TUI_KEYS_H

#include <stddef.h>

enum gt_action {
	GT_ACT_NONE = 0,
	GT_ACT_QUIT,          /* leave this screen: back to the picker, or exit */
	GT_ACT_BACK,          /* Esc: back to the picker or out of help */
	GT_ACT_HELP,
	GT_ACT_REFRESH,
	GT_ACT_INTERVAL,      /* prompt for a new interval */
	GT_ACT_FILTER,        /* prompt for the picker's filter */
	GT_ACT_SLOWER,
	GT_ACT_FASTER,
	GT_ACT_FREEZE,
	GT_ACT_UP,
	GT_ACT_DOWN,
	GT_ACT_PAGE_UP,
	GT_ACT_PAGE_DOWN,
	GT_ACT_HOME,
	GT_ACT_END,
	GT_ACT_SORT,
	GT_ACT_FOCUS_NEXT,
	GT_ACT_TOGGLE_PANE,   /* keys '1'..'9': pane key - '1' */
	GT_ACT_OPEN,
	GT_ACT_ALLOCATORS,
	GT_ACT_REDRAW,
	GT_ACT_STEP_NEXT,     /* replay (-r): the next sample */
	GT_ACT_STEP_BACK,     /* replay: the sample before */
	GT_ACT_REWIND,        /* replay: back to the first interval */
	GT_ACT_BRANCH,        /* replay: prompt for a sample to jump to */
	GT_ACT_FINDINGS,      /* the findings overlay */
	GT_ACT_STACKS,        /* the stacks behind the selected allocation site */
	GT_ACT_CENSUS,        /* a census of the live objects (asks y/N), or its overlay */
};

/* Where a key applies. */
enum {
	GT_KEYS_DASHBOARD = 1,
	GT_KEYS_PICKER = 2,
	GT_KEYS_HELP = 4,
};

struct gt_key_binding {
	int key, key_last;    /* a range, e.g. '1'..'9'; key_last == key for one key */
	const char *name;     /* as the help screen shows it */
	enum gt_action action;
	unsigned where;
	const char *help;
};

extern const struct gt_key_binding gt_key_table[];
extern const size_t gt_key_table_len;

/* The binding of key in the context, or NULL. */
const struct gt_key_binding *gt_keys_lookup(int key, unsigned where);

#endif
