/* gctop --serve. Two threads that share one thing, the newest exposition:
 * this loop samples every process once per interval (and keeps reading the
 * .NET sessions between rounds, as the picker does), writes the exposition
 * in both formats and swaps it in under a mutex; libmicrohttpd's own
 * thread answers each scrape with a reference to the current one. A scrape
 * therefore costs a lookup, never a sample, and a slow or hostile client
 * can hold only its own connection, never the sampling; and it holds that
 * only until a newcomer needs the slot (frontends/serve_guard.h).
 * Each round writes only the formats scraped lately: Prometheus asks for
 * OpenMetrics, and the other text was a fifth of the exposition's CPU and
 * 1.3 MB with 220 processes. The first request for a format not kept is
 * written from the fleet on the server's thread, under the fleet's lock
 * (the figures are the last round's either way).
 *
 * The loop is session/driver.h's, as every front end's; only this one
 * applies its read-late rule to the .NET sessions (SERVE_LAG_NS). */
#include "frontends/serve_mode.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "base/clock.h"
#include "base/quit.h"
#include "session/driver.h"
#include "session/fleet.h"
#include "frontends/serve_admit.h"
#include "frontends/serve_guard.h"
#include "frontends/serve_seccomp.h"
#include "frontends/serve_web.h"
#include "writers/metrics_writer.h"

/* A client that sends nothing for this long is dropped. */
#define SERVE_TIMEOUT_S 10u
/* Per connection, for the request's headers: /metrics takes no body. */
#define SERVE_CONNECTION_MEMORY ((size_t)32 * 1024)
#define SERVE_MAX_WAIT_FDS 1024
#define SERVE_FORMATS 2

/* One format's text, shared by the responses that send it. */
struct snapshot {
	unsigned refs;      /* under the exposition's lock */
	size_t len, cap;
	char *text;
};

/* A format not scraped for this long is no longer written each round. */
#define SERVE_KEEP_FORMAT_NS (600 * 1000000000ull)

struct exposition {
	pthread_mutex_t lock;
	struct snapshot *current[SERVE_FORMATS];   /* NULL: not kept */
	uint64_t asked_ns[SERVE_FORMATS];          /* the last request of each (CLOCK_MONOTONIC), 0: none */
	/* Held by the sampling thread except while it waits, and by the server's
	 * thread while it writes a format not kept. */
	pthread_mutex_t fleet_lock;
	const struct gt_fleet *fleet;
	struct gt_metrics_config metrics;          /* set before the threads start, then read only */
	size_t last_len[SERVE_FORMATS];            /* of the last text built (under fleet_lock) */
	/* The text of a snapshot no one holds any more, kept for the next
	 * round's (under lock): a megabyte allocated anew each round came as
	 * fresh pages, and their faults were 7% of --serve's CPU with 220
	 * processes (perf). */
	char *spare;
	size_t spare_cap;
	struct gt_serve_web *web;   /* --web-config's TLS and authentication (frontends/serve_web.h) */
};

static void snapshot_release(struct exposition *x, struct snapshot *s)
{
	pthread_mutex_lock(&x->lock);
	bool last = --s->refs == 0;
	if (last && !x->spare) {
		x->spare = s->text;
		x->spare_cap = s->cap;
		s->text = NULL;
	}
	pthread_mutex_unlock(&x->lock);
	if (last) {
		free(s->text);
		free(s);
	}
}

/* Room for a text of cap bytes: the spare when it is large enough. */
static char *text_room(struct exposition *x, size_t *cap)
{
	pthread_mutex_lock(&x->lock);
	char *t = x->spare;
	size_t have = x->spare_cap;
	x->spare = NULL;
	pthread_mutex_unlock(&x->lock);
	if (t && have >= *cap) {
		*cap = have;
		return t;
	}
	free(t);
	return *cap ? malloc(*cap) : NULL;
}

/* The response's free callback: cls is the snapshot; the exposition is
 * reached through a pointer stored before it. */
struct response_ref {
	struct exposition *x;
	struct snapshot *s;
};

