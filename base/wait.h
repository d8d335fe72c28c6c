/* Bounded waits on a target's descriptors. Every exchange with a target
 * (diagnostics IPC, attach) gets one absolute CLOCK_MONOTONIC deadline for
 * the whole transaction, not a timeout per byte: a target that dribbles one
 * byte a second cannot stretch it. Each wait also ends at once on a quit
 * request (base/quit.h): the quit signals are blocked while the flag is
 * checked and let in only inside ppoll(), so one landing just before the
 * wait cannot be missed. */
#ifndef GCTOP_BASE_WAIT_H
#define GCTOP_BASE_WAIT_H

#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* No deadline: wait for the descriptors or a signal only. */
#define GT_WAIT_NEVER UINT64_MAX

enum gt_wait_result {
	GT_WAIT_READY = 0,     /* the descriptor is ready (or in error: the next call says) */
	GT_WAIT_TIMEOUT = -1,  /* the deadline passed */
	GT_WAIT_QUIT = -2,     /* the user asked gctop to quit */
	GT_WAIT_CLOSED = -3,   /* read_all: the peer closed; write_all: the peer is gone */
	GT_WAIT_ERROR = -4,    /* another error; errno says */
	GT_WAIT_SIGNAL = -5,   /* gt_wait_poll only: another signal (SIGWINCH) came */
};

/* poll() until the deadline (GT_WAIT_NEVER: none) or quit: the number of
 * ready descriptors (> 0), or a gt_wait_result. */
int gt_wait_poll(struct pollfd *fds, nfds_t n, uint64_t deadline_ns);

/* A worker thread's own cancel (session/job.c): from now on the calling
 * thread's waits also end, as on quit (GT_WAIT_QUIT), once *flag is true;
 * they look at it every GT_WAIT_CANCEL_SLICE_NS. NULL: no flag. */
void gt_wait_set_cancel(const atomic_bool *flag);
#define GT_WAIT_CANCEL_SLICE_NS 20000000ull
/* From now on (ignore true) the calling thread's waits go on after a quit
 * request, still bounded by their deadlines: for a teardown exchange that
 * undoes what gctop did to a target and must reach it even on the way out
 * (JFR.stop of gctop's flight recording). Only on a worker thread: the
 * main thread must always see quit. */
void gt_wait_ignore_quit(bool ignore);
/* Quit (unless this thread ignores it), or this thread's cancel. */
bool gt_wait_stop_requested(void);

/* The deadline `ms` milliseconds from now. */
uint64_t gt_wait_deadline_in_ms(unsigned ms);

/* Waits until fd is ready for `events` (POLLIN, POLLOUT), the deadline
 * passes or quit is requested. */
enum gt_wait_result gt_wait_fd(int fd, short events, uint64_t deadline_ns);

/* Sleeps until the deadline or a quit request: GT_WAIT_TIMEOUT or GT_WAIT_QUIT. */
enum gt_wait_result gt_wait_sleep(uint64_t deadline_ns);

/* Sets err for a wait ended by a quit request: status 0 (an interrupt is
 * success, see EXIT STATUS) and no sentence worth printing. Returns -1. */
int gt_wait_interrupted(struct gt_error *err);

/* A bounded retry: try something until it works, a deadline passes or the
 * user asks to quit, sleeping a step between tries (a runtime still
 * starting, a socket not there yet). The step may grow by step_add_ms up to
 * step_max_ms, for waits that should start quick and then back off. */
struct gt_retry {
	uint64_t deadline_ns;
	unsigned step_ms, step_add_ms, step_max_ms;
};

/* Tries for up to limit_ms, step_ms apart (the step fixed). */
void gt_retry_start(struct gt_retry *r, unsigned limit_ms, unsigned step_ms);

/* After a try that did not succeed: GT_WAIT_TIMEOUT at once when the
 * deadline has passed, GT_WAIT_QUIT on a quit request; otherwise sleeps one
 * step (never past the deadline, so the last try comes at it) and returns
 * GT_WAIT_READY: try again. */
enum gt_wait_result gt_retry_wait(struct gt_retry *r);

/* gt_retry_wait for a caller with an error to report: 1 try again, 0 the
 * deadline has passed (err untouched), -1 a quit request (err set as by
 * gt_wait_interrupted). */
int gt_retry_again(struct gt_retry *r, struct gt_error *err);

/* Exactly n bytes from / to a non-blocking descriptor by the deadline. */
enum gt_wait_result gt_wait_read_all(int fd, void *buf, size_t n, uint64_t deadline_ns);
enum gt_wait_result gt_wait_write_all(int fd, const void *buf, size_t n, uint64_t deadline_ns);

#endif
