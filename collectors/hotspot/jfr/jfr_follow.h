/* Following a JVM's flight-recorder repository: its chunk files in order,
 * each read as the JVM flushes it, across rotation and deletion (maxage).
 * Every path is opened under the target's root (/proc/PID/root), fd-relative,
 * never through a symbolic link, and only files of the target's user are
 * read. Called from the JFR sampler's own thread: nothing here waits on
 * the target beyond a file read. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_FOLLOW_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/hotspot/jfr/jfr_reader.h"

#define JFR_CHUNK_NAME_LEN 64
/* Events handed out per poll at most: a backlog is read over several
 * polls rather than in one long stop of the sampler's thread. */
#define JFR_FOLLOW_EVENTS_PER_POLL 200000u
/* Polls a chunk that is not finished may stand still while a later chunk
 * exists before it is left as if finished: the JVM finishes a chunk as it
 * begins the next, so only a chunk that was never going to finish (a
 * target's own file) stays so long. */
#define JFR_FOLLOW_STALE_POLLS 5u

struct jfr_follow {
	pid_t pid;
	uid_t owner;               /* the target's user: every file read is theirs */
	int dir;                   /* the repository, O_PATH under the target's root */
	int chunk;                 /* the chunk being read (held open: a deleted file stays readable) */
	char name[JFR_CHUNK_NAME_LEN]; /* its name; "" before the first */
	size_t position;           /* where the next unread event starts in it; 0: none read */
	off_t seen_size;           /* its size at the last poll */
	unsigned stale;            /* polls it has not grown while a later chunk exists */
	bool started;              /* a chunk was chosen */
	uint64_t chunks_read;      /* chunks finished */
	uint64_t events;           /* events handed out */
};

/* Opens repository (a path in pid's file system) under /proc/PID/root.
 * The first chunk read is the newest one there now (gctop's recording
 * began it). Returns 0, or -1 with err. */
int jfr_follow_open(struct jfr_follow *f, pid_t pid, uid_t owner, const char *repository, struct gt_error *err);

/* Each new event since the last poll: fn(ev, arg) for each, at most
 * JFR_FOLLOW_EVENTS_PER_POLL. Goes on to the next chunk once the current
 * one is finished. Returns 0 (nothing new is no error), or -1 with err (a
 * malformed chunk: it is left, the next poll goes on with the next). */
int jfr_follow_poll(struct jfr_follow *f, void (*fn)(struct gt_jfr_reader *r, const struct gt_jfr_event *ev, void *arg),
		    void *arg, struct gt_error *err);

void jfr_follow_close(struct jfr_follow *f);

/* Pure, for the unit tests: whether a is an earlier chunk than b by their
 * names ("2026_12_07_00_51_39.jfr" before "..._39_1.jfr" before "..._39_10.jfr"),
 * and whether name is a chunk's at all. */
int jfr_follow_name_cmp(const char *a, const char *b);
bool jfr_follow_is_chunk(const char *name);

#endif
