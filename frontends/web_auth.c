/* gctop --serve's basic authentication: see web_auth.h. */
#include "frontends/web_auth.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "frontends/serve_libs.h"

#define AUTH_KEY_LEN 32u   /* HMAC-SHA256 */

struct gt_auth_job {
	struct gt_auth_job *next;        /* in the queue */
	uint8_t key[AUTH_KEY_LEN];
	int user;                        /* index in users[], -1: not configured */
	char *password;                  /* wiped and freed once checked */
	enum gt_auth_result result;      /* PENDING until checked */
	bool queued, running, orphan;    /* orphan: freed by its requester while running */
	void (*done)(void *ctx);
	void *ctx;
};

struct gt_auth {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool stop;
	struct gt_web_user users[GT_WEB_MAX_USERS];
	size_t n_users;
	uint8_t secret[AUTH_KEY_LEN];
	/* each user's last good pair: a wrong pair never evicts it */
	bool has_good[GT_WEB_MAX_USERS];
	uint8_t good[GT_WEB_MAX_USERS][AUTH_KEY_LEN];
	uint8_t denied[GT_AUTH_DENIED_CACHE][AUTH_KEY_LEN];
	size_t n_denied, next_denied;
	struct gt_auth_job *head, *tail;
	size_t queued;
};

/* Equal, in a time that depends on n only. */
static bool same_bytes(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;
	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}

static int pair_key(const struct gt_auth *a, const char *user, const char *password, uint8_t key[AUTH_KEY_LEN])
{
	size_t ul = strlen(user), pl = strlen(password);
	char *m = malloc(ul + 1 + pl);
	if (!m)
		return -1;
	memcpy(m, user, ul);
	m[ul] = '\0';    /* "a" + "b:c" and "a:b" + "c" differ */
	memcpy(m + ul + 1, password, pl);
	int rc = gt_serve_libs.gnutls_hmac_fast(GNUTLS_MAC_SHA256, a->secret, sizeof(a->secret), m, ul + 1 + pl, key);
	explicit_bzero(m, ul + 1 + pl);
	free(m);
	return rc < 0 ? -1 : 0;
}

static int user_index(const struct gt_auth *a, const char *user)
{
	for (size_t i = 0; i < a->n_users; i++)
		if (!strcmp(a->users[i].name, user))
			return (int)i;
	return -1;
}

/* The cached answer (lock held), or PENDING when there is none. */
static enum gt_auth_result cached(const struct gt_auth *a, int user, const uint8_t key[AUTH_KEY_LEN])
{
	if (user >= 0 && a->has_good[user] && same_bytes(a->good[user], key, AUTH_KEY_LEN))
		return GT_AUTH_OK;
	bool denied = false;
	for (size_t i = 0; i < a->n_denied; i++)
		denied |= same_bytes(a->denied[i], key, AUTH_KEY_LEN);
	return denied ? GT_AUTH_DENIED : GT_AUTH_PENDING;
}

/* The bcrypt check itself, on the verifier's thread. */
static bool verify(const struct gt_auth *a, const struct gt_auth_job *j, struct crypt_data *cd)
{
	/* a user not configured costs the same check, against another's hash */
	const char *hash = a->users[j->user >= 0 ? j->user : 0].hash;
	memset(cd, 0, sizeof(*cd));
	const char *h = gt_serve_libs.crypt_rn(j->password, hash, cd, (int)sizeof(*cd));
	bool ok = h && strlen(h) == GT_WEB_BCRYPT_LEN && same_bytes(h, hash, GT_WEB_BCRYPT_LEN);
	explicit_bzero(cd, sizeof(*cd));
	return ok && j->user >= 0;
}

/* Records a checked job's answer (lock held). */
static void remember(struct gt_auth *a, struct gt_auth_job *j, bool ok)
{
	j->result = ok ? GT_AUTH_OK : GT_AUTH_DENIED;
	if (ok) {
		memcpy(a->good[j->user], j->key, AUTH_KEY_LEN);
		a->has_good[j->user] = true;
		return;
	}
	memcpy(a->denied[a->next_denied], j->key, AUTH_KEY_LEN);
	a->next_denied = (a->next_denied + 1) % GT_AUTH_DENIED_CACHE;
	if (a->n_denied < GT_AUTH_DENIED_CACHE)
		a->n_denied++;
}

static struct gt_auth_job *take_job(struct gt_auth *a)
{
	struct gt_auth_job *j = a->head;
	a->head = j->next;
	if (!a->head)
		a->tail = NULL;
	a->queued--;
	j->queued = false;
	j->running = true;
	return j;
}

static void job_finish(struct gt_auth *a, struct gt_auth_job *j)
{
	pthread_mutex_lock(&a->lock);
	j->running = false;
	bool orphan = j->orphan;
	void (*done)(void *) = j->done;
	void *ctx = j->ctx;
	pthread_mutex_unlock(&a->lock);
	if (orphan)
		free(j);
	else
		done(ctx);
}

