#include "collectors/host/cgroup_parse.h"

#include <string.h>

/* A view into the caller's text; the parsers never copy or NUL-terminate it. */
struct span {
	const char *p;
	size_t n;
};

/* Yields the lines of text one by one, without their '\n'. */
static bool next_line(const char *text, size_t len, size_t *pos, struct span *line)
{
	if (*pos >= len)
		return false;
	const char *start = text + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - start) : len - *pos;
	line->p = start;
	line->n = n;
	*pos += n + (nl ? 1 : 0);
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static struct span trim(struct span s)
{
	while (s.n && is_blank(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && is_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

static bool span_is(struct span s, const char *word)
{
	size_t n = strlen(word);
	return s.n == n && memcmp(s.p, word, n) == 0;
}

/* Splits off the word before the first sep into *word; s keeps what follows
 * the separator. Returns whether the separator was there. */
static bool take_until(struct span *s, char sep, struct span *word)
{
	const char *at = memchr(s->p, sep, s->n);
	word->p = s->p;
	word->n = at ? (size_t)(at - s->p) : s->n;
	s->p += word->n;
	s->n -= word->n;
	if (!at)
		return false;
	s->p++;
	s->n--;
	return true;
}

/* Digits only: the kernel never writes a sign or a space inside a number,
 * and strtoull would accept both (and wrap "-1" to 2^64-1). */
static int span_u64(struct span s, uint64_t *out)
{
	if (s.n == 0)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (c < '0' || c > '9')
			return -1;
		uint64_t d = (uint64_t)(c - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static bool controllers_hold_memory(struct span list)
{
	struct span name;
	while (list.n) {
		take_until(&list, ',', &name);
		if (span_is(name, "memory"))
			return true;
	}
	return false;
}

/* A group outside the reader's cgroup namespace shows as "/../.."; joined
 * onto the mount point it would name files outside the cgroup filesystem. */
static bool climbs_out(struct span path)
{
	struct span part;
	while (path.n) {
		take_until(&path, '/', &part);
		if (span_is(part, ".."))
			return true;
	}
	return false;
}

static bool copy_path(struct span path, char *dst)
{
	if (path.n == 0 || path.n >= GT_CGROUP_PATH_MAX || path.p[0] != '/' || memchr(path.p, '\0', path.n) ||
	    climbs_out(path))
		return false;
	memcpy(dst, path.p, path.n);
	dst[path.n] = '\0';
	return true;
}

int gt_cgroup_parse_membership(const char *text, size_t len, struct gt_cgroup_membership *out)
{
	memset(out, 0, sizeof(*out));
	size_t pos = 0;
	struct span line;
	while (next_line(text, len, &pos, &line)) {
		/* "ID:CONTROLLERS:PATH"; the path is the rest of the line because
		 * a cgroup directory name may itself contain ':'. */
		struct span rest = line, id, controllers;
		uint64_t id_value;
		if (!take_until(&rest, ':', &id) || !take_until(&rest, ':', &controllers) ||
		    span_u64(id, &id_value) != 0)
			continue;
		if (controllers.n == 0) {
			if (id_value == 0 && !out->has_v2)
				out->has_v2 = copy_path(rest, out->v2_path);
		} else if (!out->has_v1_memory && controllers_hold_memory(controllers)) {
			out->has_v1_memory = copy_path(rest, out->v1_memory_path);
		}
	}
	return (out->has_v1_memory || out->has_v2) ? 0 : -1;
}

int gt_cgroup_parse_u64(const char *text, size_t len, uint64_t *value)
{
	struct span s = trim((struct span){ text, len });
	return span_u64(s, value);
}

enum gt_cgroup_limit gt_cgroup_parse_limit(const char *text, size_t len, uint64_t *bytes)
{
	struct span s = trim((struct span){ text, len });
	if (span_is(s, "max"))
		return GT_CGROUP_LIMIT_UNLIMITED;
	uint64_t v;
	if (span_u64(s, &v) != 0)
		return GT_CGROUP_LIMIT_BAD;
	if (v >= GT_CGROUP_V1_UNLIMITED_MIN)
		return GT_CGROUP_LIMIT_UNLIMITED;
	*bytes = v;
	return GT_CGROUP_LIMIT_SET;
}

int gt_cgroup_parse_keyed(const char *text, size_t len, const char *key, uint64_t *value)
{
	size_t pos = 0;
	struct span line;
	while (next_line(text, len, &pos, &line)) {
		struct span rest = line, word;
		take_until(&rest, ' ', &word);
		if (span_is(word, key))
			return span_u64(trim(rest), value);
	}
	return -1;
}

/* "D[.D...]" with at most three integer digits; fraction digits beyond the
 * ninth are checked but add nothing a percentage can show. */
static int span_percent(struct span s, double *out)
{
	struct span whole;
	bool has_fraction = take_until(&s, '.', &whole);
	uint64_t w;
	if (whole.n > 3 || span_u64(whole, &w) != 0)
		return -1;
	if (has_fraction && s.n == 0)
		return -1;
	double v = (double)w, scale = 0.1;
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (c < '0' || c > '9')
			return -1;
		if (i < 9) {
			v += (c - '0') * scale;
			scale /= 10;
		}
	}
	if (v > 100.0)
		return -1;
	*out = v;
	return 0;
}

int gt_cgroup_parse_psi_some_avg10(const char *text, size_t len, double *percent)
{
	size_t pos = 0;
	struct span line;
	while (next_line(text, len, &pos, &line)) {
		struct span rest = line, kind;
		take_until(&rest, ' ', &kind);
		if (!span_is(kind, "some"))
			continue;
		while (rest.n) {
			struct span field, name;
			take_until(&rest, ' ', &field);
			if (take_until(&field, '=', &name) && span_is(name, "avg10"))
				return span_percent(field, percent);
		}
		return -1;
	}
	return -1;
}

uint64_t gt_cgroup_parse_count_lines(const char *text, size_t len)
{
	uint64_t n = 0;
	bool in_line = false;
	for (size_t i = 0; i < len && text[i]; i++) {
		if (text[i] == '\n') {
			n += in_line;
			in_line = false;
		} else if (text[i] != ' ' && text[i] != '\t') {
			in_line = true;
		}
	}
	return n + in_line;
}
