/* What the JFR source makes of the JVM's own GC and allocation events,
 * on crafted event lists: the order events come in (a chunk's, not
 * time's), events read twice across a recording's renewal, threads that
 * end. */
#include <stdlib.h>

#include "collectors/hotspot/jfr/jfr_alloc_total.h"
#include "tests/unit/check.h"

#define S 1000000000ll /* one second in ns */

static void alloc_total_sums_threads_and_keeps_the_ended(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	CHECK(t.at_ns == 0);
	/* period 1: threads 1 and 2 */
	jfr_alloc_total_note(&t, 1, 100, 10 * S);
	jfr_alloc_total_note(&t, 2, 50, 10 * S);
	CHECK(t.total == 150 && t.at_ns == 10 * S && t.prev_ns == 0);
	/* period 2: thread 2 has ended, thread 3 began; 2's 50 stay */
	jfr_alloc_total_note(&t, 1, 300, 11 * S);
	jfr_alloc_total_note(&t, 3, 70, 11 * S);
	CHECK(t.total == 420);
	CHECK(t.prev_total == 150 && t.prev_ns == 10 * S && t.at_ns == 11 * S);
	/* the same period read again (the old and the new recording both
	 * wrote it, or a chunk read twice): nothing changes */
	jfr_alloc_total_note(&t, 1, 300, 11 * S);
	jfr_alloc_total_note(&t, 3, 70, 11 * S);
	CHECK(t.total == 420 && t.prev_total == 150 && t.at_ns == 11 * S);
	/* an event of an older period after a newer one: the total never goes down */
	jfr_alloc_total_note(&t, 1, 100, 10 * S);
	CHECK(t.total == 420 && t.at_ns == 11 * S);
	/* thread id 0 and the largest id are threads like any other */
	jfr_alloc_total_note(&t, 0, 5, 12 * S);
	jfr_alloc_total_note(&t, UINT64_MAX, 5, 12 * S);
	CHECK(t.total == 430 && t.prev_total == 420 && t.prev_ns == 11 * S);
	jfr_alloc_total_free(&t);
}

static void alloc_total_holds_many_threads_in_any_order(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	/* 10,000 threads, each period in a shuffled order */
	const uint64_t n = 10000;
	for (int64_t p = 1; p <= 3; p++)
		for (uint64_t k = 0; k < n; k++) {
			uint64_t id = (k * 7919) % n;
			jfr_alloc_total_note(&t, id, (uint64_t)p * (id + 1), p * S);
		}
	uint64_t want = 3 * (n * (n + 1) / 2);
	CHECK(t.total == want && t.used == n && t.threads_lost == 0);
	CHECK(t.prev_total == 2 * (n * (n + 1) / 2) && t.prev_ns == 2 * S);
	jfr_alloc_total_free(&t);
}

static void alloc_total_bounds_its_table(void)
{
	struct jfr_alloc_total t;
	jfr_alloc_total_init(&t);
	for (uint64_t k = 0; k < JFR_ALLOC_TOTAL_THREADS_KEPT + 10; k++)
		jfr_alloc_total_note(&t, k, 1, S);
	CHECK(t.used == JFR_ALLOC_TOTAL_THREADS_KEPT);
	CHECK(t.threads_lost == 10);
	CHECK(t.total == JFR_ALLOC_TOTAL_THREADS_KEPT);
	CHECK(t.cap <= 2 * JFR_ALLOC_TOTAL_THREADS_KEPT);
	/* a thread kept still rises */
	jfr_alloc_total_note(&t, 5, 11, 2 * S);
	CHECK(t.total == JFR_ALLOC_TOTAL_THREADS_KEPT + 10);
	jfr_alloc_total_free(&t);
}

int main(void)
{
	RUN_TEST(alloc_total_sums_threads_and_keeps_the_ended);
	RUN_TEST(alloc_total_holds_many_threads_in_any_order);
	RUN_TEST(alloc_total_bounds_its_table);
	return check_summary();
}