static void *verifier(void *arg)
{
	struct gt_auth *a = arg;
	struct crypt_data *cd = malloc(sizeof(*cd));
	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (!a->stop && !a->head)
			pthread_cond_wait(&a->wake, &a->lock);
		if (a->stop)
			break;
		struct gt_auth_job *j = take_job(a);
		pthread_mutex_unlock(&a->lock);
		bool ok = cd && verify(a, j, cd);
		explicit_bzero(j->password, strlen(j->password));
		free(j->password);
		j->password = NULL;
		pthread_mutex_lock(&a->lock);
		remember(a, j, ok);
		pthread_mutex_unlock(&a->lock);
		job_finish(a, j);
		pthread_mutex_lock(&a->lock);
	}
	pthread_mutex_unlock(&a->lock);
	free(cd);
	return NULL;
}

struct gt_auth *gt_auth_new(const struct gt_web_user *users, size_t n, struct gt_error *err)
{
	struct gt_auth *a = n && n <= GT_WEB_MAX_USERS ? gt_calloc(sizeof(*a), err) : NULL;
	if (!a)
		return NULL;
	memcpy(a->users, users, n * sizeof(*users));
	a->n_users = n;
	if (getrandom(a->secret, sizeof(a->secret), 0) != (ssize_t)sizeof(a->secret)) {
		free(a);
		gt_fail(err, GT_EXIT_FAILURE, "--web-config: no random bytes for the password cache's key");
		return NULL;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	if (pthread_create(&a->thread, NULL, verifier, a) != 0) {
		explicit_bzero(a, sizeof(*a));
		free(a);
		gt_fail(err, GT_EXIT_FAILURE, "--web-config: cannot start the password checker's thread");
		return NULL;
	}
	return a;
}

/* A new job for a pair not in the cache, queued (lock held). */
static enum gt_auth_result enqueue(struct gt_auth *a, int user, const uint8_t key[AUTH_KEY_LEN], const char *password,
				   void (*done)(void *), void *ctx, struct gt_auth_job **job)
{
	if (a->stop || a->queued >= GT_AUTH_QUEUE)
		return GT_AUTH_BUSY;
	struct gt_auth_job *j = calloc(1, sizeof(*j));
	if (!j || !(j->password = strdup(password))) {
		free(j);
		return GT_AUTH_BUSY;
	}
	memcpy(j->key, key, AUTH_KEY_LEN);
	j->user = user;
	j->result = GT_AUTH_PENDING;
	j->queued = true;
	j->done = done;
	j->ctx = ctx;
	if (a->tail)
		a->tail->next = j;
	else
		a->head = j;
	a->tail = j;
	a->queued++;
	pthread_cond_signal(&a->wake);
	*job = j;
	return GT_AUTH_PENDING;
}

enum gt_auth_result gt_auth_check(struct gt_auth *a, const char *user, const char *password,
				  void (*done)(void *ctx), void *ctx, struct gt_auth_job **job)
{
	uint8_t key[AUTH_KEY_LEN];
	*job = NULL;
	if (pair_key(a, user, password, key) != 0)
		return GT_AUTH_BUSY;
	int u = user_index(a, user);
	pthread_mutex_lock(&a->lock);
	enum gt_auth_result r = cached(a, u, key);
	if (r == GT_AUTH_PENDING)
		r = enqueue(a, u, key, password, done, ctx, job);
	pthread_mutex_unlock(&a->lock);
	explicit_bzero(key, sizeof(key));
	return r;
}

enum gt_auth_result gt_auth_job_result(struct gt_auth *a, const struct gt_auth_job *job)
{
	pthread_mutex_lock(&a->lock);
	enum gt_auth_result r = job->result == GT_AUTH_PENDING ? GT_AUTH_BUSY : job->result;
	pthread_mutex_unlock(&a->lock);
	return r;
}

static void unlink_job(struct gt_auth *a, struct gt_auth_job *job)
{
	struct gt_auth_job **p = &a->head, *prev = NULL;
	while (*p && *p != job)
		prev = *p, p = &(*p)->next;
	if (!*p)
		return;
	*p = job->next;
	if (a->tail == job)
		a->tail = prev;
	a->queued--;
	job->queued = false;
}

void gt_auth_job_free(struct gt_auth *a, struct gt_auth_job *job)
{
	if (!job)
		return;
	pthread_mutex_lock(&a->lock);
	if (job->queued)
		unlink_job(a, job);
	bool running = job->running;
	job->orphan = running;
	pthread_mutex_unlock(&a->lock);
	if (running)
		return;    /* the verifier frees it */
	if (job->password) {
		explicit_bzero(job->password, strlen(job->password));
		free(job->password);
	}
	free(job);
}

void gt_auth_stop(struct gt_auth *a)
{
	pthread_mutex_lock(&a->lock);
	bool was = a->stop;
	a->stop = true;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	if (was)
		return;
	pthread_join(a->thread, NULL);
	/* what is still queued is answered BUSY; its requester frees it */
	for (;;) {
		pthread_mutex_lock(&a->lock);
		struct gt_auth_job *j = a->head ? take_job(a) : NULL;
		if (j)
			j->running = false;
		pthread_mutex_unlock(&a->lock);
		if (!j)
			break;
		j->done(j->ctx);
	}
}

void gt_auth_free(struct gt_auth *a)
{
	if (!a)
		return;
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->wake);
	explicit_bzero(a, sizeof(*a));
	free(a);
}
