#include "views/findings_writer.h"

#include <string.h>
#include <time.h>

#include "base/sanitize.h"
#include "model/runtime.h"
#include "model/format.h"

/* A moment as the -b header writes one: 2026-11-30T17:37:04Z. */
static void unix_ms_text(char *buf, size_t len, double ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%.0f ms", ms);
}

void gt_text_write_doctor_header(FILE *out, const struct gt_target_info *info, double watched_s)
{
	/* as long as the fields, and every byte may become a '?' */
	char version[sizeof(info->runtime_version)], gc[sizeof(info->gc_name)];
	enum gt_sanitize_mode mode = gt_sanitize_terminal_mode();
	fprintf(out, "gctop --doctor: PID %d (%s %s, GC %s), watched %.1f s\n", (int)info->pid,
		gt_runtime_name(info->runtime),
		info->runtime_version[0] ? gt_sanitize(version, sizeof(version), info->runtime_version, mode) : "n/a",
		info->gc_name[0] ? gt_sanitize(gc, sizeof(gc), info->gc_name, mode) : "n/a", watched_s);
}

const char *gt_findings_evidence_text(char *buf, size_t len, const struct gt_evidence *e)
{
	/* the key without its unit suffix, spaces for underscores */
	char name[48];
	snprintf(name, sizeof(name), "%s", e->key);
	size_t n = strlen(name);
	static const char *const suffixes[] = { "_bytes", "_unix_ms", "_ms", "_s" };
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);
		if (n > k && strcmp(name + n - k, suffixes[i]) == 0) {
			name[n - k] = '\0';
			break;
		}
	}
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	char v[48];
	struct gt_u64 bytes = { (uint64_t)e->value, true };
	struct gt_f64 share = { e->value, true };
	switch (e->unit) {
	case GT_EVIDENCE_SHARE: gt_format_share(v, sizeof(v), share); break;
	case GT_EVIDENCE_SECONDS: snprintf(v, sizeof(v), "%.0f s", e->value); break;
	case GT_EVIDENCE_MILLIS: snprintf(v, sizeof(v), "%.1f ms", e->value); break;
	case GT_EVIDENCE_BYTES: gt_format_bytes(v, sizeof(v), bytes); break;
	case GT_EVIDENCE_COUNT: snprintf(v, sizeof(v), "%.0f", e->value); break;
	case GT_EVIDENCE_RATIO: snprintf(v, sizeof(v), "%.2f", e->value); break;
	case GT_EVIDENCE_UNIX_MS: unix_ms_text(v, sizeof(v), e->value); break;
	}
	snprintf(buf, len, "%s %s", name, v);
	return buf;
}

const char *gt_findings_evidence_line(char *buf, size_t len, const struct gt_finding *f)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < f->n_evidence && used < len; i++) {
		char one[96];
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 gt_findings_evidence_text(one, sizeof(one), &f->evidence[i]));
		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (f->cause[0] && used < len)
		snprintf(buf + used, len - used, "%scause %s", used ? ", " : "", f->cause);
	return buf;
}

void gt_text_write_findings(FILE *out, const struct gt_findings *f)
{
	if (f->count == 0) {
		fprintf(out, "Findings: none\n");
		return;
	}
	fprintf(out, "Findings: %u, worst %s\n", f->count, gt_severity_name(f->worst));
	for (unsigned i = 0; i < f->count; i++) {
		const struct gt_finding *x = &f->items[i];
		char ev[512];
		fprintf(out, "  %-8s %s: %s\n", gt_severity_name(x->severity), x->id, x->title);
		fprintf(out, "           evidence: %s\n", gt_findings_evidence_line(ev, sizeof(ev), x));
		fprintf(out, "           next: %s\n", x->advice);
	}
}

void gt_json_add_findings(struct json_object *sample, const struct gt_findings *f)
{
	struct json_object *arr = json_object_new_array();
	for (unsigned i = 0; i < f->count; i++) {
		const struct gt_finding *x = &f->items[i];
		struct json_object *o = json_object_new_object();
		struct json_object *ev = json_object_new_object();
		for (unsigned k = 0; k < x->n_evidence; k++) {
			const struct gt_evidence *e = &x->evidence[k];
			struct json_object *v = e->unit == GT_EVIDENCE_COUNT || e->unit == GT_EVIDENCE_BYTES ||
							e->unit == GT_EVIDENCE_UNIX_MS
							? json_object_new_uint64((uint64_t)e->value)
							: json_object_new_double(e->value);
			json_object_object_add(ev, e->key, v);
		}
		if (x->cause[0])
			json_object_object_add(ev, "cause", json_object_new_string(x->cause));
		json_object_object_add(o, "id", json_object_new_string(x->id));
		json_object_object_add(o, "severity", json_object_new_string(gt_severity_name(x->severity)));
		json_object_object_add(o, "title", json_object_new_string(x->title));
		json_object_object_add(o, "evidence", ev);
		json_object_object_add(o, "advice", json_object_new_string(x->advice));
		json_object_array_add(arr, o);
	}
	json_object_object_add(sample, "findings", arr);
}
