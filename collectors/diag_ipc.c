/* Diagnostics IPC transport: connect with timeouts, one command per
 * connection, and the fallbacks to older command versions. */
#include "diag_ipc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static int connect_socket(pid_t pid, const char *path, int timeout_ms, struct gt_error *err)
{
	struct sockaddr_un sa;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path))
		return gt_fail(err, GT_EXIT_NO_DATA, "the diagnostics socket path %s is too long for a Unix socket", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot create a socket: %s", strerror(errno));
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (gt_diag_connect_checked(fd, path) != 0) {
		int e = errno;
		close(fd);
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
	return fd;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t r = recv(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Sends m and reads the reply header and payload. Returns the connected fd
 * (the caller closes it), or -1 with err set. *hresult is set for an error
 * reply (and -1 returned with the fd closed). */
static int transact(pid_t pid, const char *path, int timeout_ms, const struct gt_diag_msg *m,
		    struct gt_diag_header *h, uint8_t *payload, size_t payload_cap, size_t *payload_len,
		    uint32_t *hresult, struct gt_error *err)
{
	*hresult = 0;
	int fd = connect_socket(pid, path, timeout_ms, err);
	if (fd < 0)
		return -1;
	uint8_t hb[GT_DIAG_HEADER_SIZE];
	if (write_all(fd, m->data, m->len) != 0 || read_all(fd, hb, sizeof(hb)) != 0) {
		close(fd);
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "process %d did not answer on its diagnostics socket within %d ms", (int)pid, timeout_ms);
	}
	if (gt_diag_parse_header(hb, sizeof(hb), h) != 0) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "process %d answered with a malformed diagnostics IPC header", (int)pid);
	}
	size_t plen = h->size - GT_DIAG_HEADER_SIZE;
	if (plen > payload_cap || read_all(fd, payload, plen) != 0) {
		close(fd);
		return gt_fail(err, GT_EXIT_BAD_DATA, "process %d sent a truncated or oversized diagnostics IPC reply", (int)pid);
	}
	*payload_len = plen;
	if (h->command_set == GT_DIAG_SET_SERVER && h->command_id == GT_DIAG_SERVER_ERROR) {
		struct gt_diag_reader r = { payload, plen, 0, false };
		*hresult = gt_diag_get_u32(&r);
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

int gt_diag_process_info(pid_t pid, const char *path, int timeout_ms,
			 struct gt_diag_process_info *out, struct gt_error *err)
{
	static const uint8_t ids[] = { GT_DIAG_PROC_INFO3, GT_DIAG_PROC_INFO2, GT_DIAG_PROC_INFO };
	static const int versions[] = { 3, 2, 1 };
	static struct gt_diag_msg m;
	static uint8_t payload[GT_DIAG_MAX_MESSAGE];
	for (size_t i = 0; i < sizeof(ids); i++) {
		gt_diag_msg_begin(&m, GT_DIAG_SET_PROCESS, ids[i]);
		gt_diag_msg_finish(&m);
		struct gt_diag_header h;
		size_t plen;
		uint32_t hr;
		int fd = transact(pid, path, timeout_ms, &m, &h, payload, sizeof(payload), &plen, &hr, err);
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

int gt_diag_collect_tracing(pid_t pid, const char *path, int timeout_ms, uint32_t buffer_mb,
			    const struct gt_diag_provider *providers, size_t n_providers,
			    uint64_t *session_id, struct gt_error *err)
{
	static const struct gt_diag_session_opts none = { 0, false };
	return gt_diag_collect_tracing_opts(pid, path, timeout_ms, buffer_mb, &none, providers, n_providers,
					    session_id, err);
}

int gt_diag_collect_tracing_opts(pid_t pid, const char *path, int timeout_ms, uint32_t buffer_mb,
				 const struct gt_diag_session_opts *opts,
				 const struct gt_diag_provider *providers, size_t n_providers,
				 uint64_t *session_id, struct gt_error *err)
{
	static struct gt_diag_msg m;
	for (int version = 5; version >= 1; version--) {
		if (gt_diag_build_collect_opts(&m, version, buffer_mb, opts, providers, n_providers) != 0)
			return gt_fail(err, GT_EXIT_FAILURE, "the EventPipe request does not fit one IPC message");
		struct gt_diag_header h;
		uint8_t payload[8];
		size_t plen;
		uint32_t hr;
		int fd = transact(pid, path, timeout_ms, &m, &h, payload, sizeof(payload), &plen, &hr, err);
		if (fd < 0) {
			if (hr == GT_DIAG_HR_UNKNOWN_COMMAND)
				continue;
			return -1;
		}
		if (plen != 8) {
			close(fd);
			return gt_fail(err, GT_EXIT_BAD_DATA, "process %d answered CollectTracing without a session id", (int)pid);
		}
		struct gt_diag_reader r = { payload, plen, 0, false };
		*session_id = gt_diag_get_u64(&r);
		/* The stream is read without blocking from now on; the timeouts
		 * above only bounded the handshake. */
		struct timeval tv = { 0, 0 };
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		return fd;
	}
	return gt_fail(err, GT_EXIT_NO_DATA, "process %d knows no CollectTracing command gctop can send", (int)pid);
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
	int fd = transact(0, path, timeout_ms, &m, &h, payload, sizeof(payload), &plen, &hr, NULL);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
