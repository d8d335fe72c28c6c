/* --census (frontends/census_mode.h): opens the target as -b does, samples it
 * once for the headroom rule (model/census_cost.h), closes it again
 * keeping its info, takes one census through the runtime's hook
 * (session/session_census.h), writes it. */
#include "frontends/census_mode.h"

#include <signal.h>
#include <string.h>

#include "base/quit.h"
#include "base/wait.h"
#include "frontends/batch_mode.h"
#include "session/session_census.h"
#include "session/session.h"
#include "views/census_writer.h"
#include "views/json_writer.h"

/* How long the sample behind the headroom rule may wait for the runtime's
 * first figures (.NET: the first counters, about a second). */
#define FIT_SETTLE_MS 3000u

/* A census cut short by a signal is no census: a script must not read the
 * empty output as one. */
static int interrupted(const struct gt_target_info *info, struct gt_error *err)
{
	int sig = gt_quit_signal;
	const char *name = sig > 0 ? sigabbrev_np(sig) : NULL;
	return gt_fail(err, GT_EXIT_FAILURE, "the census of process %d was interrupted by %s%s before it ended; "
		       "nothing was written", (int)info->pid, name ? "SIG" : "a signal", name ? name : "");
}

/* The headroom rule: a census whose expected cost does not fit the
 * target's headroom is refused, unless --census-anyway. */
static int check_fit(const struct gt_options *opt, struct gt_session *s, struct gt_error *err)
{
	gt_session_sample(s, err);
	if (!s->have_prev || !s->prev.heap_used_bytes.valid) {
		gt_session_settle(s, gt_wait_deadline_in_ms(FIT_SETTLE_MS));
		gt_session_sample(s, err);
	}
	if (gt_quit_requested())
		return interrupted(&s->info, err);
	if (!s->have_prev || opt->census_anyway)
		return 0;
	struct gt_census_fit fit;
	gt_census_fit_of(&s->info, &s->prev, &fit);
	if (fit.fits)
		return 0;
	gt_census_fit_refusal(&fit, s->info.runtime ? s->info.runtime->display : "the", (int)s->info.pid, err->msg,
			      sizeof(err->msg));
	err->code = GT_EXIT_CENSUS_NO_ROOM;
	return -1;
}

static int write_census(const struct gt_options *opt, FILE *out, const struct gt_census *c,
			const struct gt_target_info *shown, struct gt_error *err)
{
	int rc;
	if (opt->census_json) {
		struct json_object *o = gt_census_json(c, shown);
		rc = gt_json_write_line(out, o);
		json_object_put(o);
	} else {
		rc = gt_census_write_text(out, c, shown);
	}
	if (rc != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot write the census");
	return 0;
}

int gt_census_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	gt_batch_install_signals();
	struct gt_session s;
	struct gt_target_info shown = { .pid = opt->pid };
	if (gt_batch_open(opt, &s, err) != 0) {
		if (gt_quit_requested())
			interrupted(&shown, err);
		return err->code;
	}
	shown = s.info;
	if (check_fit(opt, &s, err) != 0) {
		gt_session_close(&s);
		return err->code;
	}
	/* The census needs only the target's info and its hook: the session
	 * (on .NET a whole EventPipe watch session) is closed first, so that
	 * the target does not feed a session nobody reads while it stands
	 * still for the census. */
	struct gt_target_info target_info;
	gt_census_fn census = gt_session_census_hook(&s, &target_info);
	gt_session_close(&s);
	struct gt_census c;
	int rc = gt_census_take(&target_info, census, &c, gt_wait_deadline_in_ms(GT_CENSUS_DEADLINE_MS), err);
	if (rc != 0 || gt_quit_requested()) {
		gt_census_free(&c);
		if (gt_quit_requested())
			interrupted(&shown, err);
		return err->code;
	}
	rc = write_census(opt, out, &c, &shown, err);
	gt_census_free(&c);
	return rc != 0 ? err->code : GT_EXIT_OK;
}
