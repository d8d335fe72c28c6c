/* Recordings (gctop -w, -r, --compare): a sample with every field written
 * and read back is the same sample, n/a stays n/a; a cut last line is
 * skipped; each kind of corrupt or hostile line gets one sentence and
 * GT_EXIT_BAD_RECORDING; and the comparison's figures of crafted runs are
 * the ones their counters make. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "base/quit.h"
#include "record/compare.h"
#include "record/record_format.h"
#include "record/record_reader.h"
#include "session/session.h"
#include "views/compare_writer.h"
#include "record/record_writer.h"
#include "tests/fuzz/clean_text.h"
#include "tests/unit/check.h"

#define MS 1000000ull
#define S 1000000000ull

static char *temp_path(char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/gctop-test-record-XXXXXX");
	int fd = mkstemp(buf);
	CHECK(fd >= 0);
	close(fd);
	return buf;
}

static struct gt_u64 *u64_at(void *base, const struct gt_record_field *f)
{
	return (struct gt_u64 *)((char *)base + f->offset);
}

/* Every u64 figure valid with a value of its own, but every third n/a. */
static void fill_sample(struct gt_sample *s, uint64_t t, uint64_t pauses)
{
	memset(s, 0, sizeof(*s));
	s->mono_ns = t;
	s->wall_ms = 1700000000000ll + (int64_t)(t / MS);
	s->pid = 77;
	s->alloc_source = GT_ALLOC_SOURCE_EXACT;
	s->collections_since = GT_ALLOC_SINCE_PROCESS_START;
	for (size_t i = 0; i < gt_record_sample_u64.n; i++)
		if (i % 3 != 2)
			gt_u64_set(u64_at(s, &gt_record_sample_u64.f[i]), t / MS + i);
	s->opcount_name = "requests";
	s->opcount_counter = "com.example.ops";
	s->opcount_unavailable = "why not";
	s->large_source = "g1-humongous-estimate";
	s->alloc_at.valid = true;
	s->alloc_at.ns = t - 5 * MS;
	s->alloc_at.prev_ns = t - S;
	s->alloc_at.prev_total = 12345;
	s->pause_at = (struct gt_pause_at){ true, t - S, 3 * S, 2 * S + 1, t - S / 2 };
	s->n_generations = 3;
	for (unsigned g = 0; g < 3; g++) {
		snprintf(s->generations[g].name, sizeof(s->generations[g].name), "gen%u", g);
		gt_u64_set(&s->generations[g].collections, t / S * (g + 1));
		gt_u64_set(&s->generations[g].used_bytes, 1000 * g);
	}
	s->n_collectors = 1;
	snprintf(s->collectors[0].name, sizeof(s->collectors[0].name), "G1 young");
	gt_u64_set(&s->collectors[0].invocations, 9);
	snprintf(s->last_gc_cause, sizeof(s->last_gc_cause), "Allocation Failure");
	gt_u64_set(&s->causes.seen, 40 + t / S);
	gt_u64_set(&s->causes.humongous, 7);
	s->gc_in_progress = true;
	s->agent_pause_window = 64;
	gt_f64_set(&s->memory_pressure_avg10, 1.25);
	s->pause_log.valid = true;
	s->pause_log.count = pauses;
	for (uint64_t k = 0; k < pauses; k++)
		s->pause_log.ns[k % GT_PAUSE_RING] = 1000 + k;
	/* a live-set point every tenth pause: 4, then 34 (past the ring) */
	s->live_log.valid = true;
	s->live_log.count = pauses / 10;
	for (uint64_t k = 0; k < s->live_log.count; k++)
		s->live_log.points[k % GT_LIVE_RING] = (struct gt_live_point){ 5000 + k, k * MS, k % 2 ? "full GC" : "mixed" };
	s->live_unavailable = "not this time";
	s->pause_unavailable = "no pause counter yet";
}

static void fill_alloc(struct gt_alloc_snapshot *a, uint64_t t)
{
	memset(a, 0, sizeof(*a));
	a->mono_ns = t;
	a->generation = 3;
	snprintf(a->source, sizeof(a->source), "jvmti-sampled");
	a->state = GT_SAMPLER_RUNNING;
	a->samples = 50;
	a->est_bytes = 1 << 20;
	gt_u64_set(&a->exact_total, 4 << 20);
	gt_f64_set(&a->sampled_share, 0.125);
	a->by_frame.n = 2;
	a->by_frame.complete = true;
	snprintf(a->by_frame.sites[0].name, GT_ALLOC_SITE_NAME_LEN, "com.example.Csv.export");
	a->by_frame.sites[0].heap = GT_ALLOC_HEAP_LARGE;
	a->by_frame.sites[0].bytes = 900;
	a->by_frame.sites[1].bytes = 100;
	a->by_type.n = 1;
	snprintf(a->by_type.sites[0].name, GT_ALLOC_SITE_NAME_LEN, "byte[]");
}

static void write_recording(const char *path, const struct gt_sample *samples, size_t n,
			    const struct gt_alloc_snapshot *alloc)
{
	struct gt_error err = { 0 };
	struct gt_target_info info = { .pid = 77, .runtime = &gt_dotnet_runtime, .cgroup_version = 2 };
	snprintf(info.gc_name, sizeof(info.gc_name), "Server");
	snprintf(info.gc_mode, sizeof(info.gc_mode), "DATAS");
	gt_u64_set(&info.cgroup_limit_bytes, 1ull << 30);
	struct gt_session *s = calloc(1, sizeof(*s));
	struct gt_recorder *r = gt_recorder_open(path, &err);
	CHECK(r != NULL);
	CHECK(gt_session_init(s, &info, &err) == 0);
	for (size_t i = 0; i < n && r; i++) {
		CHECK(gt_session_replay_sample(s, &samples[i], alloc, NULL, &info, &err) == 0);
		CHECK(gt_recorder_write(r, s, &err) == 0);
	}
	gt_recorder_close(r);
	gt_session_close(s);
	free(s);
}

/* Readings that grow from one sample to the next, so that the window has
 * sites and, with stacks, stacks behind them. */
static void grow_alloc(struct gt_alloc_snapshot *a, int i)
{
	a->samples = 50 * (uint64_t)(i + 1);
	a->est_bytes = (uint64_t)(i + 1) << 20;
	a->by_frame.sites[0].bytes = 900 * (uint64_t)(i + 1);
	a->by_frame.sites[1].bytes = 100 * (uint64_t)(i + 1);
}

