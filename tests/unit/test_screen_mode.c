/* The screen's modes (tui/mode.h): every key and event that changes what
 * shows or what keys mean, checked against what the screen did when these
 * were ten booleans, and the table walked whole: no event leads from a
 * combination the screen can be in to one it cannot. */
#include <stdbool.h>
#include <stddef.h>

#include "tests/unit/check.h"
#include "tui/keys.h"
#include "tui/mode.h"

static struct gt_modes at(enum gt_screen_mode s, enum gt_input_mode in)
{
	return (struct gt_modes){ s, in };
}

static struct gt_modes on(enum gt_screen_mode s)
{
	return at(s, GT_INPUT_KEYS);
}

#define CHECK_MODES(m, s, in) do { struct gt_modes m_ = (m); \
	CHECK_U64(m_.screen, s); CHECK_U64(m_.input, in); } while (0)

/* Where each event takes each screen, without a prompt open: what the
 * screen did when these were booleans, but for the findings and the stacks
 * on a close (they drew the closed dashboard, and gctop crashed). */
static const struct move {
	enum gt_screen_mode from;
	enum gt_mode_event e;
	enum gt_screen_mode to;
} screen_moves[] = {
	/* h or ? opens the help over the picker or the dashboard; h, q or Esc
	 * closes it, and the findings and the stacks too */
	{ GT_SCREEN_PICKER, GT_MODE_HELP, GT_SCREEN_PICKER_HELP },
	{ GT_SCREEN_DASHBOARD, GT_MODE_HELP, GT_SCREEN_DASHBOARD_HELP },
	{ GT_SCREEN_PICKER_HELP, GT_MODE_HELP, GT_SCREEN_PICKER },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_HELP, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_FINDINGS, GT_MODE_HELP, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_STACKS, GT_MODE_HELP, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_PICKER_HELP, GT_MODE_BACK, GT_SCREEN_PICKER },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_BACK, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_FINDINGS, GT_MODE_BACK, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_STACKS, GT_MODE_BACK, GT_SCREEN_DASHBOARD },
	/* q and Esc outside an overlay are the screen's own keys */
	{ GT_SCREEN_DASHBOARD, GT_MODE_BACK, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_PICKER, GT_MODE_BACK, GT_SCREEN_PICKER },
	/* f: the findings of a dashboard, from it or from its help; again, or
	 * from the help over the picker (which has none), closes */
	{ GT_SCREEN_DASHBOARD, GT_MODE_FINDINGS, GT_SCREEN_FINDINGS },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_FINDINGS, GT_SCREEN_FINDINGS },
	{ GT_SCREEN_STACKS, GT_MODE_FINDINGS, GT_SCREEN_FINDINGS },
	{ GT_SCREEN_FINDINGS, GT_MODE_FINDINGS, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_PICKER_HELP, GT_MODE_FINDINGS, GT_SCREEN_PICKER },
	{ GT_SCREEN_PICKER, GT_MODE_FINDINGS, GT_SCREEN_PICKER },
	/* Enter: a site's stacks, from the dashboard only */
	{ GT_SCREEN_DASHBOARD, GT_MODE_STACKS, GT_SCREEN_STACKS },
	{ GT_SCREEN_PICKER, GT_MODE_STACKS, GT_SCREEN_PICKER },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_STACKS, GT_SCREEN_DASHBOARD_HELP },
	/* a dashboard opens from the picker and closes back to it; the help
	 * stays over whichever shows, the findings and the stacks close with
	 * their dashboard */
	{ GT_SCREEN_PICKER, GT_MODE_OPEN, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_DASHBOARD, GT_MODE_CLOSE, GT_SCREEN_PICKER },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_CLOSE, GT_SCREEN_PICKER_HELP },
	{ GT_SCREEN_PICKER_HELP, GT_MODE_OPEN, GT_SCREEN_DASHBOARD_HELP },
	{ GT_SCREEN_FINDINGS, GT_MODE_CLOSE, GT_SCREEN_PICKER },
	{ GT_SCREEN_STACKS, GT_MODE_CLOSE, GT_SCREEN_PICKER },
	{ GT_SCREEN_PICKER, GT_MODE_CLOSE, GT_SCREEN_PICKER },
	/* the census: when one is taken, over the dashboard or any of its
	 * overlays; c in it closes it; it closes with its dashboard; the
	 * picker has none (c in its help closes the help) */
	{ GT_SCREEN_DASHBOARD, GT_MODE_CENSUS, GT_SCREEN_CENSUS },
	{ GT_SCREEN_DASHBOARD_HELP, GT_MODE_CENSUS, GT_SCREEN_CENSUS },
	{ GT_SCREEN_FINDINGS, GT_MODE_CENSUS, GT_SCREEN_CENSUS },
	{ GT_SCREEN_STACKS, GT_MODE_CENSUS, GT_SCREEN_CENSUS },
	{ GT_SCREEN_CENSUS, GT_MODE_CENSUS, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_CENSUS, GT_MODE_BACK, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_CENSUS, GT_MODE_HELP, GT_SCREEN_DASHBOARD },
	{ GT_SCREEN_CENSUS, GT_MODE_FINDINGS, GT_SCREEN_FINDINGS },
	{ GT_SCREEN_CENSUS, GT_MODE_CLOSE, GT_SCREEN_PICKER },
	{ GT_SCREEN_PICKER, GT_MODE_CENSUS, GT_SCREEN_PICKER },
	{ GT_SCREEN_PICKER_HELP, GT_MODE_CENSUS, GT_SCREEN_PICKER },
};

