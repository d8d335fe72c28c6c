/* gctop --serve --web-config: TLS options and the gate of each request
 * (serve_web.h). */
#include "frontends/serve_web.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/serve_libs.h"
#include "frontends/web_auth.h"
#include "frontends/web_config.h"

/* The options array: at most TLS's four, the completion callback, the end. */
#define WEB_MAX_OPTIONS 8
#define WEB_REALM "gctop"

struct gt_serve_web {
	struct gt_web_config config;
	bool configured;
	struct gt_auth *auth;          /* NULL without basic_auth_users */
	char priorities[160];          /* GnuTLS's, for min_version..max_version */
	struct MHD_OptionItem options[WEB_MAX_OPTIONS];
};

/* A request's state between its suspension and its answer. The verifier
 * may answer before the server's thread has suspended the request: of the
 * two, the later resumes it (resuming a request not suspended yet would be
 * lost, and the request would wait forever). */
enum { REQ_QUEUED, REQ_SUSPENDED, REQ_CHECKED };
struct web_request {
	struct MHD_Connection *c;
	struct gt_auth_job *job;
	atomic_int state;
};

/* GnuTLS's words for TLS 1.0 .. 1.3 (gt_web_tls_version's order). */
static const char *const tls_names[] = { "VERS-TLS1.0", "VERS-TLS1.1", "VERS-TLS1.2", "VERS-TLS1.3" };

static void set_priorities(struct gt_serve_web *w)
{
	size_t n = (size_t)snprintf(w->priorities, sizeof(w->priorities), "NORMAL:-VERS-ALL");
	for (int v = w->config.min_version; v <= (int)w->config.max_version; v++)
		n += (size_t)snprintf(w->priorities + n, sizeof(w->priorities) - n, ":+%s", tls_names[v]);
}

void gt_serve_web_request_done(struct gt_serve_web *w, void **req_cls)
{
	struct web_request *r = *req_cls;
	if (!r)
		return;
	gt_auth_job_free(w->auth, r->job);
	free(r);
	*req_cls = NULL;
}

static void build_options(struct gt_serve_web *w)
{
	size_t n = 0;
	const struct gt_web_config *c = &w->config;
	if (c->tls) {
		set_priorities(w);
		w->options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, c->pem[GT_WEB_CERT] };
		w->options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, c->pem[GT_WEB_KEY] };
		w->options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0, w->priorities };
		if (c->client_auth != GT_WEB_NO_CLIENT_CERT)
			w->options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0, c->pem[GT_WEB_CLIENT_CA] };
	}
	w->options[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
}

struct gt_serve_web *gt_serve_web_new(const char *path, struct gt_error *err)
{
	struct gt_serve_web *w = gt_calloc(sizeof(*w), err);
	if (!w || !path) {
		if (w)
			build_options(w);
		return w;
	}
	if (gt_web_config_load(path, &w->config, err) != 0) {
		free(w);
		return NULL;
	}
	w->configured = true;
	if (w->config.tls && !gt_serve_libs.MHD_is_feature_supported(MHD_FEATURE_TLS)) {
		gt_serve_web_free(w);
		gt_fail(err, GT_EXIT_FAILURE, "--web-config asks for TLS, and this libmicrohttpd was built without it");
		return NULL;
	}
	if (w->config.n_users && !(w->auth = gt_auth_new(w->config.users, w->config.n_users, err))) {
		gt_serve_web_free(w);
		return NULL;
	}
	/* allowed, as the toolkit allows it, but said: anyone on the path reads them */
	if (w->config.n_users && !w->config.tls)
		fprintf(stderr, "gctop: --web-config has basic_auth_users without tls_server_config: "
			"the passwords cross the network in clear\n");
	build_options(w);
	return w;
}

unsigned gt_serve_web_flags(const struct gt_serve_web *w)
{
	return (w->config.tls ? MHD_USE_TLS : 0) | (w->auth ? MHD_ALLOW_SUSPEND_RESUME : 0);
}

const struct MHD_OptionItem *gt_serve_web_options(const struct gt_serve_web *w)
{
	return w->options;
}

const char *gt_serve_web_scheme(const struct gt_serve_web *w)
{
	return w->config.tls ? "https" : "http";
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *text)
{
	struct MHD_Response *r =
		gt_serve_libs.MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	gt_serve_libs.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	enum MHD_Result rc = status == MHD_HTTP_UNAUTHORIZED
				     ? gt_serve_libs.MHD_queue_basic_auth_fail_response(c, WEB_REALM, r)
				     : gt_serve_libs.MHD_queue_response(c, status, r);
	gt_serve_libs.MHD_destroy_response(r);
	return rc;
}