/* Records 3 samples with their allocator readings and st, as -w does. */
static void record_with_stacks(const char *path, const struct gt_target_info *info, const struct gt_sample *in,
			       const struct gt_alloc_snapshot *alloc, const struct gt_alloc_stacks *st)
{
	struct gt_error err = { 0 };
	struct gt_session *s = calloc(1, sizeof(*s));
	struct gt_recorder *rec = gt_recorder_open(path, &err);
	CHECK(rec != NULL && gt_session_init(s, info, &err) == 0);
	for (int i = 0; i < 3 && rec; i++) {
		CHECK(gt_session_replay_sample(s, &in[i], &alloc[i], st, info, &err) == 0);
		CHECK(gt_recorder_write(rec, s, &err) == 0);
	}
	gt_recorder_close(rec);
	gt_session_close(s);
	free(s);
}

static void check_same_sample(const struct gt_sample *a, const struct gt_sample *b, uint64_t new_from)
{
	CHECK_U64(b->mono_ns, a->mono_ns);
	CHECK(b->wall_ms == a->wall_ms);
	CHECK_U64(b->pid, a->pid);
	CHECK(b->alloc_source == a->alloc_source && b->collections_since == a->collections_since);
	for (size_t i = 0; i < gt_record_sample_u64.n; i++) {
		const struct gt_u64 *x = u64_at((void *)a, &gt_record_sample_u64.f[i]);
		const struct gt_u64 *y = u64_at((void *)b, &gt_record_sample_u64.f[i]);
		if (x->valid != y->valid || x->value != y->value)
			check_fail(__FILE__, __LINE__, "%s: %d/%llu read back as %d/%llu", gt_record_sample_u64.f[i].key,
				   x->valid, (unsigned long long)x->value, y->valid, (unsigned long long)y->value);
	}
	CHECK_STR(b->opcount_name, "requests");
	CHECK_STR(b->opcount_counter, "com.example.ops");
	CHECK_STR(b->opcount_unavailable, "why not");
	CHECK(b->alloc_bound_reason == NULL);
	CHECK(b->alloc_at.valid && b->alloc_at.ns == a->alloc_at.ns && b->alloc_at.prev_total == 12345);
	CHECK(b->pause_at.valid && b->pause_at.prev_ns == a->pause_at.prev_ns);
	CHECK(b->pause_at.total == a->pause_at.total && b->pause_at.prev_total == a->pause_at.prev_total);
	CHECK_U64(b->n_generations, 3);
	CHECK_STR(b->generations[2].name, "gen2");
	CHECK_U64(b->generations[2].collections.value, a->generations[2].collections.value);
	CHECK(!b->generations[2].max_bytes.valid);
	CHECK_STR(b->collectors[0].name, "G1 young");
	CHECK(!b->collectors[0].time_ns.valid);
	CHECK_STR(b->last_gc_cause, "Allocation Failure");
	CHECK(b->causes.seen.valid && b->causes.seen.value == a->causes.seen.value);
	CHECK(b->causes.humongous.valid && b->causes.humongous.value == 7);
	CHECK(!b->causes.induced.valid && !b->causes.gen2_alloc_large.valid);
	CHECK(b->gc_in_progress && b->agent_pause_window == 64);
	CHECK_NEAR(b->memory_pressure_avg10.value, 1.25, 1e-12);
	CHECK(b->pause_log.valid && b->pause_log.count == a->pause_log.count);
	for (uint64_t k = new_from; k < a->pause_log.count; k++)
		if (b->pause_log.ns[k % GT_PAUSE_RING] != a->pause_log.ns[k % GT_PAUSE_RING])
			check_fail(__FILE__, __LINE__, "pause %llu differs", (unsigned long long)k);
	CHECK(b->live_log.valid && b->live_log.count == a->live_log.count);
	uint64_t live_from = a->live_log.count > GT_LIVE_RING ? a->live_log.count - GT_LIVE_RING : 0;
	for (uint64_t k = live_from; k < a->live_log.count; k++) {
		const struct gt_live_point *x = &a->live_log.points[k % GT_LIVE_RING], *y = &b->live_log.points[k % GT_LIVE_RING];
		if (x->bytes != y->bytes || x->at_ns != y->at_ns || !y->kind || strcmp(x->kind, y->kind) != 0)
			check_fail(__FILE__, __LINE__, "live-set point %llu differs", (unsigned long long)k);
	}
	CHECK_STR(b->live_unavailable, "not this time");
	/* a replay says why pause time is missing as gctop said it live */
	CHECK(b->pause_unavailable != NULL);
	if (b->pause_unavailable)
		CHECK_STR(b->pause_unavailable, "no pause counter yet");
}

static void test_round_trip(void)
{
	char path[64];
	temp_path(path, sizeof(path));
	/* 300 pauses by the second sample: more than the ring, all of them new. */
	struct gt_sample in[3];
	fill_sample(&in[0], 10 * S, 40);
	fill_sample(&in[1], 11 * S, 340);
	fill_sample(&in[2], 12 * S, 341);
	struct gt_alloc_snapshot alloc;
	fill_alloc(&alloc, 10 * S);
	write_recording(path, in, 3, &alloc);

	struct gt_error err = { 0 };
	struct gt_record_reader *r = gt_record_open(path, &err);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_STR(gt_record_info(r)->gc_mode, "DATAS");
	CHECK(gt_record_info(r)->runtime == &gt_dotnet_runtime);
	CHECK(gt_record_info(r)->cgroup_limit_bytes.valid && gt_record_info(r)->cgroup_limit_bytes.value == 1ull << 30);
	CHECK(!gt_record_info(r)->heap_max_bytes.valid);
	struct gt_sample out;
	const struct gt_alloc_snapshot *a;
	uint64_t from[3] = { 0, 340 - GT_PAUSE_RING, 340 - GT_PAUSE_RING };
	for (int i = 0; i < 3; i++) {
		CHECK(gt_record_next(r, &out, &a, &err) == 1);
		check_same_sample(&in[i], &out, from[i]);
		CHECK(a != NULL);
	}
	CHECK_STR(a->by_frame.sites[0].name, "com.example.Csv.export");
	CHECK(a->by_frame.sites[0].heap == GT_ALLOC_HEAP_LARGE && a->by_frame.complete && a->by_frame.n == 2);
	CHECK(a->by_frame.sites[1].heap == GT_ALLOC_HEAP_UNKNOWN);
	CHECK(a->exact_total.valid && a->exact_total.value == 4 << 20);
	CHECK(a->sampled_share.valid && a->sampled_share.value == 0.125);
	CHECK_STR(a->by_type.sites[0].name, "byte[]");
	CHECK(gt_record_next(r, &out, &a, &err) == 0);
	CHECK(!gt_record_truncated(r));
	gt_record_close(r);
	unlink(path);
}

