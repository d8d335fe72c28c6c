/* Fuzz target for the /metrics writer (views/metrics_writer.c) with the
 * strings a hostile target names: its main class or entry assembly,
 * collector, runtime version, generation and collector names (the input,
 * tests/fuzz/fuzz_strings.h). In both formats, whatever the strings:
 *   - the output is valid UTF-8 with no control character but the line
 *     feeds that end lines, no C1 and no bidirectional control
 *     (tests/fuzz/clean_text.h);
 *   - every line is metadata or a sample name{label="value",...} value
 *     whose label values are closed, with only the escapes \\ \" \n;
 *   - OpenMetrics ends with "# EOF";
 *   - a well-named third process still has its series, unchanged.
 * With GCTOP_FUZZ_METRICS_OUT=DIR set it also leaves each output there
 * (N.om, N.txt) for promtool (tests/integration/metrics_promtool.sh). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "model/pause_hist.h"
#include "views/metrics_writer.h"
#include "tests/fuzz/clean_text.h"
#include "tests/fuzz/fuzz_strings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TARGETS 3
#define NAMED 2  /* targets 0 (a JVM) and 1 (.NET) take the input's strings */
#define PLAIN_INFO "gctop_target_info{pid=\"3\",runtime=\"hotspot\",main=\"Plain\",gc=\"G1\"," \
		   "runtime_version=\"17\",allocation_source=\"estimate\"} 1\n"

struct fixture {
	struct gt_target_info info[TARGETS];
	struct gt_sample sample[TARGETS];
	struct gt_derived derived[TARGETS];
	struct gt_pause_hist pauses[TARGETS];
	struct gt_metrics_target t[TARGETS];
};

static void figures(struct gt_sample *s, unsigned ng, unsigned nc)
{
	s->n_generations = ng;
	s->n_collectors = nc;
	for (unsigned g = 0; g < ng; g++) {
		gt_u64_set(&s->generations[g].used_bytes, 1000 * (g + 1));
		gt_u64_set(&s->generations[g].collections, g + 1);
	}
	for (unsigned c = 0; c < nc; c++) {
		gt_u64_set(&s->collectors[c].invocations, 5 + c);
		gt_u64_set(&s->collectors[c].time_ns, 1000000 * (c + 1));
	}
	gt_u64_set(&s->alloc_bytes_total, 123456);
	gt_u64_set(&s->pause_total_ns, 3000000);
	s->alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	s->pause_log.valid = true;
	s->pause_log.count = 2;
	s->pause_log.ns[0] = 1000000;
	s->pause_log.ns[1] = 2000000;
}

static void fixture_init(struct fixture *f, const uint8_t *data, size_t size)
{
	memset(f, 0, sizeof(*f));
	static const struct gt_runtime_traits *const rt[TARGETS] = { &gt_hotspot_runtime, &gt_dotnet_runtime, &gt_hotspot_runtime };
	struct fuzz_field fields[NAMED * (3 + 3 + 3)];
	size_t n = 0;
	for (int k = 0; k < NAMED; k++) {
		struct gt_target_info *i = &f->info[k];
		struct gt_sample *s = &f->sample[k];
		fields[n++] = (struct fuzz_field){ i->main_class, sizeof(i->main_class) };
		fields[n++] = (struct fuzz_field){ i->gc_name, sizeof(i->gc_name) };
		fields[n++] = (struct fuzz_field){ i->runtime_version, sizeof(i->runtime_version) };
		for (int g = 0; g < 3; g++)
			fields[n++] = (struct fuzz_field){ s->generations[g].name, sizeof(s->generations[g].name) };
		for (int c = 0; c < 3; c++)
			fields[n++] = (struct fuzz_field){ s->collectors[c].name, sizeof(s->collectors[c].name) };
	}
	fuzz_fill_strings(data, size, fields, n);
	strcpy(f->info[2].main_class, "Plain");
	strcpy(f->info[2].gc_name, "G1");
	strcpy(f->info[2].runtime_version, "17");
	strcpy(f->sample[2].generations[0].name, "young");
	strcpy(f->sample[2].collectors[0].name, "G1 young");
	for (int k = 0; k < TARGETS; k++) {
		f->info[k].pid = k + 1;
		f->info[k].runtime = rt[k];
		figures(&f->sample[k], 3, 3);
		gt_pause_hist_add(&f->pauses[k], &f->sample[k]);
		gt_derive(NULL, &f->sample[k], &f->derived[k]);
		f->t[k] = (struct gt_metrics_target){ &f->info[k], &f->sample[k], &f->derived[k], &f->pauses[k],
						      1796023500.0, NULL, 0 };
	}
}