static void test_screen_moves(void)
{
	for (size_t i = 0; i < sizeof(screen_moves) / sizeof(screen_moves[0]); i++) {
		const struct move *m = &screen_moves[i];
		struct gt_modes after = gt_mode_after(on(m->from), m->e);
		if (after.screen != m->to || after.input != GT_INPUT_KEYS)
			check_fail(__FILE__, __LINE__, "screen %d, event %d: screen %d input %d, expected screen %d",
				   m->from, m->e, after.screen, after.input, m->to);
	}
}

/* The interval's prompt stays when an open fails under it (d while a
 * runtime starts); the dashboard's own questions go with it. */
static void test_close_under_prompt(void)
{
	CHECK_MODES(gt_mode_after(at(GT_SCREEN_DASHBOARD, GT_INPUT_INTERVAL), GT_MODE_CLOSE), GT_SCREEN_PICKER,
		    GT_INPUT_INTERVAL);
	CHECK_MODES(gt_mode_after(at(GT_SCREEN_DASHBOARD, GT_INPUT_CONFIRM_START), GT_MODE_CLOSE), GT_SCREEN_PICKER,
		    GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(at(GT_SCREEN_DASHBOARD, GT_INPUT_SAMPLE), GT_MODE_CLOSE), GT_SCREEN_PICKER,
		    GT_INPUT_KEYS);
}

/* Each prompt and question where its key is: the interval on either
 * screen, the filter on the picker, the sample and y/N on the dashboard;
 * none under an overlay, none over another; any answer ends it. */
static void test_prompts(void)
{
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_PICKER), GT_MODE_ASK_INTERVAL), GT_SCREEN_PICKER, GT_INPUT_INTERVAL);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_INTERVAL), GT_SCREEN_DASHBOARD, GT_INPUT_INTERVAL);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_PICKER), GT_MODE_ASK_FILTER), GT_SCREEN_PICKER, GT_INPUT_FILTER);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_SAMPLE), GT_SCREEN_DASHBOARD, GT_INPUT_SAMPLE);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_START), GT_SCREEN_DASHBOARD,
		    GT_INPUT_CONFIRM_START);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_STOP), GT_SCREEN_DASHBOARD,
		    GT_INPUT_CONFIRM_STOP);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_CENSUS), GT_SCREEN_DASHBOARD,
		    GT_INPUT_CONFIRM_CENSUS);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_CENSUS), GT_MODE_ASK_CENSUS), GT_SCREEN_CENSUS, GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_ASK_FILTER), GT_SCREEN_DASHBOARD, GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_PICKER), GT_MODE_ASK_START), GT_SCREEN_PICKER, GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD_HELP), GT_MODE_ASK_INTERVAL), GT_SCREEN_DASHBOARD_HELP,
		    GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(at(GT_SCREEN_DASHBOARD, GT_INPUT_SAMPLE), GT_MODE_ASK_INTERVAL), GT_SCREEN_DASHBOARD,
		    GT_INPUT_SAMPLE);
	for (int in = GT_INPUT_INTERVAL; in < GT_INPUT_MODE_COUNT; in++) {
		enum gt_screen_mode s = in == GT_INPUT_FILTER ? GT_SCREEN_PICKER : GT_SCREEN_DASHBOARD;
		CHECK_MODES(gt_mode_after(at(s, (enum gt_input_mode)in), GT_MODE_ANSWERED), s, GT_INPUT_KEYS);
		/* while it asks, h, f, Enter, q and Esc are its keys */
		for (int e = GT_MODE_HELP; e <= GT_MODE_BACK; e++)
			CHECK_MODES(gt_mode_after(at(s, (enum gt_input_mode)in), (enum gt_mode_event)e), s, in);
	}
}

