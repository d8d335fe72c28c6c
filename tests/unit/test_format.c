/* Human-readable figures: units, rounding, and n/a for what is not given. */
#include <math.h>
#include <string.h>

#include "views/format.h"
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

int main(void)
{
	RUN_TEST(test_bytes);
	RUN_TEST(test_cut);
	RUN_TEST(test_rate_share_duration);
	return check_summary();
}