static int name_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* A label value from just after its opening quote; returns the byte after
 * the closing one. */
static const char *label_value(const char *p)
{
	for (;; p++) {
		if (*p == '"')
			return p + 1;
		if (*p == '\n' || *p == '\0')
			abort();
		if (*p == '\\' && p[1] != '\\' && p[1] != '"' && p[1] != 'n')
			abort();
		if (*p == '\\')
			p++;
	}
}

/* name{label="value",...} value, the line's end at end. */
static void sample_line(const char *p, const char *end)
{
	if (!name_char(*p, 1))
		abort();
	while (name_char(*p, 0) || *p == ':')
		p++;
	if (*p++ != '{')
		abort();
	while (*p != '}') {
		if (!name_char(*p, 1))
			abort();
		while (name_char(*p, 0))
			p++;
		if (p[0] != '=' || p[1] != '"')
			abort();
		p = label_value(p + 2);
		if (*p == ',')
			p++;
		else if (*p != '}')
			abort();
	}
	if (p[1] != ' ' || p + 2 >= end)
		abort();
	for (p += 2; p < end; p++)
		if (*p == ' ' || *p == '"' || *p == '{')
			abort();
}

static void check_exposition(const char *buf, size_t len, enum gt_metrics_format fmt)
{
	fuzz_text_check(buf, len, TEXT_LF_OK);
	if (len == 0 || buf[len - 1] != '\n' || memchr(buf, '\0', len))
		abort();
	for (const char *p = buf; p < buf + len;) {
		const char *end = memchr(p, '\n', (size_t)(buf + len - p));
		if (strncmp(p, "# TYPE ", 7) == 0 || strncmp(p, "# HELP ", 7) == 0)
			;
		else if (fmt == GT_METRICS_OPENMETRICS && strncmp(p, "# UNIT ", 7) == 0)
			;
		else if (fmt == GT_METRICS_OPENMETRICS && end - p == 5 && strncmp(p, "# EOF", 5) == 0 && end + 1 == buf + len)
			;
		else
			sample_line(p, end);
		p = end + 1;
	}
	if (fmt == GT_METRICS_OPENMETRICS && (len < 6 || strcmp(buf + len - 6, "# EOF\n") != 0))
		abort();
	if (!strstr(buf, PLAIN_INFO))
		abort();
}

/* The number of the input being written out (keep): a replay is one
 * process per corpus. */
static unsigned kept;

/* Leaves the output for promtool when asked to. */
static void keep(const char *buf, size_t len, enum gt_metrics_format fmt)
{
	const char *dir = getenv("GCTOP_FUZZ_METRICS_OUT");
	if (!dir)
		return;
	char path[4096];
	snprintf(path, sizeof(path), "%s/%u.%s", dir, fmt == GT_METRICS_OPENMETRICS ? kept : kept++,
		 fmt == GT_METRICS_OPENMETRICS ? "om" : "txt");
	FILE *f = fopen(path, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fixture *f = malloc(sizeof(*f));
	if (!f)
		return 0;
	fixture_init(f, data, size);
	static const enum gt_metrics_format fmts[2] = { GT_METRICS_OPENMETRICS, GT_METRICS_TEXT };
	char *buf[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	for (int k = 0; k < 2; k++) {
		FILE *m = open_memstream(&buf[k], &len[k]);
		if (!m || gt_metrics_write(m, fmts[k], NULL, f->t, TARGETS) != 0)
			abort();
		fclose(m);
		keep(buf[k], len[k], fmts[k]);  /* both first: a failing output is left for promtool too */
	}
	for (int k = 0; k < 2; k++) {
		check_exposition(buf[k], len[k], fmts[k]);
		free(buf[k]);
	}
	free(f);
	return 0;
}
