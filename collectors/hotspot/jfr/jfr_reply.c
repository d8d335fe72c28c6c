/* Parsing the JVM's answers to JFR.* commands (jfr_reply.h). Every line is
 * bounded by the reply's length, never by a NUL the target may omit. */
#include "collectors/hotspot/jfr/jfr_reply.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The JVM's words when JFR is off, and when no JFR.* command exists (the
 * jdk.jfr module left out of a jlink image): both JDK 17 and 25. */
static const char reply_disabled[] = "Flight Recorder is disabled";
static const char reply_unknown[] = "Unknown diagnostic command";

/* The next line of [*p, end): its start and length, *p moved past it. */
static bool next_line(const char **p, const char *end, const char **line, size_t *len)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = (size_t)((nl ? nl : end) - *p);
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	*p = nl ? nl + 1 : end;
	return true;
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

static bool contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* Copies a line into why, dropping control bytes. */
static void copy_clean(char *why, size_t why_len, const char *s, size_t len)
{
	if (!why_len)
		return;
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < why_len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != 0x7f)
			why[o++] = (char)c;
	}
	why[o] = '\0';
}

enum jfr_reply_verdict jfr_reply_verdict(const char *text, size_t len, const char *expect, char *why, size_t why_len)
{
	if (why_len)
		why[0] = '\0';
	const char *p = text, *end = text + len, *line;
	size_t n;
	if (!text || !next_line(&p, end, &line, &n)) {
		copy_clean(why, why_len, "no answer", 9);
		return JFR_REPLY_REFUSED;
	}
	/* the status line: 0, or the listener's refusal with the reason after it */
	bool status_ok = n == 1 && line[0] == '0';
	const char *first = NULL;
	size_t first_len = 0;
	while (next_line(&p, end, &line, &n)) {
		if (n == 0)
			continue;
		if (!first) {
			first = line;
			first_len = n;
		}
		if (contains(line, n, reply_disabled)) {
			copy_clean(why, why_len, line, n);
			return JFR_REPLY_DISABLED;
		}
		if (contains(line, n, reply_unknown)) {
			copy_clean(why, why_len, line, n);
			return JFR_REPLY_NO_JFR;
		}
	}
	if (status_ok && first && starts_with(first, first_len, expect))
		return JFR_REPLY_OK;
	if (first)
		copy_clean(why, why_len, first, first_len);
	else
		copy_clean(why, why_len, "an empty answer", 15);
	return JFR_REPLY_REFUSED;
}

/* An absolute path with no "." or ".." component (the walk under the
 * target's root refuses ".." anyway; this keeps the sentence honest). */
static bool path_plain(const char *s)
{
	if (s[0] != '/')
		return false;
	for (const char *c = s; *c; c++) {
		if (*c != '/' || c[1] != '.')
			continue;
		if (c[2] == '/' || c[2] == '\0' || (c[2] == '.' && (c[3] == '/' || c[3] == '\0')))
			return false;
	}
	return true;
}

int jfr_reply_repository(const char *text, size_t len, char *path, size_t path_len)
{
	static const char key[] = "Repository path: ";
	const char *p = text, *end = text + len, *line;
	size_t n;
	while (text && next_line(&p, end, &line, &n)) {
		if (!starts_with(line, n, key))
			continue;
		const char *v = line + sizeof(key) - 1;
		size_t vn = n - (sizeof(key) - 1);
		while (vn && v[vn - 1] == ' ')
			vn--;
		if (vn == 0 || vn >= path_len || memchr(v, '\0', vn))
			return -1;
		for (size_t i = 0; i < vn; i++)
			if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
				return -1;
		memcpy(path, v, vn);
		path[vn] = '\0';
		return path_plain(path) ? 0 : -1;
	}
	return -1;
}

bool jfr_name_parse(const char *name, pid_t *gctop_pid)
{
	size_t plen = strlen(JFR_NAME_PREFIX);
	if (strncmp(name, JFR_NAME_PREFIX, plen) != 0)
		return false;
	const char *s = name + plen;
	long pid = 0;
	size_t digits = 0;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		pid = pid * 10 + (*s - '0');
		if (pid > 0x3fffffff)
			return false;
	}
	if (!digits || pid <= 0 || *s != '-' || !s[1])
		return false;
	for (s++; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	*gctop_pid = (pid_t)pid;
	return true;
}

size_t jfr_reply_recordings(const char *text, size_t len, struct jfr_listed *out, size_t max)
{
	static const char rec[] = "Recording ", key[] = "name=";
	size_t k = 0;
	const char *p = text, *end = text + len, *line;
	size_t n;
	while (text && k < max && next_line(&p, end, &line, &n)) {
		if (!starts_with(line, n, rec))
			continue;
		const char *at = memmem(line, n, key, sizeof(key) - 1);
		if (!at)
			continue;
		const char *v = at + sizeof(key) - 1, *le = line + n;
		size_t vn = 0;
		while (v + vn < le && v[vn] != ' ')
			vn++;
		if (vn == 0 || vn >= JFR_NAME_LEN)
			continue;
		memcpy(out[k].name, v, vn);
		out[k].name[vn] = '\0';
		pid_t pid;
		if (memchr(out[k].name, '\0', vn) || !jfr_name_parse(out[k].name, &pid))
			continue;
		out[k].running = contains(line, n, "(running)") || contains(line, n, "(delayed)") ||
				 contains(line, n, "(starting)");
		k++;
	}
	return k;
}
