/* The per-sample process facts, read from /proc/PID/stat and status by
 * hand rather than through libproc2 (collectors/host/proc.c still uses it
 * for the user and command line, read once when a target opens).
 *
 * Why by hand: libproc2 4.0.2's select of one PID (PIDS_SELECT_PID) opens
 * /proc/uptime, opens /proc/PID/status twice, stat()s /proc/PID and opens
 * /proc/PID/stat: 39-40 us a select on the 2-core machine of the README's
 * performance section (2026-12-01, an idle JVM, 3 x 3000 selects) against
 * 15.4-16.0 us for one read of stat and one of status. gctop --serve samples
 * every process every second: with 220 of them that was 8.6 ms of CPU a
 * second (a third of its CPU, perf) against 3.4 ms. */
#include "collectors/host/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* /proc/PID/stat's fields, counted from 1 (proc(5)). */
#define STAT_FIELD_STATE 3
#define STAT_FIELD_UTIME 14
#define STAT_FIELD_STIME 15
#define STAT_FIELD_THREADS 20
#define STAT_FIELD_STARTTIME 22

int gt_proc_parse_stat(const char *text, struct gt_proc_stat *out)
{
	/* The command name (field 2) may hold spaces and ')': the fields after
	 * the last ')' are plain. */
	const char *p = strrchr(text, ')');
	if (!p || p[1] != ' ' || !p[2])
		return -1;
	p += 2;
	out->state = *p;
	for (int field = STAT_FIELD_STATE + 1; field <= STAT_FIELD_STARTTIME; field++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		switch (field) {
		case STAT_FIELD_UTIME: out->utime = v; break;
		case STAT_FIELD_STIME: out->stime = v; break;
		case STAT_FIELD_THREADS: out->threads = v; break;
		case STAT_FIELD_STARTTIME: out->start_ticks = v; break;
		default: break;
		}
	}
	return 0;
}

/* "Key:\t   123 kB": the number, 0 when the line is missing (as libproc2
 * gave it). */
static unsigned long long status_kib(const char *text, const char *key)
{
	const char *line = text;
	size_t klen = strlen(key);
	while (line && *line) {
		if (strncmp(line, key, klen) == 0)
			return strtoull(line + klen, NULL, 10);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

void gt_proc_parse_status(const char *text, struct gt_proc_status *out)
{
	out->rss_kib = status_kib(text, "VmRSS:");
	out->anon_kib = status_kib(text, "RssAnon:");
	out->file_kib = status_kib(text, "RssFile:");
	out->swap_kib = status_kib(text, "VmSwap:");
}

unsigned long long gt_proc_parse_mem_total_kib(const char *text)
{
	return status_kib(text, "MemTotal:");
}

int gt_proc_read_stat(pid_t pid, struct gt_proc_stat *out)
{
	char path[32], text[GT_PROC_STAT_TEXT];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (gt_proc_read_small(path, text, sizeof(text)) <= 0)
		return -1;
	return gt_proc_parse_stat(text, out);
}

int gt_proc_read_status(pid_t pid, struct gt_proc_status *out)
{
	char path[32], text[GT_PROC_STATUS_TEXT];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (gt_proc_read_small(path, text, sizeof(text)) <= 0)
		return -1;
	gt_proc_parse_status(text, out);
	return 0;
}
