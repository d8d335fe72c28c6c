#include "views/compare_writer.h"

#include <math.h>
#include <string.h>

#include "base/sanitize.h"
#include "model/format.h"
#include "base/json_text.h"

/* The label column is as wide as its longest label, at least LABEL_W;
 * every label is whole (a generation's name, a counter's). */
#define LABEL_W 32
#define LABEL_MAX 80
#define COLUMN_W 26

static const char *fig_text(char *buf, size_t len, struct gt_f64 v, enum gt_fig_unit unit)
{
	struct gt_u64 bytes = { 0 };
	if (!v.valid || !isfinite(v.value))
		return snprintf(buf, len, "n/a"), buf;
	switch (unit) {
	case GT_UNIT_SECONDS: snprintf(buf, len, "%.1f s", v.value); break;
	case GT_UNIT_BPS: gt_format_rate(buf, len, v); break;
	case GT_UNIT_BYTES:
		gt_u64_set(&bytes, (uint64_t)llround(v.value));
		gt_format_bytes(buf, len, bytes);
		break;
	case GT_UNIT_SHARE: gt_format_share(buf, len, v); break;
	case GT_UNIT_MS: snprintf(buf, len, "%.2f ms", v.value); break;
	case GT_UNIT_PER_MIN: snprintf(buf, len, "%.1f/min", v.value); break;
	case GT_UNIT_PER_S: snprintf(buf, len, "%.1f/s", v.value); break;
	}
	return buf;
}

/* Text a recording names (its target's names, the reader made them valid
 * UTF-8) as the terminal can take it: printable ASCII only when the locale
 * is not UTF-8, where a byte of a UTF-8 character may read as a C1 control
 * (base/sanitize.h). */
static const char *term_text(char *buf, size_t len, const char *s)
{
	return gt_sanitize(buf, len, s, gt_sanitize_terminal_mode());
}

/* One row: the label, then each run's value, later runs with their ratio. */
static void row(FILE *out, int label_w, const char *label, const struct gt_f64 *v, size_t n, enum gt_fig_unit unit)
{
	char clean[LABEL_MAX * 4 + 1];
	fprintf(out, "%-*s", label_w, term_text(clean, sizeof(clean), label));
	for (size_t i = 0; i < n; i++) {
		char text[48], cell[80];
		fig_text(text, sizeof(text), v[i], unit);
		struct gt_f64 r = gt_compare_ratio(v[0], v[i]);
		if (i > 0 && r.valid)
			snprintf(cell, sizeof(cell), "%s (%.2fx)", text, r.value);
		else
			snprintf(cell, sizeof(cell), "%s", text);
		fprintf(out, " %-*s", COLUMN_W, cell);
	}
	fputc('\n', out);
}

static void text_row(FILE *out, int label_w, const char *label, const char *const *cells, size_t n)
{
	fprintf(out, "%-*s", label_w, label);
	for (size_t i = 0; i < n; i++) {
		char clean[320], cut[COLUMN_W * 4 + 1];
		fprintf(out, " %-*s", COLUMN_W, gt_format_cut(cut, sizeof(cut), term_text(clean, sizeof(clean), cells[i]),
							      COLUMN_W));
	}
	fputc('\n', out);
}

/* s in at most COLUMN_W bytes, keeping its end (a path's file name). */
static const char *tail(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);
	if (n <= COLUMN_W)
		return snprintf(buf, len, "%s", s), buf;
	const char *t = s + n - (COLUMN_W - 3);
	while (((unsigned char)*t & 0xC0) == 0x80)
		t++;
	snprintf(buf, len, "...%s", t);
	return buf;
}

enum { FACT_ROWS = 6 };

static void run_facts(const struct gt_run *r, char (*buf)[320])
{
	char clean[256], cut[320];
	gt_sanitize(clean, sizeof(clean), r->file, gt_sanitize_terminal_mode());
	snprintf(buf[0], 320, "%s", tail(cut, sizeof(cut), clean));
	snprintf(buf[1], 320, "%s, PID %d", r->info.main_class, (int)r->info.pid);
	snprintf(buf[2], 320, "%s %s", gt_runtime_name(r->info.runtime), r->info.runtime_version);
	if (r->gc_heaps_max.valid)
		snprintf(buf[3], 320, "%s, %llu heap%s", r->info.gc_name, (unsigned long long)r->gc_heaps_max.value,
			 r->gc_heaps_max.value == 1 ? "" : "s");
	else
		snprintf(buf[3], 320, "%s", r->info.gc_name);
	snprintf(buf[4], 320, "%s%s%s", r->info.gc_mode, r->info.gc_mode[0] && r->info.heap_flags[0] ? ", " : "",
		 r->info.heap_flags);
	snprintf(buf[5], 320, "%llu%s", (unsigned long long)r->samples, r->truncated ? " (last line cut)" : "");
}

