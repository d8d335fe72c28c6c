#include "model/format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *scaled(char *buf, size_t len, double v, const char *suffix)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;

	while (fabs(v) >= 1024.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f %s%s", v, units[u], suffix);
	else if (fabs(v) < 10)
		snprintf(buf, len, "%.2f %s%s", v, units[u], suffix);
	else if (fabs(v) < 100)
		snprintf(buf, len, "%.1f %s%s", v, units[u], suffix);
	else
		snprintf(buf, len, "%.0f %s%s", v, units[u], suffix);
	return buf;
}

const char *gt_format_bytes(char *buf, size_t len, struct gt_u64 v)
{
	if (!v.valid) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	return scaled(buf, len, (double)v.value, "");
}

const char *gt_format_rate(char *buf, size_t len, struct gt_f64 bps)
{
	if (!bps.valid || !isfinite(bps.value)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	return scaled(buf, len, bps.value, "/s");
}

const char *gt_format_share(char *buf, size_t len, struct gt_f64 share)
{
	if (!share.valid || !isfinite(share.value))
		snprintf(buf, len, "n/a");
	else if (share.value * 100 < 10)
		snprintf(buf, len, "%.2f%%", share.value * 100);
	else
		snprintf(buf, len, "%.1f%%", share.value * 100);
	return buf;
}

const char *gt_format_duration_ns(char *buf, size_t len, struct gt_u64 ns)
{
	if (!ns.valid)
		snprintf(buf, len, "n/a");
	else if (ns.value < 1000000ull)
		snprintf(buf, len, "%.3f ms", (double)ns.value / 1e6);
	else if (ns.value < 1000000000ull)
		snprintf(buf, len, "%.1f ms", (double)ns.value / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns.value / 1e9);
	return buf;
}

const char *gt_format_uptime(char *buf, size_t len, double seconds)
{
	if (!isfinite(seconds) || seconds < 0) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	unsigned long s = (unsigned long)seconds;
	unsigned long d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;
	if (d)
		snprintf(buf, len, "%lud %02lu:%02lu:%02lu", d, h, m, s % 60);
	else if (h)
		snprintf(buf, len, "%02lu:%02lu:%02lu", h, m, s % 60);
	else
		snprintf(buf, len, "%02lu:%02lu", m, s % 60);
	return buf;
}

const char *gt_format_count(char *buf, size_t len, struct gt_u64 v)
{
	if (!v.valid)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v.value);
	return buf;
}

const char *gt_format_cut(char *buf, size_t len, const char *s, int width)
{
	int n = (int)strlen(s);
	if (n <= width) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	int keep = width < 4 ? width : width - 3;
	if (keep < 0)
		keep = 0;
	while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--;
	snprintf(buf, len, "%.*s%s", keep, s, width < 4 ? "" : "...");
	return buf;
}

int gt_format_wrap_len(const char *text, int room)
{
	int n = (int)strlen(text);
	if (n <= room)
		return n;
	n = room;
	while (n > 0 && text[n] != ' ')
		n--;
	return n > 0 ? n : room;
}

const char *gt_format_collections_counting(const struct gt_runtime_traits *rt)
{
	return rt ? rt->collections_counting : NULL;
}

const char *gt_format_cut_words(char *buf, size_t len, const char *text, int width)
{
	int n = (int)strlen(text);
	if (n <= width)
		return gt_format_cut(buf, len, text, width);
	snprintf(buf, len, "%s", "");
	if (width < 4)
		return buf;
	/* the last space that leaves room for the "..." */
	int keep = width - 3;
	while (keep > 0 && text[keep] != ' ')
		keep--;
	/* no dangling separator before the ellipsis */
	while (keep > 0 && (text[keep - 1] == ' ' || text[keep - 1] == ',' || text[keep - 1] == ':'))
		keep--;
	if (keep > 0)
		snprintf(buf, len, "%.*s...", keep, text);
	return buf;
}

/* ---- names shortened by their namespace ---- */

#define NAME_MAX_PARTS 32

/* A name split at the '.' and '+' outside brackets ("List`1[System.Int32]"
 * and "<Main>$" stay whole parts). */
