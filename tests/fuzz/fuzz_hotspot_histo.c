/* Fuzz target: whatever a JVM answers to `inspectheap` (its class
 * histogram), parsing it stays in bounds, gives names that end within
 * their field, types sorted by bytes, a change against a census of the
 * first half of the same bytes, and a text table and a JSON object with no
 * control character or broken UTF-8 in them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "collectors/hotspot/hotspot_histo.h"
#include "model/census.h"
#include "tests/fuzz/clean_text.h"
#include "views/census_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_census(const struct gt_census *c)
{
	for (size_t i = 0; i < c->n_types; i++) {
		if (memchr(c->types[i].name, 0, sizeof(c->types[i].name)) == NULL)
			abort();
		if (i && c->types[i].bytes > c->types[i - 1].bytes)
			abort();
	}
}

static void check_outputs(const struct gt_census *c)
{
	struct gt_target_info info = { .pid = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	gt_census_write_text(f, c, &info);
	fclose(f);
	fuzz_text_check(text, len, TEXT_LF_OK);
	free(text);
	struct json_object *o = gt_census_json(c, &info);
	size_t jlen;
	const char *json = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &jlen);
	fuzz_text_check(json, jlen, 0);
	json_object_put(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_census all, half;
	if (gt_hotspot_histo_parse((const char *)data, size, &all) != 0)
		return 0;
	check_census(&all);
	check_outputs(&all);
	if (gt_hotspot_histo_parse((const char *)data, size / 2, &half) == 0) {
		struct gt_census_diff d;
		if (gt_census_diff(&half, &all, &d) == 0) {
			if (d.n_rows > half.n_types + all.n_types)
				abort();
			for (size_t i = 1; i < d.n_rows; i++)
				if (d.rows[i].bytes_delta > d.rows[i - 1].bytes_delta)
					abort();
			gt_census_diff_free(&d);
		}
		gt_census_free(&half);
	}
	gt_census_free(&all);
	return 0;
}
