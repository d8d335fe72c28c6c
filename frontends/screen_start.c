#include "frontends/screen_start.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontends/batch_mode.h"
#include "tui/screen.h"

bool gt_screen_start_terminal_usable(void)
{
	const char *term = getenv("TERM");
	return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) && term && *term && strcmp(term, "dumb") != 0;
}

/* The full-screen view gets only what it uses of the command line. */
int gt_screen_start_run(struct gt_options *opt, struct gt_error *err)
{
	struct gt_screen_start start = {
		.interval_ns = opt->interval_ns,
		.pid = opt->pid,
		.replay_path = opt->replay_path,
		.record_path = opt->record_path,
		.allocators = opt->allocators,
		.allocator_packages = opt->allocator_packages,
		.allocator_source = opt->allocator_source,
		.opcount_counter = opt->opcount_counter,
		.no_color = opt->no_color,
	};
	return gt_screen_run(&start, err);
}

int gt_screen_start_as_text(struct gt_options *opt, struct gt_error *err)
{
	if (!opt->pid && !opt->replay_path) {
		fprintf(stderr, "gctop: no terminal to pick a process in; give -p PID (gctop --list shows them)\n");
		return GT_EXIT_USAGE;
	}
	fprintf(stderr, "gctop: not on a full terminal; printing text as with -b\n");
	opt->mode = GT_MODE_TEXT;
	return gt_batch_run(opt, stdout, err);
}
