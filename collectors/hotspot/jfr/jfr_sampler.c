/* The JFR source's thread (jfr_sampler.h). It polls the repository once
 * a second, about as often as the JVM flushes (JEP 349), renews the lease
 * when due, and publishes the tables under a lock that a sample holds only
 * for a copy. */
#include "collectors/hotspot/jfr/jfr_sampler.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/sighandler.h"
#include "base/wait.h"
#include "collectors/hotspot/jfr/jfr_alloc.h"
#include "collectors/hotspot/jfr/jfr_alloc_total.h"
#include "collectors/hotspot/jfr/jfr_follow.h"
#include "collectors/hotspot/jfr/jfr_gc.h"
#include "collectors/hotspot/jfr/jfr_live.h"
#include "collectors/hotspot/jfr/jfr_recording.h"

#define JFR_POLL_MS 1000
/* Pauses between two samples at most: more than any collector makes in
 * the seconds a sample may be late. */
#define JFR_SAMPLER_PAUSES 4096u

/* The allocation total as the newest period gave it (jfr_alloc_total.h). */
struct jfr_sampler_total {
	uint64_t total, prev_total;
	int64_t at_ns, prev_ns; /* ns since the epoch; at_ns 0: no period yet */
};

/* The newest live-set points (jfr_live.h), as many as a sample holds. */
struct jfr_sampler_live {
	uint64_t count;
	struct jfr_live_point points[GT_LIVE_RING]; /* point k at points[k % GT_LIVE_RING] */
};

struct gt_hotspot_jfr {
	pid_t pid;
	pthread_t thread;
	bool thread_started;
	int wake_fd;                  /* eventfd: the close wakes the thread's sleep */
	atomic_bool stop;
	/* The closer has let go (gt_hotspot_jfr_close without waiting): the
	 * thread frees j itself once it has stopped the recording. */
	atomic_bool orphan;
	struct jfr_recording rec;     /* the thread's, after the start */
	struct jfr_follow follow;     /* the thread's */
	struct jfr_alloc alloc;       /* the thread's */
	struct jfr_alloc_total total; /* the thread's */
	struct jfr_sampler_total published_total, taken_total; /* under lock; the caller's copy */
	struct jfr_live live;         /* the thread's */
	struct jfr_gc gc;             /* the thread's */
	/* Pauses handed to the caller: pause k at pauses[k % JFR_SAMPLER_PAUSES],
	 * under lock; a caller more than the ring behind loses the oldest. */
	struct jfr_gc_pause pauses[JFR_SAMPLER_PAUSES];
	uint64_t pause_count;
	struct jfr_sampler_live published_live, taken_live; /* under lock; the caller's copy */
	pthread_mutex_t lock;         /* guards published and published_stacks */
	struct gt_alloc_snapshot published;
	struct gt_alloc_stacks *published_stacks, *building; /* the thread's scratch: building */
	struct gt_alloc_snapshot taken; /* the caller's copies */
	struct gt_alloc_stacks *taken_stacks;
};

static void jfr_sampler_event(struct gt_jfr_reader *r, const struct gt_jfr_event *ev, void *arg)
{
	(void)r;
	struct gt_hotspot_jfr *j = arg;
	jfr_alloc_add(&j->alloc, ev);
	jfr_alloc_total_add(&j->total, ev);
	jfr_live_add(&j->live, ev);
	jfr_gc_add(&j->gc, ev);
}

static void jfr_sampler_live_copy(const struct jfr_live *l, struct jfr_sampler_live *out)
{
	out->count = l->count;
	uint64_t from = l->count > GT_LIVE_RING ? l->count - GT_LIVE_RING : 0;
	for (uint64_t k = from; k < l->count; k++)
		out->points[k % GT_LIVE_RING] = l->points[k % JFR_LIVE_POINTS];
}

static void jfr_sampler_publish(struct gt_hotspot_jfr *j, enum gt_sampler_state state, const char *message)
{
	/* the stacks are built outside the lock, then swapped in */
	struct gt_alloc_snapshot snap = { .samples = 0 };
	jfr_alloc_snapshot(&j->alloc, &snap);
	jfr_alloc_stacks(&j->alloc, &snap, j->building);
	pthread_mutex_lock(&j->lock);
	struct gt_alloc_stacks *old = j->published_stacks;
	j->published_stacks = j->building;
	j->building = old;
	jfr_alloc_snapshot(&j->alloc, &j->published);
	j->published_total = (struct jfr_sampler_total){ .total = j->total.total, .prev_total = j->total.prev_total,
							 .at_ns = j->total.at_ns, .prev_ns = j->total.prev_ns };
	jfr_sampler_live_copy(&j->live, &j->published_live);
	struct jfr_gc_pause p;
	while (jfr_gc_take(&j->gc, &p, 1) == 1)
		j->pauses[j->pause_count++ % JFR_SAMPLER_PAUSES] = p;
	j->published.state = state;
	snprintf(j->published.message, sizeof(j->published.message), "%s", message ? message : "");
	pthread_mutex_unlock(&j->lock);
}

