/* Human-readable figures: units, rounding, and n/a for what is not given. */
#include <math.h>
#include <string.h>

#include "model/format.h"
#include "tests/unit/check.h"

static void test_bytes(void)
{
	char b[48];
	struct gt_u64 v = { 0, false };
	CHECK_STR(gt_format_bytes(b, sizeof(b), v), "n/a");
	gt_u64_set(&v, 0);
	CHECK_STR(gt_format_bytes(b, sizeof(b), v), "0 B");
	gt_u64_set(&v, 1536);
	CHECK_STR(gt_format_bytes(b, sizeof(b), v), "1.50 KiB");
	gt_u64_set(&v, 60ull << 20);
	CHECK_STR(gt_format_bytes(b, sizeof(b), v), "60.0 MiB");
	gt_u64_set(&v, 512ull << 30);
	CHECK_STR(gt_format_bytes(b, sizeof(b), v), "512 GiB");
}

static void test_cut(void)
{
	char b[48];
	CHECK_STR(gt_format_cut(b, sizeof(b), "G1", 11), "G1");
	CHECK_STR(gt_format_cut(b, sizeof(b), "hotspot 17.0.15+6-Debian", 18), "hotspot 17.0.15...");
	/* never inside a UTF-8 character: "\xc3\xa9" is one */
	CHECK_STR(gt_format_cut(b, sizeof(b), "caf\xc3\xa9-latte", 7), "caf...");
	CHECK_STR(gt_format_cut(b, sizeof(b), "caf\xc3\xa9-latte", 8), "caf\xc3\xa9...");
	CHECK_STR(gt_format_cut(b, sizeof(b), "abcdef", 3), "abc");
}

static void test_rate_share_duration(void)
{
	char b[48];
	struct gt_f64 r = { 0, false };
	CHECK_STR(gt_format_rate(b, sizeof(b), r), "n/a");
	gt_f64_set(&r, NAN);
	CHECK_STR(gt_format_rate(b, sizeof(b), r), "n/a");
	gt_f64_set(&r, 5.5 * 1024 * 1024 * 1024);
	CHECK_STR(gt_format_rate(b, sizeof(b), r), "5.50 GiB/s");
	gt_f64_set(&r, 0.0123);
	CHECK_STR(gt_format_share(b, sizeof(b), r), "1.23%");
	gt_f64_set(&r, 0.5);
	CHECK_STR(gt_format_share(b, sizeof(b), r), "50.0%");
	struct gt_u64 ns = { 700000, true };
	CHECK_STR(gt_format_duration_ns(b, sizeof(b), ns), "0.700 ms");
	ns.value = 1234567890;
	CHECK_STR(gt_format_duration_ns(b, sizeof(b), ns), "1.23 s");
	CHECK_STR(gt_format_uptime(b, sizeof(b), 3 * 86400 + 4 * 3600 + 5 * 60 + 6), "3d 04:05:06");
	CHECK_STR(gt_format_uptime(b, sizeof(b), 65), "01:05");
}

/* A finding's title on a line too short for it ends at a word, never in
 * one: "...started by humon" read as a word that is not one. */
static void test_cut_words(void)
{
	char b[96];
	const char *t = "100% of gen2 collections were started by humongous allocation";
	CHECK_STR(gt_format_cut_words(b, sizeof(b), t, 80), t);
	CHECK_STR(gt_format_cut_words(b, sizeof(b), t, 48), "100% of gen2 collections were started by...");
	CHECK_STR(gt_format_cut_words(b, sizeof(b), t, 46), "100% of gen2 collections were started by...");
	CHECK_STR(gt_format_cut_words(b, sizeof(b), t, 42), "100% of gen2 collections were started...");
	/* a separator does not dangle before the ellipsis */
	CHECK_STR(gt_format_cut_words(b, sizeof(b), "pause share high, over the window", 22), "pause share high...");
	/* no word fits: nothing, rather than a piece of one */
	CHECK_STR(gt_format_cut_words(b, sizeof(b), "abcdefghijkl", 8), "");
	CHECK_STR(gt_format_cut_words(b, sizeof(b), "GC pauses", 3), "");
}

/* Names shortened by their namespace, never to a form two names share. */
static void test_name(void)
{
	char b[96];
	const char *both[] = { "System.Text.Json.Foo+CharsSpliterator", "Other.Ns.Bar+CharsSpliterator" };
	char one[96], two[96];
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 60, both, 2), both[0]);
	/* cut from the left, both read "..$CharsSpliterator": now each keeps its class */
	for (int w = 12; w <= 36; w++) {
		gt_format_name(one, sizeof(one), both[0], w, both, 2);
		gt_format_name(two, sizeof(two), both[1], w, both, 2);
		if ((int)strlen(one) > w || (int)strlen(two) > w || strcmp(one, two) == 0)
			check_fail(__FILE__, __LINE__, "width %d: \"%s\" and \"%s\"", w, one, two);
	}
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 29, both, 2), "S.T.Json.Foo+CharsSpliterator");
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 28, both, 2), "S.T.J.Foo+CharsSpliterator");
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 22, both, 2), "..Foo+CharsSpliterator");
	CHECK_STR(gt_format_name(b, sizeof(b), both[1], 22, both, 2), "..Bar+CharsSpliterator");
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 20, both, 2), "..F+CharsSpliterator");
	/* alone, the class may go too */
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 20, NULL, 0), "..F+CharsSpliterator");
	CHECK_STR(gt_format_name(b, sizeof(b), both[0], 18, NULL, 0), "..CharsSpliterator");
	/* the same class in two namespaces keeps the namespace initials that differ */
	const char *twins[] = { "com.shop.cart.Item.add", "com.shop.order.Item.add" };
	CHECK_STR(gt_format_name(b, sizeof(b), twins[0], 16, twins, 2), "c.s.c.Item.add");
	CHECK_STR(gt_format_name(b, sizeof(b), twins[1], 16, twins, 2), "c.s.o.Item.add");
	gt_format_name(one, sizeof(one), twins[0], 12, twins, 2);
	gt_format_name(two, sizeof(two), twins[1], 12, twins, 2);
	CHECK(strcmp(one, two) != 0 && strlen(one) <= 12 && strlen(two) <= 12);
	/* brackets are not split: a generic argument stays whole */
	CHECK_STR(gt_format_name(b, sizeof(b), "System.Collections.Generic.List`1[System.Int32]", 22, NULL, 0),
		  "..List`1[System.Int32]");
	CHECK_STR(gt_format_name(b, sizeof(b), "Program.<Main>$.Serialize", 20, NULL, 0), "P.<Main>$.Serialize");
}

int main(void)
{
	RUN_TEST(test_bytes);
	RUN_TEST(test_cut);
	RUN_TEST(test_rate_share_duration);
	RUN_TEST(test_cut_words);
	RUN_TEST(test_name);
	return check_summary();
}
