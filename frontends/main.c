/* gctop: top for the garbage collector. This file only chooses the mode. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "session/runtimes.h"
#include "session/session.h"
#include "base/clock.h"
#include "base/sanitize.h"
#include "writers/json_writer.h"
#include "writers/text_writer.h"
#include "frontends/batch.h"
#include "frontends/compare.h"
#include "frontends/options.h"
#include "frontends/serve.h"
#include "screen/screen.h"

#ifndef GCTOP_VERSION
#define GCTOP_VERSION "0.1.0"
#endif

static int run_list(const struct gt_options *opt)
{
	struct gt_list list = { 0 };
	gt_session_list_all(&list);
	int64_t now = gt_wall_ms();
	int rc = 0;
	if (opt->list_json) {
		for (size_t i = 0; i < list.count && rc == 0; i++) {
			struct json_object *o = gt_json_list_entry(&list.entries[i], now);
			rc = gt_json_write_line(stdout, o);
			json_object_put(o);
		}
	} else if (list.count == 0) {
		char names[128];
		fprintf(stderr, "gctop: no %s process that this user can watch is running\n",
			gt_runtimes_names(names, sizeof(names), " or "));
	} else {
		rc = gt_text_write_list(stdout, &list, now);
	}
	gt_list_free(&list);
	return rc == 0 ? GT_EXIT_OK : GT_EXIT_FAILURE;
}

/* The full-screen view gets only what it uses of the command line. */
static int run_screen(const struct gt_options *opt, struct gt_error *err)
{
	struct gt_screen_start start = {
		.interval_ns = opt->interval_ns,
		.pid = opt->pid,
		.replay_path = opt->replay_path,
		.record_path = opt->record_path,
		.allocators = opt->allocators,
		.allocator_packages = opt->allocator_packages,
		.ops_counter = opt->ops_counter,
		.no_color = opt->no_color,
	};
	return gt_screen_run(&start, err);
}

static int terminal_usable(void)
{
	const char *term = getenv("TERM");
	return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

int main(int argc, char **argv)
{
	struct gt_options opt;
	struct gt_error err = { 0 };
	int status;

	/* Character classes for UTF-8 drawing only: numbers in text and JSON
	 * output keep the "C" decimal point whatever the user's locale. */
	setlocale(LC_CTYPE, "");
	json_c_set_serialization_double_format("%.9g", JSON_C_OPTION_GLOBAL);

	if (gt_options_parse(argc, argv, &opt, &err) != 0) {
		fprintf(stderr, "gctop: %s\n", err.msg);
		return err.code;
	}
	switch (opt.mode) {
	case GT_MODE_HELP:
		fputs(gt_help_text, stdout);
		return GT_EXIT_OK;
	case GT_MODE_VERSION:
		printf("gctop %s\n", GCTOP_VERSION);
		return GT_EXIT_OK;
	case GT_MODE_LIST:
		return run_list(&opt);
	case GT_MODE_COMPARE:
		status = gt_compare_run(&opt, stdout, &err);
		break;
	case GT_MODE_SERVE:
		status = gt_serve_run(&opt, &err);
		break;
	case GT_MODE_DOCTOR:
		status = gt_doctor_run(&opt, stdout, &err);
		break;
	case GT_MODE_TUI:
		if (!terminal_usable()) {
			if (!opt.pid && !opt.replay_path) {
				fprintf(stderr, "gctop: no terminal to pick a process in; give -p PID (gctop --list shows them)\n");
				return GT_EXIT_USAGE;
			}
			fprintf(stderr, "gctop: not on a full terminal; printing text as with -b\n");
			opt.mode = GT_MODE_TEXT;
			status = gt_batch_run(&opt, stdout, &err);
		} else {
			status = run_screen(&opt, &err);
		}
		break;
	default:
		status = gt_batch_run(&opt, stdout, &err);
		break;
	}
	if (status != GT_EXIT_OK && err.msg[0]) {
		/* A message may quote a path or name the target chose. */
		char clean[sizeof(err.msg)];
		fprintf(stderr, "gctop: %s\n", gt_sanitize(clean, sizeof(clean), err.msg, gt_sanitize_terminal_mode()));
	}
	return status;
}
