/* Installing a signal handler: one place for the sigaction boilerplate of
 * the quit flag, the SIGBUS guard and the screen's resize and crash
 * handlers. */
#ifndef GCTOP_BASE_SIGHANDLER_H
#define GCTOP_BASE_SIGHANDLER_H

/* fn (or SIG_IGN/SIG_DFL) for sig, with flags (SA_*) and nothing blocked
 * while it runs. */
void gt_sighandler_install(int sig, void (*fn)(int), int flags);

#endif
