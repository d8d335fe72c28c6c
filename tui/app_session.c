/* The dashboard's session on the screen: opening a target and turning
 * allocation sampling on run as jobs on the session's worker
 * (session/job.h); the loop collects them, and meanwhile the screen says
 * what it waits for and answers keys. */
#include <stdio.h>

#include "base/clock.h"
#include "base/wait.h"
#include "tui/app_session.h"

/* How long gctop -p waits for the open before it takes the screen. */
#define APP_OPEN_QUIET_MS 500

void gt_app_open_dashboard(struct gt_app *a, pid_t pid)
{
	struct gt_error err = { 0 };
	/* The rows are not polled while the dashboard shows: close their
	 * sessions rather than leave them unread (picker.h says why). */
	gt_picker_close_sessions(&a->picker);
	/* On the worker: a runtime still starting is waited for, and the
	 * screen says so meanwhile. */
	if (gt_session_open_async(&a->session, pid, &err) != 0) {
		gt_app_note(a, "%s", err.msg);
		return;
	}
	a->busy_since = gt_mono_ns();
	gt_dashboard_init(&a->db, &a->session);
	gt_app_mode(a, GT_MODE_OPEN);
	/* The fresh screen is made of new windows; repaint it whole once. */
	clearok(curscr, TRUE);
}

/* The session's target is open: sampling starts. */
void gt_app_dashboard_ready(struct gt_app *a)
{
	struct gt_error err = { 0 };
	/* Before the sampler's job, which uses the target on its worker. */
	bool opcount_refused = a->opcount_counter && gt_session_set_opcount(&a->session, a->opcount_counter, &err) != 0;
	gt_session_start(&a->session, a->interval_ns, gt_mono_ns());
	clearok(curscr, TRUE);
	if (a->allocators_at_open)
		gt_app_start_allocators(a);
	/* A .NET target counts its own requests: the footer says so and the
	 * view goes on. After the sampler's start, which clears the footer. */
	if (opcount_refused)
		gt_app_note(a, "%s", err.msg);
}

void gt_app_close_dashboard(struct gt_app *a)
{
	gt_dashboard_close(&a->db);
	gt_session_close(&a->session);
	gt_app_mode(a, GT_MODE_CLOSE);
	/* The rows' targets were closed when the dashboard opened; this
	 * refresh opens them again. */
	gt_picker_start(&a->picker, a->interval_ns, gt_mono_ns());
	clearok(curscr, TRUE);
}

/* The open ended without a target: with -p gctop ends (the sentence is
 * printed after the screen, with the status it has in batch mode), from
 * the picker it goes back to the list. */
static void open_failed(struct gt_app *a, enum gt_job_result r, const struct gt_error *err)
{
	pid_t pid = a->session.info.pid;
	if (!a->picker_mode) {
		a->quit = true;
		if (r == GT_JOB_FAILED) {
			*a->err = *err;
			a->status = err->code ? (int)err->code : GT_EXIT_FAILURE;
		}
		return;
	}
	gt_app_close_dashboard(a);
	if (r == GT_JOB_FAILED)
		gt_app_note(a, "%s", err->msg);
	else
		gt_app_note(a, "stopped waiting for PID %d", (int)pid);
}

static void allocators_done(struct gt_app *a, enum gt_job_result r, const struct gt_error *err)
{
	pid_t pid = a->session.info.pid;
	if (r == GT_JOB_FAILED) {
		gt_app_note(a, "allocation sampling: %s", err->msg);
	} else if (r == GT_JOB_CANCELLED) {
		gt_app_note(a, "allocation sampling cancelled in PID %d%s", (int)pid,
			 gt_app_loads_code(a) ? "; the agent, if it loaded, goes dormant within seconds" : "");
	} else {
		gt_app_note(a, "allocation sampling on in PID %d; shares fill in over %llu s",
			 (int)pid, (unsigned long long)(GT_ALLOC_WINDOW_NS / 1000000000ull));
		/* The first reading now, so the pane does not wait a whole interval. */
		gt_schedule_sample_now(&a->session.schedule, gt_mono_ns());
	}
}

