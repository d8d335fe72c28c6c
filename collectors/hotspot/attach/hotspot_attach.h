/* HotSpot dynamic attach, spoken by gctop itself, to load its JVMTI agent
 * into a running JVM (reference §3), or to ask it for a class histogram.
 * Nothing here runs without --allocators or --census (or the screen's
 * confirmed `a` or `c` key). */
#ifndef GCTOP_COLLECTORS_HOTSPOT_ATTACH_H
#define GCTOP_COLLECTORS_HOTSPOT_ATTACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

/* A reply of the attach listener: "<status>\n<output>". */
struct gt_attach_reply {
	int status;              /* first line; 0 accepted (JDK 21+ also for failed loads) */
	bool have_return_code;   /* "return code: N" (JDK 9+) or a bare number (JDK 8) */
	int return_code;         /* Agent_OnAttach's result */
	char message[256];       /* the rest, lines joined with "; ", control bytes dropped */
};

/* Pure. Returns 0, or -1 when buf holds no status line. */
int gt_attach_parse_reply(const char *buf, size_t len, struct gt_attach_reply *out);

/* What a `load` reply means for the user: 0 when the agent runs, else -1
 * with one sentence in err. `pid` only names the process in sentences. */
int gt_attach_load_result(const struct gt_attach_reply *r, pid_t pid, struct gt_error *err);

/* The parts of /proc/PID/status attach needs. */
struct gt_attach_status {
	pid_t nspid;             /* last NSpid field, or the pid itself */
	uid_t euid;
	gid_t egid;
	bool have_signals;
	uint64_t sig_caught, sig_ignored, sig_blocked;
};

/* Pure. Returns 0, or -1 when Uid or Gid is missing. */
int gt_attach_parse_status(const char *text, pid_t pid, struct gt_attach_status *out);

/* Reads and parses /proc/PID/status. Returns 0, or -1 with err. */
int gt_attach_read_status(pid_t pid, struct gt_attach_status *st, struct gt_error *err);

/* True when the SIGQUIT bit is set in a SigCgt mask. */
bool gt_attach_catches_sigquit(const struct gt_attach_status *st);

/* Loads agent_so (a path in our filesystem) into JVM pid with options:
 * checks the user, that attach is enabled and SIGQUIT handled, starts the
 * attach listener if needed, copies the library into the target's /tmp and
 * sends `load`. Returns 0, or -1 with err. */
int gt_hotspot_attach_load(pid_t pid, const char *agent_so, const char *options, struct gt_error *err);

/* The whole reply to one attach command, status line first. */
struct gt_attach_output {
	char *text;              /* NUL-terminated (owned; free()); NULL when empty */
	size_t len;
	bool truncated;          /* longer than the reply_max asked for: cut there */
};

/* Sends one command with its three arguments (args[0] is the command) to
 * JVM pid, with the same checks as a load, starting its attach listener if
 * it is not running, and reads the whole reply, up to reply_max bytes, by
 * deadline_ns (CLOCK_MONOTONIC; the quit flag ends it too). Loads nothing.
 * purpose ends the sentences that refuse it ("... so gctop cannot take a
 * census of its live objects"). Returns 0 (out filled), or -1 with err
 * (GT_EXIT_TIMEOUT past the deadline). */
int gt_hotspot_attach_command(pid_t pid, const char *purpose, const char *const args[4], uint64_t deadline_ns,
			      size_t reply_max, struct gt_attach_output *out, struct gt_error *err);

/* For a JVM whose agent is loaded already: removes the copy of agent_so an
 * earlier gctop left under this JVM's name in its /tmp (killed after the
 * JVM mapped the copy, before it removed it). The JVM needs no file once
 * it has mapped it, and no later attach, which would clear it, comes to a
 * JVM whose agent runs. Quiet: nothing to remove is no error. */
void gt_hotspot_attach_clear_copy(pid_t pid, const struct gt_attach_status *st, const char *agent_so);

#endif