/* The facts of each run: file, target, GC configuration, samples. */
static void facts(FILE *out, int label_w, const struct gt_run *runs, size_t n)
{
	char buf[GT_COMPARE_RUNS_MAX][FACT_ROWS][320];
	const char *cells[FACT_ROWS][GT_COMPARE_RUNS_MAX];
	for (size_t i = 0; i < n; i++) {
		run_facts(&runs[i], buf[i]);
		for (int j = 0; j < FACT_ROWS; j++)
			cells[j][i] = buf[i][j];
	}
	static const char *const labels[FACT_ROWS] = { "recording", "target", "runtime", "GC", "GC mode, heap settings",
						       "samples" };
	for (int j = 0; j < FACT_ROWS; j++)
		text_row(out, label_w, labels[j], cells[j], n);
}

/* The generations' names across the runs, each once, in first-seen order. */
static unsigned generation_names(const struct gt_run *runs, size_t n, const char **names, unsigned max)
{
	unsigned k = 0;
	for (size_t i = 0; i < n; i++)
		for (unsigned g = 0; g < runs[i].n_generations; g++) {
			unsigned j = 0;
			while (j < k && strcmp(names[j], runs[i].generation[g]) != 0)
				j++;
			if (j == k && k < max)
				names[k++] = runs[i].generation[g];
		}
	return k;
}

/* A figure's label: the counter's name says what an operation is. */
static void fig_label(char *buf, size_t len, const struct gt_run *runs, int f)
{
	const char *ops = runs[0].opcount_name;
	if (f == GT_FIG_BYTES_PER_OP_MEDIAN && ops[0])
		snprintf(buf, len, "bytes per op (%.20s), median", ops);
	else if (f == GT_FIG_OPCOUNT_RATE && ops[0])
		snprintf(buf, len, "%.20s per second", ops);
	else
		snprintf(buf, len, "%s", gt_fig_descs[f].label);
}

/* A generation's row label, with what the counts count as the first
 * run's runtime counts them. */
static void generation_label(char *buf, size_t len, const struct gt_run *runs, const char *name)
{
	const char *counting = gt_format_collections_counting(runs[0].info.runtime);
	if (counting)
		snprintf(buf, len, "collections %s (%s)", name, counting);
	else
		snprintf(buf, len, "collections %s", name);
}

/* The label column's width: the longest label and a space, at least LABEL_W. */
static int label_width(const struct gt_run *runs, const char *const *names, unsigned k)
{
	char label[LABEL_MAX + 1];
	int w = LABEL_W;
	for (int f = 0; f < GT_FIG_COUNT; f++) {
		fig_label(label, sizeof(label), runs, f);
		if ((int)strlen(label) + 1 > w)
			w = (int)strlen(label) + 1;
	}
	for (unsigned g = 0; g < k; g++) {
		generation_label(label, sizeof(label), runs, names[g]);
		if ((int)strlen(label) + 1 > w)
			w = (int)strlen(label) + 1;
	}
	return w < LABEL_MAX ? w : LABEL_MAX;
}

