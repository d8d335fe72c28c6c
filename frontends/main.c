/* gctop: top for the garbage collector. This file chooses the mode from
 * the table of run modes below (as git's commands[]), each mode's run in a
 * file of its own (--help and --version are one line each): a new front
 * end is one row here and one file. */
#include <locale.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/sanitize.h"
#include "frontends/batch_mode.h"
#include "frontends/census_mode.h"
#include "frontends/compare_mode.h"
#include "frontends/doctor_mode.h"
#include "frontends/help.h"
#include "frontends/list_mode.h"
#include "frontends/options.h"
#include "frontends/serve_mode.h"
#include "frontends/screen_start.h"

#ifndef GCTOP_VERSION
#define GCTOP_VERSION "0.1.0"
#endif

static int run_help(struct gt_options *opt, struct gt_error *err)
{
	(void)opt;
	(void)err;
	return gt_help_write(stdout) == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}

static int run_version(struct gt_options *opt, struct gt_error *err)
{
	(void)opt;
	(void)err;
	printf("gctop %s\n", GCTOP_VERSION);
	return GT_EXIT_OK;
}

static int run_listing(struct gt_options *opt, struct gt_error *err)
{
	return gt_list_run(opt, stdout, err);
}

static int run_batch(struct gt_options *opt, struct gt_error *err)
{
	return gt_batch_run(opt, stdout, err);
}

static int run_compare(struct gt_options *opt, struct gt_error *err)
{
	return gt_compare_run(opt, stdout, err);
}

static int run_serve(struct gt_options *opt, struct gt_error *err)
{
	return gt_serve_run(opt, err);
}

static int run_census(struct gt_options *opt, struct gt_error *err)
{
	return gt_census_run(opt, stdout, err);
}

static int run_doctor(struct gt_options *opt, struct gt_error *err)
{
	return gt_doctor_run(opt, stdout, err);
}

/* One way the program runs. */
struct run_mode {
	enum gt_mode mode;
	/* Returns an exit status (enum gt_exit); err holds the sentence when it
	 * is not 0 (main prints it). */
	int (*run)(struct gt_options *opt, struct gt_error *err);
	/* It draws on a full terminal (frontends/screen_start.h); without one,
	 * main runs without_terminal instead. */
	bool needs_terminal;
	int (*without_terminal)(struct gt_options *opt, struct gt_error *err);
};

static const struct run_mode run_modes[] = {
	{ GT_MODE_SCREEN, gt_screen_start_run, true, gt_screen_start_as_text },
	{ GT_MODE_TEXT, run_batch, false, NULL },
	{ GT_MODE_JSON, run_batch, false, NULL },
	{ GT_MODE_LIST, run_listing, false, NULL },
	{ GT_MODE_SERVE, run_serve, false, NULL },
	{ GT_MODE_COMPARE, run_compare, false, NULL },
	{ GT_MODE_DOCTOR, run_doctor, false, NULL },
	{ GT_MODE_CENSUS, run_census, false, NULL },
	{ GT_MODE_HELP, run_help, false, NULL },
	{ GT_MODE_VERSION, run_version, false, NULL },
};

static int run_mode(struct gt_options *opt, struct gt_error *err)
{
	for (size_t i = 0; i < sizeof(run_modes) / sizeof(run_modes[0]); i++) {
		const struct run_mode *m = &run_modes[i];
		if (m->mode != opt->mode)
			continue;
		if (m->needs_terminal && !gt_screen_start_terminal_usable())
			return m->without_terminal(opt, err);
		return m->run(opt, err);
	}
	return gt_fail(err, GT_EXIT_FAILURE, "no such run mode (%d)", (int)opt->mode), GT_EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	struct gt_options opt;
	struct gt_error err = { 0 };

	/* Character classes for UTF-8 drawing only: numbers in text and JSON
	 * output keep the "C" decimal point whatever the user's locale. */
	setlocale(LC_CTYPE, "");
	json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL);

	if (gt_options_parse(argc, argv, &opt, &err) != 0) {
		fprintf(stderr, "gctop: %s\n", err.msg);
		return err.code;
	}
	int status = run_mode(&opt, &err);
	if (status != GT_EXIT_OK && err.msg[0]) {
		/* A message may quote a path or name the target chose. */
		char clean[sizeof(err.msg)];
		fprintf(stderr, "gctop: %s\n", gt_sanitize(clean, sizeof(clean), err.msg, gt_sanitize_terminal_mode()));
	}
	return status;
}