static void jfr_sampler_free(struct gt_hotspot_jfr *j);

static void *jfr_sampler_main(void *arg)
{
	struct gt_hotspot_jfr *j = arg;
	gt_wait_set_cancel(&j->stop);
	char message[GT_ALLOC_MESSAGE_LEN] = "";
	while (!atomic_load(&j->stop)) {
		struct gt_error e;
		/* the newest trouble, until a poll and a renewal go well */
		bool ok = true;
		if (jfr_follow_poll(&j->follow, jfr_sampler_event, j, &e) != 0) {
			snprintf(message, sizeof(message), "%.*s", (int)sizeof(message) - 1, e.msg);
			ok = false;
		}
		if (jfr_recording_renew(&j->rec, gt_mono_ns(), &e) != 0 && !atomic_load(&j->stop)) {
			snprintf(message, sizeof(message), "%.*s", (int)sizeof(message) - 1, e.msg);
			ok = false;
		}
		if (ok)
			message[0] = '\0';
		jfr_sampler_publish(j, GT_SAMPLER_RUNNING, message);
		struct pollfd p = { .fd = j->wake_fd, .events = POLLIN };
		while (poll(&p, 1, JFR_POLL_MS) < 0 && errno == EINTR)
			;
	}
	/* The recording is gctop's to remove, also on the way out after a
	 * quit signal, which every other wait obeys. */
	gt_wait_set_cancel(NULL);
	gt_wait_ignore_quit(true);
	jfr_recording_stop(&j->rec);
	if (atomic_load(&j->orphan))
		jfr_sampler_free(j);
	return NULL;
}

/* The thread runs with every asynchronous signal blocked, so the quit and
 * resize signals reach the main thread (as session/job.c's workers). */
static int jfr_sampler_thread(struct gt_hotspot_jfr *j, struct gt_error *err)
{
	int rc = gt_thread_start_quiet(&j->thread, jfr_sampler_main, j);
	if (rc != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot start a thread: %s", strerror(rc));
	j->thread_started = true;
	return 0;
}

struct gt_hotspot_jfr *gt_hotspot_jfr_start(pid_t pid, uid_t owner, const char *packages, struct gt_error *err)
{
	struct gt_hotspot_jfr *j = gt_calloc(sizeof(*j), err);
	if (!j)
		return NULL;
	j->pid = pid;
	j->follow.dir = j->follow.chunk = -1;
	j->wake_fd = -1;
	atomic_init(&j->stop, false);
	atomic_init(&j->orphan, false);
	pthread_mutex_init(&j->lock, NULL);
	j->published_stacks = malloc(sizeof(*j->published_stacks));
	j->building = malloc(sizeof(*j->building));
	j->taken_stacks = malloc(sizeof(*j->taken_stacks));
	if (!j->published_stacks || !j->building || !j->taken_stacks) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		goto fail;
	}
	gt_alloc_stacks_clear(j->published_stacks);
	gt_alloc_stacks_clear(j->taken_stacks);
	j->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (j->wake_fd < 0) {
		gt_fail(err, GT_EXIT_FAILURE, "cannot make an event descriptor: %s", strerror(errno));
		goto fail;
	}
	jfr_alloc_total_init(&j->total);
	jfr_live_init(&j->live);
	jfr_gc_init(&j->gc);
	if (jfr_alloc_init(&j->alloc, packages) != 0) {
		gt_fail(err, GT_EXIT_USAGE, "--allocator-packages wants at most %d prefixes like com.example. "
			"separated by commas", JFR_ALLOC_PREFIXES_MAX);
		goto fail;
	}
	if (jfr_recording_start(&j->rec, pid, err) != 0)
		goto fail;
	if (jfr_follow_open(&j->follow, pid, owner, j->rec.repository, err) != 0)
		goto fail;
	/* the first reading holds every site there is (none): a site that
	 * comes later counts from 0 against it (gt_derive_allocators) */
	jfr_alloc_snapshot(&j->alloc, &j->published);
	snprintf(j->published.source, sizeof(j->published.source), JFR_ALLOC_SOURCE);
	j->published.generation = 1;
	j->published.state = GT_SAMPLER_STARTING;
	j->taken = j->published;
	if (jfr_sampler_thread(j, err) != 0)
		goto fail;
	return j;
fail:
	gt_hotspot_jfr_close(j, true);
	return NULL;
}

void gt_hotspot_jfr_sample(struct gt_hotspot_jfr *j, uint64_t now)
{
	pthread_mutex_lock(&j->lock);
	j->taken = j->published;
	j->taken_total = j->published_total;
	j->taken_live = j->published_live;
	*j->taken_stacks = *j->published_stacks;
	pthread_mutex_unlock(&j->lock);
	j->taken.mono_ns = now;
}

