/* --census (frontends/census.h): opens the target as -b does, closes it
 * again keeping its info, takes one census through the runtime's hook
 * (session/census.h), writes it. */
#include "frontends/census.h"

#include "base/quit.h"
#include "base/wait.h"
#include "frontends/batch.h"
#include "session/census.h"
#include "session/session.h"
#include "writers/census_writer.h"
#include "writers/json_writer.h"

int gt_census_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	gt_batch_install_signals();
	struct gt_session s;
	if (gt_batch_open(opt, &s, err) != 0)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	/* The census needs only the target's info and its hook: the session
	 * (on .NET a whole EventPipe watch session) is closed first, so that
	 * the target does not feed a session nobody reads while it stands
	 * still for the census. */
	struct gt_target_info target_info, shown = s.info;
	gt_census_fn census = gt_session_census_hook(&s, &target_info);
	gt_session_close(&s);
	struct gt_census c;
	int rc = gt_census_take(&target_info, census, &c, gt_wait_deadline_in_ms(GT_CENSUS_DEADLINE_MS), err);
	if (rc != 0)
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	if (opt->census_json) {
		struct json_object *o = gt_census_json(&c, &shown);
		rc = gt_json_write_line(out, o);
		json_object_put(o);
	} else {
		rc = gt_census_write_text(out, &c, &shown);
	}
	gt_census_free(&c);
	if (rc != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot write the census");
	return GT_EXIT_OK;
}
