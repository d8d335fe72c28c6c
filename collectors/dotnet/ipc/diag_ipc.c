/* Diagnostics IPC transport: one command per connection, the fallbacks to
 * older command versions, and one deadline for all of it (a target that
 * dribbles its reply a byte at a time gets no more time than a silent one;
 * a quit request ends the wait at once). */
#include "collectors/dotnet/ipc/diag_ipc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"

/* One deadline for a whole command, fallbacks to older versions included;
 * ms is kept for the message. */
struct ipc_deadline {
	uint64_t at;
	int ms;
};

/* A Unix socket does not connect asynchronously: with its backlog full a
 * non-blocking connect() fails with EAGAIN at once, so it is retried in
 * short naps until the transaction's deadline. */
#define CONNECT_RETRY_MS 20

static int connect_failed(pid_t pid, const char *path, int e, struct gt_error *err)
{
	if (e == EPROTO)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "%s is not the diagnostics socket of process %d (another user's, or another process "
			       "listens on it); not using it", path, (int)pid);
	if (e == EACCES || e == EPERM)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "the diagnostics socket of .NET process %d (%s) belongs to another user; "
			       "run gctop as that user or as root", (int)pid, path);
	if (e == ECONNREFUSED || e == ENOENT)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "the diagnostics socket of process %d (%s) accepts no connections; "
			       "it is stale or the runtime is shutting down", (int)pid, path);
	return gt_fail(err, GT_EXIT_FAILURE, "cannot connect to the diagnostics socket %s of process %d: %s",
		       path, (int)pid, strerror(e));
}

/* The transaction ended early: its deadline passed or the user quit. */
static int transaction_cut(pid_t pid, enum gt_wait_result w, int timeout_ms, struct gt_error *err)
{
	if (w == GT_WAIT_QUIT)
		return gt_wait_interrupted(err);
	if (w == GT_WAIT_TIMEOUT)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "process %d did not answer on its diagnostics socket within %d ms", (int)pid, timeout_ms);
	return gt_fail(err, GT_EXIT_NO_DATA, "process %d closed its diagnostics socket without an answer", (int)pid);
}

/* A non-blocking connected socket, or -1 with err set. */
static int connect_socket(pid_t pid, const char *path, const struct ipc_deadline *dl, struct gt_error *err)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return gt_fail(err, GT_EXIT_NO_DATA, "the diagnostics socket path %s is too long for a Unix socket", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot create a socket: %s", strerror(errno));
	/* Through gt_diag_connect_checked: the socket is reached from the
	 * target's root, not by a path its owner could swap (diag_ipc_discover.c). */
	while (gt_diag_connect_checked(fd, path) != 0) {
		int e = errno;
		if (e == EAGAIN || e == EINTR) {
			uint64_t nap = gt_wait_deadline_in_ms(CONNECT_RETRY_MS);
			enum gt_wait_result w = gt_wait_sleep(nap < dl->at ? nap : dl->at);
			if (w == GT_WAIT_QUIT || gt_mono_ns() >= dl->at) {
				close(fd);
				return transaction_cut(pid, w == GT_WAIT_QUIT ? w : GT_WAIT_TIMEOUT, dl->ms, err);
			}
			continue;
		}
		close(fd);
		return connect_failed(pid, path, e, err);
	}
	return fd;
}

/* Sends m and reads the reply header and payload, all by dl. Returns the
 * connected fd (the caller closes it), or -1 with err set. *hresult is set
 * for an error reply (and -1 returned with the fd closed). */
static int transact(pid_t pid, const char *path, const struct ipc_deadline *dl, const struct gt_diag_msg *m,
		    struct gt_diag_header *h, uint8_t *payload, size_t payload_cap, size_t *payload_len,
		    uint32_t *hresult, struct gt_error *err)
{
	*hresult = 0;
	int fd = connect_socket(pid, path, dl, err);
	if (fd < 0)
		return -1;
	uint8_t hb[GT_DIAG_HEADER_SIZE];
	enum gt_wait_result w = gt_wait_write_all(fd, m->data, m->len, dl->at);
	if (w == GT_WAIT_READY)
		w = gt_wait_read_all(fd, hb, sizeof(hb), dl->at);
	if (w != GT_WAIT_READY) {
		close(fd);
		return transaction_cut(pid, w, dl->ms, err);
	}
	if (gt_diag_parse_header(hb, sizeof(hb), h) != 0) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "process %d answered with a malformed diagnostics IPC header", (int)pid);
	}
	size_t plen = h->size - GT_DIAG_HEADER_SIZE;
	if (plen > payload_cap) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "process %d sent an oversized diagnostics IPC reply", (int)pid);
	}
	w = gt_wait_read_all(fd, payload, plen, dl->at);
	if (w != GT_WAIT_READY) {
		close(fd);
		if (w == GT_WAIT_CLOSED)
			return gt_fail(err, GT_EXIT_BAD_DATA, "process %d sent a truncated diagnostics IPC reply", (int)pid);
		return transaction_cut(pid, w, dl->ms, err);
	}
	*payload_len = plen;
	if (h->command_set == GT_DIAG_SET_SERVER && h->command_id == GT_DIAG_SERVER_ERROR) {
		struct gt_cursor r = gt_cursor_at(payload, plen);
		*hresult = gt_cursor_u32(&r);
		close(fd);
		return gt_fail(err, GT_EXIT_NO_DATA, "process %d refused the diagnostics command (error 0x%08x)",
			       (int)pid, (unsigned)*hresult);
	}
	if (h->command_set != GT_DIAG_SET_SERVER || h->command_id != GT_DIAG_SERVER_OK) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "process %d sent an unexpected diagnostics reply (%02x/%02x)",
			       (int)pid, h->command_set, h->command_id);
	}
	return fd;
}