const struct gt_alloc_snapshot *gt_hotspot_jfr_snapshot(const struct gt_hotspot_jfr *j)
{
	return &j->taken;
}

/* JFR's times are the wall clock's; the sample's the monotonic clock's:
 * the two read together give the offset (a step of the wall clock in
 * between moves the total's moment by it, no more). */
static int64_t jfr_sampler_mono_offset(void)
{
	struct timespec m, w;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &w);
	return ((int64_t)m.tv_sec - (int64_t)w.tv_sec) * 1000000000 + ((int64_t)m.tv_nsec - (int64_t)w.tv_nsec);
}

void gt_hotspot_jfr_fill(const struct gt_hotspot_jfr *j, struct gt_sample *out)
{
	const struct jfr_sampler_total *t = &j->taken_total;
	if (t->at_ns <= 0)
		return; /* no period yet: the perf data's estimate stays */
	int64_t off = jfr_sampler_mono_offset();
	int64_t at = t->at_ns + off, prev = (t->prev_ns > 0 ? t->prev_ns : t->at_ns) + off;
	gt_u64_set(&out->alloc_bytes_total, t->total);
	out->alloc_source = GT_ALLOC_SOURCE_EXACT;
	out->alloc_since = GT_ALLOC_SINCE_PROCESS_START;
	out->alloc_unavailable = NULL;
	/* as of the JVM's period, not the sample: derive divides by the
	 * span between periods, as with .NET's counter polls */
	out->alloc_at.valid = at >= 0 && prev >= 0;
	out->alloc_at.ns = (uint64_t)at;
	out->alloc_at.prev_ns = (uint64_t)prev;
	out->alloc_at.prev_total = t->prev_ns > 0 ? t->prev_total : t->total;
}

void gt_hotspot_jfr_fill_live(const struct gt_hotspot_jfr *j, struct gt_sample *out)
{
	if (out->live_log.valid)
		return; /* the perf data's points stay where it has them */
	const struct jfr_sampler_live *l = &j->taken_live;
	int64_t off = jfr_sampler_mono_offset();
	memset(&out->live_log, 0, sizeof(out->live_log));
	out->live_log.valid = true;
	out->live_log.count = l->count;
	uint64_t from = l->count > GT_LIVE_RING ? l->count - GT_LIVE_RING : 0;
	for (uint64_t k = from; k < l->count; k++) {
		const struct jfr_live_point *p = &l->points[k % GT_LIVE_RING];
		int64_t at = p->at_ns + off;
		out->live_log.points[k % GT_LIVE_RING] =
			(struct gt_live_point){ p->bytes, at > 0 ? (uint64_t)at : 0, p->kind };
	}
	out->live_unavailable = NULL;
}

size_t gt_hotspot_jfr_pauses(struct gt_hotspot_jfr *j, uint64_t *next, int64_t *mono_offset,
			      struct gt_hotspot_jfr_pause *out, size_t max)
{
	*mono_offset = jfr_sampler_mono_offset();
	pthread_mutex_lock(&j->lock);
	uint64_t k = *next;
	if (j->pause_count > JFR_SAMPLER_PAUSES && k < j->pause_count - JFR_SAMPLER_PAUSES)
		k = j->pause_count - JFR_SAMPLER_PAUSES;
	size_t n = 0;
	for (; k < j->pause_count && n < max; k++, n++) {
		const struct jfr_gc_pause *p = &j->pauses[k % JFR_SAMPLER_PAUSES];
		out[n] = (struct gt_hotspot_jfr_pause){ p->start_ns, p->duration_ns };
	}
	*next = k;
	pthread_mutex_unlock(&j->lock);
	return n;
}

const struct gt_alloc_stacks *gt_hotspot_jfr_stacks(const struct gt_hotspot_jfr *j)
{
	return j->taken_stacks;
}

void gt_hotspot_jfr_close(struct gt_hotspot_jfr *j, bool wait)
{
	if (!j)
		return;
	if (j->thread_started) {
		/* orphan and the wake before stop: once stop is set an orphaned
		 * thread may free j at any moment, so j is not touched after */
		atomic_store(&j->orphan, !wait);
		pthread_t thread = j->thread;
		if (!wait)
			pthread_detach(thread);
		uint64_t one = 1;
		while (write(j->wake_fd, &one, sizeof(one)) < 0 && errno == EINTR)
			;
		atomic_store(&j->stop, true);
		if (!wait)
			return;
		pthread_join(thread, NULL);
	} else {
		jfr_recording_stop(&j->rec);
	}
	jfr_sampler_free(j);
}

static void jfr_sampler_free(struct gt_hotspot_jfr *j)
{
	jfr_follow_close(&j->follow);
	jfr_alloc_free(&j->alloc);
	jfr_alloc_total_free(&j->total);
	free(j->published_stacks);
	free(j->building);
	free(j->taken_stacks);
	if (j->wake_fd >= 0)
		close(j->wake_fd);
	pthread_mutex_destroy(&j->lock);
	free(j);
}
