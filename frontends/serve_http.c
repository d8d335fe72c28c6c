#include "frontends/serve_http.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "frontends/serve_admit.h"
#include "frontends/serve_guard.h"
#include "frontends/serve_gzip.h"
#include "frontends/serve_libs.h"
#include "frontends/serve_web.h"

/* A client that sends nothing for this long is dropped. */
#define SERVE_TIMEOUT_S 10u
/* Per connection, for the request's headers: /metrics takes no body. */
#define SERVE_CONNECTION_MEMORY ((size_t)32 * 1024)

/* The response's free callback's cls: the snapshot and the cache it goes
 * back to. */
struct response_ref {
	struct gt_serve_cache *cache;
	struct gt_serve_snapshot *s;
};

static void response_done(void *cls)
{
	struct response_ref *r = cls;
	gt_serve_cache_release(r->cache, r->s);
	free(r);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	struct MHD_Response *r =
		gt_serve_libs.MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result rc = gt_serve_libs.MHD_queue_response(c, status, r);
	gt_serve_libs.MHD_destroy_response(r);
	return rc;
}

/* The exposition in the format the scraper accepts, gzipped when it takes
 * gzip (the snapshot's one gzip, shared by every scrape of it). */
static enum MHD_Result reply_metrics(struct gt_serve_cache *cache, struct MHD_Connection *c)
{
	__typeof__(MHD_lookup_connection_value) *header = gt_serve_libs.MHD_lookup_connection_value;
	enum gt_metrics_format f = gt_metrics_negotiate(header(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	bool gzip = gt_serve_accepts_gzip(header(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
	struct response_ref *ref = malloc(sizeof(*ref));
	if (!ref)
		return MHD_NO;
	struct gt_serve_snapshot *s = gt_serve_cache_take(cache, f);
	if (!s) {
		free(ref);
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "gctop is out of memory\n");
	}
	*ref = (struct response_ref){ cache, s };
	gzip = gzip && gt_serve_cache_gzip(cache, s) == 0;
	struct MHD_Response *r = gt_serve_libs.MHD_create_response_from_buffer_with_free_callback_cls(
		gzip ? s->gz_len : s->len, gzip ? s->gz : s->text, response_done, ref);
	if (!r) {
		response_done(ref);
		return MHD_NO;
	}
	gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, gt_metrics_content_type(f));
	/* a cache between gctop and the scraper keeps each encoding apart */
	gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gzip)
		gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	enum MHD_Result rc = gt_serve_libs.MHD_queue_response(c, MHD_HTTP_OK, r);
	gt_serve_libs.MHD_destroy_response(r);
	return rc;
}

/* The access handler; cls is the struct gt_serve_http. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
	struct gt_serve_http *h = cls;
	(void)version;
	(void)upload_data;
	/* a request whose headers are in: its connection is young again,
	 * and protected while it is answered */
	gt_serve_admit_request(c);
	enum MHD_Result verdict;
	if (!gt_serve_web_admit(h->web, c, req_cls, &verdict))
		return verdict;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "gctop serves GET /metrics only\n");
	if (*upload_data_size)
		return MHD_NO;  /* a GET with a body: close the connection */
	if (strcmp(url, "/metrics") == 0)
		return reply_metrics(h->cache, c);
	if (strcmp(url, "/") == 0)
		return reply_text(c, MHD_HTTP_OK, "gctop: the metrics are at /metrics\n");
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found; gctop serves /metrics\n");
}

/* The listening address of --serve; resolving a name happens here, once. */
static int serve_address(const struct gt_options *opt, struct sockaddr_storage *sa, bool *v6, struct gt_error *err)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res = NULL;
	int rc = getaddrinfo(opt->serve_host, NULL, &hints, &res);
	if (rc != 0 || !res)
		return gt_fail(err, GT_EXIT_USAGE, "--serve: cannot use the address '%s': %s", opt->serve_host, gai_strerror(rc));
	memset(sa, 0, sizeof(*sa));
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*v6 = res->ai_family == AF_INET6;
	freeaddrinfo(res);
	if (*v6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)opt->serve_port);
	else
		((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)opt->serve_port);
	return 0;
}

/* The server keeps one completion callback: the guard's (the connection
 * is no longer protected) and the web's (its password check's state). */
static void request_completed(void *cls, struct MHD_Connection *c, void **req_cls, enum MHD_RequestTerminationCode toe)
{
	gt_serve_admit_completed(NULL, c, req_cls, toe);
	gt_serve_web_request_done(cls, req_cls);
}

/* Says where the server listens, with the port the system chose for port 0. */
static void say_where(const struct gt_serve_http *h, const struct gt_options *opt, bool v6)
{
	const union MHD_DaemonInfo *info = gt_serve_libs.MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	unsigned port = opt->serve_port;
	if (info && getsockname(info->listen_fd, (struct sockaddr *)&bound, &len) == 0)
		port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
							  : ((struct sockaddr_in *)&bound)->sin_port);
	fprintf(stderr, "gctop: serving %s://%s%s%s:%u/metrics\n", gt_serve_web_scheme(h->web), v6 ? "[" : "",
		opt->serve_host, v6 ? "]" : "", port);
}

int gt_serve_http_start(struct gt_serve_http *h, const struct gt_options *opt, struct gt_error *err)
{
	struct sockaddr_storage sa;
	bool v6 = false;
	if (serve_address(opt, &sa, &v6, err) != 0)
		return -1;
	/* One server thread: the guard's table is touched only there. The
	 * inter-thread channel wakes it to stop: without one, libmicrohttpd
	 * wakes it by shutting the listening socket, which it does not poll
	 * while every slot is taken, and quitting waited for the clients'
	 * next bytes or the nearest connection timeout (up to 10 s). */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0) |
			 gt_serve_web_flags(h->web);
	/* The quit signals must reach the sampling thread, whose wait lets them
	 * in (base/wait.h), not the server's: its thread starts with them blocked. */
	sigset_t quit, orig;
	sigemptyset(&quit);
	sigaddset(&quit, SIGINT);
	sigaddset(&quit, SIGTERM);
	sigaddset(&quit, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &quit, &orig);
	/* The limits are the guard's, which makes room where the server's
	 * own would refuse; the server's limit only bounds the connections
	 * being closed on top of them. */
	h->daemon = gt_serve_libs.MHD_start_daemon(flags, (uint16_t)opt->serve_port, gt_serve_admit_accept, h->guard,
						   handle, h,
						   MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
						   MHD_OPTION_CONNECTION_LIMIT, GT_GUARD_SLOTS,
						   MHD_OPTION_NOTIFY_CONNECTION, gt_serve_admit_notify, h->guard,
						   MHD_OPTION_NOTIFY_COMPLETED, request_completed, h->web,
						   MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S,
						   MHD_OPTION_CONNECTION_MEMORY_LIMIT, SERVE_CONNECTION_MEMORY,
						   MHD_OPTION_ARRAY, gt_serve_web_options(h->web),
						   MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &orig, NULL);
	if (!h->daemon)
		return gt_fail(err, GT_EXIT_FAILURE,
			       "--serve: cannot listen on %s port %u (in use, or not an address of this host?)",
			       opt->serve_host, opt->serve_port);
	say_where(h, opt, v6);
	return 0;
}

void gt_serve_http_stop(struct gt_serve_http *h)
{
	gt_serve_web_stop(h->web);
	gt_serve_libs.MHD_stop_daemon(h->daemon);
	h->daemon = NULL;
}
