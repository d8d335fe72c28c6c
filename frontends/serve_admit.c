/* gctop --serve's admission callbacks: see serve_admit.h and, for the
 * policy, serve_guard.h. */
#include "frontends/serve_admit.h"

#include <string.h>

#include "base/clock.h"
#include "frontends/serve_guard.h"
#include "frontends/serve_libs.h"

/* How much of a waiting request is looked at: a scraper's request is a few
 * hundred bytes (Prometheus sends some 300); one whose headers end past
 * this is not protected until the server has read it. */
#define ADMIT_PEEK_BYTES 4096

/* A whole request (its headers' blank line) waits unread on fd. Looked at
 * with MSG_PEEK, so the server still reads every byte. */
static bool whole_request_waiting(int fd)
{
	char buf[ADMIT_PEEK_BYTES];
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	return n > 0 && (memmem(buf, (size_t)n, "\r\n\r\n", 4) || memmem(buf, (size_t)n, "\n\n", 2));
}

/* shutdown, not close: the descriptor stays the server's to close, which
 * it does on this same thread's next pass, so it cannot be reused under
 * the table meanwhile. */
enum MHD_Result gt_serve_admit_accept(void *cls, const struct sockaddr *sa, socklen_t len)
{
	struct gt_guard_peer p;
	int drop = -1;
	if (!gt_guard_peer_of(sa, len, &p) || !gt_guard_admit(cls, &p, gt_mono_ns(), whole_request_waiting, &drop))
		return MHD_NO;
	if (drop >= 0)
		shutdown(drop, SHUT_RDWR);
	return MHD_YES;
}

/* Called before the server closes the descriptor. */
void gt_serve_admit_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			   enum MHD_ConnectionNotificationCode toe)
{
	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (*socket_context)
			gt_guard_remove(*socket_context);
		*socket_context = NULL;
		return;
	}
	__typeof__(MHD_get_connection_info) *info_of = gt_serve_libs.MHD_get_connection_info;
	const union MHD_ConnectionInfo *fd = info_of(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *addr = info_of(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	struct gt_guard_peer p;
	/* the server keeps the address as accept() gave it, sized for its family */
	if (!fd || !addr || !gt_guard_peer_of(addr->client_addr, sizeof(struct sockaddr_storage), &p))
		return;
	*socket_context = gt_guard_add(cls, &p, fd->connect_fd, gt_mono_ns());
	if (!*socket_context)
		shutdown(fd->connect_fd, SHUT_RDWR);
}

static struct gt_guard_conn *entry_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ctx =
		gt_serve_libs.MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ctx ? ctx->socket_context : NULL;
}

void gt_serve_admit_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			      enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)req_cls;
	(void)toe;
	struct gt_guard_conn *e = entry_of(c);
	if (e)
		gt_guard_answered(e, gt_mono_ns());
}

void gt_serve_admit_request(struct MHD_Connection *c)
{
	struct gt_guard_conn *e = entry_of(c);
	if (e)
		gt_guard_request(e, gt_mono_ns());
}
