/* gctop --serve's admission: the server's callbacks that keep the guard's
 * table (frontends/serve_guard.h) of who holds a connection, and look at a
 * socket for a whole request the server has not read yet. Every one runs
 * on the server's one thread, whose table it is. */
#ifndef GCTOP_FRONTENDS_SERVE_ADMIT_H
#define GCTOP_FRONTENDS_SERVE_ADMIT_H

#include <sys/socket.h>

#include <microhttpd.h>

/* MHD_AcceptPolicyCallback; cls is the struct gt_guard. A new client gets
 * in by dropping the connection the guard picks, or is refused. */
enum MHD_Result gt_serve_admit_accept(void *cls, const struct sockaddr *sa, socklen_t len);

/* MHD_OPTION_NOTIFY_CONNECTION's callback (cls the guard): each
 * connection's entry, from its start to its close. */
void gt_serve_admit_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			   enum MHD_ConnectionNotificationCode toe);

/* MHD_OPTION_NOTIFY_COMPLETED's callback: the request's answer is sent
 * (or abandoned), so its connection is no longer protected. */
void gt_serve_admit_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			      enum MHD_RequestTerminationCode toe);

/* The request handler's part: a request's headers are in on c. */
void gt_serve_admit_request(struct MHD_Connection *c);

#endif