static void test_cut_last_line_is_skipped(void)
{
	char path[64];
	temp_path(path, sizeof(path));
	struct gt_sample in[2];
	fill_sample(&in[0], 10 * S, 1);
	fill_sample(&in[1], 11 * S, 2);
	write_recording(path, in, 2, NULL);
	FILE *f = fopen(path, "r+");
	CHECK(f && fseek(f, 0, SEEK_END) == 0);
	long size = ftell(f);
	fclose(f);
	CHECK(truncate(path, size - 40) == 0);   /* a gctop killed inside its last write */
	struct gt_error err = { 0 };
	struct gt_record_reader *r = gt_record_open(path, &err);
	struct gt_sample out;
	const struct gt_alloc_snapshot *a;
	CHECK(r && gt_record_next(r, &out, &a, &err) == 1);
	CHECK(r && gt_record_next(r, &out, &a, &err) == 0);
	CHECK(r && gt_record_truncated(r));
	gt_record_close(r);
	unlink(path);
}

/* The reader's verdict on text: 1 read to the end, else the error's sentence. */
static int read_text(const char *text, size_t len, struct gt_error *err)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct gt_record_reader *r = gt_record_open_stream(f, "crafted", err);
	if (!r)
		return -1;
	struct gt_sample out;
	const struct gt_alloc_snapshot *a;
	int rc;
	while ((rc = gt_record_next(r, &out, &a, err)) == 1)
		;
	gt_record_close(r);
	return rc == 0 ? 1 : -1;
}

#define HEADER "{\"type\":\"header\",\"format\":\"gctop-recording\",\"version\":1,\"info\":{\"pid\":1,\"nspid\":1,\"runtime\":\"dotnet\",\"cgroup_version\":0}}\n"
#define SAMPLE(extra) "{\"type\":\"sample\",\"mono_ns\":5,\"wall_ms\":1,\"pid\":1,\"agent_pause_window\":0,\"state\":\"live\"," \
	"\"alloc_source\":\"exact\",\"alloc_since\":\"attach\",\"collections_since\":\"attach\"" extra "}\n"

/* A session whose window has sites, recorded with the stacks behind them:
 * a replay reads the same stacks back. */
static void test_stacks_round_trip(void)
{
	char path[64];
	temp_path(path, sizeof(path));
	struct gt_sample in[3];
	struct gt_alloc_snapshot alloc[3];
	for (int i = 0; i < 3; i++) {
		fill_sample(&in[i], (10 + (uint64_t)i) * S, 40 + (uint64_t)i);
		fill_alloc(&alloc[i], (10 + (uint64_t)i) * S);
		grow_alloc(&alloc[i], i);
	}
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	gt_alloc_stacks_clear(st);
	struct gt_alloc_site_stacks *site = &st->sites[st->n_sites++];
	memset(site, 0, sizeof(*site));
	snprintf(site->site, sizeof(site->site), "com.example.Csv.export");
	site->bytes = 2700;
	site->distinct = 1;
	site->dropped = 4;
	site->n = 1;
	const char *frames[] = { "[native]", "java.lang.String.<init>", "com.example.Csv.export", "[native]" };
	for (unsigned f = 0; f < 4; f++)
		site->stacks[0].frames[f] = gt_alloc_stacks_intern(st, frames[f]);
	site->stacks[0].n_frames = 4;
	site->stacks[0].bytes = 2000;
	site->stacks[0].count = 9;

	struct gt_target_info info = { .pid = 77, .runtime = &gt_dotnet_runtime };
	record_with_stacks(path, &info, in, alloc, st);

	struct gt_error err = { 0 };
	struct gt_record_reader *r = gt_record_open(path, &err);
	CHECK(r != NULL);
	struct gt_sample out;
	const struct gt_alloc_snapshot *a;
	for (int i = 0; r && i < 3; i++) {
		CHECK(gt_record_next(r, &out, &a, &err) == 1);
		const struct gt_alloc_stacks *got = gt_record_stacks(r);
		/* the window has sites from its second reading on */
		CHECK(i == 0 ? got == NULL : got != NULL);
		const struct gt_alloc_site_stacks *g = got ? gt_alloc_stacks_find(got, "com.example.Csv.export") : NULL;
		if (i == 0 || !g)
			continue;
		CHECK(g->bytes == 2700 && g->distinct == 1 && g->dropped == 4 && g->n == 1);
		CHECK(g->stacks[0].n_frames == 4 && g->stacks[0].bytes == 2000 && g->stacks[0].count == 9);
		for (unsigned f = 0; f < 4 && f < g->stacks[0].n_frames; f++)
			CHECK_STR(gt_alloc_stacks_name(got, g->stacks[0].frames[f]), frames[f]);
		CHECK(gt_alloc_stacks_find(got, "com.example.Other") == NULL);
	}
	gt_record_close(r);
	free(st);
	unlink(path);
}

/* issue 25: a target's strings reach the recording cleaned, as they reach
 * --json: an OSC and a clear screen, BEL, a raw CSI byte, the C1 CSI
 * U+009B, a right-to-left override and bytes that are not UTF-8, in every
 * string a target names (its facts, the last cause, generation and
 * collector names, allocation sites, the sampler's words, stack frames). */
#define EVIL "\x1b[2J\x07" "C\x9b\xc2\x9b" "x\xe2\x80\xae" "y\xff\xc0z"
#define EVIL_CLEAN "?[2J?C??x?y??z"

/* Every string and key of o, at any depth, is clean; returns how many of
 * the strings are EVIL_CLEAN. */
static int check_strings(struct json_object *o)
{
	int n = 0;
	if (json_object_is_type(o, json_type_string)) {
		const char *t = json_object_get_string(o);
		if (!text_clean(t, strlen(t), 0))
			check_fail(__FILE__, __LINE__, "a string not clean: %s", t);
		return strcmp(t, EVIL_CLEAN) == 0;
	}
	if (json_object_is_type(o, json_type_array))
		for (size_t i = 0; i < json_object_array_length(o); i++)
			n += check_strings(json_object_array_get_idx(o, i));
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			CHECK(text_clean(key, strlen(key), 0));
			n += check_strings(v);
		}
	}
	return n;
}

