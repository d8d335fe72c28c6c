/* The points a family writes (views/metrics_emit.h), apart from the
 * writer that walks the families (views/metrics_writer.c): the families
 * and the writer both write with these, and neither needs the other's. */
#include "views/metrics_emit.h"

#include <string.h>

#include "base/sanitize.h"

#define VALUE_LEN GT_METRICS_VALUE_LEN

/* Appends value to out (len bytes held, size in all, room kept for
 * `reserve` more bytes): sanitised first (valid UTF-8, no control
 * characters), then backslash, double quote and newline escaped as both
 * formats want. When it must be cut, it is cut after escaping and on a
 * character's boundary: a cut inside a character, or between a backslash
 * and what it escapes, would make the whole exposition invalid. */
static size_t append_value(char *out, size_t size, size_t len, size_t reserve, const char *value)
{
	char clean[GT_METRICS_LABEL_VALUE_MAX + 1];
	gt_sanitize(clean, sizeof(clean), value, GT_SANITIZE_UTF8);
	for (const char *p = clean; *p;) {
		bool esc = *p == '\\' || *p == '"' || *p == '\n';
		size_t n = 1;
		while (!esc && ((unsigned char)p[n] & 0xC0) == 0x80)
			n++;  /* the continuation bytes of a well-formed character */
		if (len + (esc ? 2 : n) + reserve + 1 > size)
			break;
		if (esc) {
			out[len++] = '\\';
			out[len++] = *p == '\n' ? 'n' : *p;
		} else {
			memcpy(out + len, p, n);
			len += n;
		}
		p += n;
	}
	out[len] = '\0';
	return len;
}

/* Appends ,key="value" (or key="value" at the start) to labels, the value
 * cut (append_value) to leave room for its closing quote. By hand rather
 * than by snprintf: labels are built for every point of every process a
 * round, and the format parsing was a third of the writer. */
void gt_metrics_label_add(char *labels, size_t size, const char *key, const char *value)
{
	size_t len = strlen(labels), k = strlen(key);
	/* ,key="" never fails to fit with gctop's own keys and sizes; were it
	 * to, the label is left out whole rather than written half. */
	if (len + (len ? 1 : 0) + k + 3 + 1 > size)
		return;
	if (len)
		labels[len++] = ',';
	memcpy(labels + len, key, k);
	len += k;
	labels[len++] = '=';
	labels[len++] = '"';
	len = append_value(labels, size, len, 1, value);
	labels[len++] = '"';
	labels[len] = '\0';
}

/* HELP text: OpenMetrics also escapes the double quote. */
static void write_help(FILE *out, enum gt_metrics_format f, const char *help)
{
	for (const char *p = help; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '"' && f == GT_METRICS_OPENMETRICS)
			fputs("\\\"", out);
		else
			fputc(*p, out);
	}
}

const char *gt_metrics_family_suffix(const struct gt_metrics_family *m)
{
	return m->type == GT_METRICS_COUNTER ? "_total" : m->type == GT_METRICS_INFO ? "_info" : "";
}

static void write_header(struct gt_metrics_emit *e)
{
	const struct gt_metrics_family *m = e->fam;
	static const char *const types[] = { "gauge", "counter", "histogram", "info" };
	if (e->format == GT_METRICS_OPENMETRICS) {
		fprintf(e->out, "# TYPE %s %s\n", m->name, types[m->type]);
		if (m->unit[0])
			fprintf(e->out, "# UNIT %s %s\n", m->name, m->unit);
		fprintf(e->out, "# HELP %s ", m->name);
	} else {
		/* The classic format names a counter's and an info's samples
		 * themselves, and has no info type. */
		const char *suffix = gt_metrics_family_suffix(m);
		fprintf(e->out, "# HELP %s%s ", m->name, suffix);
		write_help(e->out, e->format, m->help);
		fprintf(e->out, "\n# TYPE %s%s %s\n", m->name, suffix, m->type == GT_METRICS_INFO ? "gauge" : types[m->type]);
		return;
	}
	write_help(e->out, e->format, m->help);
	fputc('\n', e->out);
}

/* name+suffix{base,extra} value, in pieces: a point is a few short
 * strings, and with 200 processes an exposition is some 20,000 points a
 * round, where fprintf's format parsing and stream locking per point took
 * most of the writer's time. */
static void point(struct gt_metrics_emit *e, const char *suffix, const char *extra, const char *value)
{
	if (!e->header_done) {
		write_header(e);
		e->header_done = true;
	}
	FILE *out = e->out;
	fputs_unlocked(e->fam->name, out);
	fputs_unlocked(suffix, out);
	fputc_unlocked('{', out);
	fputs_unlocked(e->base, out);
	if (extra && *extra) {
		fputc_unlocked(',', out);
		fputs_unlocked(extra, out);
	}
	fputs_unlocked("} ", out);
	fputs_unlocked(value, out);
	fputc_unlocked('\n', out);
}

/* v in decimal, as %llu writes it. */
static void format_u64(char s[VALUE_LEN], uint64_t v)
{
	char digits[VALUE_LEN];
	size_t n = 0;
	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		s[i] = digits[n - 1 - i];
	s[n] = '\0';
}

void gt_metrics_point_u64(struct gt_metrics_emit *e, const char *suffix, const char *extra, uint64_t v)
{
	char s[VALUE_LEN];
	format_u64(s, v);
	point(e, suffix, extra, s);
}

void gt_metrics_point_f64(struct gt_metrics_emit *e, const char *suffix, const char *extra, double v)
{
	char s[VALUE_LEN];
	snprintf(s, sizeof(s), "%.15g", v);
	point(e, suffix, extra, s);
}

void gt_metrics_gauge(struct gt_metrics_emit *e, const char *extra, struct gt_u64 v)
{
	if (v.valid)
		gt_metrics_point_u64(e, "", extra, v.value);
}

/* The time a counter counts from, OpenMetrics only; created <= 0: unknown. */
void gt_metrics_created(struct gt_metrics_emit *e, const char *extra, double created_s)
{
	if (e->format != GT_METRICS_OPENMETRICS || created_s <= 0)
		return;
	for (int k = 0; e->created && k < GT_METRICS_CREATED_CACHE; k++)
		if (e->created->v[k] == created_s) {
			point(e, "_created", extra, e->created->text[k]);
			return;
		}
	gt_metrics_point_f64(e, "_created", extra, created_s);
}

void gt_metrics_counter(struct gt_metrics_emit *e, const char *extra, struct gt_u64 v, double created_s)
{
	if (!v.valid)
		return;
	gt_metrics_point_u64(e, "_total", extra, v.value);
	gt_metrics_created(e, extra, created_s);
}

/* A counter of nanoseconds written in seconds. */
void gt_metrics_counter_ns(struct gt_metrics_emit *e, const char *extra, struct gt_u64 ns, double created_s)
{
	if (!ns.valid)
		return;
	gt_metrics_point_f64(e, "_total", extra, (double)ns.value / 1e9);
	gt_metrics_created(e, extra, created_s);
}

/* When a counter that counts from `since` began. */
double gt_metrics_since_s(const struct gt_metrics_target *t, enum gt_alloc_since since)
{
	if (since == GT_ALLOC_SINCE_ATTACH)
		return t->watch_start_s;
	return t->info->start_time_ms.valid ? (double)t->info->start_time_ms.value / 1000.0 : 0;
}

void gt_metrics_label(char *extra, size_t size, const char *key, const char *value)
{
	extra[0] = '\0';
	gt_metrics_label_add(extra, size, key, value);
}
