/* TEMPORARY: the watched processes of gctop --serve, until the session
 * layer's fleet (session/, being built) replaces this file; tui/serve.c
 * reaches the collectors only through it, so the port is a change of this
 * one interface.
 *
 * Every JVM and .NET process the user can see (or only the given pids):
 * found and opened as they appear, sampled once per round, dropped when
 * they exit. It never loads the agent nor turns on allocation sampling;
 * each .NET process gets one EventPipe session, which the caller must keep
 * reading (poll on every wait fd, as the picker does) and which closes when
 * the process exits or the fleet is freed. */
#ifndef GCTOP_SESSION_FLEET_SERVE_H
#define GCTOP_SESSION_FLEET_SERVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/derive.h"
#include "model/pause_hist.h"
#include "model/sample.h"

struct gt_fleet_serve;

/* What is known of one process after a round; valid until the next round. */
struct gt_fleet_serve_view {
	const struct gt_target_info *info;
	const struct gt_sample *sample;      /* the newest */
	const struct gt_derived *derived;    /* between the two newest */
	const struct gt_pause_hist *pauses;  /* single pauses since gctop began watching */
	double watch_start_s;                /* when gctop opened it, seconds since the epoch */
};

/* only: the pids to watch (n_only 0: every process). NULL when out of memory. */
struct gt_fleet_serve *gt_fleet_serve_new(const pid_t *only, size_t n_only);
void gt_fleet_serve_free(struct gt_fleet_serve *f);

/* One round: lists the processes, opens new ones (within a time budget;
 * the rest on later rounds), samples every open one, drops those gone. */
void gt_fleet_serve_refresh(struct gt_fleet_serve *f);

/* The processes with at least one sample, in pid order. */
size_t gt_fleet_serve_count(const struct gt_fleet_serve *f);
struct gt_fleet_serve_view gt_fleet_serve_get(const struct gt_fleet_serve *f, size_t i);

/* The collectors' work between rounds (see struct gt_backend_ops). */
uint64_t gt_fleet_serve_poll_interval_ns(const struct gt_fleet_serve *f);
void gt_fleet_serve_poll(struct gt_fleet_serve *f, uint64_t now_ns);
/* Up to max descriptors to wait on; returns how many. */
size_t gt_fleet_serve_wait_fds(const struct gt_fleet_serve *f, int *fds, size_t max);

#endif
