/* The files an attach makes in a JVM's directories (the trigger
 * .attach_pidNSPID and the agent copy .gctop-agent-NSPID.so), made so that
 * a gctop killed at any point leaves nothing a later run does not
 * recognise and remove. Internal to collectors/hotspot/attach/. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_ATTACH_FILES_H
#define GCTOP_COLLECTORS_HOTSPOT_ATTACH_FILES_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/error.h"
#include "collectors/hotspot/attach/hotspot_attach.h"

/* An agent copy older than this (by its inode's change time, which its
 * owner can only move to now) belongs to no attach still under way: each
 * has one 5-second deadline for its request and reply, three times over. */
#define GT_ATTACH_COPY_STALE_S 15

/* What gt_attach_trigger_create made, to remove exactly that later. */
struct gt_attach_trigger {
	int dir;           /* -1 when we made nothing */
	struct stat made;
	char name[32];
};

/* Creates the trigger file the JVM looks for on SIGQUIT in its /tmp (tmp),
 * only where the JVM's user owns it or it is a sticky /tmp. Never in the
 * JVM's working directory, which HotSpot also reads: a trigger a killed
 * gctop left there outlives the JVM, and no later attach to another JVM
 * knows that directory, while every attach sweeps /tmp. A marked trigger
 * an older gctop left in the working directory is removed (never through
 * a link). It holds gctop's mark (its pid and start time) from the moment
 * it has its name (written unnamed, then linked), so that a trigger left
 * by a gctop that was killed is known and replaced rather than taken for
 * someone else's. Returns 0 (t->dir >= 0 when we must remove it), or -1
 * with errno. */
int gt_attach_trigger_create(pid_t pid, const struct gt_attach_status *st, int tmp, struct gt_attach_trigger *t);
void gt_attach_trigger_remove(struct gt_attach_trigger *t);

/* The agent copy in the JVM's /tmp. */
struct gt_attach_copy {
	struct stat made;
	char name[64];          /* .gctop-agent-NSPID.so, in tmp */
	char load_path[128];    /* the path the JVM loads: /tmp/NAME */
};

/* Copies the agent src into tmp for the JVM, readable by its user only:
 * written as an unnamed file (O_TMPFILE), handed to the JVM's user and only
 * then linked under its name, so a gctop killed while copying leaves
 * nothing. A copy an earlier gctop left under that name is removed first.
 * 0, or -1 with err. */
int gt_attach_agent_copy(const char *src, int tmp, const struct gt_attach_status *st, struct gt_attach_copy *c,
			 struct gt_error *err);
/* Removes the copy if it still is the one made (the JVM keeps its
 * mapping), once: the name is cleared. */
void gt_attach_agent_remove(int tmp, struct gt_attach_copy *c);
/* True when process pid maps the copy (by device and inode). */
bool gt_attach_copy_mapped(pid_t pid, const struct gt_attach_copy *c);

/* Pure parsers of what a target's directory or /proc holds, for
 * the fuzz target too. The mark: "gctop-attach PID STARTTICKS\n" and
 * nothing else; 0, or -1. */
int gt_attach_parse_mark(const char *text, pid_t *maker, unsigned long long *ticks);
/* True when a /proc/PID/maps line maps the file of dev and ino. */
bool gt_attach_maps_line_is(const char *line, dev_t dev, ino_t ino);

/* Removes from tmp what killed gctops left there for any JVM: triggers
 * with gctop's mark whose maker is gone, and agent copies (and partial
 * copies) with the agent's content older than GT_ATTACH_COPY_STALE_S, of
 * one link, owned by the user of the JVM of st or by gctop's. With src
 * NULL (an attach that loads no agent), the triggers only. */
void gt_attach_clear_leftovers(int tmp, const char *src, const struct gt_attach_status *st);

/* Removes this JVM's own copy (its name, its user's, the agent's bytes),
 * whatever its age: for a JVM whose agent is loaded already. */
void gt_attach_clear_own_copy(int tmp, const char *src, const struct gt_attach_status *st);

#endif
