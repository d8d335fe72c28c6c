/* Deadline arithmetic of the main loops: no drift, no bursts after a stall,
 * and no collector tick that only repeats the next sample's own poll. */
#include <stdint.h>

#include "session/deadline.h"
#include "tests/unit/check.h"

#define MS 1000000ull

static void test_next_does_not_drift(void)
{
	/* Drawing took 30 ms: the next deadline is still one interval on. */
	CHECK_U64(gt_deadline_next(1000 * MS, 1000 * MS, 1030 * MS), 2000 * MS);
}

static void test_next_skips_missed_deadlines(void)
{
	/* Suspended for 5 s: one sample now + interval, not five at once. */
	CHECK_U64(gt_deadline_next(1000 * MS, 1000 * MS, 6500 * MS), 7500 * MS);
}

static void test_timeout_rounds_up(void)
{
	CHECK(gt_deadline_timeout_ms(1000 * MS + 1, 1000 * MS) == 1);
	CHECK(gt_deadline_timeout_ms(1000 * MS, 1000 * MS) == 0);
	CHECK(gt_deadline_timeout_ms(900 * MS, 1000 * MS) == 0);
	CHECK(gt_deadline_timeout_ms(1250 * MS, 1000 * MS) == 250);
}

static void test_tick_far_from_sample_stays(void)
{
	CHECK_U64(gt_deadline_skip_poll_near_sample(1100 * MS, 1250 * MS, 100 * MS), 1100 * MS);
}

static void test_tick_just_before_sample_moves_past_it(void)
{
	/* Due 30 ms before the sample, which polls anyway. */
	CHECK_U64(gt_deadline_skip_poll_near_sample(1220 * MS, 1250 * MS, 100 * MS), 1350 * MS);
	/* A tick slower than the samples never fires between them. */
	CHECK_U64(gt_deadline_skip_poll_near_sample(2000 * MS, 1250 * MS, 1000 * MS), 2250 * MS);
}

static void test_never_stays_never(void)
{
	CHECK_U64(gt_deadline_skip_poll_near_sample(UINT64_MAX, 1250 * MS, 100 * MS), UINT64_MAX);
	CHECK_U64(gt_deadline_skip_poll_near_sample(1220 * MS, UINT64_MAX, 100 * MS), 1220 * MS);
	CHECK_U64(gt_deadline_skip_poll_near_sample(1220 * MS, 1250 * MS, 0), 1220 * MS);
}

int main(void)
{
	RUN_TEST(test_next_does_not_drift);
	RUN_TEST(test_next_skips_missed_deadlines);
	RUN_TEST(test_timeout_rounds_up);
	RUN_TEST(test_tick_far_from_sample_stays);
	RUN_TEST(test_tick_just_before_sample_moves_past_it);
	RUN_TEST(test_never_stays_never);
	return check_summary();
}
