/* gctop --serve's snapshot cache: the newest exposition, the one thing the
 * sampling thread (frontends/serve_mode.c) and the server's thread
 * (frontends/serve_http.c) share. Each round writes the fleet's figures
 * and swaps them in under a mutex; a scrape takes a reference to the
 * current text, so it costs a lookup, never a sample.
 *
 * Each round writes only the formats scraped lately: Prometheus asks for
 * OpenMetrics, and the other text was a fifth of the exposition's CPU and
 * 1.3 MB with 220 processes. The first request for a format not kept is
 * written from the fleet on the server's thread, under the fleet's lock
 * (the figures are the last round's either way). */
#ifndef GCTOP_FRONTENDS_SERVE_CACHE_H
#define GCTOP_FRONTENDS_SERVE_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session/fleet.h"
#include "views/metrics_writer.h"

/* The formats gctop serves (enum gt_metrics_format). */
#define GT_SERVE_FORMATS 2

/* One format's text, shared by the responses that send it, and its gzip,
 * made at the first scrape that takes gzip and shared by the later ones
 * (under the cache's gzip_lock). */
struct gt_serve_snapshot {
	unsigned refs;      /* under the cache's lock */
	size_t len, cap;
	char *text;
	char *gz;           /* NULL: not made yet (or failed: gz_failed) */
	size_t gz_len;
	bool gz_failed;
};

struct gt_serve_cache {
	pthread_mutex_t lock;
	/* Held while a snapshot's gzip is made, so that it is made once. */
	pthread_mutex_t gzip_lock;
	struct gt_serve_snapshot *current[GT_SERVE_FORMATS];   /* NULL: not kept */
	uint64_t asked_ns[GT_SERVE_FORMATS];   /* the last request of each (CLOCK_MONOTONIC), 0: none */
	/* Held by the sampling thread except while it waits, and by the server's
	 * thread while it writes a format not kept. */
	pthread_mutex_t fleet_lock;
	/* fleet and metrics are set before the threads start, then read only. */
	const struct gt_fleet *fleet;
	struct gt_metrics_config metrics;
	size_t last_len[GT_SERVE_FORMATS];     /* of the last text built (under fleet_lock) */
	/* The text of a snapshot no one holds any more, kept for the next
	 * round's (under lock): a megabyte allocated anew each round came as
	 * fresh pages, and their faults were 7% of --serve's CPU with 220
	 * processes (perf). */
	char *spare;
	size_t spare_cap;
};

/* An empty cache: no text kept, no fleet yet. */
void gt_serve_cache_init(struct gt_serve_cache *c);
/* Frees every text; no response may hold one any more (the server has
 * stopped). */
void gt_serve_cache_free(struct gt_serve_cache *c);

/* The server's thread: a reference to format f's current text (written
 * now, under fleet_lock, if it is not kept), or NULL when out of memory.
 * Give it back with gt_serve_cache_release. */
struct gt_serve_snapshot *gt_serve_cache_take(struct gt_serve_cache *c, enum gt_metrics_format f);
void gt_serve_cache_release(struct gt_serve_cache *c, struct gt_serve_snapshot *s);

/* The server's thread, holding s: s's gzip (s->gz, s->gz_len), made now if
 * no scrape of s made it yet. 0, or -1 when it cannot be made (the plain
 * text is sent then). */
int gt_serve_cache_gzip(struct gt_serve_cache *c, struct gt_serve_snapshot *s);

/* The sampling thread, fleet_lock held: swaps in the fleet's figures in the
 * formats scraped lately; on failure the previous ones stay. */
void gt_serve_cache_publish(struct gt_serve_cache *c);

#endif