static void response_done(void *cls)
{
	struct response_ref *r = cls;
	snapshot_release(r->x, r->s);
	free(r);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static struct snapshot *exposition_build(struct exposition *x, enum gt_metrics_format f);

/* A reference to format f's current text, or NULL when it is not kept. */
static struct snapshot *exposition_current(struct exposition *x, enum gt_metrics_format f)
{
	pthread_mutex_lock(&x->lock);
	struct snapshot *s = x->current[f];
	if (s)
		s->refs++;
	pthread_mutex_unlock(&x->lock);
	return s;
}

/* A reference to format f's current text (written now if it is not kept),
 * or NULL when out of memory. */
static struct snapshot *exposition_take(struct exposition *x, enum gt_metrics_format f)
{
	pthread_mutex_lock(&x->lock);
	x->asked_ns[f] = gt_mono_ns();
	pthread_mutex_unlock(&x->lock);
	struct snapshot *s = exposition_current(x, f);
	if (s)
		return s;
	pthread_mutex_lock(&x->fleet_lock);
	/* a round may have written it meanwhile; none can while this is held */
	s = exposition_current(x, f);
	if (!s && (s = exposition_build(x, f))) {
		pthread_mutex_lock(&x->lock);
		x->current[f] = s;
		s->refs++;
		pthread_mutex_unlock(&x->lock);
	}
	pthread_mutex_unlock(&x->fleet_lock);
	return s;
}

static enum MHD_Result reply_metrics(struct exposition *x, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enum gt_metrics_format f = gt_metrics_negotiate(accept);
	struct response_ref *ref = malloc(sizeof(*ref));
	if (!ref)
		return MHD_NO;
	struct snapshot *s = exposition_take(x, f);
	if (!s) {
		free(ref);
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "gctop is out of memory\n");
	}
	*ref = (struct response_ref){ x, s };
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(s->len, s->text, response_done, ref);
	if (!r) {
		response_done(ref);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, gt_metrics_content_type(f));
	enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
	(void)version;
	(void)upload_data;
	/* a request whose headers are in: its connection is young again,
	 * and protected while it is answered */
	gt_serve_admit_request(c);
	enum MHD_Result verdict;
	if (!gt_serve_web_admit(((struct exposition *)cls)->web, c, req_cls, &verdict))
		return verdict;
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "gctop serves GET /metrics only\n");
	if (*upload_data_size)
		return MHD_NO;  /* a GET with a body: close the connection */
	if (strcmp(url, "/metrics") == 0)
		return reply_metrics(cls, c);
	if (strcmp(url, "/") == 0)
		return reply_text(c, MHD_HTTP_OK, "gctop: the metrics are at /metrics\n");
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found; gctop serves /metrics\n");
}

/* The first round's room for a format's text; a round takes the last one's
 * length and a quarter more. */
#define SERVE_FIRST_TEXT (64 * 1024)
/* Past this, something is wrong (a process's figures take a few KiB). */
#define SERVE_MAX_TEXT ((size_t)1 << 30)

/* A text that grows as a stream writes it. open_memstream would do this,
 * but it grows from nothing and zeroes each larger buffer: with a fleet's
 * megabyte of text that was a sixth of --serve's CPU (perf, 60 idle JVMs).
 * This one starts at the last round's size and only copies. */
struct text_buf {
	char *text;
	size_t len, cap;
};

static ssize_t text_buf_write(void *cookie, const char *data, size_t size)
{
	struct text_buf *b = cookie;
	if (size > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : SERVE_FIRST_TEXT;
		while (cap - b->len < size) {
			if (cap >= SERVE_MAX_TEXT)
				return -1;
			cap *= 2;
		}
		char *t = realloc(b->text, cap);
		if (!t)
			return -1;
		b->text = t;
		b->cap = cap;
	}
	memcpy(b->text + b->len, data, size);
	b->len += size;
	return (ssize_t)size;
}

