/* gctop --serve's basic authentication (frontends/web_auth.c): bcrypt runs
 * on the verifier's thread and its answer is cached; a good pair, once
 * checked, is answered from the cache however many wrong pairs come after
 * it; a user not configured is denied after a check of the same cost; a
 * full queue is BUSY at once, never a wait; stopping answers what waits. */
#include <crypt.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "frontends/serve_libs.h"
#include "frontends/web_auth.h"
#include "tests/unit/check.h"

/* The answers the verifier hands back, as a request waits for them. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int n_done;

static void done(void *ctx)
{
	(void)ctx;
	pthread_mutex_lock(&lock);
	n_done++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

static void wait_done(int n)
{
	pthread_mutex_lock(&lock);
	while (n_done < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
}

/* A bcrypt hash of password at cost. */
static void make_user(struct gt_web_user *u, const char *name, const char *password, int cost)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd;
	memset(&cd, 0, sizeof(cd));
	snprintf(u->name, sizeof(u->name), "%s", name);
	CHECK(crypt_gensalt_rn("$2b$", (unsigned long)cost, NULL, 0, setting, sizeof(setting)) != NULL);
	const char *h = crypt_rn(password, setting, &cd, (int)sizeof(cd));
	CHECK(h && strlen(h) == GT_WEB_BCRYPT_LEN);
	snprintf(u->hash, sizeof(u->hash), "%s", h ? h : "");
}

/* The answer for (user, password), waiting for the verifier if need be. */
static enum gt_auth_result answer(struct gt_auth *a, const char *user, const char *password, bool *checked)
{
	struct gt_auth_job *job = NULL;
	int before = n_done;
	enum gt_auth_result r = gt_auth_check(a, user, password, done, NULL, &job);
	*checked = r == GT_AUTH_PENDING;
	if (r == GT_AUTH_PENDING) {
		wait_done(before + 1);
		r = gt_auth_job_result(a, job);
		gt_auth_job_free(a, job);
	}
	return r;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_answers_are_checked_once_then_cached(void)
{
	struct gt_web_user users[2];
	make_user(&users[0], "prometheus", "s3cret", 4);
	make_user(&users[1], "grafana", "other", 4);
	struct gt_error err;
	struct gt_auth *a = gt_auth_new(users, 2, &err);
	CHECK(a != NULL);
	if (!a)
		return;
	bool checked;
	CHECK(answer(a, "prometheus", "s3cret", &checked) == GT_AUTH_OK && checked);
	CHECK(answer(a, "prometheus", "s3cret", &checked) == GT_AUTH_OK && !checked);
	CHECK(answer(a, "prometheus", "wrong", &checked) == GT_AUTH_DENIED && checked);
	CHECK(answer(a, "prometheus", "wrong", &checked) == GT_AUTH_DENIED && !checked);
	/* another user's password is not this one's */
	CHECK(answer(a, "grafana", "s3cret", &checked) == GT_AUTH_DENIED && checked);
	CHECK(answer(a, "grafana", "other", &checked) == GT_AUTH_OK && checked);
	/* a name not configured is checked (against another's hash) and denied */
	CHECK(answer(a, "nobody", "s3cret", &checked) == GT_AUTH_DENIED && checked);
	/* "a" + "b:c" is not "a:b" + "c" */
	CHECK(answer(a, "prometheus", "s3cret:", &checked) == GT_AUTH_DENIED && checked);
	gt_auth_stop(a);
	gt_auth_free(a);
}

/* More wrong pairs than the denied cache holds: the good pair is still
 * answered from the cache (not evicted). */
static void test_wrong_pairs_never_evict_a_good_one(void)
{
	struct gt_web_user u;
	make_user(&u, "prometheus", "s3cret", 4);
	struct gt_error err;
	struct gt_auth *a = gt_auth_new(&u, 1, &err);
	if (!a)
		return;
	bool checked;
	CHECK(answer(a, "prometheus", "s3cret", &checked) == GT_AUTH_OK && checked);
	int wrong_ok = 0;
	for (unsigned i = 0; i < GT_AUTH_DENIED_CACHE + 20; i++) {
		char pw[32];
		snprintf(pw, sizeof(pw), "wrong%u", i);
		wrong_ok += answer(a, "prometheus", pw, &checked) != GT_AUTH_DENIED;
	}
	CHECK(wrong_ok == 0);
	CHECK(answer(a, "prometheus", "s3cret", &checked) == GT_AUTH_OK && !checked);
	gt_auth_stop(a);
	gt_auth_free(a);
}

/* A queue that is full answers BUSY at once; a cached pair is answered
 * while the verifier is busy; stopping answers every waiting job BUSY. */
static void test_a_flood_is_busy_at_once_and_cached_pairs_pass(void)
{
	struct gt_web_user u;
	make_user(&u, "prometheus", "s3cret", 12);   /* about 0.3 s a check */
	struct gt_error err;
	struct gt_auth *a = gt_auth_new(&u, 1, &err);
	if (!a)
		return;
	bool checked;
	double t_check = now_s();
	CHECK(answer(a, "prometheus", "s3cret", &checked) == GT_AUTH_OK);
	t_check = now_s() - t_check;   /* one bcrypt check, on this machine now */
	struct gt_auth_job *jobs[GT_AUTH_QUEUE + 2] = { NULL };
	int before = n_done, pending = 0, busy = 0;
	double t0 = now_s();
	for (unsigned i = 0; i < GT_AUTH_QUEUE + 2; i++) {
		char pw[32];
		snprintf(pw, sizeof(pw), "flood%u", i);
		enum gt_auth_result r = gt_auth_check(a, "prometheus", pw, done, NULL, &jobs[i]);
		pending += r == GT_AUTH_PENDING;
		busy += r == GT_AUTH_BUSY;
	}
	/* one being checked, GT_AUTH_QUEUE waiting, the last refused */
	CHECK(pending >= (int)GT_AUTH_QUEUE && busy >= 1);
	struct gt_auth_job *none = NULL;
	CHECK(gt_auth_check(a, "prometheus", "s3cret", done, NULL, &none) == GT_AUTH_OK && !none);
	/* none of it waited for a check: all of it took less than half of one */
	double took = now_s() - t0;
	if (took > t_check / 2)
		check_fail(__FILE__, __LINE__, "the flood's checks and the cached pair took %.3f s, one check %.3f s",
			   took, t_check);
	gt_auth_stop(a);
	wait_done(before + pending);
	int denied = 0, stopped = 0;
	for (unsigned i = 0; i < GT_AUTH_QUEUE + 2; i++) {
		if (!jobs[i])
			continue;
		enum gt_auth_result r = gt_auth_job_result(a, jobs[i]);
		denied += r == GT_AUTH_DENIED;
		stopped += r == GT_AUTH_BUSY;
		gt_auth_job_free(a, jobs[i]);
	}
	CHECK(denied + stopped == pending && stopped >= 1);
	struct gt_auth_job *late = NULL;
	CHECK(gt_auth_check(a, "prometheus", "late", done, NULL, &late) == GT_AUTH_BUSY && !late);
	gt_auth_free(a);
}

int main(void)
{
	struct gt_error err;
	if (gt_serve_libs_load(&err) != 0) {
		check_fail(__FILE__, __LINE__, "%s", err.msg);
		return check_summary();
	}
	RUN_TEST(test_answers_are_checked_once_then_cached);
	RUN_TEST(test_wrong_pairs_never_evict_a_good_one);
	RUN_TEST(test_a_flood_is_busy_at_once_and_cached_pairs_pass);
	return check_summary();
}
