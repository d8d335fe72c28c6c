/* Fuzz target for the recording writer of -w (record/record_writer.c) with
 * the strings a hostile target names (the input, tests/fuzz/fuzz_strings.h):
 * every text fact of the target, the last collection's cause, generation
 * and collector names, the allocation sampler's source and message, and
 * the names of allocation sites by frame and by type. Whatever they are,
 * the header and sample lines are valid UTF-8 with no control character
 * (tests/fuzz/clean_text.h), no line feed inside a line, and parse back as
 * JSON whose every key and string is clean too (a \u001b escape is JSON
 * but still an escape byte to whoever prints the string). The text
 * outputs' header lines from the same target (-b's block, --doctor's first
 * line, the census's) are clean too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "record/record_format.h"
#include "record/record_writer.h"
#include "tests/fuzz/clean_text.h"
#include "tests/fuzz/fuzz_strings.h"
#include "views/census_writer.h"
#include "views/findings_writer.h"
#include "views/text_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FIELDS_MAX 40

struct fixture {
	struct gt_target_info info;
	struct gt_sample s;
	struct gt_alloc_snapshot a;
};

static size_t fields_of(struct fixture *f, struct fuzz_field *x)
{
	size_t n = 0;
	for (size_t k = 0; k < gt_record_info_text_count; k++)
		x[n++] = (struct fuzz_field){ (char *)&f->info + gt_record_info_text[k].offset, gt_record_info_text[k].size };
	x[n++] = (struct fuzz_field){ f->s.last_gc_cause, sizeof(f->s.last_gc_cause) };
	for (int g = 0; g < 2; g++)
		x[n++] = (struct fuzz_field){ f->s.generations[g].name, sizeof(f->s.generations[g].name) };
	for (int c = 0; c < 2; c++)
		x[n++] = (struct fuzz_field){ f->s.collectors[c].name, sizeof(f->s.collectors[c].name) };
	x[n++] = (struct fuzz_field){ f->a.source, sizeof(f->a.source) };
	x[n++] = (struct fuzz_field){ f->a.message, sizeof(f->a.message) };
	for (int i = 0; i < 2; i++) {
		x[n++] = (struct fuzz_field){ f->a.by_frame.sites[i].name, GT_ALLOC_SITE_NAME_LEN };
		x[n++] = (struct fuzz_field){ f->a.by_type.sites[i].name, GT_ALLOC_SITE_NAME_LEN };
	}
	return n;
}

static void check_strings(struct json_object *o)
{
	if (json_object_is_type(o, json_type_string)) {
		fuzz_text_check(json_object_get_string(o), (size_t)json_object_get_string_len(o), 0);
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			check_strings(json_object_array_get_idx(o, i));
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			fuzz_text_check(key, strlen(key), 0);
			check_strings(v);
		}
	}
}

/* The line as -w writes it (json-c's plain form), checked and parsed back. */
static void check_line(struct json_object *o)
{
	size_t len;
	const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &len);
	fuzz_text_check(text, len, 0);
	struct json_object *back = json_tokener_parse(text);
	if (!back)
		abort();
	check_strings(back);
	json_object_put(back);
	json_object_put(o);
}

/* The text outputs that print the target's facts: each line clean. */
static void check_text_headers(const struct fixture *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct gt_derived *d = calloc(1, sizeof(*d));
	struct gt_census *c = calloc(1, sizeof(*c));
	if (!out || !d || !c)
		abort();
	d->cur = f->s;
	d->first = true;
	gt_text_write_block_from(out, NULL, &f->info, d, NULL, NULL, NULL);
	gt_text_write_doctor_header(out, &f->info, 1.5);
	gt_census_write_text(out, c, &f->info);
	fclose(out);
	fuzz_text_check(text, len, TEXT_LF_OK);
	free(text);
	free(d);
	free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return 0;
	struct fuzz_field x[FIELDS_MAX];
	size_t n = fields_of(f, x);
	if (n > FIELDS_MAX)
		abort();
	fuzz_fill_strings(data, size, x, n);
	f->info.pid = 42;
	f->info.runtime = &gt_dotnet_runtime;
	f->s.pid = 42;
	f->s.n_generations = 2;
	f->s.n_collectors = 2;
	f->a.by_frame.n = 2;
	f->a.by_type.n = 2;
	check_line(gt_record_json_info("header", &f->info));
	check_line(gt_record_json_sample(&f->s, 0, 0, &f->a));
	check_text_headers(f);
	free(f);
	return 0;
}
