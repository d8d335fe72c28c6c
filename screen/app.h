/* The state of the full-screen view, shared by the loop (screen/loop.c: keys,
 * drawing, the wait) and the dashboard's session handling
 * (screen/app_session.c: opening a target, allocation sampling, their jobs). */
#ifndef GCTOP_SCREEN_APP_H
#define GCTOP_SCREEN_APP_H

#include <ncurses.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "session/job.h"
#include "screen/picker.h"
#include "session/session.h"
#include "screen/keys.h"
#include "record/record_writer.h"
#include "screen/dashboard.h"
#include "record/replay.h"
#include "screen/theme.h"

struct gt_app {
	struct gt_theme theme;
	uint64_t interval_ns;

	bool picker_mode;          /* started without -p */
	struct gt_picker picker;
	bool in_dashboard;
	struct gt_session session;  /* the target the dashboard shows */
	struct gt_dashboard db;

	bool help;
	bool findings;             /* the help overlay shows the findings instead (key f) */
	bool stacks;               /* the help overlay shows a site's stacks instead (Enter) */
	int help_first;
	bool prompt;
	bool prompt_sample;        /* the prompt asks for a replay's sample (b), not the interval (d) */
	bool prompt_filter;        /* the prompt edits the picker's filter (/) */
	char prompt_buf[64];
	/* A y/N question on the footer; any other key than y is no. */
	enum { CONFIRM_NONE, CONFIRM_ALLOC_START, CONFIRM_ALLOC_STOP } confirm;
	bool allocators_at_open;   /* --allocators: the user agreed on the command line */
	const char *allocator_packages;
	const char *ops_counter;   /* --ops NAME, or NULL */
	char note[640];            /* a one-off message for the footer: room for a prefix and an error sentence */
	uint64_t note_until;       /* when the note goes (CLOCK_MONOTONIC) */

	WINDOW *body;              /* the screen above the footer, for picker and help */
	bool quit;
	bool dirty;
	uint64_t busy_since;       /* when the session's job began */
	struct gt_recorder *recorder; /* -w FILE, or NULL */
	struct gt_replay *replay;  /* -r FILE, or NULL: the dashboard shows a recording */
	int status;                /* the exit status (a target that could not be opened) */
	struct gt_error *err;      /* its sentence, for main to print after the screen */
};

/* Whether allocation sampling loads code into the target (a JVM gets
 * gctop's agent; .NET samples through a second EventPipe session and loads
 * nothing): then it is asked y/N first (model/runtime.h). */
static inline bool gt_app_loads_code(const struct gt_app *a)
{
	return a->session.info.runtime && a->session.info.runtime->allocators_load_code;
}

/* What stopping allocation sampling does in the target, or NULL. */
static inline const char *gt_app_allocators_stop(const struct gt_app *a)
{
	return a->session.info.runtime ? a->session.info.runtime->allocators_stop : NULL;
}

/* The footer's one-off message (screen/loop.c); it goes after a few seconds. */
__attribute__((format(printf, 2, 3)))
void gt_app_note(struct gt_app *a, const char *fmt, ...);

/* screen/app_session.c */
/* Enter in the picker: the dashboard of pid, opened on the worker. */
void gt_app_open_dashboard(struct gt_app *a, pid_t pid);
/* The session's target is open: sampling starts. */
void gt_app_dashboard_ready(struct gt_app *a);
/* Back to the picker; the session (and its job) closes. */
void gt_app_close_dashboard(struct gt_app *a);
/* Collects the session's job if it has ended; true when it has. */
bool gt_app_collect_job(struct gt_app *a);
/* What the running job does, with its seconds so far. */
const char *gt_app_busy_text(const struct gt_app *a, char *buf, size_t len);
/* The dashboard waits for its target to open. */
bool gt_app_opening(const struct gt_app *a);
void gt_app_start_allocators(struct gt_app *a);
bool gt_app_busy_key(struct gt_app *a, enum gt_action act);
/* -p: opens pid, waiting a moment before the screen is taken. */
enum gt_job_result gt_app_open_before_screen(struct gt_app *a, pid_t pid, struct gt_error *err);

#endif
