/* The census model (model/census.c): order by bytes, and the change
 * between two censuses by type name (grown, new, vanished, sorted by bytes
 * grown); and HotSpot's class histogram parser and source-form names
 * (collectors/hotspot/hotspot_histo.c), on both the jmap and jcmd shapes
 * and on damaged input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/hotspot_histo.h"
#include "model/census.h"
#include "tests/unit/check.h"

static void add(struct gt_census *c, size_t *cap, const char *name, uint64_t count, uint64_t bytes)
{
	CHECK(gt_census_add(c, cap, name, strlen(name), count, bytes) == 0);
}

static void sorts_by_bytes_then_count_then_name(void)
{
	struct gt_census c = { 0 };
	size_t cap = 0;
	add(&c, &cap, "b", 1, 100);
	add(&c, &cap, "a", 5, 300);
	add(&c, &cap, "d", 2, 100);
	add(&c, &cap, "c", 2, 100);
	gt_census_sort(&c);
	CHECK_STR(c.types[0].name, "a");
	CHECK_STR(c.types[1].name, "c");
	CHECK_STR(c.types[2].name, "d");
	CHECK_STR(c.types[3].name, "b");
	gt_census_free(&c);
	CHECK(c.types == NULL && c.n_types == 0);
}

static void merges_one_name_loaded_twice(void)
{
	struct gt_census c = { 0 };
	size_t cap = 0;
	add(&c, &cap, "com.example.Foo", 2, 32);
	add(&c, &cap, "byte[]", 1, 40);
	add(&c, &cap, "com.example.Foo", 3, 48);
	gt_census_sort(&c);
	CHECK_U64(c.n_types, 2);
	CHECK_STR(c.types[0].name, "com.example.Foo");
	CHECK_U64(c.types[0].count, 5);
	CHECK_U64(c.types[0].bytes, 80);
	gt_census_free(&c);
}

static void grows_past_the_first_capacity_and_cuts_long_names(void)
{
	struct gt_census c = { 0 };
	size_t cap = 0;
	char name[16];
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "T%d", i);
		add(&c, &cap, name, 1, (uint64_t)i);
	}
	CHECK_U64(c.n_types, 1000);
	CHECK_STR(c.types[999].name, "T999");
	char longname[600];
	memset(longname, 'x', sizeof(longname));
	CHECK(gt_census_add(&c, &cap, longname, sizeof(longname), 1, 1) == 0);
	CHECK_U64(strlen(c.types[1000].name), GT_CENSUS_NAME_LEN - 1);
	gt_census_free(&c);
}

static const struct gt_census_change *row(const struct gt_census_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n_rows; i++)
		if (strcmp(d->rows[i].name, name) == 0)
			return &d->rows[i];
	return NULL;
}

static void diff_joins_by_name_and_sorts_by_growth(void)
{
	struct gt_census prev = { 0 }, cur = { 0 };
	size_t pc = 0, cc = 0;
	add(&prev, &pc, "Leak", 100, 2400);
	add(&prev, &pc, "byte[]", 50, 9000);
	add(&prev, &pc, "Gone", 3, 72);
	add(&cur, &cc, "byte[]", 40, 8000);
	add(&cur, &cc, "Leak", 1100, 26400);
	add(&cur, &cc, "Fresh", 2, 64);
	prev.total_bytes = 11472;
	cur.total_bytes = 34464;
	prev.wall_ms = 1000;
	cur.wall_ms = 6000;
	gt_census_sort(&prev);
	gt_census_sort(&cur);
	struct gt_census_diff d;
	CHECK(gt_census_diff(&prev, &cur, &d) == 0);
	CHECK_U64(d.n_rows, 4);
	CHECK_STR(d.rows[0].name, "Leak");
	CHECK(d.rows[0].bytes_delta == 24000 && d.rows[0].count_delta == 1000 && !d.rows[0].is_new);
	CHECK_STR(d.rows[1].name, "Fresh");
	CHECK(d.rows[1].is_new && d.rows[1].bytes_delta == 64);
	CHECK_STR(d.rows[2].name, "Gone");
	CHECK(d.rows[2].vanished && d.rows[2].bytes == 0 && d.rows[2].bytes_delta == -72 && d.rows[2].count_delta == -3);
	CHECK_STR(d.rows[3].name, "byte[]");
	const struct gt_census_change *b = row(&d, "byte[]");
	CHECK(b && b->bytes_delta == -1000 && b->count_delta == -10 && b->bytes == 8000);
	CHECK(d.since_ms == 5000);
	CHECK(d.total_bytes_delta == 34464 - 11472);
	gt_census_diff_free(&d);
	gt_census_free(&prev);
	gt_census_free(&cur);
}

static void diff_saturates_hostile_figures(void)
{
	struct gt_census prev = { 0 }, cur = { 0 };
	size_t pc = 0, cc = 0;
	add(&prev, &pc, "X", 0, 0);
	add(&cur, &cc, "X", UINT64_MAX, UINT64_MAX);
	struct gt_census_diff d;
	CHECK(gt_census_diff(&prev, &cur, &d) == 0);
	CHECK(d.rows[0].bytes_delta == INT64_MAX);
	gt_census_diff_free(&d);
	struct gt_census_diff e;
	CHECK(gt_census_diff(&cur, &prev, &e) == 0);
	CHECK(e.rows[0].bytes_delta == -INT64_MAX);
	gt_census_diff_free(&e);
	gt_census_free(&prev);
	gt_census_free(&cur);
}

static void source_names(void)
{
	static const char *const cases[][2] = {
		{ "[B", "byte[]" },
		{ "[[I", "int[][]" },
		{ "[Z", "boolean[]" },
		{ "[J", "long[]" },
		{ "[Ljava.lang.String;", "java.lang.String[]" },
		{ "[[Lfoo.Bar$Baz;", "foo.Bar$Baz[][]" },
		{ "java.util.HashMap$Node", "java.util.HashMap$Node" },
		{ "[Q", "[Q" },            /* not a descriptor it knows: as it is */
		{ "[L;", "[L;" },
		{ "[Lfoo", "[Lfoo" },
		{ "[", "[" },
	};
	char out[GT_CENSUS_NAME_LEN];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gt_hotspot_source_name(cases[i][0], strlen(cases[i][0]), out, sizeof(out));
		CHECK_STR(out, cases[i][1]);
	}
	char small[6];
	CHECK_U64(gt_hotspot_source_name("[[I", 3, small, sizeof(small)), 5);
	CHECK_STR(small, "int[]");
}