struct name_parts {
	const char *s;
	int n;
	int start[NAME_MAX_PARTS], len[NAME_MAX_PARTS];
};

static void name_split(const char *s, struct name_parts *p)
{
	int depth = 0, from = 0, i = 0;
	p->s = s;
	p->n = 0;
	for (;; i++) {
		char c = s[i];
		if (c == '[' || c == '<' || c == '(')
			depth++;
		else if ((c == ']' || c == '>' || c == ')') && depth > 0)
			depth--;
		bool sep = depth == 0 && (c == '.' || c == '+') && i > from && p->n < NAME_MAX_PARTS - 1;
		if (c == '\0' || sep) {
			p->start[p->n] = from;
			p->len[p->n++] = i - from;
			from = i + 1;
		}
		if (c == '\0')
			break;
	}
}

/* Bytes of the first character of part i (UTF-8 kept whole). */
static int name_initial(const struct name_parts *p, int i)
{
	const unsigned char *c = (const unsigned char *)p->s + p->start[i];
	int k = 1;
	while (k < p->len[i] && (c[k] & 0xC0) == 0x80)
		k++;
	return k;
}

/* Form (drop, abbrev): the first `drop` parts left out (".." in their
 * place), the next `abbrev` cut to their initial, the rest whole. */
static void name_form(const struct name_parts *p, int drop, int abbrev, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s", drop > 0 ? ".." : "");
	for (int i = drop; i < p->n && at < len; i++) {
		if (i > drop)
			at += (size_t)snprintf(buf + at, len - at, "%c", p->s[p->start[i] - 1]);
		int n = i < drop + abbrev ? name_initial(p, i) : p->len[i];
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%.*s", n, p->s + p->start[i]);
	}
}

/* The k-th form, longest first: the whole name; the namespace abbreviated
 * part by part (the last two parts, class and member, stay whole); the
 * abbreviated parts dropped from the left; the class abbreviated, then
 * dropped. False past the last. */
static bool name_step(const struct name_parts *p, int k, char *buf, size_t len)
{
	int ns = p->n - 2;   /* namespace parts */
	if (k == 0) {
		name_form(p, 0, 0, buf, len);
		return true;
	}
	if (ns < 0)
		return false;
	if (k <= ns) {
		name_form(p, 0, k, buf, len);
		return true;
	}
	k -= ns;
	if (k <= ns) {
		name_form(p, k, ns - k, buf, len);
		return true;
	}
	k -= ns;
	if (k == 1)
		name_form(p, ns, 1, buf, len);
	else if (k == 2)
		name_form(p, ns + 1, 0, buf, len);
	return k <= 2;
}

/* True when another name could read as text. */
static bool name_shared(const char *text, const char *name, const char *const *others, size_t n_others)
{
	char form[512];
	for (size_t o = 0; o < n_others; o++) {
		if (!others[o] || strcmp(others[o], name) == 0)
			continue;
		struct name_parts p;
		name_split(others[o], &p);
		for (int k = 0; name_step(&p, k, form, sizeof(form)); k++)
			if (strcmp(form, text) == 0)
				return true;
	}
	return false;
}

const char *gt_format_name(char *buf, size_t len, const char *name, int width, const char *const *others,
			   size_t n_others)
{
	char form[512];
	struct name_parts p;
	if ((int)strlen(name) <= width)
		return gt_format_cut(buf, len, name, width);
	name_split(name, &p);
	for (int k = 1; name_step(&p, k, form, sizeof(form)); k++) {
		if ((int)strlen(form) <= width && !name_shared(form, name, others, n_others)) {
			snprintf(buf, len, "%s", form);
			return buf;
		}
	}
	/* No form fits: the shortest one that is this name's alone, its end cut. */
	snprintf(buf, len, "%s", name);
	for (int k = 0; name_step(&p, k, form, sizeof(form)); k++)
		if (!name_shared(form, name, others, n_others))
			snprintf(buf, len, "%s", form);
	char whole[512];
	snprintf(whole, sizeof(whole), "%s", buf);
	return gt_format_cut(buf, len, whole, width);
}
