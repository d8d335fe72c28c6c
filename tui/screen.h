/* The full-screen interactive view (ncurses): panes for one target, or the
 * picker when no target was given. Only tui/ calls ncurses. */
#ifndef GCTOP_TUI_SCREEN_H
#define GCTOP_TUI_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

/* What the screen starts with: the front end (frontends/screen_start.c)
 * copies it from the command line, so the screen does not know the options
 * of the other run modes. */
struct gt_screen_start {
	uint64_t interval_ns;           /* 0: one second */
	pid_t pid;                      /* 0: the picker */
	const char *replay_path;        /* a recording shown instead, or NULL */
	const char *record_path;        /* every sample written here, or NULL */
	bool allocators;                /* the user agreed to sampling on the command line */
	const char *allocator_packages; /* NULL: the runtime's defaults */
	const char *allocator_source;   /* --allocators=SOURCE, NULL: the runtime's choice */
	const char *opcount_counter;    /* the operations counter's name, or NULL */
	bool no_color;
};

/* Runs until the user quits or the terminal goes away. Returns an exit status
 * (enum gt_exit); on failure before the screen opened, err holds the sentence. */
int gt_screen_run(const struct gt_screen_start *start, struct gt_error *err);

#endif
