/* The HotSpot pause log: one entry per finished pause the tick saw. */
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"
#include "model/pause_hist.h"
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

/* ---- each collector's durations (hotspot_durations.c) ---- */

/* One collector's counters, written as the JVM writes them; ticks are ns. */
struct fake_collector {
	int64_t invocations, time, entry, exit;
};

static void fake_counters(struct hotspot_counters *c, struct fake_collector *k, enum hotspot_gc gc)
{
	memset(c, 0, sizeof(*c));
	c->gc = gc;
	c->frequency = 1000000000;
	c->collector[1] = (struct hotspot_collector_counters){ NULL, &k->invocations, &k->time, &k->entry, &k->exit };
}

/* A pause the JVM ran: count and entry stamp, then exit stamp and time. */
static void fake_pause(struct fake_collector *k, int64_t at, int64_t ns)
{
	k->invocations++;
	k->entry = at;
	k->exit = at + ns;
	k->time += ns;
}

/* Pauses of h up to OpenTelemetry's bound k (0.01, 0.1, 1, 10 s), as the
 * exporter writes them by default. */
static uint64_t bucket_cum(const struct gt_duration_hist *h, unsigned k)
{
	return gt_duration_hist_upto(h, &gt_duration_bounds_otel, k);
}

/* A pause seen alone is timed by its stamps; several between two polls are
 * the newest by its stamps and the others at their mean; the count and sum
 * are the counters' deltas since the first poll; pauses before it (the
 * open) are not counted; a pause under way waits for its end. */
static void test_durations_one_by_one_and_merged(void)
{
	struct fake_collector k = { 0 };
	struct hotspot_counters c;
	struct hotspot_durations d;
	memset(&d, 0, sizeof(d));
	fake_counters(&c, &k, HOTSPOT_GC_G1);
	fake_pause(&k, 1000, 20000000000ll);           /* before gctop: 20 s */
	hotspot_durations_note(&d, &c, false);
	CHECK(!d.hist[1].valid);
	hotspot_durations_note(&d, &c, true);
	CHECK(d.hist[1].valid);
	CHECK_U64(d.hist[1].count, 0);
	fake_pause(&k, 30000000000ll, 5000000);         /* 5 ms */
	hotspot_durations_note(&d, &c, true);
	CHECK_U64(d.hist[1].count, 1);
	CHECK_U64(bucket_cum(&d.hist[1], 0), 1);
	/* three between two polls: 200 ms and 400 ms, then the newest 2 s */
	fake_pause(&k, 31000000000ll, 200000000);
	fake_pause(&k, 32000000000ll, 400000000);
	fake_pause(&k, 33000000000ll, 2000000000);
	hotspot_durations_note(&d, &c, true);
	CHECK_U64(d.hist[1].count, 4);
	CHECK_U64(bucket_cum(&d.hist[1], 0), 1);
	CHECK_U64(bucket_cum(&d.hist[1], 1), 1);
	CHECK_U64(bucket_cum(&d.hist[1], 2), 3);       /* the two at their mean, 300 ms */
	CHECK_U64(bucket_cum(&d.hist[1], 3), 4);       /* the newest, 2 s */
	CHECK_U64(d.hist[1].sum_ns, 2605000000ull);
	CHECK_U64(d.hist[1].merged, 2);
	/* under way: counted once it has ended */
	k.invocations++;
	k.entry = 40000000000ll;
	hotspot_durations_note(&d, &c, true);
	CHECK_U64(d.hist[1].count, 4);
	k.exit = k.entry + 50000000;
	k.time += 50000000;
	hotspot_durations_note(&d, &c, true);
	CHECK_U64(d.hist[1].count, 5);
	CHECK_U64(bucket_cum(&d.hist[1], 1), 2);

	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	s.n_collectors = 1;
	hotspot_durations_fill(&d, &c, &s);
	CHECK_U64(s.collectors[0].durations.count, 5);
}

/* Back to back, every poll inside a pause: each pause is timed by the entry
 * stamp the poll read while it was under way and its exit read at the next,
 * not merged at a mean (measured: Parallel's full collections on JDK 25,
 * 3 of 11 in the wrong bucket when merged). */
static void test_durations_back_to_back(void)
{
	struct fake_collector k = { 0 };
	struct hotspot_counters c;
	struct hotspot_durations d;
	memset(&d, 0, sizeof(d));
	fake_counters(&c, &k, HOTSPOT_GC_PARALLEL);
	hotspot_durations_note(&d, &c, false);
	static const int64_t ms[] = { 50, 150, 60, 140, 80 };
	int64_t at = 1000000000;
	for (unsigned i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		/* the pause starts, a poll sees it under way */
		k.invocations++;
		k.entry = at;
		hotspot_durations_note(&d, &c, true);
		/* it ends; the next starts before the next poll */
		k.exit = at + ms[i] * 1000000;
		k.time += ms[i] * 1000000;
		at = k.exit + 1000;
	}
	k.invocations++;
	k.entry = at;
	hotspot_durations_note(&d, &c, true);
	CHECK_U64(d.hist[1].count, 5);
	CHECK_U64(bucket_cum(&d.hist[1], 1), 3);   /* 50, 60, 80 ms; at their mean (96 ms) all five would be */
	CHECK_U64(d.hist[1].sum_ns, 480000000ull);
	CHECK_U64(d.hist[1].merged, 0);
}

/* Shenandoah's stamps and time bracket concurrent phases: no durations. */
static void test_durations_not_for_shenandoah(void)
{
	struct fake_collector k = { 0 };
	struct hotspot_counters c;
	struct hotspot_durations d;
	memset(&d, 0, sizeof(d));
	fake_counters(&c, &k, HOTSPOT_GC_SHENANDOAH);
	hotspot_durations_note(&d, &c, false);
	fake_pause(&k, 1000, 5000000);
	hotspot_durations_note(&d, &c, true);
	CHECK(!d.hist[1].valid);
}

int main(void)
{
	RUN_TEST(test_log_counts_and_wraps);
	RUN_TEST(test_note_only_finished_pauses);
	RUN_TEST(test_durations_one_by_one_and_merged);
	RUN_TEST(test_durations_back_to_back);
	RUN_TEST(test_durations_not_for_shenandoah);
	return check_summary();
}
