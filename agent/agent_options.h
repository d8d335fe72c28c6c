/* The agent's option string, as given to -agentpath:...=OPTIONS or as the
 * third argument of the attach `load` command:
 *   interval=BYTES   fixed sampling interval (default: adaptive)
 *   packages=P1:P2   runtime package prefixes skipped when looking for the
 *                    first application frame (default java.:javax.:jdk.:sun.:com.sun.)
 *   segment=DIR      directory of the segment file (default /tmp)
 *   watchdog=SECONDS stop when no reader heartbeat for this long (default 5)
 *   linger           keep the segment when stopped; a reader resumes sampling
 *   stop             stop sampling now
 *   ops              only the operations counter (--ops jmx: with --serve or
 *                    --doctor --ops-agent): no allocation sampling is
 *                    started, and the segment stays while the JVM runs
 * separated by commas. */
#ifndef GCTOP_AGENT_OPTIONS_H
#define GCTOP_AGENT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AGENT_MAX_PREFIXES 16
#define AGENT_PREFIX_LEN 64

struct agent_prefixes {
	unsigned n;
	char p[AGENT_MAX_PREFIXES][AGENT_PREFIX_LEN];
};

struct agent_options {
	uint64_t interval;            /* 0: adaptive */
	bool have_prefixes;
	struct agent_prefixes prefixes;
	char segment_dir[256];
	uint64_t watchdog_ns;
	bool linger;
	bool stop;
	bool ops_only;
};

/* Fills defaults, then applies s (may be NULL). Returns 0, or -1 with a
 * sentence in err naming the bad option. */
int agent_options_parse(const char *s, struct agent_options *o, char *err, size_t errlen);

void agent_default_prefixes(struct agent_prefixes *p);

#endif
