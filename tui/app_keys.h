/* What a key does on the screen, one file a screen: gt_keys_handle
 * (tui/keys_handle.c) sends each key by the modes to the prompt, the
 * question, an overlay, the dashboard or the picker. The key table itself
 * is tui/keys.h. */
#ifndef GCTOP_TUI_APP_KEYS_H
#define GCTOP_TUI_APP_KEYS_H

#include "tui/app.h"
#include "tui/keys.h"

/* One key read from the terminal (tui/keys_handle.c). */
void gt_keys_handle(struct gt_app *a, int ch);

/* The keys of the dashboard (tui/keys_dashboard.c); ch is the key, for
 * the pane toggles. */
void gt_keys_dashboard(struct gt_app *a, const struct gt_key_binding *b, int ch);
/* The keys of the picker (tui/keys_picker.c). */
void gt_keys_picker(struct gt_app *a, const struct gt_key_binding *b);
/* The keys of the help, findings and stacks overlays (tui/keys_overlay.c). */
void gt_keys_overlay(struct gt_app *a, enum gt_action act);
/* A key while the footer prompts, or asks y/N (tui/keys_prompt.c). */
void gt_keys_prompt(struct gt_app *a, int ch);
void gt_keys_confirm(struct gt_app *a, int ch);
/* The keys the picker and the dashboard share (tui/keys_common.c). */
void gt_keys_common(struct gt_app *a, enum gt_action act);

#endif
