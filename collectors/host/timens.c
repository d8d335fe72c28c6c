/* A process's CLOCK_MONOTONIC against ours: a process in another time
 * namespace reads it shifted by its namespace's offset, which
 * /proc/PID/timens_offsets gives (Linux 5.6 on; without the file every
 * process shares one clock). The text is another process's to shape
 * (its namespace's), so it is parsed as hostile. */
#include "collectors/host/proc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds beyond this would not fit in nanoseconds. */
#define TIMENS_SECS_MAX (INT64_MAX / 1000000000ll - 1)

/* One whole number at *p (spaces before it skipped) into *v; the end in *p. */
static int timens_number(const char **p, long long *v)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!(**p == '-' || (**p >= '0' && **p <= '9')))
		return -1;
	char *end;
	errno = 0;
	*v = strtoll(*p, &end, 10);
	if (errno != 0 || end == *p)
		return -1;
	*p = end;
	return 0;
}

/* One line: 0 with *ns when it is the monotonic clock's, 1 when another
 * clock's, -1 when malformed. */
static int timens_line(const char *p, int64_t *ns)
{
	/* The clock by name, as the kernel writes it, or by its id (1). */
	if (strncmp(p, "monotonic", 9) == 0)
		p += 9;
	else if (p[0] == '1')
		p += 1;
	else
		return 1;
	if (*p != ' ' && *p != '\t')
		return 1;
	long long secs, nsecs;
	if (timens_number(&p, &secs) != 0 || timens_number(&p, &nsecs) != 0)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if ((*p != '\n' && *p != '\0') || nsecs < 0 || nsecs > 999999999ll || secs > TIMENS_SECS_MAX ||
	    secs < -TIMENS_SECS_MAX)
		return -1;
	*ns = (int64_t)secs * 1000000000ll + (int64_t)nsecs;
	return 0;
}

int gt_proc_parse_timens_monotonic(const char *text, int64_t *ns)
{
	for (const char *line = text; *line;) {
		int rc = timens_line(line, ns);
		if (rc <= 0)
			return rc;
		const char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	return -1;
}

/* The monotonic offset of path's time namespace: 0 where the kernel has
 * no time namespaces (no such file). */
static int timens_offset(const char *path, int64_t *ns)
{
	char buf[512];
	if (gt_proc_read_small(path, buf, sizeof(buf)) < 0) {
		*ns = 0;
		return errno == ENOENT ? 0 : -1;
	}
	return gt_proc_parse_timens_monotonic(buf, ns);
}

int gt_proc_monotonic_offset(pid_t pid, int64_t *ns)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/timens_offsets", (int)pid);
	int64_t theirs, ours;
	if (timens_offset(path, &theirs) != 0 || timens_offset("/proc/self/timens_offsets", &ours) != 0)
		return -1;
	*ns = theirs - ours;
	return 0;
}