/* Builds one format's text for the fleet as it is now; NULL when out of memory. */
static struct snapshot *snapshot_build(struct exposition *x, const struct gt_metrics_target *t, size_t n,
				       enum gt_metrics_format f)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct text_buf b = { .cap = x->last_len[f] + x->last_len[f] / 4 };
	b.text = s ? text_room(x, &b.cap) : NULL;
	if (!b.text)
		b.cap = 0;
	FILE *m = s ? fopencookie(&b, "w", (cookie_io_functions_t){ .write = text_buf_write }) : NULL;
	int rc = m ? gt_metrics_write(m, f, &x->metrics, t, n) : -1;
	if (m && fclose(m) != 0)
		rc = -1;
	/* an empty text still needs a buffer to hand to the server */
	if (rc == 0 && !b.text && !(b.text = malloc(1)))
		rc = -1;
	if (rc != 0) {
		free(b.text);
		free(s);
		return NULL;
	}
	x->last_len[f] = b.len;
	s->text = b.text;
	s->len = b.len;
	s->cap = b.cap;
	s->refs = 1;
	return s;
}

/* Format f's text of the fleet's figures (fleet_lock held), or NULL when
 * out of memory. */
static struct snapshot *exposition_build(struct exposition *x, enum gt_metrics_format f)
{
	const struct gt_fleet *fleet = x->fleet;
	struct gt_metrics_target *t = fleet->count ? calloc(fleet->count, sizeof(*t)) : NULL;
	if (fleet->count && !t)
		return NULL;
	/* the processes with a sample of their own, in pid order */
	size_t n = 0;
	for (size_t i = 0; i < fleet->count; i++) {
		const struct gt_fleet_member *m = &fleet->m[i];
		if (!gt_fleet_member_live(m))
			continue;
		/* the sample as the derive step held it to the plausibility
		 * rules (model/plausible.h): n/a writes no series */
		const struct gt_sample *held =
			m->session->live.have_derived ? &m->session->live.derived.cur : &m->session->prev;
		t[n++] = (struct gt_metrics_target){ .info = &m->session->info, .sample = held,
						     .derived = &m->session->live.derived, .pauses = &m->pauses,
						     .watch_start_s = m->watch_start_s,
						     .findings = m->findings ? m->findings->found : NULL,
						     .n_findings = m->findings ? m->findings->n : 0 };
	}
	struct snapshot *s = snapshot_build(x, t, n, f);
	free(t);
	return s;
}

/* Swaps in the fleet's figures in the formats scraped lately (fleet_lock
 * held); on failure the previous ones stay. */
