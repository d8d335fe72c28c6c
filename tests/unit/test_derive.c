/* The derive step: rates and shares from two crafted samples. */
#include <math.h>
#include <string.h>

#include "../../model/derive.h"
#include "check.h"

static struct gt_sample base_sample(uint64_t mono_ns)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = 42;
	s.mono_ns = mono_ns;
	s.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	s.n_generations = 2;
	strcpy(s.generations[0].name, "young");
	strcpy(s.generations[1].name, "old");
	return s;
}

static void test_first_sample_has_no_rates(void)
{
	struct gt_sample s = base_sample(1000000000ull);
	struct gt_derived d;
	gt_u64_set(&s.alloc_bytes_total, 500);
	gt_u64_set(&s.pause_total_ns, 10);
	gt_derive(NULL, &s, &d);
	CHECK(d.first);
	CHECK(!d.interval_s.valid);
	CHECK(!d.alloc_rate_bps.valid);
	CHECK(!d.pause_share.valid);
	CHECK(!d.generations[0].collections.valid);
	/* the figures themselves are still there */
	CHECK_U64(d.cur.alloc_bytes_total.value, 500);
}

static void test_rates_over_interval(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(3000000000ull); /* 2 s apart */
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 1000);
	gt_u64_set(&b.alloc_bytes_total, 1000 + 400000000ull);
	gt_u64_set(&a.generations[0].collections, 10);
	gt_u64_set(&b.generations[0].collections, 16);
	gt_u64_set(&a.generations[1].collections, 1);
	gt_u64_set(&b.generations[1].collections, 1);
	gt_u64_set(&a.pause_total_ns, 5000000ull);
	gt_u64_set(&b.pause_total_ns, 45000000ull); /* 40 ms of pauses in 2 s */
	gt_derive(&a, &b, &d);
	CHECK(!d.first);
	CHECK_NEAR(d.interval_s.value, 2.0, 1e-12);
	CHECK_NEAR(d.alloc_rate_bps.value, 200000000.0, 1e-6);
	CHECK_U64(d.generations[0].collections.value, 6);
	CHECK_NEAR(d.generations[0].per_minute.value, 180.0, 1e-9);
	CHECK(d.generations[1].collections.valid);
	CHECK_U64(d.generations[1].collections.value, 0);
	CHECK_U64(d.pause_ns.value, 40000000ull);
	CHECK_NEAR(d.pause_share.value, 0.02, 1e-12);
}

static void test_invalid_inputs_stay_invalid(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	/* alloc valid only in the newer sample: no rate can be made */
	gt_u64_set(&b.alloc_bytes_total, 100);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_rate_bps.valid);
	CHECK(!d.pause_share.valid);
	CHECK(!d.cpu_share.valid);
	CHECK(!d.bytes_per_op.valid);
	CHECK(!d.large_alloc_share.valid);
}

static void test_counter_reset_is_not_a_negative_rate(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 5000);
	gt_u64_set(&b.alloc_bytes_total, 100);
	gt_u64_set(&a.generations[0].collections, 9);
	gt_u64_set(&b.generations[0].collections, 2);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_rate_bps.valid);
	CHECK(!d.generations[0].collections.valid);
}

static void test_source_change_breaks_the_series(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 1000);
	gt_u64_set(&b.alloc_bytes_total, 900000000ull);
	b.alloc_source = GT_ALLOC_SOURCE_EXACT;
	b.alloc_since = GT_ALLOC_SINCE_PROCESS_START;
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_rate_bps.valid);
}

/* Blind collections in the interval make the rate a lower bound; the same
 * count as before, or no count at all (exact sources), does not. */
static void test_alloc_lower_bound(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 1000);
	gt_u64_set(&b.alloc_bytes_total, 5000);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_lower_bound);
	gt_u64_set(&a.alloc_blind_collections, 3);
	gt_u64_set(&b.alloc_blind_collections, 3);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_lower_bound);
	gt_u64_set(&b.alloc_blind_collections, 4);
	gt_derive(&a, &b, &d);
	CHECK(d.alloc_lower_bound);
	CHECK(d.alloc_rate_bps.valid && d.alloc_rate_bps.value == 4000.0);
	/* No rate, no bound. */
	b.alloc_bytes_total.valid = false;
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_lower_bound);
}

static void test_zero_or_negative_interval(void)
{
	struct gt_sample a = base_sample(2000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 1);
	gt_u64_set(&b.alloc_bytes_total, 2);
	gt_derive(&a, &b, &d);
	CHECK(d.first);
	CHECK(!d.alloc_rate_bps.valid);
	b.mono_ns = 1000000000ull;
	gt_derive(&a, &b, &d);
	CHECK(d.first);
}

static void test_bytes_per_operation(void)
{
	/* The seed case: 5.5 GB/s at 92 requests/s is about 60 MB per request. */
	struct gt_sample a = base_sample(0 + 1), b = base_sample(1000000001ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, 5500000000ull);
	gt_u64_set(&a.ops_total, 1000);
	gt_u64_set(&b.ops_total, 1092);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.ops_rate.value, 92.0, 1e-9);
	CHECK_NEAR(d.bytes_per_op.value, 5500000000.0 / 92.0, 1e-3);
}

static void test_large_share_and_limit_share(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, 1000000);
	gt_u64_set(&a.large_alloc_bytes_total, 0);
	gt_u64_set(&b.large_alloc_bytes_total, 250000);
	gt_u64_set(&b.heap_max_bytes, 768ull << 20);
	gt_u64_set(&b.cgroup_limit_bytes, 1024ull << 20);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.large_alloc_rate_bps.value, 250000.0, 1e-9);
	CHECK_NEAR(d.large_alloc_share.value, 0.25, 1e-12);
	CHECK_NEAR(d.heap_max_share_of_limit.value, 0.75, 1e-12);
}

static void test_cpu_share_uses_hz(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(3000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.cpu_ticks, 100);
	gt_u64_set(&b.cpu_ticks, 250);
	gt_u64_set(&b.cpu_hz, 100);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.cpu_share.value, 0.75, 1e-12);
}

static void test_generations_matched_by_name(void)
{
	/* A generation that appears later (or moves) is matched by name, not index. */
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	a.n_generations = 1;
	strcpy(a.generations[0].name, "old");
	gt_u64_set(&a.generations[0].collections, 3);
	gt_u64_set(&b.generations[0].collections, 7);
	gt_u64_set(&b.generations[1].collections, 5);
	gt_derive(&a, &b, &d);
	CHECK(!d.generations[0].collections.valid); /* "young" did not exist before */
	CHECK_U64(d.generations[1].collections.value, 2);
}

int main(void)
{
	RUN_TEST(test_first_sample_has_no_rates);
	RUN_TEST(test_rates_over_interval);
	RUN_TEST(test_invalid_inputs_stay_invalid);
	RUN_TEST(test_counter_reset_is_not_a_negative_rate);
	RUN_TEST(test_source_change_breaks_the_series);
	RUN_TEST(test_zero_or_negative_interval);
	RUN_TEST(test_alloc_lower_bound);
	RUN_TEST(test_bytes_per_operation);
	RUN_TEST(test_large_share_and_limit_share);
	RUN_TEST(test_cpu_share_uses_hz);
	RUN_TEST(test_generations_matched_by_name);
	return check_summary();
}
