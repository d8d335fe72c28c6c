/* Installing a signal handler: one place for the sigaction boilerplate of
 * the quit flag, the SIGBUS guard and the screen's resize and crash
 * handlers. */
#ifndef GCTOP_BASE_SIGHANDLER_H
#define GCTOP_BASE_SIGHANDLER_H

#include <pthread.h>

/* fn (or SIG_IGN/SIG_DFL) for sig, with flags (SA_*) and nothing blocked
 * while it runs. */
void gt_sighandler_install(int sig, void (*fn)(int), int flags);

/* pthread_create(thread, fn, arg) with every asynchronous signal blocked
 * in the new thread (the faults stay deliverable, for the SIGBUS guard), so
 * the quit and resize signals reach the main thread. Returns
 * pthread_create's status. */
int gt_thread_start_quiet(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
