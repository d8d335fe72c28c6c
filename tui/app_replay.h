/* A recording on the screen (gctop -r, tui/app_replay.c): its first
 * interval at the start, its moves in slices of the loop, and the keys that
 * step through it. */
#ifndef GCTOP_TUI_APP_REPLAY_H
#define GCTOP_TUI_APP_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"
#include "tui/app.h"
#include "tui/keys.h"

/* -r: the recording's first interval on the dashboard, paused. */
int gt_app_replay_start(struct gt_app *a, const char *path, struct gt_error *err);
/* A slice of a move, or the next sample while it plays; true when there
 * is something new to draw. */
bool gt_app_replay_tick(struct gt_app *a, uint64_t now);
/* t, T, r, b and space in a replay. */
void gt_app_replay_key(struct gt_app *a, enum gt_action act);
/* b's answer, in a->prompt_buf: the sample to show. */
void gt_app_replay_branch(struct gt_app *a);

#endif