static void plant_evil(struct gt_target_info *info, struct gt_sample *in, struct gt_alloc_snapshot *alloc,
		       struct gt_alloc_stacks *st)
{
	snprintf(info->main_class, sizeof(info->main_class), EVIL);
	snprintf(info->command_line, sizeof(info->command_line), "java " EVIL);
	snprintf(info->gc_name, sizeof(info->gc_name), EVIL);
	for (int i = 0; i < 3; i++) {
		snprintf(in[i].last_gc_cause, sizeof(in[i].last_gc_cause), EVIL);
		snprintf(in[i].generations[0].name, sizeof(in[i].generations[0].name), EVIL);
		snprintf(in[i].collectors[0].name, sizeof(in[i].collectors[0].name), EVIL);
		snprintf(alloc[i].source, sizeof(alloc[i].source), EVIL);
		snprintf(alloc[i].message, sizeof(alloc[i].message), EVIL);
		snprintf(alloc[i].by_frame.sites[0].name, GT_ALLOC_SITE_NAME_LEN, EVIL);
		snprintf(alloc[i].by_type.sites[0].name, GT_ALLOC_SITE_NAME_LEN, EVIL);
	}
	gt_alloc_stacks_clear(st);
	struct gt_alloc_site_stacks *site = &st->sites[st->n_sites++];
	memset(site, 0, sizeof(*site));
	snprintf(site->site, sizeof(site->site), EVIL);
	site->bytes = 2700;
	site->n = 1;
	site->stacks[0].frames[0] = gt_alloc_stacks_intern(st, EVIL "()");
	site->stacks[0].frames[1] = gt_alloc_stacks_intern(st, EVIL);
	site->stacks[0].n_frames = 2;
	site->stacks[0].bytes = 2000;
}

static void test_target_strings_written_clean(void)
{
	char path[64];
	temp_path(path, sizeof(path));
	struct gt_target_info info = { .pid = 77, .runtime = &gt_hotspot_runtime };
	struct gt_sample in[3];
	struct gt_alloc_snapshot alloc[3];
	struct gt_alloc_stacks *st = malloc(sizeof(*st));
	for (int i = 0; i < 3; i++) {
		fill_sample(&in[i], (10 + (uint64_t)i) * S, 40);
		fill_alloc(&alloc[i], (10 + (uint64_t)i) * S);
		grow_alloc(&alloc[i], i);
	}
	plant_evil(&info, in, alloc, st);
	record_with_stacks(path, &info, in, alloc, st);
	free(st);
	/* the file's own bytes, not what the reader (which cleans too) makes of them */
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	char line[GT_RECORD_LINE_MAX];
	int lines = 0, evil = 0;
	while (f && fgets(line, sizeof(line), f)) {
		CHECK(text_clean(line, strlen(line), TEXT_LF_OK));
		struct json_object *o = json_tokener_parse(line);
		CHECK(o != NULL);
		evil += o ? check_strings(o) : 0;
		json_object_put(o);
		lines++;
	}
	if (f)
		fclose(f);
	CHECK_U64(lines, 4);  /* the header and the three samples */
	/* header: main, gc (the command line is "java " EVIL); each sample:
	 * cause, generation, collector, source, message, a frame site, a type
	 * site; the stacks' site and a frame from the second sample on */
	CHECK_U64(evil, 2 + 3 * 7 + 2 * 2);
	unlink(path);
}

/* --compare's table of a recording's names, in a locale that is not UTF-8
 * (a unit test runs in "C"): printable ASCII only, as -b prints. U+00DC is
 * C3 9C in UTF-8, and 9C is ST to a terminal that reads bytes as Latin-1.
 * Its JSON: valid UTF-8 with no control character, whatever the names. */