/* The session's job, if it has ended; true when it has. */
bool gt_app_collect_job(struct gt_app *a)
{
	struct gt_error err = { 0 };
	enum gt_job_kind kind = gt_session_job_kind(&a->session);
	enum gt_job_result r = gt_session_job_finish(&a->session, &err);
	if (r == GT_JOB_NONE || r == GT_JOB_RUNNING)
		return false;
	if (kind == GT_JOB_ALLOCATORS)
		allocators_done(a, r, &err);
	else if (r == GT_JOB_DONE)
		gt_app_dashboard_ready(a);
	else
		open_failed(a, r, &err);
	return true;
}

/* The line that says what the session's job is doing, with the seconds it
 * has taken so far. */
const char *gt_app_busy_text(const struct gt_app *a, char *buf, size_t len)
{
	int pid = (int)a->session.info.pid;
	unsigned long secs = (unsigned long)((gt_mono_ns() - a->busy_since) / 1000000000ull);
	if (gt_session_job_kind(&a->session) == GT_JOB_OPEN)
		snprintf(buf, len, "waiting for PID %d to start its runtime ... %lus (q or Esc cancels)", pid, secs);
	else if (gt_app_loads_code(a))
		snprintf(buf, len, "loading gctop's sampling agent into PID %d ... %lus (Esc cancels)", pid, secs);
	else if (gt_app_source_question(a))
		snprintf(buf, len, "starting a flight recording in PID %d ... %lus (Esc cancels)", pid, secs);
	else
		snprintf(buf, len, "starting allocation sampling in PID %d ... %lus (Esc cancels)", pid, secs);
	return buf;
}

bool gt_app_opening(const struct gt_app *a)
{
	return gt_app_in_dashboard(a) && gt_session_busy(&a->session) && gt_session_job_kind(&a->session) == GT_JOB_OPEN;
}

/* After the user said yes (the y/N question, or --allocators): on the
 * worker, while the screen goes on with the last figures. A failure is one
 * sentence on the footer: the GC figures are still worth seeing. */
void gt_app_start_allocators(struct gt_app *a)
{
	struct gt_error err = { 0 };
	if (gt_session_enable_allocators_async(&a->session, a->allocator_packages, a->allocator_source, &err) != 0) {
		gt_app_note(a, "allocation sampling: %s", err.msg);
		return;
	}
	a->busy_since = gt_mono_ns();
	/* The footer says what goes on (busy_text), not an older message. */
	a->note[0] = '\0';
}

/* Keys that mean something else while the session's job runs: Esc (and
 * q while opening) cancels it, a says it is under way. True when the key
 * was taken. */
bool gt_app_busy_key(struct gt_app *a, enum gt_action act)
{
	bool open = gt_session_job_kind(&a->session) == GT_JOB_OPEN;
	if (act == GT_ACT_BACK && !open) {
		gt_session_job_cancel(&a->session);
		gt_app_note(a, "cancelling: allocation sampling is turned off again once PID %d has answered",
			 (int)a->session.info.pid);
	} else if (act == GT_ACT_BACK || (act == GT_ACT_QUIT && open)) {
		if (a->picker_mode)
			gt_app_close_dashboard(a);
		else
			a->quit = true;
	} else if (act == GT_ACT_ALLOCATORS) {
		char buf[256];
		gt_app_note(a, "%s", gt_app_busy_text(a, buf, sizeof(buf)));
	} else {
		return false;
	}
	return true;
}

/* With -p: the open runs on the worker, and gctop waits a moment for it
 * before the screen, so a bad PID is one sentence on a normal terminal,
 * not a flash of the alternate screen. Returns GT_JOB_RUNNING (the screen
 * shows the wait), GT_JOB_DONE, or another result with err and status. */
enum gt_job_result gt_app_open_before_screen(struct gt_app *a, pid_t pid, struct gt_error *err)
{
	if (gt_session_open_async(&a->session, pid, err) != 0)
		return GT_JOB_FAILED;
	a->busy_since = gt_mono_ns();
	gt_dashboard_init(&a->db, &a->session);
	gt_app_mode(a, GT_MODE_OPEN);
	enum gt_wait_result w = gt_wait_fd(gt_session_job_fd(&a->session), POLLIN,
					   gt_wait_deadline_in_ms(APP_OPEN_QUIET_MS));
	if (w == GT_WAIT_QUIT)
		return GT_JOB_CANCELLED;
	if (w != GT_WAIT_READY)
		return GT_JOB_RUNNING;
	enum gt_job_result r = gt_session_job_finish(&a->session, err);
	return r == GT_JOB_NONE ? GT_JOB_FAILED : r;
}