static void exposition_publish(struct exposition *x)
{
	uint64_t now = gt_mono_ns();
	for (int f = 0; f < SERVE_FORMATS; f++) {
		pthread_mutex_lock(&x->lock);
		bool keep = x->asked_ns[f] && now - x->asked_ns[f] < SERVE_KEEP_FORMAT_NS;
		pthread_mutex_unlock(&x->lock);
		struct snapshot *s = keep ? exposition_build(x, (enum gt_metrics_format)f) : NULL;
		if (keep && !s)
			continue;
		pthread_mutex_lock(&x->lock);
		struct snapshot *old = x->current[f];
		x->current[f] = s;
		pthread_mutex_unlock(&x->lock);
		if (old)
			snapshot_release(x, old);
	}
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

static struct MHD_Daemon *serve_start(const struct gt_options *opt, struct exposition *x, struct gt_guard *g,
				       struct gt_error *err)
{
	struct sockaddr_storage sa;
	bool v6 = false;
	if (serve_address(opt, &sa, &v6, err) != 0)
		return NULL;
	/* One server thread: the guard's table is touched only there. The
	 * inter-thread channel wakes it to stop: without one, libmicrohttpd
	 * wakes it by shutting the listening socket, which it does not poll
	 * while every slot is taken, and quitting waited for the clients'
	 * next bytes or the nearest connection timeout (up to 10 s). */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | (v6 ? MHD_USE_IPv6 : 0) |
			 gt_serve_web_flags(x->web);
	/* The quit signals must reach this thread, whose wait lets them in
	 * (base/wait.h), not the server's: its thread starts with them blocked. */
	sigset_t quit, orig;
	sigemptyset(&quit);
	sigaddset(&quit, SIGINT);
	sigaddset(&quit, SIGTERM);
	sigaddset(&quit, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &quit, &orig);
	/* The limits are the guard's, which makes room where the server's
	 * own would refuse; the server's limit only bounds the connections
	 * being closed on top of them. */
	struct MHD_Daemon *d = MHD_start_daemon(flags, (uint16_t)opt->serve_port, gt_serve_admit_accept, g, handle, x,
						MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
						MHD_OPTION_CONNECTION_LIMIT, GT_GUARD_SLOTS,
						MHD_OPTION_NOTIFY_CONNECTION, gt_serve_admit_notify, g,
						MHD_OPTION_NOTIFY_COMPLETED, request_completed, x->web,
						MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S,
						MHD_OPTION_CONNECTION_MEMORY_LIMIT, SERVE_CONNECTION_MEMORY,
						MHD_OPTION_ARRAY, gt_serve_web_options(x->web),
						MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &orig, NULL);
	if (!d) {
		gt_fail(err, GT_EXIT_FAILURE, "--serve: cannot listen on %s port %u (in use, or not an address of this host?)",
			opt->serve_host, opt->serve_port);
		return NULL;
	}
	/* Say where, with the port the system chose for port 0. */
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_LISTEN_FD);
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	unsigned port = opt->serve_port;
	if (info && getsockname(info->listen_fd, (struct sockaddr *)&bound, &len) == 0)
		port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
							  : ((struct sockaddr_in *)&bound)->sin_port);
	fprintf(stderr, "gctop: serving %s://%s%s%s:%u/metrics\n", gt_serve_web_scheme(x->web), v6 ? "[" : "",
		opt->serve_host, v6 ? "]" : "", port);
	return d;
}

/* Every process the user can see, listed only when a new one may be there
 * (a scrape every second must not map every JVM's perf data each time),
 * a JVM opened once its perf data is likely written, and one that could
 * not be opened or read tried again (a busy or starting runtime). */
static const struct gt_fleet_policy serve_policy = {
	.open_min_age_ms = 1000,
	.list_on_change = true,
	.retry = true,
	.findings = true,
};

/* serve_policy, with the --ops counter every JVM counts operations in. */
static struct gt_fleet_policy serve_policy_for(const struct gt_options *opt)
{
	struct gt_fleet_policy p = serve_policy;
	p.opcount_counter = opt->opcount_counter;
	p.opcount_agent = opt->ops_agent;
	p.opcount_agent_match = opt->ops_agent_match;
	return p;
}

/* A .NET session's stream is read at most this often between rounds (and
 * whole at each round's sample): its events carry their own times, and
 * each of 20 sessions sent data two or three times a second at moments of
 * its own, so reading each at once woke the loop about 50 times a second
 * (a sixth of gctop --serve's CPU with 200 idle JVMs and 20 .NET
 * processes, perf). The runtime holds what waits in the session's buffer. */
#define SERVE_LAG_NS 200000000ull

/* The sampling loop's state, for its callbacks (session/driver.h). */
struct serve_run {
	const struct gt_options *opt;
	struct gt_fleet *fleet;
	struct exposition *x;
	uint64_t next_round;
};

/* A round when it is due (every process sampled, the exposition swapped
 * in), then the collectors' ticks (HotSpot's estimator must see every eden
 * fill), each member at its own. */
static bool serve_tick(void *ctx, uint64_t now)
{
	struct serve_run *r = ctx;
	if (now >= r->next_round) {
		gt_fleet_refresh(r->fleet);
		exposition_publish(r->x);
		r->next_round += r->opt->interval_ns;
		/* after a stall, no burst of rounds */
		if (r->next_round <= now)
			r->next_round = now + r->opt->interval_ns;
	}
	if (now >= gt_fleet_next_poll_ns(r->fleet))
		gt_fleet_poll(r->fleet, now);
	return true;
}

