/* HotSpot's class histogram, parsed (collectors/hotspot/hotspot_histo.h).
 * Written by hand: it is the JVM's own text table, which no library reads. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "collectors/hotspot/hotspot_histo.h"

#include "base/jvm_type_name.h"

static const char why_rows[] = "some rows of the class histogram could not be read and are left out";
/* The JVM sends its histogram sorted by bytes, largest first
 * (KlassInfoHisto::sort), so the rows past the cap are its smallest. */
const char gt_hotspot_histo_why_cap[] = "the class histogram had more rows than a census keeps (65536); the rest, "
					"which the JVM lists after the largest, are left out";
_Static_assert(GT_CENSUS_MAX_TYPES == 65536, "gt_hotspot_histo_why_cap names the type cap");
static const char why_total[] =
	"the class histogram ended before its Total line, so it may be cut short; the totals are its rows' sums";

static size_t append(char *out, size_t cap, size_t o, const char *s, size_t n)
{
	if (o + 1 >= cap)
		return o;
	if (n > cap - 1 - o)
		n = cap - 1 - o;
	memcpy(out + o, s, n);
	out[o + n] = '\0';
	return o + n;
}

size_t gt_hotspot_source_name(const char *in, size_t len, char *out, size_t cap)
{
	out[0] = '\0';
	size_t dims = 0;
	while (dims < len && in[dims] == '[')
		dims++;
	const char *elem = in + dims;
	size_t elen = len - dims;
	const char *prim = elen == 1 ? gt_jvm_primitive_name(elem[0]) : NULL;
	size_t o = 0;
	if (dims == 0 || elen == 0) {
		return append(out, cap, 0, in, len);
	} else if (prim) {
		o = append(out, cap, 0, prim, strlen(prim));
	} else if (elen > 2 && elem[0] == 'L' && elem[elen - 1] == ';') {
		o = append(out, cap, 0, elem + 1, elen - 2);
	} else {
		return append(out, cap, 0, in, len);
	}
	for (size_t i = 0; i < dims; i++)
		o = append(out, cap, o, "[]", 2);
	return o;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	return p;
}

/* A decimal number at *p, which moves past it. False when there is none
 * or it is past 2^64 - 1. */
static bool read_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	while (s < end && *s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
		s++;
	}
	if (s == *p)
		return false;
	*p = s;
	*v = x;
	return true;
}

/* "COUNT BYTES" after the row's number or "Total", each after spaces. */
static bool read_pair(const char **p, const char *end, uint64_t *count, uint64_t *bytes)
{
	const char *s = skip_spaces(*p, end);
	if (s == *p || !read_u64(&s, end, count))
		return false;
	const char *t = skip_spaces(s, end);
	if (t == s || !read_u64(&t, end, bytes))
		return false;
	*p = t;
	return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* What one line was. */
enum histo_line { LINE_OTHER, LINE_ROW, LINE_BAD_ROW, LINE_TOTAL };

struct histo_parse {
	struct gt_census *out;
	size_t cap;
	bool bad_rows, have_total, capped;
	uint64_t sum_count, sum_bytes;
};

/* "   1:       1584892      123385544  [B (java.base@17.0.15)" */
static enum histo_line parse_row(struct histo_parse *h, const char *p, const char *end, int *oom)
{
	uint64_t num, count, bytes;
	if (!read_u64(&p, end, &num))
		return LINE_OTHER;
	if (p == end || *p != ':')
		return LINE_OTHER;
	p++;
	if (skip_spaces(p, end) == end)
		return LINE_OTHER; /* jcmd's "PID:" */
	if (!read_pair(&p, end, &count, &bytes))
		return LINE_BAD_ROW;
	const char *name = skip_spaces(p, end);
	const char *name_end = name;
	while (name_end < end && !is_space(*name_end))
		name_end++;
	if (name == p || name_end == name)
		return LINE_BAD_ROW;
	char src[GT_CENSUS_NAME_LEN];
	size_t n = gt_hotspot_source_name(name, (size_t)(name_end - name), src, sizeof(src));
	/* Past the cap a row is read (its figures still count in the sums)
	 * but not kept: a hostile JVM's short rows would otherwise make a
	 * 272-byte type of every 13 bytes of its reply. */
	if (h->out->n_types >= GT_CENSUS_MAX_TYPES)
		h->capped = true;
	else if (gt_census_add(h->out, &h->cap, src, n, count, bytes) != 0)
		*oom = 1;
	h->sum_count = sat_add(h->sum_count, count);
	h->sum_bytes = sat_add(h->sum_bytes, bytes);
	return LINE_ROW;
}

static enum histo_line parse_line(struct histo_parse *h, const char *p, const char *end, int *oom)
{
	p = skip_spaces(p, end);
	static const char total[] = "Total";
	if ((size_t)(end - p) >= sizeof(total) - 1 && memcmp(p, total, sizeof(total) - 1) == 0) {
		p += sizeof(total) - 1;
		uint64_t count, bytes;
		if (!read_pair(&p, end, &count, &bytes))
			return LINE_BAD_ROW;
		h->out->total_count = count;
		h->out->total_bytes = bytes;
		return LINE_TOTAL;
	}
	return parse_row(h, p, end, oom);
}

int gt_hotspot_histo_parse(const char *text, size_t len, struct gt_census *out)
{
	memset(out, 0, sizeof(*out));
	struct histo_parse h = { .out = out };
	int oom = 0;
	for (const char *p = text, *end = text + len; p < end && !oom;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		switch (parse_line(&h, p, line_end, &oom)) {
		case LINE_BAD_ROW: h.bad_rows = true; break;
		case LINE_TOTAL: h.have_total = true; break;
		default: break;
		}
		p = nl ? nl + 1 : end;
	}
	if (oom) {
		gt_census_free(out);
		return -1;
	}
	if (!h.have_total) {
		out->total_count = h.sum_count;
		out->total_bytes = h.sum_bytes;
		out->partial_why = why_total;
	}
	/* The cap is said before a missing Total line: it is the larger loss
	 * (the totals are still every row's, from Total or the sums). */
	if (h.capped) {
		out->partial_why = gt_hotspot_histo_why_cap;
	} else if (h.have_total && h.bad_rows) {
		out->partial_why = why_rows;
	}
	gt_census_sort(out);
	return 0;
}