static const char jcmd_histo[] =
	"12345:\n"
	" num     #instances         #bytes  class name (module)\n"
	"-------------------------------------------------------\n"
	"   1:       1584892      123385544  [B (java.base@17.0.15)\n"
	"   2:       1183129       47325160  Fill$Node\n"
	"   3:        401672        9640128  java.lang.String (java.base@17.0.15)\n"
	"   4:            10            480  [[Ljava.lang.Object; (java.base@17.0.15)\n"
	"Total       3169703      180351312\n";

static void parses_jcmd_shape(void)
{
	struct gt_census c;
	CHECK(gt_hotspot_histo_parse(jcmd_histo, sizeof(jcmd_histo) - 1, &c) == 0);
	CHECK_U64(c.n_types, 4);
	CHECK_STR(c.types[0].name, "byte[]");
	CHECK_U64(c.types[0].count, 1584892);
	CHECK_U64(c.types[0].bytes, 123385544);
	CHECK_STR(c.types[1].name, "Fill$Node");
	CHECK_STR(c.types[2].name, "java.lang.String");
	CHECK_STR(c.types[3].name, "java.lang.Object[][]");
	CHECK_U64(c.total_count, 3169703);
	CHECK_U64(c.total_bytes, 180351312);
	CHECK(c.partial_why == NULL);
	gt_census_free(&c);
}

static void parses_attach_reply_shape_unsorted(void)
{
	/* the attach reply: status line, no pid line; rows in any order */
	static const char reply[] = "0\n"
		" num     #instances         #bytes  class name (module)\n"
		"-------------------------------------------------------\n"
		"   1:             2             32  A\r\n"
		"   2:             1             64  B\n"
		"Total             3             96\n";
	struct gt_census c;
	CHECK(gt_hotspot_histo_parse(reply, sizeof(reply) - 1, &c) == 0);
	CHECK_U64(c.n_types, 2);
	CHECK_STR(c.types[0].name, "B");
	CHECK_STR(c.types[1].name, "A");
	CHECK(c.partial_why == NULL);
	gt_census_free(&c);
}

