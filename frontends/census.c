/* --census (frontends/census.h): opens the target as -b does, takes one
 * census through the runtime's hook (session/census.h), writes it. */
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
	struct gt_census c;
	int rc = gt_census_take(s.target, &c, gt_wait_deadline_in_ms(GT_CENSUS_DEADLINE_MS), err);
	if (rc == 0 && opt->census_json) {
		struct json_object *o = gt_census_json(&c, &s.info);
		rc = gt_json_write_line(out, o);
		json_object_put(o);
	} else if (rc == 0) {
		rc = gt_census_write_text(out, &c, &s.info);
	} else {
		gt_session_close(&s);
		return gt_quit_requested() ? GT_EXIT_OK : err->code;
	}
	gt_census_free(&c);
	gt_session_close(&s);
	if (rc != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot write the census");
	return GT_EXIT_OK;
}