static void test_compare_text_ascii_locale(void)
{
	static struct gt_run runs[2];
	for (int i = 0; i < 2; i++) {
		memset(&runs[i], 0, sizeof(runs[i]));
		runs[i].file = "/tmp/r\xc3\x9c.ndjson";
		snprintf(runs[i].info.main_class, sizeof(runs[i].info.main_class), "App\xc3\x9c");
		snprintf(runs[i].info.gc_name, sizeof(runs[i].info.gc_name), "G\xc3\x9c");
		snprintf(runs[i].opcount_name, sizeof(runs[i].opcount_name), "req\xc3\x9c");
		runs[i].n_generations = 1;
		snprintf(runs[i].generation[0], sizeof(runs[i].generation[0]), "gen\xc3\x9c");
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(m != NULL && gt_compare_write_text(m, runs, 2) == 0);
	fclose(m);
	CHECK(text_clean(buf, len, TEXT_LF_OK | TEXT_ASCII));
	CHECK(strstr(buf, "App?, PID 0") != NULL);
	CHECK(strstr(buf, "collections gen?") != NULL);
	free(buf);
	/* --compare --json: valid UTF-8 whatever a file's name holds */
	runs[1].file = "/tmp/\xff\xc0\x1b[2J.ndjson";
	struct json_object *o = gt_compare_json(runs, 2);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	CHECK(text_clean(text, strlen(text), 0));
	struct json_object *back = json_tokener_parse(text);
	CHECK(back != NULL && check_strings(back) == 0);
	json_object_put(back);
	json_object_put(o);
}

/* The first sample of text, read. */
static int read_first(const char *text, struct gt_sample *out)
{
	struct gt_error err = { 0 };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct gt_record_reader *r = gt_record_open_stream(f, "crafted", &err);
	if (!r)
		return -1;
	const struct gt_alloc_snapshot *a;
	int rc = gt_record_next(r, out, &a, &err);
	gt_record_close(r);
	return rc;
}

#define GENERATIONS(g0, g1, g2) ",\"generations\":[{\"name\":\"gen0\",\"collections\":" g0 "}," \
	"{\"name\":\"gen1\",\"collections\":" g1 "},{\"name\":\"gen2\",\"collections\":" g2 "}," \
	"{\"name\":\"loh\",\"collections\":null}]"

/* A .NET recording of format version 1 held GC.CollectionCount's counts
 * (6 gen0, 3 gen1 and 1 gen2 GC counted 10, 4, 1): read as each GC once,
 * with the inclusive counts beside; version 2 holds them so already. */
static void test_v1_dotnet_collections(void)
{
	struct gt_sample s;
	CHECK(read_first(HEADER SAMPLE(GENERATIONS("10", "4", "1")), &s) == 1);
	CHECK_U64(s.n_generations, 4);
	static const uint64_t excl[] = { 6, 3, 1 }, incl[] = { 10, 4, 1 };
	for (unsigned i = 0; i < 3; i++) {
		CHECK(s.generations[i].collections.valid && s.generations[i].collections.value == excl[i]);
		CHECK(s.generations[i].collections_inclusive.valid && s.generations[i].collections_inclusive.value == incl[i]);
	}
	CHECK(!s.generations[3].collections.valid && !s.generations[3].collections_inclusive.valid);
	/* a count below the older generation's is no count */
	CHECK(read_first(HEADER SAMPLE(GENERATIONS("3", "4", "1")), &s) == 1);
	CHECK(!s.generations[0].collections.valid && s.generations[1].collections.value == 3);
	static const char v2[] = "{\"type\":\"header\",\"format\":\"gctop-recording\",\"version\":2,\"info\":{\"pid\":1,"
				 "\"nspid\":1,\"runtime\":\"dotnet\",\"cgroup_version\":0}}\n" SAMPLE(GENERATIONS("6", "3", "1"));
	CHECK(read_first(v2, &s) == 1);
	CHECK(s.generations[0].collections.value == 6 && !s.generations[0].collections_inclusive.valid);
}

/* Recordings hold the operations counter under the names they always had
 * ("ops_*"), whatever the code calls it: a line written before the rename
 * reads back. */
/* The first sample of text, read by a reader left open (the sample's
 * strings are the reader's): the caller closes it. */
static struct gt_record_reader *open_first(const char *text, struct gt_sample *out)
{
	struct gt_error err = { 0 };
	struct gt_record_reader *r = gt_record_open_stream(fmemopen((void *)text, strlen(text), "r"), "crafted", &err);
	const struct gt_alloc_snapshot *a;
	if (r && gt_record_next(r, out, &a, &err) != 1) {
		gt_record_close(r);
		r = NULL;
	}
	return r;
}

static void test_opcount_fields_by_their_file_names(void)
{
	struct gt_sample s;
	struct gt_record_reader *r = open_first(HEADER SAMPLE(",\"ops_total\":1234,\"ops_collections_total\":7,"
							    "\"ops_name\":\"requests\",\"ops_counter\":\"sun.rt.x\""),
						&s);
	CHECK(r != NULL);
	if (r) {
		CHECK(s.opcount_total.valid && s.opcount_total.value == 1234);
		CHECK(s.opcount_collections_total.valid && s.opcount_collections_total.value == 7);
		CHECK(s.opcount_name && strcmp(s.opcount_name, "requests") == 0);
		CHECK(s.opcount_counter && strcmp(s.opcount_counter, "sun.rt.x") == 0);
		gt_record_close(r);
	}
	r = open_first(HEADER SAMPLE(",\"ops_unavailable\":\"no counter\""), &s);
	CHECK(r != NULL);
	if (r) {
		CHECK(!s.opcount_total.valid && s.opcount_unavailable && strcmp(s.opcount_unavailable, "no counter") == 0);
		gt_record_close(r);
	}
}

static void test_hostile_lines(void)
{
	static const struct { const char *what, *text; } bad[] = {
		{ "empty", "" },
		{ "not a header", SAMPLE("") },
		{ "newer version", "{\"type\":\"header\",\"format\":\"gctop-recording\",\"version\":3,\"info\":{}}\n" },
		{ "not JSON", HEADER "{\"type\":\"sample\",\n" },
		{ "trailing bytes", HEADER SAMPLE("") " x\n" },
		{ "negative counter", HEADER SAMPLE(",\"rss_bytes\":-1") },
		{ "fraction as counter", HEADER SAMPLE(",\"rss_bytes\":1.5") },
		{ "string as counter", HEADER SAMPLE(",\"rss_bytes\":\"1\"") },
		{ "unknown source", HEADER SAMPLE(",\"alloc_source\":\"guess\"") },
		{ "more new pauses than the count", HEADER SAMPLE(",\"pause_log\":{\"count\":1,\"new\":[1,2]}") },
		{ "more new live points than the count", HEADER SAMPLE(",\"live_log\":{\"count\":0,\"new\":[{\"bytes\":1,\"at_ns\":1}]}") },
		{ "a live point without bytes", HEADER SAMPLE(",\"live_log\":{\"count\":1,\"new\":[{\"at_ns\":1}]}") },
		{ "a live point not an object", HEADER SAMPLE(",\"live_log\":{\"count\":1,\"new\":[7]}") },
		{ "a live log not an object", HEADER SAMPLE(",\"live_log\":[]") },
		{ "six generations", HEADER SAMPLE(",\"generations\":[{},{},{},{},{},{}]") },
		{ "long generation name", HEADER SAMPLE(",\"generations\":[{\"name\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}]") },
		{ "time going back", HEADER SAMPLE("") SAMPLE(",\"mono_ns\":4") },
		{ "a second header", HEADER SAMPLE("") HEADER },
		{ "unknown type", HEADER "{\"type\":\"comment\"}\n" },
		{ "an array", HEADER "[1]\n" },
		{ "deep nesting", HEADER "{\"type\":\"sample\",\"x\":[[[[[[[[[[[[1]]]]]]]]]]]]}\n" },
		{ "psi past 100", HEADER SAMPLE(",\"memory_pressure_avg10\":101") },
		{ "sampled share past 1", HEADER SAMPLE(",\"allocators\":{\"mono_ns\":1,\"generation\":1,\"samples\":1,\"est_bytes\":1,\"dropped\":0,\"interval_bytes\":1,\"sampled_share\":1.5,\"by_frame\":{\"sites\":[]},\"by_type\":{\"sites\":[]}}") },
		{ "sampled share a string", HEADER SAMPLE(",\"allocators\":{\"mono_ns\":1,\"generation\":1,\"samples\":1,\"est_bytes\":1,\"dropped\":0,\"interval_bytes\":1,\"sampled_share\":\"half\",\"by_frame\":{\"sites\":[]},\"by_type\":{\"sites\":[]}}") },
		{ "pid out of range", HEADER SAMPLE(",\"pid\":4294967296") },
		{ "causes not an object", HEADER SAMPLE(",\"causes\":3") },
		{ "negative cause count", HEADER SAMPLE(",\"causes\":{\"humongous\":-2}") },
		{ "a stack frame past the names", HEADER SAMPLE(",\"alloc_stacks\":{\"names\":[\"a\"],\"sites\":[{\"site\":\"s\",\"bytes\":1,\"distinct\":1,\"dropped\":0,\"stacks\":[{\"frames\":[1],\"bytes\":1,\"count\":1}]}]}") },
		{ "a negative stack frame", HEADER SAMPLE(",\"alloc_stacks\":{\"names\":[\"a\"],\"sites\":[{\"site\":\"s\",\"bytes\":1,\"distinct\":1,\"dropped\":0,\"stacks\":[{\"frames\":[-1],\"bytes\":1,\"count\":1}]}]}") },
		{ "a stack name not a string", HEADER SAMPLE(",\"alloc_stacks\":{\"names\":[7],\"sites\":[]}") },
		{ "six stacks behind a site", HEADER SAMPLE(",\"alloc_stacks\":{\"names\":[],\"sites\":[{\"site\":\"s\",\"bytes\":1,\"distinct\":1,\"dropped\":0,\"stacks\":[{},{},{},{},{},{}]}]}") },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gt_error err = { 0 };
		int rc = read_text(bad[i].text, strlen(bad[i].text), &err);
		if (rc != -1 || err.code != GT_EXIT_BAD_RECORDING || !strstr(err.msg, "crafted, line "))
			check_fail(__FILE__, __LINE__, "%s: rc %d code %d \"%s\"", bad[i].what, rc, err.code, err.msg);
	}
	/* the same lines made right are read */
	struct gt_error err = { 0 };
	static const char good[] = HEADER SAMPLE(",\"rss_bytes\":1,\"pause_log\":{\"count\":2,\"new\":[1,2]}") SAMPLE(",\"mono_ns\":6");
	CHECK(read_text(good, strlen(good), &err) == 1);
	/* a line past the bound, and a NUL byte inside one */
	size_t n = GT_RECORD_LINE_MAX + 100;
	char *huge = malloc(sizeof(HEADER) + n);
	memcpy(huge, HEADER, sizeof(HEADER) - 1);
	memset(huge + sizeof(HEADER) - 1, ' ', n);
	CHECK(read_text(huge, sizeof(HEADER) - 1 + n, &err) == -1 && err.code == GT_EXIT_BAD_RECORDING);
	free(huge);
	static const char nul[] = HEADER "{\"type\":\"sample\"\0}\n";
	CHECK(read_text(nul, sizeof(nul) - 1, &err) == -1 && err.code == GT_EXIT_BAD_RECORDING);
	/* control bytes in a text are cleaned, not passed on */
	static const char esc[] = "{\"type\":\"header\",\"format\":\"gctop-recording\",\"version\":1,\"info\":{\"pid\":1,\"nspid\":1,"
				  "\"runtime\":\"dotnet\",\"cgroup_version\":0,\"main_class\":\"a\\u001b[2Jb\"}}\n";
	FILE *f = fmemopen((void *)esc, sizeof(esc) - 1, "r");
	struct gt_record_reader *r = gt_record_open_stream(f, "crafted", &err);
	CHECK(r && !strchr(gt_record_info(r)->main_class, 0x1b) && strstr(gt_record_info(r)->main_class, "b"));
	gt_record_close(r);
}

/* The text HEADER then a sample line of exactly len bytes (padded with
 * spaces inside the object), read through chunks of the reader's buffer. */
static int read_line_of(size_t len, struct gt_error *err)
{
	static const char sample[] = SAMPLE("");
	size_t body = sizeof(sample) - 2;   /* without its newline */
	char *text = malloc(sizeof(HEADER) + len + 1);
	memcpy(text, HEADER, sizeof(HEADER) - 1);
	char *line = text + sizeof(HEADER) - 1;
	line[0] = '{';
	memset(line + 1, ' ', len - body);
	memcpy(line + 1 + (len - body), sample + 1, body);   /* the rest from its first key */
	int rc = read_text(text, sizeof(HEADER) - 1 + len + 1, err);
	free(text);
	return rc;
}

/* Lines as long as the bound are read across the reader's chunks, one
 * byte more is refused; a reader with a deadline stops between lines
 * (GT_RECORD_LATER, one line a call at least) and goes on where it
 * stopped; a quit request ends a read with status 0. */
static void test_slices_and_quit(void)
{
	struct gt_error err = { 0 };
	CHECK(read_line_of(GT_RECORD_LINE_MAX, &err) == 1);
	CHECK(read_line_of(GT_RECORD_LINE_MAX + 1, &err) == -1 && err.code == GT_EXIT_BAD_RECORDING);
	enum { BLANKS = 2000 };
	static const char two[] = SAMPLE("") SAMPLE(",\"mono_ns\":6");
	size_t len = sizeof(HEADER) - 1 + BLANKS + sizeof(two) - 1;
	char *text = malloc(len);
	memcpy(text, HEADER, sizeof(HEADER) - 1);
	memset(text + sizeof(HEADER) - 1, '\n', BLANKS);
	memcpy(text + sizeof(HEADER) - 1 + BLANKS, two, sizeof(two) - 1);
	struct gt_record_reader *r = gt_record_open_stream(fmemopen(text, len, "r"), "crafted", &err);
	CHECK(r != NULL);
	if (!r)
		return;
	gt_record_set_deadline(r, 1);   /* long past: every call reads one line */
	struct gt_sample out;
	const struct gt_alloc_snapshot *a;
	int rc, later = 0;
	while ((rc = gt_record_next(r, &out, &a, &err)) == GT_RECORD_LATER)
		later++;
	CHECK(rc == 1 && out.mono_ns == 5);
	CHECK_U64(later, BLANKS);
	gt_record_set_deadline(r, 0);
	gt_quit_signal = SIGINT;
	CHECK(gt_record_next(r, &out, &a, &err) == -1 && err.code == GT_EXIT_OK);
	gt_quit_signal = 0;
	CHECK(gt_record_next(r, &out, &a, &err) == 1 && out.mono_ns == 6);
	gt_record_close(r);
	free(text);
}

/* A run of n samples one second apart: bps bytes a second over opcount_per_s
 * operations, gen0 collections per second, pauses of pause_ms each. */
static void crafted_run(const char *path, uint64_t bps, uint64_t opcount_per_s, uint64_t gen0_per_s, uint64_t pause_ms)
{
	struct gt_sample in[11];
	for (uint64_t i = 0; i < 11; i++) {
		struct gt_sample *s = &in[i];
		memset(s, 0, sizeof(*s));
		s->mono_ns = (100 + i) * S;
		s->pid = 5;
		s->alloc_source = GT_ALLOC_SOURCE_EXACT;
		gt_u64_set(&s->alloc_bytes_total, i * bps);
		gt_u64_set(&s->opcount_total, i * opcount_per_s);
		s->opcount_name = "requests";
		s->n_generations = 2;
		snprintf(s->generations[0].name, sizeof(s->generations[0].name), "gen0");
		snprintf(s->generations[1].name, sizeof(s->generations[1].name), "gen2");
		gt_u64_set(&s->generations[0].collections, i * gen0_per_s);
		gt_u64_set(&s->generations[1].collections, i / 5);
		gt_u64_set(&s->pause_total_ns, i * gen0_per_s * pause_ms * MS);
		s->pause_log.valid = true;
		s->pause_log.count = i * gen0_per_s;
		for (uint64_t k = 0; k < s->pause_log.count; k++)
			s->pause_log.ns[k % GT_PAUSE_RING] = pause_ms * MS + (k % 100 == 99 ? 50 * MS : 0);
		gt_u64_set(&s->rss_bytes, 1000 + i * 10);
		gt_u64_set(&s->large_bytes, i == 4 ? 777 : 0);
	}
	write_recording(path, in, 11, NULL);
}

static void test_compare_figures(void)
{
	char before[64], after[64];
	temp_path(before, sizeof(before));
	temp_path(after, sizeof(after));
	crafted_run(before, 100000000, 100, 20, 2);   /* 1 MB a request */
	crafted_run(after, 5000000, 100, 2, 1);       /* 50 KB a request */
	struct gt_run runs[2];
	struct gt_error err = { 0 };
	CHECK(gt_compare_load(before, &runs[0], &err) == 0);
	CHECK(gt_compare_load(after, &runs[1], &err) == 0);
	CHECK_U64(runs[0].samples, 11);
	CHECK_NEAR(runs[0].fig[GT_FIG_DURATION_S].value, 10, 1e-9);
	CHECK_NEAR(runs[0].fig[GT_FIG_ALLOC_RATE_MEDIAN].value, 100e6, 1e-3);
	CHECK_NEAR(runs[0].fig[GT_FIG_BYTES_PER_OP_MEDIAN].value, 1e6, 1e-6);
	CHECK_NEAR(runs[1].fig[GT_FIG_BYTES_PER_OP_MEDIAN].value, 5e4, 1e-6);
	CHECK_STR(runs[0].opcount_name, "requests");
	struct gt_f64 v;
	CHECK(gt_compare_figure(&runs[0], "collections_per_min.gen0", &v) == 0);
	CHECK_NEAR(v.value, 1200, 1e-6);
	CHECK(gt_compare_figure(&runs[0], "collections_per_min.gen2", &v) == 0);
	CHECK_NEAR(v.value, 12, 1e-6);   /* 2 in 10 s */
	CHECK(gt_compare_figure(&runs[0], "collections_per_min.gen9", &v) == 0 && !v.valid);
	CHECK(gt_compare_figure(&runs[0], "no.such", &v) == -1);
	CHECK_NEAR(runs[0].fig[GT_FIG_PAUSE_SHARE].value, 0.04, 1e-9);   /* 20 x 2 ms a second */
	/* 200 pauses of 2 ms, two of them 52 ms: p50 2, p99 2 (nearest rank 198 of 200 is still a 2 ms one), max 52 */
	CHECK_NEAR(runs[0].fig[GT_FIG_PAUSE_P50_MS].value, 2, 1e-9);
	CHECK_NEAR(runs[0].fig[GT_FIG_PAUSE_P99_MS].value, 2, 1e-9);
	CHECK_NEAR(runs[0].fig[GT_FIG_PAUSE_MAX_MS].value, 52, 1e-9);
	CHECK_NEAR(runs[0].fig[GT_FIG_LARGE_PEAK_BYTES].value, 777, 1e-9);
	CHECK_NEAR(runs[0].fig[GT_FIG_WORKING_SET_PEAK_BYTES].value, 1100, 1e-9);
	CHECK(!runs[0].fig[GT_FIG_COMMITTED_PEAK_BYTES].valid);   /* never recorded: n/a, not 0 */
	CHECK_STR(runs[1].info.gc_mode, "DATAS");
	CHECK_NEAR(gt_compare_ratio(runs[0].fig[GT_FIG_BYTES_PER_OP_MEDIAN], runs[1].fig[GT_FIG_BYTES_PER_OP_MEDIAN]).value,
		   0.05, 1e-12);

	struct gt_fail_if f;
	double pct;
	CHECK(gt_fail_if_parse("alloc.bytes_per_op_median>+10%", &f, &err) == 0);
	CHECK(gt_fail_if_judge(&f, &runs[0], &runs[1], &pct, &err) == 0);
	CHECK_NEAR(pct, -95, 1e-9);
	CHECK(gt_fail_if_judge(&f, &runs[1], &runs[0], &pct, &err) == 1);   /* the other way round: a regression */
	CHECK(gt_fail_if_parse("collections_per_min.gen0<=-90%", &f, &err) == 0);
	CHECK(gt_fail_if_judge(&f, &runs[0], &runs[1], &pct, &err) == 1);
	CHECK(gt_fail_if_parse("memory.committed_peak_bytes>5%", &f, &err) == 0);
	CHECK(gt_fail_if_judge(&f, &runs[0], &runs[1], &pct, &err) == -1);   /* n/a: nothing to judge */
	CHECK(gt_fail_if_parse("alloc.bytes_per_op_median>+10", &f, &err) == -1 && err.code == GT_EXIT_USAGE);
	CHECK(gt_fail_if_parse("bogus>+10%", &f, &err) == -1 && err.code == GT_EXIT_USAGE);
	/* its one sentence lists the names there are */
	CHECK(strstr(err.msg, "'bogus' names no figure") != NULL);
	for (int k = 0; k < GT_FIG_COUNT; k++)
		CHECK(strstr(err.msg, gt_fig_descs[k].key) != NULL);
	CHECK(strstr(err.msg, "collections_per_min.GENERATION") != NULL && strchr(err.msg, '\n') == NULL);
	CHECK(gt_fail_if_parse(">+10%", &f, &err) == -1);

	/* the rows and keys say what the counts count (.NET: exclusive) */
	char text[8192] = "";
	FILE *out = fmemopen(text, sizeof(text) - 1, "w");
	CHECK(gt_compare_write_text(out, runs, 2) == 0);
	fclose(out);
	CHECK(strstr(text, "\ncollections gen0 (exclusive) ") != NULL);
	/* operations per second over the run, named by what is counted */
	CHECK_NEAR(runs[0].fig[GT_FIG_OPCOUNT_RATE].value, 100, 1e-6);
	CHECK(strstr(text, "\nrequests per second ") != NULL && strstr(text, " 100.0/s ") != NULL);
	struct gt_f64 ops;
	CHECK(gt_compare_figure(&runs[1], "ops.rate_per_s", &ops) == 0 && ops.valid);
	/* every label whole, the values in one column: a JVM's rows say
	 * "collections gen0 (per collector)", 32 characters */
	const struct gt_runtime_traits *was = runs[0].info.runtime;
	runs[0].info.runtime = &gt_hotspot_runtime;
	memset(text, 0, sizeof(text));
	out = fmemopen(text, sizeof(text) - 1, "w");
	CHECK(gt_compare_write_text(out, runs, 2) == 0);
	fclose(out);
	CHECK(strstr(text, "\ncollections gen0 (per collector) ") != NULL);
	const char *dur = strstr(text, "\nduration ");
	int value_at = dur ? (int)strspn(dur + 1, "duration ") : 0;
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (*line == '\n')
			continue;
		if (line[value_at - 1] != ' ' || line[value_at] == ' ')
			check_fail(__FILE__, __LINE__, "a label overflows its column (values at %d): %.60s", value_at, line);
	}
	runs[0].info.runtime = was;
	struct json_object *o = gt_compare_json(runs, 2), *list, *runs_a;
	CHECK(json_object_object_get_ex(o, "runs", &runs_a) &&
	      json_object_object_get_ex(json_object_array_get_idx(runs_a, 0), "collections_per_min", &list));
	struct json_object *e = list ? json_object_array_get_idx(list, 0) : NULL, *counting;
	CHECK(e && json_object_object_get_ex(e, "counting", &counting) &&
	      strcmp(json_object_get_string(counting), "exclusive") == 0);
	json_object_put(o);
	unlink(before);
	unlink(after);
}