static uint64_t serve_deadline(void *ctx, uint64_t now)
{
	struct serve_run *r = ctx;
	(void)now;
	uint64_t next_poll = gt_fleet_next_poll_ns(r->fleet);
	return r->next_round < next_poll ? r->next_round : next_poll;
}

/* Every session gctop opened is read continuously (those that may lag no
 * sooner than the driver's read-late window lets them) or closed. */
static size_t serve_fds(void *ctx, int *fds, size_t max, bool lagging_too)
{
	struct serve_run *r = ctx;
	return lagging_too ? gt_fleet_wait_fds(r->fleet, fds, max) : gt_fleet_wait_fds_prompt(r->fleet, fds, max);
}

static bool serve_read(void *ctx, const struct pollfd *polled, size_t n, uint64_t now)
{
	struct serve_run *r = ctx;
	gt_fleet_events(r->fleet, polled, n, now);
	return true;
}

/* The fleet is the server's while this thread waits. */
static void serve_unlock(void *ctx)
{
	pthread_mutex_unlock(&((struct exposition *)ctx)->fleet_lock);
}

static void serve_lock(void *ctx)
{
	pthread_mutex_lock(&((struct exposition *)ctx)->fleet_lock);
}

static int serve_loop(const struct gt_options *opt, struct gt_fleet *fleet, struct exposition *x, struct gt_error *err)
{
	struct serve_run r = { opt, fleet, x, gt_mono_ns() };
	struct gt_driver_source source = {
		.ctx = &r, .tick = serve_tick, .deadline = serve_deadline,
		.fds = serve_fds, .max_fds = SERVE_MAX_WAIT_FDS, .read = serve_read,
	};
	struct gt_driver d;
	if (gt_driver_init(&d, &source, 1, err) != 0)
		return -1;
	d.lag_ns = SERVE_LAG_NS;
	d.unlock = serve_unlock;
	d.lock = serve_lock;
	d.lock_ctx = x;
	pthread_mutex_lock(&x->fleet_lock);
	gt_driver_run(&d);
	pthread_mutex_unlock(&x->fleet_lock);
	gt_driver_free(&d);
	return 0;
}

int gt_serve_run(const struct gt_options *opt, struct gt_error *err)
{
	gt_quit_install();
	signal(SIGPIPE, SIG_IGN);
	struct exposition x = { .lock = PTHREAD_MUTEX_INITIALIZER, .fleet_lock = PTHREAD_MUTEX_INITIALIZER };
	struct gt_guard guard = { 0 };   /* the server thread's, until it stops */
	/* No exec and no ptrace for the rest of gctop's life, before any thread
	 * starts (each inherits the filter), the web config's parser included. */
	if (gt_serve_forbid_exec(err) != 0 || !(x.web = gt_serve_web_new(opt->web_config, err))) {
		gt_serve_web_free(x.web);
		return err->code;
	}
	struct gt_fleet *fleet = malloc(sizeof(*fleet));
	int status = GT_EXIT_FAILURE;
	struct gt_fleet_policy policy = serve_policy_for(opt);
	if (fleet && gt_fleet_init(fleet, &policy, opt->pids, opt->n_pids) != 0) {
		free(fleet);
		fleet = NULL;
	}
	if (!fleet) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		goto out;
	}
	x.fleet = fleet;
	x.metrics.durations = opt->gc_duration_buckets.n ? &opt->gc_duration_buckets : NULL;
	struct MHD_Daemon *d = serve_start(opt, &x, &guard, err);
	if (!d) {
		status = err->code;
		goto out;
	}
	status = serve_loop(opt, fleet, &x, err) == 0 ? GT_EXIT_OK : err->code;
	/* Requests waiting for a password check are answered first: the
	 * server will not stop with one suspended. */
	gt_serve_web_stop(x.web);
	/* No response is in flight after this: the snapshots can go. */
	MHD_stop_daemon(d);
out:
	for (int f = 0; f < SERVE_FORMATS; f++)
		if (x.current[f])
			snapshot_release(&x, x.current[f]);
	free(x.spare);
	gt_serve_web_free(x.web);
	if (fleet)
		gt_fleet_free(fleet);
	free(fleet);
	return status;
}
