/* The dashboard's session on the screen (tui/app_session.c): opening a
 * target and turning allocation sampling on, as jobs on the session's
 * worker, and the keys that answer them while they run. */
#ifndef GCTOP_TUI_APP_SESSION_H
#define GCTOP_TUI_APP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/error.h"
#include "session/job.h"
#include "tui/app.h"
#include "tui/keys.h"

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