/* The client's certificate, when the policy asks for one: given (or not
 * needed) and signed by the client CA. GnuTLS asks for it in the
 * handshake (libmicrohttpd does once a trust list is set) and leaves the
 * verdict to the server. */
static bool client_cert_ok(const struct gt_serve_web *w, struct MHD_Connection *c)
{
	if (w->config.client_auth == GT_WEB_NO_CLIENT_CERT)
		return true;
	const union MHD_ConnectionInfo *info =
		gt_serve_libs.MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!info || !info->tls_session)
		return false;
	gnutls_session_t s = info->tls_session;
	unsigned n = 0;
	if (!gt_serve_libs.gnutls_certificate_get_peers(s, &n) || n == 0)
		return w->config.client_auth == GT_WEB_VERIFY_IF_GIVEN;
	unsigned status = 0;
	return gt_serve_libs.gnutls_certificate_verify_peers2(s, &status) == GNUTLS_E_SUCCESS && status == 0;
}

/* The verifier's answer is in (its thread). */
static void checked(void *ctx)
{
	struct web_request *r = ctx;
	if (atomic_exchange(&r->state, REQ_CHECKED) == REQ_SUSPENDED)
		gt_serve_libs.MHD_resume_connection(r->c);
}

/* The server's thread suspends the request until the answer. */
static void suspend(struct web_request *r)
{
	gt_serve_libs.MHD_suspend_connection(r->c);
	if (atomic_exchange(&r->state, REQ_SUSPENDED) == REQ_CHECKED)
		gt_serve_libs.MHD_resume_connection(r->c);
}

/* The basic-auth verdict for this request: from the cache, or after the
 * verifier's answer (the request was suspended and is called again). */
static enum gt_auth_result password_verdict(struct gt_serve_web *w, struct MHD_Connection *c, void **req_cls)
{
	struct web_request *r = *req_cls;
	if (r && r->job)
		return gt_auth_job_result(w->auth, r->job);
	char *password = NULL;
	char *user = gt_serve_libs.MHD_basic_auth_get_username_password(c, &password);
	enum gt_auth_result v = GT_AUTH_DENIED;
	if (user && password && (r = calloc(1, sizeof(*r)))) {
		r->c = c;
		atomic_init(&r->state, REQ_QUEUED);
		v = gt_auth_check(w->auth, user, password, checked, r, &r->job);
		if (v == GT_AUTH_PENDING)
			*req_cls = r;
		else
			free(r);
	} else if (user && password) {
		v = GT_AUTH_BUSY;
	}
	if (password)
		explicit_bzero(password, strlen(password));
	gt_serve_libs.MHD_free(user);
	gt_serve_libs.MHD_free(password);
	return v;
}

bool gt_serve_web_admit(struct gt_serve_web *w, struct MHD_Connection *c, void **req_cls, enum MHD_Result *rc)
{
	if (!w->configured)
		return true;
	if (w->config.tls && !client_cert_ok(w, c)) {
		*rc = answer(c, MHD_HTTP_FORBIDDEN, "gctop wants a client certificate signed by its client CA\n");
		return false;
	}
	if (!w->auth)
		return true;
	switch (password_verdict(w, c, req_cls)) {
	case GT_AUTH_OK:
		return true;
	case GT_AUTH_PENDING:
		suspend(*req_cls);
		*rc = MHD_YES;
		return false;
	case GT_AUTH_BUSY:
		*rc = answer(c, MHD_HTTP_SERVICE_UNAVAILABLE, "gctop is checking too many passwords; try again\n");
		return false;
	case GT_AUTH_DENIED:
	default:
		*rc = answer(c, MHD_HTTP_UNAUTHORIZED, "gctop wants a user and password (basic authentication)\n");
		return false;
	}
}

void gt_serve_web_stop(struct gt_serve_web *w)
{
	if (w && w->auth)
		gt_auth_stop(w->auth);
}

void gt_serve_web_free(struct gt_serve_web *w)
{
	if (!w)
		return;
	/* the verifier's thread may still run (the server never started) */
	gt_serve_web_stop(w);
	gt_auth_free(w->auth);
	gt_web_config_free(&w->config);
	free(w);
}