static void damaged_histograms_say_partial(void)
{
	/* no Total line: cut short; the totals are the rows' sums */
	static const char cut[] = "   1:   5   80  A\n   2:   1   16  B\n   3:   7";
	struct gt_census c;
	CHECK(gt_hotspot_histo_parse(cut, sizeof(cut) - 1, &c) == 0);
	CHECK_U64(c.n_types, 2);
	CHECK_U64(c.total_count, 6);
	CHECK_U64(c.total_bytes, 96);
	CHECK(c.partial_why && strstr(c.partial_why, "Total"));
	gt_census_free(&c);
	/* a count past 2^64: the row is left out, and said so */
	static const char huge[] = "   1: 99999999999999999999999   80  A\n   2:   1   16  B\nTotal 1 16\n";
	CHECK(gt_hotspot_histo_parse(huge, sizeof(huge) - 1, &c) == 0);
	CHECK_U64(c.n_types, 1);
	CHECK_STR(c.types[0].name, "B");
	CHECK(c.partial_why && strstr(c.partial_why, "rows"));
	gt_census_free(&c);
	/* the largest count there is reads, and the sums saturate */
	static const char max[] = "1: 18446744073709551615 18446744073709551615 A\n2: 1 1 B\n";
	CHECK(gt_hotspot_histo_parse(max, sizeof(max) - 1, &c) == 0);
	CHECK_U64(c.total_count, UINT64_MAX);
	CHECK_U64(c.total_bytes, UINT64_MAX);
	gt_census_free(&c);
	/* escape bytes stay in the model (the writers sanitise), a name over
	 * the limit is cut */
	char text[1024];
	char name[700];
	memset(name, 'N', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text), "1: 1 8 \x1b[31mEvil\n2: 1 8 %s\nTotal 2 16\n", name);
	CHECK(gt_hotspot_histo_parse(text, strlen(text), &c) == 0);
	CHECK_U64(c.n_types, 2);
	CHECK(strlen(c.types[0].name) == GT_CENSUS_NAME_LEN - 1 || strlen(c.types[1].name) == GT_CENSUS_NAME_LEN - 1);
	gt_census_free(&c);
	/* nothing at all: an empty census without a Total line */
	CHECK(gt_hotspot_histo_parse("", 0, &c) == 0);
	CHECK_U64(c.n_types, 0);
	CHECK(c.partial_why != NULL);
	gt_census_free(&c);
}

/* A hostile JVM's flood of short rows: the census keeps GT_CENSUS_MAX_TYPES
 * (the first, which the JVM sends largest first), says so, and keeps the
 * Total line's totals. */
static void caps_the_rows(void)
{
	size_t rows = GT_CENSUS_MAX_TYPES + 1000;
	size_t cap = rows * 32 + 64;
	char *text = malloc(cap);
	CHECK(text != NULL);
	if (!text)
		return;
	size_t o = 0;
	for (size_t i = 0; i < rows; i++)
		o += (size_t)snprintf(text + o, cap - o, "%zu: 1 %zu a%zx\n", i + 1, rows - i, i);
	o += (size_t)snprintf(text + o, cap - o, "Total 123 456\n");
	struct gt_census c;
	CHECK(gt_hotspot_histo_parse(text, o, &c) == 0);
	CHECK_U64(c.n_types, GT_CENSUS_MAX_TYPES);
	CHECK_U64(c.types[0].bytes, rows);
	CHECK_U64(c.types[c.n_types - 1].bytes, rows - GT_CENSUS_MAX_TYPES + 1);
	CHECK_U64(c.total_count, 123);
	CHECK_U64(c.total_bytes, 456);
	CHECK(c.partial_why && strstr(c.partial_why, "65536"));
	gt_census_free(&c);
	/* exactly at the cap nothing is left out */
	o = 0;
	for (size_t i = 0; i < GT_CENSUS_MAX_TYPES; i++)
		o += (size_t)snprintf(text + o, cap - o, "%zu: 1 1 a%zx\n", i + 1, i);
	o += (size_t)snprintf(text + o, cap - o, "Total 1 1\n");
	CHECK(gt_hotspot_histo_parse(text, o, &c) == 0);
	CHECK_U64(c.n_types, GT_CENSUS_MAX_TYPES);
	CHECK(c.partial_why == NULL);
	gt_census_free(&c);
	free(text);
}

int main(void)
{
	RUN_TEST(sorts_by_bytes_then_count_then_name);
	RUN_TEST(merges_one_name_loaded_twice);
	RUN_TEST(grows_past_the_first_capacity_and_cuts_long_names);
	RUN_TEST(diff_joins_by_name_and_sorts_by_growth);
	RUN_TEST(diff_saturates_hostile_figures);
	RUN_TEST(source_names);
	RUN_TEST(parses_jcmd_shape);
	RUN_TEST(parses_attach_reply_shape_unsorted);
	RUN_TEST(damaged_histograms_say_partial);
	RUN_TEST(caps_the_rows);
	return check_summary();
}
