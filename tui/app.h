/* The state of the full-screen view, shared by the loop (tui/loop.c: the
 * wait), the keys (tui/keys_*.c), the drawing (tui/draw.c,
 * tui/footer.c), the dashboard's session handling (tui/app_session.c)
 * and the replay (tui/app_replay.c). What they all use is here and in
 * tui/app.c: the modes, the footer's note, the interval. */
#ifndef GCTOP_TUI_APP_H
#define GCTOP_TUI_APP_H

#include <ncurses.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "tui/picker.h"
#include "session/session.h"
#include "tui/keys.h"
#include "tui/mode.h"
#include "record/record_writer.h"
#include "tui/dashboard.h"
#include "record/replay.h"
#include "tui/theme.h"

struct gt_app {
	struct gt_theme theme;
	uint64_t interval_ns;

	/* What shows and what keys mean; changed only by gt_app_mode. */
	struct gt_modes modes;
	/* Started without -p: q and Esc on a dashboard go back to the
	 * picker. A fact about the run, not a mode: set before the screen and
	 * never changed, it says where those keys lead, not which screen
	 * shows or which keys it reads. */
	bool picker_mode;
	struct gt_picker picker;
	struct gt_session session;  /* the target the dashboard shows */
	struct gt_dashboard db;

	int help_first;            /* the overlay's first line shown */
	char prompt_buf[64];       /* the prompt's text (GT_INPUT_INTERVAL, _SAMPLE, _FILTER) */
	bool allocators_at_open;   /* --allocators: the user agreed on the command line */
	const char *allocator_packages;
	const char *allocator_source;   /* --allocators=SOURCE, NULL: the runtime's choice */
	const char *opcount_counter; /* --ops NAME, or NULL */
	char note[640];            /* a one-off message for the footer: room for a prefix and an error sentence */
	uint64_t note_until;       /* when the note goes (CLOCK_MONOTONIC) */

	WINDOW *body;              /* the screen above the footer, for picker and help */
	bool quit;
	bool dirty;
	uint64_t busy_since;       /* when the session's job began */
	uint64_t census_since;     /* when the census under way began (session/session_census.h) */
	bool census_unseen;        /* a census came while a question was open: c shows it */
	struct gt_recorder *recorder; /* -w FILE, or NULL */
	/* -r FILE, or NULL: the dashboard shows a recording. Like picker_mode
	 * a fact about the run (set before the screen, kept to the end): it
	 * says where the figures come from and what t, T, r, b and space do,
	 * not which screen shows or which keys it reads. */
	struct gt_replay *replay;
	int status;                /* the exit status (a target that could not be opened) */
	struct gt_error *err;      /* its sentence, for main to print after the screen */
};

/* Whether allocation sampling loads code into the target (a JVM gets
 * gctop's agent; .NET samples through a second EventPipe session and loads
 * nothing): then it is asked y/N first (model/runtime.h). */
/* The question before a source that loads no code but changes the target
 * (a flight recording), or NULL: the default source's, unless the user
 * named one (--allocators=SOURCE). */
static inline const char *gt_app_source_question(const struct gt_app *a)
{
	return !a->allocator_source && a->session.info.alloc_question[0] ? a->session.info.alloc_question : NULL;
}

static inline bool gt_app_loads_code(const struct gt_app *a)
{
	return a->session.info.runtime && a->session.info.runtime->allocators_load_code && !gt_app_source_question(a);
}

/* What stopping allocation sampling does in the target, or NULL. */
static inline const char *gt_app_allocators_stop(const struct gt_app *a)
{
	if (gt_app_source_question(a) && a->session.info.alloc_stopped[0])
		return a->session.info.alloc_stopped;
	return a->session.info.runtime ? a->session.info.runtime->allocators_stop : NULL;
}

/* A process's dashboard is open (under an overlay or not). */
static inline bool gt_app_in_dashboard(const struct gt_app *a)
{
	return gt_mode_in_dashboard(a->modes.screen);
}

/* tui/app.c */
/* The modes after event e (tui/mode.h's table). */
void gt_app_mode(struct gt_app *a, enum gt_mode_event e);
/* The footer's one-off message; it goes after a few seconds. */
__attribute__((format(printf, 2, 3)))
void gt_app_note(struct gt_app *a, const char *fmt, ...);
/* What is sampled now: the dashboard's session, or the picker's rows. */
struct gt_schedule *gt_app_schedule(struct gt_app *a);
/* The new interval, from now on, said on the footer. */
void gt_app_set_interval(struct gt_app *a, uint64_t ns);

#endif
