/* gctop --serve's HTTP side: libmicrohttpd on a thread of its own, which
 * answers GET /metrics with a reference to the snapshot cache's current
 * text (frontends/serve_cache.h), in the format the scraper's Accept
 * header asks for, and nothing else. A slow or hostile client can hold
 * only its own connection, never the sampling; and it holds that only
 * until a newcomer needs the slot (frontends/serve_guard.h). */
#ifndef GCTOP_FRONTENDS_SERVE_HTTP_H
#define GCTOP_FRONTENDS_SERVE_HTTP_H

#include "base/error.h"
#include "frontends/options.h"
#include "frontends/serve_cache.h"

struct MHD_Daemon;
struct gt_guard;
struct gt_serve_web;

/* The server and what its thread reads; the caller's, for as long as the
 * server runs. */
struct gt_serve_http {
	struct gt_serve_cache *cache;   /* what /metrics answers with */
	struct gt_serve_web *web;       /* --web-config's TLS and authentication */
	struct gt_guard *guard;         /* who holds a connection: the server thread's, until it stops */
	struct MHD_Daemon *daemon;      /* set by gt_serve_http_start */
};

/* Listens on --serve's address and port (a name resolved here, once) and
 * says where on stderr, with the port the system chose for port 0; the
 * server's own thread answers from then on. 0, or -1 with err. */
int gt_serve_http_start(struct gt_serve_http *h, const struct gt_options *opt, struct gt_error *err);
/* Answers the requests waiting for a password check (the server will not
 * stop with one suspended), then stops the server: no response is in
 * flight after this, so the cache's texts can go. */
void gt_serve_http_stop(struct gt_serve_http *h);

#endif
