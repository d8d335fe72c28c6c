#include "tui/keys.h"

#include <ncurses.h>

#define D GT_KEYS_DASHBOARD
#define P GT_KEYS_PICKER
#define H GT_KEYS_HELP

/* Habits of top and htop: q quits, space refreshes, d sets the delay. */
const struct gt_key_binding gt_key_table[] = {
	{ 'q', 'q', "q", GT_ACT_QUIT, D | P | H, "quit (from a process opened in the picker: back to the picker)" },
	{ 27, 27, "Esc", GT_ACT_BACK, D | H, "back to the picker; close help; cancel a wait (a runtime still starting, sampling being turned on)" },
	{ 'h', 'h', "h", GT_ACT_HELP, D | P | H, "this help" },
	{ '?', '?', "?", GT_ACT_HELP, D | P | H, "this help" },
	{ ' ', ' ', "space", GT_ACT_REFRESH, D | P, "sample now (replay: play or pause, one sample an interval)" },
	{ 't', 't', "t", GT_ACT_STEP_NEXT, D, "replay (gctop -r): the next sample" },
	{ 'T', 'T', "T", GT_ACT_STEP_BACK, D, "replay: the sample before" },
	{ 'r', 'r', "r", GT_ACT_REWIND, D, "replay: back to the first interval" },
	{ 'b', 'b', "b", GT_ACT_BRANCH, D, "replay: jump to sample N (prompts; a number past the end goes to the last)" },
	{ 'd', 'd', "d", GT_ACT_INTERVAL, D | P, "set the interval (0.1 s to 1 h: 0.5, 1.5s, 5m, 0.5h)" },
	{ '+', '+', "+", GT_ACT_SLOWER, D | P, "longer interval" },
	{ '=', '=', "=", GT_ACT_SLOWER, D | P, "longer interval (+ without shift)" },
	{ '-', '-', "-", GT_ACT_FASTER, D | P, "shorter interval" },
	{ 'p', 'p', "p", GT_ACT_FREEZE, D, "freeze the display (sampling goes on); again to thaw" },
	{ KEY_UP, KEY_UP, "Up", GT_ACT_UP, D | P | H, "previous row (dashboard: scroll the focused pane; in the top allocators, the site above)" },
	{ KEY_DOWN, KEY_DOWN, "Down", GT_ACT_DOWN, D | P | H, "next row (dashboard: scroll the focused pane; in the top allocators, the site below)" },
	{ KEY_PPAGE, KEY_PPAGE, "PgUp", GT_ACT_PAGE_UP, D | P | H, "a page up" },
	{ KEY_NPAGE, KEY_NPAGE, "PgDn", GT_ACT_PAGE_DOWN, D | P | H, "a page down" },
	{ KEY_HOME, KEY_HOME, "Home", GT_ACT_HOME, P | H, "first row" },
	{ KEY_END, KEY_END, "End", GT_ACT_END, P | H, "last row" },
	{ 's', 's', "s", GT_ACT_SORT, P, "next sort column (alloc rate, GC%, heap, RSS, PID)" },
	{ '/', '/', "/", GT_ACT_FILTER, P, "filter the list (\\ too, as in htop) by PID, user, program, command line, runtime or collector (any case, as typed); Enter keeps it, Esc clears it" },
	{ '\\', '\\', "\\", GT_ACT_FILTER, P, NULL },
	{ '\t', '\t', "Tab", GT_ACT_FOCUS_NEXT, D, "focus the next pane" },
	/* 9 too, so that it says there is no pane 9 rather than nothing */
	{ '1', '9', "1-8", GT_ACT_TOGGLE_PANE, D, "show or hide pane N" },
	{ '\n', '\n', "Enter", GT_ACT_OPEN, P, "open the selected process" },
	{ '\r', '\r', "Enter", GT_ACT_OPEN, P, NULL },
	{ KEY_ENTER, KEY_ENTER, "Enter", GT_ACT_OPEN, P, NULL },
	{ '\n', '\n', "Enter", GT_ACT_STACKS, D, "in the focused top-allocators pane: the top stacks behind the marked site, with their shares; Esc closes" },
	{ '\r', '\r', "Enter", GT_ACT_STACKS, D, NULL },
	{ KEY_ENTER, KEY_ENTER, "Enter", GT_ACT_STACKS, D, NULL },
	{ 'a', 'a', "a", GT_ACT_ALLOCATORS, D, "top allocators: sample allocations (asks y/N first where that loads code into the target); again to stop" },
	{ 'c', 'c', "c", GT_ACT_CENSUS, D | H, "census of the live objects by type, and what grew since the last one (asks y/N with its cost first); in an overlay: the census, or close it" },
	{ 'f', 'f', "f", GT_ACT_FINDINGS, D | H, "findings: what the figures mean, each with its evidence and a next step; again to close" },
	{ 12, 12, "Ctrl-L", GT_ACT_REDRAW, D | P | H, "repaint the whole screen" },
};

const size_t gt_key_table_len = sizeof(gt_key_table) / sizeof(gt_key_table[0]);

const struct gt_key_binding *gt_keys_lookup(int key, unsigned where)
{
	for (size_t i = 0; i < gt_key_table_len; i++) {
		const struct gt_key_binding *b = &gt_key_table[i];
		if (key >= b->key && key <= b->key_last && (b->where & where))
			return b;
	}
	return NULL;
}
