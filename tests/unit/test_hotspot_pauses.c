/* The HotSpot pause log: one entry per finished pause the tick saw. */
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "tests/unit/check.h"

static void test_log_counts_and_wraps(void)
{
	struct hotspot_pause_log l;
	memset(&l, 0, sizeof(l));
	for (uint64_t k = 0; k < GT_PAUSE_RING + 3; k++)
		hotspot_pause_log_add(&l, 1000 + k);
	CHECK_U64(l.count, GT_PAUSE_RING + 3);
	/* Pause k sits at k % GT_PAUSE_RING: the newest overwrote the oldest. */
	CHECK_U64(l.ns[0], 1000 + GT_PAUSE_RING);
	CHECK_U64(l.ns[2], 1000 + GT_PAUSE_RING + 2);
	CHECK_U64(l.ns[3], 1003);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_pause_log_fill(&l, &s);
	CHECK(s.pause_log.valid);
	CHECK_U64(s.pause_log.count, GT_PAUSE_RING + 3);
	CHECK_U64(s.pause_log.ns[(GT_PAUSE_RING + 2) % GT_PAUSE_RING], 1000 + GT_PAUSE_RING + 2);
}

/* Only a finished pause is logged: a collector whose entry is newer than its
 * exit is in a pause whose length is read when it ends. */
static void test_note_only_finished_pauses(void)
{
	struct hotspot_pause_log l;
	memset(&l, 0, sizeof(l));
	hotspot_pause_log_note(&l, 100, 250, 150);
	hotspot_pause_log_note(&l, 300, 250, 0);  /* under way */
	hotspot_pause_log_note(&l, 0, 0, 0);      /* never paused */
	hotspot_pause_log_note(&l, 400, 400, 0);  /* shorter than a tick of the clock */
	CHECK_U64(l.count, 2);
	CHECK_U64(l.ns[0], 150);
	CHECK_U64(l.ns[1], 0);
}

int main(void)
{
	RUN_TEST(test_log_counts_and_wraps);
	RUN_TEST(test_note_only_finished_pauses);
	return check_summary();
}
