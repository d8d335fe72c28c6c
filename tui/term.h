/* The terminal: opening and always restoring it, and the signals that only
 * set flags for the main loop. */
#ifndef GCTOP_TUI_TERM_H
#define GCTOP_TUI_TERM_H

#include <signal.h>
#include <stdbool.h>

/* Set by the SIGWINCH handler, read and cleared by the loop. SIGINT,
 * SIGTERM and SIGHUP set the quit flag of base/quit.h. */
extern volatile sig_atomic_t gt_term_resized;

/* Installs the handlers (before initscr, so ncurses keeps its own away),
 * opens the screen on the alternate buffer. Returns 0, or -1 when the
 * terminal cannot be used. */
int gt_term_open(void);

/* Leaves the alternate screen and restores the terminal modes. Idempotent. */
void gt_term_close(void);

/* True when the terminal is gone: hung up (its master closed: tmux killed,
 * ssh dropped), so reads end at once and writes fail with EIO, whether or
 * not SIGHUP came (a parent that survives the hangup sends none). */
bool gt_term_gone(void);

/* Adopts the new window size after SIGWINCH. */
void gt_term_apply_resize(void);

#endif
