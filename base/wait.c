#include "base/wait.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/quit.h"

uint64_t gt_wait_deadline_in_ms(unsigned ms)
{
	return gt_mono_ns() + (uint64_t)ms * 1000000ull;
}

static void quit_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* A worker thread's cancel (gt_wait_set_cancel); NULL on every other thread. */
static _Thread_local const atomic_bool *thread_cancel;

void gt_wait_set_cancel(const atomic_bool *flag)
{
	thread_cancel = flag;
}

/* A teardown exchange that must be sent even after a quit request
 * (gt_wait_ignore_quit); false on every thread until it asks. */
static _Thread_local bool thread_ignores_quit;

void gt_wait_ignore_quit(bool ignore)
{
	thread_ignores_quit = ignore;
}

bool gt_wait_stop_requested(void)
{
	return (gt_quit_requested() && !thread_ignores_quit) || (thread_cancel && atomic_load(thread_cancel));
}

/* ppoll until deadline_ns with the quit signals let in; a thread with a
 * cancel flag wakes every GT_WAIT_CANCEL_SLICE_NS to look at it (a flag
 * cannot interrupt ppoll, and the quit signals go to the main thread). */
static int poll_until(struct pollfd *fds, nfds_t n, uint64_t deadline_ns, const sigset_t *mask)
{
	for (;;) {
		uint64_t now = gt_mono_ns();
		if (gt_wait_stop_requested())
			return GT_WAIT_QUIT;
		if (deadline_ns != GT_WAIT_NEVER && now >= deadline_ns)
			return GT_WAIT_TIMEOUT;
		uint64_t left = deadline_ns == GT_WAIT_NEVER ? UINT64_MAX : deadline_ns - now;
		bool sliced = thread_cancel && left > GT_WAIT_CANCEL_SLICE_NS;
		if (sliced)
			left = GT_WAIT_CANCEL_SLICE_NS;
		struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
		int r = ppoll(fds, n, left == UINT64_MAX ? NULL : &ts, mask);
		if (r == 0 && sliced)
			continue;
		if (r == 0)
			return GT_WAIT_TIMEOUT;
		if (r < 0)
			return errno != EINTR ? GT_WAIT_ERROR : gt_wait_stop_requested() ? GT_WAIT_QUIT : GT_WAIT_SIGNAL;
		return r;
	}
}

int gt_wait_poll(struct pollfd *fds, nfds_t n, uint64_t deadline_ns)
{
	sigset_t quit, orig;
	quit_signals(&quit);
	pthread_sigmask(SIG_BLOCK, &quit, &orig);
	int r = poll_until(fds, n, deadline_ns, &orig);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &orig, NULL);
	errno = e;
	return r;
}

enum gt_wait_result gt_wait_fd(int fd, short events, uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int r = gt_wait_poll(&p, fd >= 0 ? 1 : 0, deadline_ns);
		if (r > 0)
			return GT_WAIT_READY;
		if (r != GT_WAIT_SIGNAL)
			return (enum gt_wait_result)r;
	}
}

int gt_wait_interrupted(struct gt_error *err)
{
	return gt_fail(err, GT_EXIT_OK, "interrupted");
}

enum gt_wait_result gt_wait_sleep(uint64_t deadline_ns)
{
	enum gt_wait_result r = gt_wait_fd(-1, 0, deadline_ns);
	return r == GT_WAIT_READY ? GT_WAIT_TIMEOUT : r;
}

enum gt_wait_result gt_wait_read_all(int fd, void *buf, size_t n, uint64_t deadline_ns)
{
	char *p = buf;
	while (n > 0) {
		ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
		if (r < 0 && errno == ENOTSOCK)
			r = read(fd, p, n);
		if (r > 0) {
			p += r;
			n -= (size_t)r;
			continue;
		}
		if (r == 0)
			return GT_WAIT_CLOSED;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return errno == ECONNRESET ? GT_WAIT_CLOSED : GT_WAIT_ERROR;
		enum gt_wait_result w = gt_wait_fd(fd, POLLIN, deadline_ns);
		if (w != GT_WAIT_READY)
			return w;
	}
	return GT_WAIT_READY;
}

enum gt_wait_result gt_wait_write_all(int fd, const void *buf, size_t n, uint64_t deadline_ns)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return errno == EPIPE || errno == ECONNRESET ? GT_WAIT_CLOSED : GT_WAIT_ERROR;
		enum gt_wait_result r = gt_wait_fd(fd, POLLOUT, deadline_ns);
		if (r != GT_WAIT_READY)
			return r;
	}
	return GT_WAIT_READY;
}

void gt_retry_start(struct gt_retry *r, unsigned limit_ms, unsigned step_ms)
{
	r->deadline_ns = gt_wait_deadline_in_ms(limit_ms);
	r->step_ms = step_ms;
	r->step_add_ms = 0;
	r->step_max_ms = step_ms;
}

enum gt_wait_result gt_retry_wait(struct gt_retry *r)
{
	uint64_t now = gt_mono_ns();
	if (now >= r->deadline_ns)
		return GT_WAIT_TIMEOUT;
	uint64_t wake = now + (uint64_t)r->step_ms * 1000000ull;
	enum gt_wait_result w = gt_wait_sleep(wake < r->deadline_ns ? wake : r->deadline_ns);
	if (w != GT_WAIT_TIMEOUT)
		return w;
	if (r->step_ms < r->step_max_ms)
		r->step_ms = r->step_ms + r->step_add_ms < r->step_max_ms ? r->step_ms + r->step_add_ms : r->step_max_ms;
	return GT_WAIT_READY;
}

int gt_retry_again(struct gt_retry *r, struct gt_error *err)
{
	enum gt_wait_result w = gt_retry_wait(r);
	if (w == GT_WAIT_READY)
		return 1;
	if (w == GT_WAIT_QUIT)
		return gt_wait_interrupted(err);
	return 0;
}