/* 13 samples 10 s apart, each with the live-set point of a collection
 * just before it: 100 MB growing by growth_bps. */
static void live_run(const char *path, double growth_bps)
{
	struct gt_sample in[13];
	for (uint64_t i = 0; i < 13; i++) {
		struct gt_sample *s = &in[i];
		memset(s, 0, sizeof(*s));
		s->mono_ns = (100 + 10 * i) * S;
		s->pid = 5;
		s->live_log.valid = true;
		s->live_log.count = i + 1;
		for (uint64_t k = 0; k <= i; k++)
			s->live_log.points[k % GT_LIVE_RING] =
				(struct gt_live_point){ (uint64_t)(100e6 + growth_bps * 10.0 * (double)k), (99 + 10 * k) * S, "gen2" };
	}
	write_recording(path, in, 13, NULL);
}

/* --compare: each run's live set and growth at its end, refolded from the
 * recorded points; n/a in a run without any. */
static void test_compare_live_set(void)
{
	char leak[64], flat[64], none[64];
	temp_path(leak, sizeof(leak));
	temp_path(flat, sizeof(flat));
	temp_path(none, sizeof(none));
	live_run(leak, 50000);
	live_run(flat, 0);
	crafted_run(none, 1000, 100, 2, 1);
	struct gt_run runs[3];
	struct gt_error err = { 0 };
	CHECK(gt_compare_load(leak, &runs[0], &err) == 0);
	CHECK(gt_compare_load(flat, &runs[1], &err) == 0);
	CHECK(gt_compare_load(none, &runs[2], &err) == 0);
	CHECK_NEAR(runs[0].fig[GT_FIG_LIVE_SET_BYTES].value, 100e6 + 50000 * 120, 1);
	CHECK_NEAR(runs[0].fig[GT_FIG_LIVE_GROWTH_BPS].value, 50000, 1e-6);
	CHECK_NEAR(runs[1].fig[GT_FIG_LIVE_SET_BYTES].value, 100e6, 0);
	CHECK_NEAR(runs[1].fig[GT_FIG_LIVE_GROWTH_BPS].value, 0, 0);
	CHECK(runs[1].fig[GT_FIG_LIVE_GROWTH_BPS].valid);
	CHECK(!runs[2].fig[GT_FIG_LIVE_SET_BYTES].valid && !runs[2].fig[GT_FIG_LIVE_GROWTH_BPS].valid);
	char text[8192] = "";
	FILE *out = fmemopen(text, sizeof(text) - 1, "w");
	CHECK(gt_compare_write_text(out, runs, 3) == 0);
	fclose(out);
	CHECK(strstr(text, "\nlive set, at the end ") != NULL);
	CHECK(strstr(text, "\nlive set growth, at the end ") != NULL);
	struct gt_f64 v;
	CHECK(gt_compare_figure(&runs[0], "live_set.growth_bps", &v) == 0 && v.valid);
	unlink(leak);
	unlink(flat);
	unlink(none);
}

