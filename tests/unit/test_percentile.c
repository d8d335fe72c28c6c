/* The one nearest-rank percentile (model/percentile.h) that the derive
 * step, the HotSpot agent's pauses and --compare share: checked against
 * its definition, the smallest value with at least pct% of the values at
 * or below it, over every count and percentile a caller can ask. */
#include <stdint.h>
#include <stdlib.h>

#include "model/percentile.h"
#include "tests/unit/check.h"

/* The definition, counted out: the first sorted value whose count of
 * values at or below it is at least pct% of n. */
static size_t by_definition(const uint64_t *sorted, size_t n, unsigned pct)
{
	for (size_t i = 0; i < n; i++) {
		size_t at_or_below = i + 1;
		while (at_or_below < n && sorted[at_or_below] == sorted[i])
			at_or_below++;
		if (at_or_below * 100 >= (size_t)pct * n)
			return i;
	}
	return n - 1;
}

static void test_every_count_and_percentile(void)
{
	/* distinct values 10, 20, ...: the index found is the value's rank */
	uint64_t v[257];
	for (size_t i = 0; i < 257; i++)
		v[i] = 10 * (i + 1);
	int wrong = 0;
	for (size_t n = 1; n <= 257; n++)
		for (unsigned pct = 0; pct <= 100; pct++)
			if (gt_percentile_u64(v, n, pct) != v[by_definition(v, n, pct)] && wrong++ < 5)
				CHECK_U64(gt_percentile_u64(v, n, pct), v[by_definition(v, n, pct)]);
	CHECK(wrong == 0);
}

static void test_ties(void)
{
	/* 200 pauses of 2 ms and two of 52: p99 is rank 198, still 2 ms */
	uint64_t v[200];
	for (size_t i = 0; i < 200; i++)
		v[i] = i < 198 ? 2000000 : 52000000;
	CHECK_U64(gt_percentile_u64(v, 200, 99), 2000000);
	CHECK_U64(gt_percentile_u64(v, 200, 100), 52000000);
	CHECK_U64(gt_percentile_u64(v, 200, 99), v[by_definition(v, 200, 99)]);
}

static void test_edges(void)
{
	/* an even count's median is the lower middle value, never a mean */
	double two[] = { 2.41e6, 2.75e6 };
	CHECK_NEAR(gt_percentile_f64(two, 2, 50), 2.41e6, 0);
	CHECK_U64(gt_nearest_rank(2, 51), 1);
	/* p0 is the smallest, p100 the largest, one value is every percentile */
	CHECK_U64(gt_nearest_rank(5, 0), 0);
	CHECK_U64(gt_nearest_rank(5, 100), 4);
	CHECK_U64(gt_nearest_rank(1, 99), 0);
	/* the agent's full ring of 64: p99 is the 64th, p50 the 32nd */
	CHECK_U64(gt_nearest_rank(64, 99), 63);
	CHECK_U64(gt_nearest_rank(64, 50), 31);
	/* --compare's largest count of pauses: no overflow in n * pct */
	CHECK_U64(gt_nearest_rank(4000000, 99), 3959999);
}

int main(void)
{
	RUN_TEST(test_every_count_and_percentile);
	RUN_TEST(test_ties);
	RUN_TEST(test_edges);
	return check_summary();
}
