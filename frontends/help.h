/* The --help text, which man/gctop.1 and README match
 * (tests/static/docs_agree.py). What it says of each runtime comes from
 * the registry (model/runtime.h's help, through session/runtimes.h), so a
 * runtime added to collectors/registry.c is in --help with no change here. */
#ifndef GCTOP_FRONTENDS_HELP_H
#define GCTOP_FRONTENDS_HELP_H

#include <stdio.h>

/* Writes --help to out; returns 0, or -1 when out failed. */
int gt_help_write(FILE *out);
/* The same text in a string the caller frees, or NULL out of memory. */
char *gt_help_text(void);

#endif