static void test_percentile(void)
{
	double v[] = { 5, 1, 3, 2, 4 };
	CHECK_NEAR(gt_compare_percentile(v, 5, 50), 3, 0);
	CHECK_NEAR(gt_compare_percentile(v, 5, 95), 5, 0);
	CHECK_NEAR(gt_compare_percentile(v, 5, 20), 1, 0);
	CHECK_NEAR(gt_compare_percentile(v, 1, 99), 1, 0);
}

/* Intervals of a short load (75 requests of 2.75 MB at 15 a second) as a
 * loaded machine records them: two polls merged into one interval of 30
 * requests, and the last interval cut through a request (8 counted, the
 * bytes of 7). The plain median of the intervals falls on the cut one. */
static void test_weighted_median(void)
{
	struct gt_weighted v[] = { { 2.41e6, 8 }, { 2.75e6, 30 }, { 2.95e6, 14 } };
	CHECK_NEAR(gt_compare_weighted_median(v, 3), 2.75e6, 0);
	struct gt_weighted two[] = { { 2.75e6, 60 }, { 2.41e6, 8 } };
	CHECK_NEAR(gt_compare_weighted_median(two, 2), 2.75e6, 0);
	double plain[] = { 2.75e6, 2.41e6 };
	CHECK_NEAR(gt_compare_percentile(plain, 2, 50), 2.41e6, 0);
	/* half the weight at or below: the smaller of two equal weights */
	struct gt_weighted even[] = { { 2, 1 }, { 1, 1 } };
	CHECK_NEAR(gt_compare_weighted_median(even, 2), 1, 0);
	struct gt_weighted one[] = { { 7, 3 } };
	CHECK_NEAR(gt_compare_weighted_median(one, 1), 7, 0);
}

int main(void)
{
	RUN_TEST(test_round_trip);
	RUN_TEST(test_cut_last_line_is_skipped);
	RUN_TEST(test_stacks_round_trip);
	RUN_TEST(test_hostile_lines);
	RUN_TEST(test_target_strings_written_clean);
	RUN_TEST(test_compare_text_ascii_locale);
	RUN_TEST(test_slices_and_quit);
	RUN_TEST(test_v1_dotnet_collections);
	RUN_TEST(test_opcount_fields_by_their_file_names);
	RUN_TEST(test_compare_figures);
	RUN_TEST(test_compare_live_set);
	RUN_TEST(test_percentile);
	RUN_TEST(test_weighted_median);
	return check_summary();
}
