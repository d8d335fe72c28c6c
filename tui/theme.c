#include "tui/theme.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

enum {
	PAIR_TITLE = 1,
	PAIR_GOOD,
	PAIR_WARN,
	PAIR_CRIT,
	PAIR_NA,
	PAIR_SPARK,
	PAIR_USED,
	PAIR_COMMITTED,
	PAIR_RSS,
	PAIR_CGROUP,
	PAIR_LIMIT,
	PAIR_LABEL,
};

void gt_theme_mono(struct gt_theme *t, bool utf8)
{
	memset(t, 0, sizeof(*t));
	t->utf8 = utf8;
	t->title = A_BOLD;
	t->title_focus = A_BOLD | A_REVERSE;
	t->label = A_NORMAL;
	t->value = A_BOLD;
	t->na = A_DIM;
	t->good = A_NORMAL;
	t->warn = A_BOLD;
	t->crit = A_BOLD | A_UNDERLINE;
	t->spark = A_NORMAL;
	t->bar_used = A_BOLD;
	t->bar_committed = A_NORMAL;
	t->bar_rss = A_NORMAL;
	t->bar_cgroup = A_DIM;
	t->bar_free = A_DIM;
	t->bar_limit = A_BOLD;
}

void gt_theme_init(struct gt_theme *t, bool no_color)
{
	const char *nc = getenv("NO_COLOR");
	const char *cs = nl_langinfo(CODESET);

	gt_theme_mono(t, cs && strcmp(cs, "UTF-8") == 0);
	if (no_color || (nc && *nc) || !has_colors() || start_color() == ERR)
		return;
	/* The terminal's own background, so light themes stay readable. */
	short bg = use_default_colors() == OK ? -1 : COLOR_BLACK;
	bool rich = COLORS >= 256;
	init_pair(PAIR_TITLE, rich ? 39 : COLOR_CYAN, bg);
	init_pair(PAIR_GOOD, rich ? 76 : COLOR_GREEN, bg);
	init_pair(PAIR_WARN, rich ? 214 : COLOR_YELLOW, bg);
	init_pair(PAIR_CRIT, rich ? 196 : COLOR_RED, bg);
	init_pair(PAIR_NA, rich ? 244 : COLOR_BLUE, bg);
	init_pair(PAIR_SPARK, rich ? 80 : COLOR_CYAN, bg);
	init_pair(PAIR_USED, rich ? 70 : COLOR_GREEN, bg);
	init_pair(PAIR_COMMITTED, rich ? 37 : COLOR_CYAN, bg);
	init_pair(PAIR_RSS, rich ? 178 : COLOR_YELLOW, bg);
	init_pair(PAIR_CGROUP, rich ? 133 : COLOR_MAGENTA, bg);
	init_pair(PAIR_LIMIT, rich ? 196 : COLOR_RED, bg);
	init_pair(PAIR_LABEL, rich ? 250 : COLOR_WHITE, bg);
	t->color = true;
	t->title = COLOR_PAIR(PAIR_TITLE) | A_BOLD;
	t->title_focus = COLOR_PAIR(PAIR_TITLE) | A_BOLD | A_REVERSE;
	t->label = rich ? COLOR_PAIR(PAIR_LABEL) : A_NORMAL;
	t->na = COLOR_PAIR(PAIR_NA);
	t->good = COLOR_PAIR(PAIR_GOOD);
	t->warn = COLOR_PAIR(PAIR_WARN);
	t->crit = COLOR_PAIR(PAIR_CRIT);
	t->spark = COLOR_PAIR(PAIR_SPARK);
	t->bar_used = COLOR_PAIR(PAIR_USED);
	t->bar_committed = COLOR_PAIR(PAIR_COMMITTED);
	t->bar_rss = COLOR_PAIR(PAIR_RSS);
	t->bar_cgroup = COLOR_PAIR(PAIR_CGROUP);
	t->bar_free = COLOR_PAIR(PAIR_NA);
	t->bar_limit = COLOR_PAIR(PAIR_LIMIT) | A_BOLD;
}