int gt_compare_write_text(FILE *out, const struct gt_run *runs, size_t n)
{
	const char *names[GT_MAX_GENERATIONS * GT_COMPARE_RUNS_MAX];
	unsigned k = generation_names(runs, n, names, sizeof(names) / sizeof(names[0]));
	int label_w = label_width(runs, names, k);
	facts(out, label_w, runs, n);
	struct gt_f64 v[GT_COMPARE_RUNS_MAX];
	for (int f = 0; f < GT_FIG_COUNT; f++) {
		char label[LABEL_MAX + 1];
		for (size_t i = 0; i < n; i++)
			v[i] = runs[i].fig[f];
		fig_label(label, sizeof(label), runs, f);
		row(out, label_w, label, v, n, gt_fig_descs[f].unit);
	}
	for (unsigned g = 0; g < k; g++) {
		char key[64], label[LABEL_MAX + 1];
		snprintf(key, sizeof(key), "collections_per_min.%s", names[g]);
		generation_label(label, sizeof(label), runs, names[g]);
		for (size_t i = 0; i < n; i++)
			gt_compare_figure(&runs[i], key, &v[i]);
		row(out, label_w, label, v, n, GT_UNIT_PER_MIN);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static struct json_object *f64_or_null(struct gt_f64 v)
{
	return v.valid && isfinite(v.value) ? json_object_new_double(v.value) : NULL;
}

/* Bytes are whole numbers in JSON, as in --json's samples. */
static struct json_object *fig_json(struct gt_f64 v, enum gt_fig_unit unit)
{
	if (unit == GT_UNIT_BYTES && v.valid && isfinite(v.value) && v.value >= 0 && v.value < 9.2e18)
		return json_object_new_int64(llround(v.value));
	return f64_or_null(v);
}

/* key "a.b" as o["a"]["b"]. */
static void add_path(struct json_object *o, const char *key, struct json_object *v)
{
	const char *dot = strchr(key, '.');
	if (!dot) {
		json_object_object_add(o, key, v);
		return;
	}
	char head[32];
	snprintf(head, sizeof(head), "%.*s", (int)(dot - key), key);
	struct json_object *sub = json_object_object_get(o, head);
	if (!sub) {
		sub = json_object_new_object();
		json_object_object_add(o, head, sub);
	}
	json_object_object_add(sub, dot + 1, v);
}

/* The recordings' strings (cleaned by the reader) and the file names (the
 * user's, any bytes) go through base/json_text.h too: JSON is valid
 * UTF-8 whatever a name holds. */
static struct json_object *json_target(const struct gt_run *r)
{
	struct json_object *t = json_object_new_object();
	json_object_object_add(t, "pid", json_object_new_int64(r->info.pid));
	json_object_object_add(t, "runtime", json_object_new_string(gt_runtime_name(r->info.runtime)));
	json_object_object_add(t, "runtime_version", gt_json_text(r->info.runtime_version));
	json_object_object_add(t, "main_class", gt_json_text(r->info.main_class));
	return t;
}

static struct json_object *json_gc(const struct gt_run *r)
{
	struct json_object *g = json_object_new_object();
	json_object_object_add(g, "name", gt_json_text(r->info.gc_name));
	json_object_object_add(g, "mode", gt_json_text(r->info.gc_mode));
	json_object_object_add(g, "heap_flags", gt_json_text(r->info.heap_flags));
	json_object_object_add(g, "heaps", r->gc_heaps_max.valid ? json_object_new_uint64(r->gc_heaps_max.value) : NULL);
	return g;
}

static struct json_object *json_run(const struct gt_run *r, const struct gt_run *first)
{
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "file", gt_json_text(r->file));
	json_object_object_add(o, "target", json_target(r));
	json_object_object_add(o, "gc", json_gc(r));
	json_object_object_add(o, "samples", json_object_new_uint64(r->samples));
	json_object_object_add(o, "truncated", json_object_new_boolean(r->truncated));
	struct json_object *ratio = json_object_new_object();
	for (int f = 0; f < GT_FIG_COUNT; f++) {
		add_path(o, gt_fig_descs[f].key, fig_json(r->fig[f], gt_fig_descs[f].unit));
		json_object_object_add(ratio, gt_fig_descs[f].key, f64_or_null(gt_compare_ratio(first->fig[f], r->fig[f])));
	}
	add_path(o, "alloc.ops_name", r->opcount_name[0] ? gt_json_text(r->opcount_name) : NULL);
	struct json_object *gens = json_object_new_array();
	for (unsigned g = 0; g < r->n_generations; g++) {
		struct json_object *e = json_object_new_object();
		char key[64];
		struct gt_f64 base;
		snprintf(key, sizeof(key), "collections_per_min.%s", r->generation[g]);
		gt_compare_figure(first, key, &base);
		const char *counting = gt_format_collections_counting(r->info.runtime);
		json_object_object_add(e, "generation", gt_json_text(r->generation[g]));
		json_object_object_add(e, "counting", counting ? json_object_new_string(counting) : NULL);
		json_object_object_add(e, "per_min", f64_or_null(r->per_min[g]));
		json_object_object_add(ratio, key, f64_or_null(gt_compare_ratio(base, r->per_min[g])));
		json_object_array_add(gens, e);
	}
	json_object_object_add(o, "collections_per_min", gens);
	json_object_object_add(o, "ratio_to_first", ratio);
	return o;
}

struct json_object *gt_compare_json(const struct gt_run *runs, size_t n)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_run(&runs[i], &runs[0]));
	json_object_object_add(o, "runs", a);
	return o;
}
