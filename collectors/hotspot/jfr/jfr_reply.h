/* The JVM's answers to the flight recorder's diagnostic commands (JFR.start,
 * JFR.check, JFR.configure, JFR.stop), as the attach listener returns them:
 * text the target writes, so parsed with bounds and fuzzed
 * (tests/fuzz/fuzz_jfr_reply.c). Pure. */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_REPLY_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A recording gctop names "gctop-<gctop's pid>-<lease number>": the pid says
 * whose it is, so the next gctop can stop one whose gctop is gone. */
#define JFR_NAME_PREFIX "gctop-"
#define JFR_NAME_LEN 48
#define JFR_REPLY_WHY_LEN 200

enum jfr_reply_verdict {
	JFR_REPLY_OK = 0,
	JFR_REPLY_DISABLED,      /* "Flight Recorder is disabled." (-XX:-FlightRecorder) */
	JFR_REPLY_NO_JFR,        /* no JFR.* command: a runtime image without jdk.jfr */
	JFR_REPLY_REFUSED,       /* anything else: the JVM's own words in why */
};

/* What a reply says: its status line (the attach listener's, then the
 * command's output), OK when the output begins with `expect` (e.g. "Started
 * recording"); else the verdict and the JVM's first line, control bytes
 * dropped, in why. */
enum jfr_reply_verdict jfr_reply_verdict(const char *text, size_t len, const char *expect, char *why, size_t why_len);

/* The repository path in a JFR.configure reply ("Repository path: /tmp/..."):
 * 0 (path filled, an absolute path without "." or ".." components), or -1. */
int jfr_reply_repository(const char *text, size_t len, char *path, size_t path_len);

/* One recording of a JFR.check reply ("Recording 3: name=N duration=... (running)"). */
struct jfr_listed {
	char name[JFR_NAME_LEN];
	bool running;
};

/* The recordings named by gctop in a JFR.check reply, up to max (others,
 * and names too long to be gctop's, skipped). Returns how many. */
size_t jfr_reply_recordings(const char *text, size_t len, struct jfr_listed *out, size_t max);

/* Whether name is one of gctop's, and the pid of the gctop that made it. */
bool jfr_name_parse(const char *name, pid_t *gctop_pid);

#endif
