#include "frontends/compare_mode.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/quit.h"
#include "views/compare_writer.h"
#include "views/json_writer.h"

/* --fail-if's verdict, said on stderr either way (stdout holds the table). */
static int judge(const char *expr, const struct gt_run *runs, size_t n, struct gt_error *err)
{
	struct gt_fail_if f;
	double pct = 0;
	if (gt_fail_if_parse(expr, &f, err) != 0)
		return err->code;
	int rc = gt_fail_if_judge(&f, &runs[0], &runs[n - 1], &pct, err);
	if (rc < 0)
		return err->code;
	fprintf(stderr, "gctop: --fail-if %s: %s changed %+.1f%% from the first run to the last: %s\n", expr, f.key, pct,
		rc ? "regressed" : "within bounds");
	return rc ? GT_EXIT_REGRESSION : GT_EXIT_OK;
}

int gt_compare_run(const struct gt_options *opt, FILE *out, struct gt_error *err)
{
	if (opt->n_compare > GT_COMPARE_RUNS_MAX)
		return gt_fail(err, GT_EXIT_USAGE, "--compare takes at most %d recordings", GT_COMPARE_RUNS_MAX), GT_EXIT_USAGE;
	struct gt_fail_if check;
	if (opt->fail_if && gt_fail_if_parse(opt->fail_if, &check, err) != 0)
		return err->code;
	struct gt_run *runs = calloc(opt->n_compare, sizeof(*runs));
	if (!runs)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory"), GT_EXIT_FAILURE;
	int status = GT_EXIT_OK;
	bool loaded = true;
	/* Each recording's reader looks at the quit flag: an endless one (a
	 * pipe) ends on SIGINT/SIGTERM, with status 0 and nothing printed. */
	gt_quit_install();
	for (size_t i = 0; i < opt->n_compare && loaded; i++)
		if (gt_compare_load(opt->compare_files[i], &runs[i], err) != 0) {
			loaded = false;
			status = gt_quit_requested() ? GT_EXIT_OK : err->code;
		}
	if (loaded) {
		int rc;
		if (opt->compare_json) {
			struct json_object *o = gt_compare_json(runs, opt->n_compare);
			rc = gt_json_write_line(out, o);
			json_object_put(o);
		} else {
			rc = gt_compare_write_text(out, runs, opt->n_compare);
		}
		if (rc != 0) {
			gt_fail(err, GT_EXIT_FAILURE, "cannot write the comparison");
			status = GT_EXIT_FAILURE;
		}
	}
	if (loaded && status == GT_EXIT_OK && opt->fail_if)
		status = judge(opt->fail_if, runs, opt->n_compare, err);
	free(runs);
	return status;
}
