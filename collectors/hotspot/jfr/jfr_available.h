/* Whether a JVM offers its flight recorder as a source of allocation
 * samples, found read-only (gctop -l must not attach): its JDK release,
 * its command line, and the modules its runtime image lists in the
 * `release` file beside bin/java (a jlink image may leave jdk.jfr out). */
#ifndef GCTOP_COLLECTORS_HOTSPOT_JFR_AVAILABLE_H
#define GCTOP_COLLECTORS_HOTSPOT_JFR_AVAILABLE_H

#include <stddef.h>
#include <sys/types.h>

/* Pure: whether the MODULES line of a release file names jdk.jfr: 1 yes,
 * 0 no, -1 no MODULES line in text. */
int jfr_available_release(const char *text, size_t len);

/* The sources of --allocators JVM pid offers, the default first, into out
 * ("jfr,agent" or "agent"; "" when the image cannot be read). jdk_major
 * from its perf data (0 unknown). */
void jfr_available_sources(pid_t pid, unsigned jdk_major, char *out, size_t len);

#endif