/* What cannot happen cannot be written down. */
static void test_impossible(void)
{
	CHECK(!gt_mode_valid(at(GT_SCREEN_PICKER, GT_INPUT_CONFIRM_START)));
	CHECK(!gt_mode_valid(at(GT_SCREEN_PICKER, GT_INPUT_SAMPLE)));
	CHECK(!gt_mode_valid(at(GT_SCREEN_DASHBOARD, GT_INPUT_FILTER)));
	CHECK(!gt_mode_valid(at(GT_SCREEN_FINDINGS, GT_INPUT_INTERVAL)));
	CHECK(!gt_mode_valid(at(GT_SCREEN_PICKER_HELP, GT_INPUT_FILTER)));
	CHECK(!gt_mode_valid(at(GT_SCREEN_MODE_COUNT, GT_INPUT_KEYS)));
	CHECK(gt_mode_valid(at(GT_SCREEN_PICKER, GT_INPUT_FILTER)));
	/* an out-of-range event or mode is left as it is */
	CHECK_MODES(gt_mode_after(on(GT_SCREEN_DASHBOARD), GT_MODE_EVENT_COUNT), GT_SCREEN_DASHBOARD, GT_INPUT_KEYS);
	CHECK_MODES(gt_mode_after(at(GT_SCREEN_MODE_COUNT, GT_INPUT_KEYS), GT_MODE_OPEN), GT_SCREEN_MODE_COUNT,
		    GT_INPUT_KEYS);
}

/* Every event from every combination the screen can be in leads to one
 * it can be in; and there are as many such as the screens and prompts
 * allow: every screen without a prompt, the interval and the filter on the
 * picker, and 5 dashboard-only inputs. */
static void test_table_closed(void)
{
	int valid = 0;
	for (int s = 0; s < GT_SCREEN_MODE_COUNT; s++)
		for (int in = 0; in < GT_INPUT_MODE_COUNT; in++) {
			struct gt_modes m = at((enum gt_screen_mode)s, (enum gt_input_mode)in);
			if (!gt_mode_valid(m))
				continue;
			valid++;
			for (int e = 0; e < GT_MODE_EVENT_COUNT; e++)
				if (!gt_mode_valid(gt_mode_after(m, (enum gt_mode_event)e)))
					check_fail(__FILE__, __LINE__, "screen %d input %d event %d: invalid after", s, in, e);
		}
	CHECK_U64(valid, GT_SCREEN_MODE_COUNT + 1 + 1 + 5);
}

/* The key table's context: an overlay's keys, else the screen's. */
static void test_key_context(void)
{
	CHECK_U64(gt_mode_key_context(GT_SCREEN_PICKER), GT_KEYS_PICKER);
	CHECK_U64(gt_mode_key_context(GT_SCREEN_DASHBOARD), GT_KEYS_DASHBOARD);
	for (int s = 0; s < GT_SCREEN_MODE_COUNT; s++)
		if (gt_mode_overlay((enum gt_screen_mode)s))
			CHECK_U64(gt_mode_key_context((enum gt_screen_mode)s), GT_KEYS_HELP);
	CHECK(gt_mode_in_dashboard(GT_SCREEN_FINDINGS) && gt_mode_in_dashboard(GT_SCREEN_STACKS));
	CHECK(gt_mode_in_dashboard(GT_SCREEN_CENSUS) && gt_mode_overlay(GT_SCREEN_CENSUS));
	CHECK(!gt_mode_in_dashboard(GT_SCREEN_PICKER_HELP));
}

int main(void)
{
	RUN_TEST(test_screen_moves);
	RUN_TEST(test_close_under_prompt);
	RUN_TEST(test_prompts);
	RUN_TEST(test_impossible);
	RUN_TEST(test_table_closed);
	RUN_TEST(test_key_context);
	return check_summary();
}
