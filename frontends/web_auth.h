/* gctop --serve's basic authentication: bcrypt checks off the server's
 * thread, and a cache of their answers.
 *
 * A bcrypt check costs 50-100 ms of CPU at cost 10. Run on libmicrohttpd's
 * one thread, each wrong password would stall every scrape for that long,
 * and a client sending new ones without pause would stall them for good.
 * So the server's thread only looks the pair up: a pair checked before is
 * answered at once (Prometheus sends the same pair every scrape, and the
 * exporter-toolkit caches the same way); a new one goes to a verifier
 * thread of its own, whose answer resumes the request (libmicrohttpd's
 * suspend and resume). What a flood of wrong passwords can hold is that
 * thread and its short queue: a user's good pair, once checked, stays in a
 * slot of its own that no wrong one evicts, so the scraper it belongs to
 * is answered from the cache whatever else arrives; a pair the queue has
 * no room for is answered 503 at once.
 *
 * The cache keeps no password: an HMAC-SHA256 of user and password under a
 * key drawn at start, compared in constant time, as the hashes are. A user
 * not configured is checked against a configured user's hash all the same,
 * so the time of an answer does not tell which names exist. */
#ifndef GCTOP_FRONTENDS_WEB_AUTH_H
#define GCTOP_FRONTENDS_WEB_AUTH_H

#include <stddef.h>

#include "base/error.h"
#include "frontends/web_config.h"

/* New pairs waiting for the verifier; more are answered 503. */
#define GT_AUTH_QUEUE 8u
/* Wrong pairs remembered (the oldest forgotten first). */
#define GT_AUTH_DENIED_CACHE 256u

enum gt_auth_result {
	GT_AUTH_OK,        /* the pair is a configured user's */
	GT_AUTH_DENIED,    /* it is not */
	GT_AUTH_PENDING,   /* queued: done(ctx) is called once it is checked */
	GT_AUTH_BUSY,      /* no room in the queue, or stopping */
};

struct gt_auth;
struct gt_auth_job;

/* The verifier for users[0..n) (n > 0), its thread started; NULL with err. */
struct gt_auth *gt_auth_new(const struct gt_web_user *users, size_t n, struct gt_error *err);

/* The answer for (user, password) from the cache, or PENDING with *job,
 * whose done(ctx) the verifier's thread calls once it has the answer (not
 * under any lock of its own), or BUSY. */
enum gt_auth_result gt_auth_check(struct gt_auth *a, const char *user, const char *password,
				  void (*done)(void *ctx), void *ctx, struct gt_auth_job **job);

/* A job's answer once done was called: OK, DENIED, or BUSY (stopped). */
enum gt_auth_result gt_auth_job_result(struct gt_auth *a, const struct gt_auth_job *job);

/* The job's requester is gone or has its answer. */
void gt_auth_job_free(struct gt_auth *a, struct gt_auth_job *job);

/* Ends the verifier: the job being checked is finished, every queued one
 * done with BUSY; a check after this is BUSY. */
void gt_auth_stop(struct gt_auth *a);

/* After gt_auth_stop and every job freed. */
void gt_auth_free(struct gt_auth *a);

#endif
