/* gctop --serve --web-config FILE: what libmicrohttpd needs for TLS and who
 * may have an answer (a client certificate signed by the client CA, a
 * basic-auth user's password). frontends/serve_http.c asks it for the server's
 * flags and options, and calls gt_serve_web_admit first in each request;
 * without --web-config every call here lets everything through, as before.
 *
 * Kept apart from the connection admission (serve_guard.h), which is about
 * slots, not identities. */
#ifndef GCTOP_FRONTENDS_SERVE_WEB_H
#define GCTOP_FRONTENDS_SERVE_WEB_H

#include <stdbool.h>

#include <microhttpd.h>

#include "base/error.h"

struct gt_serve_web;

/* path NULL: no TLS, no authentication. NULL with err (GT_EXIT_BAD_CONFIG
 * for the file, GT_EXIT_FAILURE otherwise). */
struct gt_serve_web *gt_serve_web_new(const char *path, struct gt_error *err);

/* The flags to add to MHD_start_daemon's (TLS; suspend and resume). */
unsigned gt_serve_web_flags(const struct gt_serve_web *w);

/* The options to pass with MHD_OPTION_ARRAY (ended by MHD_OPTION_END). */
const struct MHD_OptionItem *gt_serve_web_options(const struct gt_serve_web *w);

/* "https" or "http", for the address gctop prints. */
const char *gt_serve_web_scheme(const struct gt_serve_web *w);

/* In the access handler, before anything else: true when the request may
 * be answered; false when it was answered (401, 403, 503) or suspended
 * until its password is checked, *rc then being the handler's return. */
bool gt_serve_web_admit(struct gt_serve_web *w, struct MHD_Connection *c, void **req_cls, enum MHD_Result *rc);

/* Before MHD_stop_daemon: answers every request waiting for a check. */
void gt_serve_web_stop(struct gt_serve_web *w);

void gt_serve_web_free(struct gt_serve_web *w);

/* A request has ended (the server's completion callback, which serve_http.c
 * owns: the server keeps one): frees what the check of its password held. */
void gt_serve_web_request_done(struct gt_serve_web *w, void **req_cls);

#endif