static struct ipc_deadline deadline_in(int timeout_ms)
{
	struct ipc_deadline dl = { gt_wait_deadline_in_ms(timeout_ms > 0 ? (unsigned)timeout_ms : 0), timeout_ms };
	return dl;
}

/* A request and its reply: 128 KiB, too much for a worker thread's stack,
 * and a static one would be shared between threads. */
struct ipc_buffers {
	struct gt_diag_msg m;
	uint8_t payload[GT_DIAG_MAX_MESSAGE];
};

static int process_info(pid_t pid, const char *path, int timeout_ms, struct gt_diag_process_info *out,
			struct ipc_buffers *b, struct gt_error *err)
{
	static const uint8_t ids[] = { GT_DIAG_PROC_INFO3, GT_DIAG_PROC_INFO2, GT_DIAG_PROC_INFO };
	static const int versions[] = { 3, 2, 1 };
	struct gt_diag_msg *m = &b->m;
	uint8_t *payload = b->payload;
	struct ipc_deadline dl = deadline_in(timeout_ms);
	for (size_t i = 0; i < sizeof(ids); i++) {
		gt_diag_msg_begin(m, GT_DIAG_SET_PROCESS, ids[i]);
		gt_diag_msg_finish(m);
		struct gt_diag_header h;
		size_t plen;
		uint32_t hr;
		int fd = transact(pid, path, &dl, m, &h, payload, sizeof(b->payload), &plen, &hr, err);
		if (fd < 0) {
			if (hr == GT_DIAG_HR_UNKNOWN_COMMAND)
				continue;
			return -1;
		}
		close(fd);
		if (gt_diag_parse_process_info(payload, plen, versions[i], out) != 0)
			return gt_fail(err, GT_EXIT_BAD_DATA, "process %d sent a malformed ProcessInfo reply", (int)pid);
		return 0;
	}
	return gt_fail(err, GT_EXIT_NO_DATA, "process %d knows no ProcessInfo command; its runtime is too old for gctop", (int)pid);
}

int gt_diag_process_info(pid_t pid, const char *path, int timeout_ms,
			 struct gt_diag_process_info *out, struct gt_error *err)
{
	struct ipc_buffers *b = malloc(sizeof(*b));
	if (!b)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	int rc = process_info(pid, path, timeout_ms, out, b, err);
	free(b);
	return rc;
}

static int collect_tracing(pid_t pid, const char *path, int timeout_ms, uint32_t buffer_mb,
			   const struct gt_diag_session_opts *opts, const struct gt_diag_provider *providers,
			   size_t n_providers, uint64_t *session_id, struct gt_diag_msg *m, struct gt_error *err)
{
	struct ipc_deadline dl = deadline_in(timeout_ms);
	for (int version = 5; version >= 1; version--) {
		if (gt_diag_build_collect_opts(m, version, buffer_mb, opts, providers, n_providers) != 0)
			return gt_fail(err, GT_EXIT_FAILURE, "the EventPipe request does not fit one IPC message");
		struct gt_diag_header h;
		uint8_t payload[8];
		size_t plen;
		uint32_t hr;
		int fd = transact(pid, path, &dl, m, &h, payload, sizeof(payload), &plen, &hr, err);
		if (fd < 0) {
			if (hr == GT_DIAG_HR_UNKNOWN_COMMAND)
				continue;
			return -1;
		}
		if (plen != 8) {
			close(fd);
			return gt_fail(err, GT_EXIT_BAD_DATA, "process %d answered CollectTracing without a session id", (int)pid);
		}
		struct gt_cursor r = gt_cursor_at(payload, plen);
		*session_id = gt_cursor_u64(&r);
		/* The socket is non-blocking: the stream is read as it comes. */
		return fd;
	}
	return gt_fail(err, GT_EXIT_NO_DATA, "process %d knows no CollectTracing command gctop can send", (int)pid);
}

int gt_diag_collect_tracing(pid_t pid, const char *path, int timeout_ms, uint32_t buffer_mb,
				 const struct gt_diag_session_opts *opts,
				 const struct gt_diag_provider *providers, size_t n_providers,
				 uint64_t *session_id, struct gt_error *err)
{
	/* On the heap, as in gt_diag_process_info. */
	struct gt_diag_msg *m = malloc(sizeof(*m));
	if (!m)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	int fd = collect_tracing(pid, path, timeout_ms, buffer_mb, opts, providers, n_providers, session_id, m, err);
	free(m);
	return fd;
}

int gt_diag_stop_tracing(const char *path, int timeout_ms, uint64_t session_id)
{
	struct gt_diag_msg m;
	gt_diag_msg_begin(&m, GT_DIAG_SET_EVENTPIPE, GT_DIAG_EP_STOP);
	gt_diag_put_u64(&m, session_id);
	if (gt_diag_msg_finish(&m) != 0)
		return -1;
	struct gt_diag_header h;
	uint8_t payload[64];
	size_t plen;
	uint32_t hr;
	struct ipc_deadline dl = deadline_in(timeout_ms);
	int fd = transact(0, path, &dl, &m, &h, payload, sizeof(payload), &plen, &hr, NULL);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
