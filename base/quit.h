/* The one quit flag: set by the SIGINT/SIGTERM/SIGHUP handler, read by the
 * screen loop, the batch loop and every collector wait (base/wait.h), so a
 * collector blocked on a slow target ends as soon as the user asks. It
 * lives below collectors/ and the screen so both can see it. */
#ifndef GCTOP_BASE_QUIT_H
#define GCTOP_BASE_QUIT_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

/* 0, the number of the signal that asked gctop to quit, or -1 for a key.
 * Atomic, not only volatile: a session's worker thread (session/job.h)
 * reads it too; a lock-free atomic is as safe in a signal handler. */
extern atomic_int gt_quit_signal;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the quit flag is set in a signal handler: it must be lock-free");

/* Marks a quit asked by key (the flag is then -1), so the teardown's
 * exchanges (StopTracing) do not wait for answers either. */
void gt_quit_by_key(void);

/* The handler: only sets the flag, and the grace's alarm (async-signal-safe). */
void gt_quit_on_signal(int sig);

/* A quit signal must end gctop even when the clean way out cannot: the
 * screen's writes block for good on a terminal nobody reads any more (its
 * reader stopped, the pty's other end held but not read), out of reach of
 * the flag. With a grace set, the first quit signal sets an alarm: if
 * gctop is still here `seconds` later it dies of that signal (default
 * action). 0 ends the grace (its alarm cancelled): the way out is done.
 * Uses SIGALRM. */
void gt_quit_set_grace(unsigned seconds);

/* Installs gt_quit_on_signal for SIGINT, SIGTERM and SIGHUP without
 * SA_RESTART, so a blocked poll() returns EINTR at once, and unblocks them
 * in the calling thread (a parent may have left them blocked). */
void gt_quit_install(void);

static inline bool gt_quit_requested(void)
{
	return gt_quit_signal != 0;
}

#endif
