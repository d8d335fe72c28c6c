/* The derive step: rates and shares from two crafted samples. */
#include <math.h>
#include <string.h>

#include "model/derive.h"
#include "tests/unit/check.h"

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
	CHECK(d.alloc_new_series);
	/* the next interval of the new series has its rate, unmarked */
	struct gt_sample c = b;
	c.mono_ns = 3000000000ull;
	gt_u64_set(&c.alloc_bytes_total, 900000000ull + 5000);
	gt_derive(&b, &c, &d);
	CHECK(!d.alloc_new_series);
	CHECK_NEAR(d.alloc_rate_bps.value, 5000, 1e-6);
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
	gt_u64_set(&a.opcount_total, 1000);
	gt_u64_set(&b.opcount_total, 1092);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.opcount_rate.value, 92.0, 1e-9);
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

/* The shape: half the bytes in arrays just over three 1 MiB
 * regions, counted in four. The estimate is an upper bound, over by at most
 * the tails' bound, and the objects' share lies between the two shares. */
static void test_humongous_whole_regions(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	const double mib = 1048576.0, objects = 10 * (3 * mib + 1024), small = objects;
	const double regions = 10 * 4 * mib, waste_max = regions / 2;
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, (uint64_t)(small + regions));
	gt_u64_set(&a.large_alloc_bytes_total, 0);
	gt_u64_set(&b.large_alloc_bytes_total, (uint64_t)regions);
	gt_u64_set(&a.large_waste_max_bytes_total, 0);
	gt_u64_set(&b.large_waste_max_bytes_total, (uint64_t)waste_max);
	gt_derive(&a, &b, &d);
	CHECK(d.alloc_upper_bound);
	CHECK(!d.alloc_lower_bound);
	CHECK_NEAR(d.alloc_excess_max_bps.value, waste_max, 1e-6);
	double truth = small + objects, share = objects / truth;
	CHECK(d.alloc_rate_bps.value >= truth && d.alloc_rate_bps.value - d.alloc_excess_max_bps.value <= truth);
	CHECK(d.large_alloc_share.value >= share && d.large_alloc_share_min.value <= share);
	CHECK_NEAR(d.large_alloc_share_min.value, (regions - waste_max) / (small + regions - waste_max), 1e-12);
	/* An interval without humongous allocation is no bound. */
	struct gt_sample c = b;
	c.mono_ns += 1000000000ull;
	c.alloc_bytes_total.value += 1000;
	gt_derive(&b, &c, &d);
	CHECK(!d.alloc_upper_bound);
	CHECK(!d.alloc_excess_max_bps.valid);
	/* The agent's exact total holds the objects' own bytes: no bound, and
	 * the regions never make a share above all of it. */
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_EXACT;
	b.alloc_bytes_total.value = (uint64_t)(0.1 * objects + objects);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_upper_bound);
	CHECK_NEAR(d.large_alloc_share.value, 1.0, 1e-12);
	CHECK(d.large_alloc_share_min.value <= objects / (1.1 * objects));
	/* The agent's samples replace the regions: a new series, no rate
	 * across the change; then the objects' bytes and measured tails. */
	b.large_source = "g1-humongous-sampled";
	b.large_waste_max_bytes_total.valid = false;
	gt_u64_set(&b.large_alloc_bytes_total, 5000);
	gt_u64_set(&b.large_waste_bytes_total, 1000);
	a.large_source = "g1-humongous-estimate";
	gt_derive(&a, &b, &d);
	CHECK(!d.large_alloc_rate_bps.valid && !d.large_alloc_share.valid && !d.large_waste_rate_bps.valid);
	c = b;
	c.mono_ns += 1000000000ull;
	c.alloc_bytes_total.value += 4000000;
	c.large_alloc_bytes_total.value += 2000000;
	c.large_waste_bytes_total.value += 600000;
	gt_derive(&b, &c, &d);
	CHECK_NEAR(d.large_alloc_share.value, 0.5, 1e-12);
	CHECK_NEAR(d.large_waste_rate_bps.value, 600000, 1e-6);
	CHECK(!d.large_alloc_share_min.valid && !d.alloc_upper_bound);
}

/* 256 KiB buffers in eden regions (collectors/hotspot/hotspot_alloc_estimate.h):
 * the eden tails' bound makes the estimate an upper bound, added to the
 * humongous tails' where both grew; never for an exact total. */
static void test_eden_tails_upper_bound(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, 4000000);
	gt_u64_set(&a.alloc_excess_max_bytes_total, 0);
	gt_u64_set(&b.alloc_excess_max_bytes_total, 1000000);
	gt_derive(&a, &b, &d);
	CHECK(d.alloc_upper_bound);
	CHECK_NEAR(d.alloc_excess_max_bps.value, 1000000, 1e-6);
	gt_u64_set(&a.large_alloc_bytes_total, 0);
	gt_u64_set(&b.large_alloc_bytes_total, 400000);
	gt_u64_set(&a.large_waste_max_bytes_total, 0);
	gt_u64_set(&b.large_waste_max_bytes_total, 200000);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.alloc_excess_max_bps.value, 1200000, 1e-6);
	/* No growth: no bound. */
	b.alloc_excess_max_bytes_total.value = 0;
	b.large_waste_max_bytes_total.value = 0;
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_upper_bound && !d.alloc_excess_max_bps.valid);
	b.alloc_excess_max_bytes_total.value = 1000000;
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_EXACT;
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_upper_bound);
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

/* Logs pause k as k_ns(k) for k in [from, to): what a collector would have
 * written by the time it had seen `to` pauses. */
static void log_pauses(struct gt_sample *s, uint64_t to, uint64_t (*k_ns)(uint64_t))
{
	s->pause_log.valid = true;
	s->pause_log.count = to;
	for (uint64_t k = to > GT_PAUSE_RING ? to - GT_PAUSE_RING : 0; k < to; k++)
		s->pause_log.ns[k % GT_PAUSE_RING] = k_ns(k);
}

static uint64_t one_to_hundred_ms(uint64_t k)
{
	return (k % 100 + 1) * 1000000ull; /* 1..100 ms, each once per hundred pauses */
}

static void test_pause_distribution_of_an_interval(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	log_pauses(&a, 300, one_to_hundred_ms);      /* pauses 0..299 before the interval */
	log_pauses(&b, 400, one_to_hundred_ms);      /* 300..399: 1..100 ms once each, in a wrapped ring */
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_count.value, 100);
	CHECK_U64(d.pause_p50_ns.value, 50000000ull);
	CHECK_U64(d.pause_p99_ns.value, 99000000ull);
	CHECK_U64(d.pause_max_ns.value, 100000000ull);
	CHECK(!d.pause_dist_partial);
}

static uint64_t one_long_among_short(uint64_t k)
{
	return k == 990 ? 900000000ull : 2000000ull + k;
}

static void test_pause_distribution_partial_and_small_windows(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	/* 300 pauses in the interval, more than the ring: the newest 256 only,
	 * (1000..1255), and the long pause 990 (the 35th, before them) is
	 * lost, which the partial mark says */
	log_pauses(&a, 956, one_long_among_short);
	log_pauses(&b, 1256, one_long_among_short);
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_count.value, 300);
	CHECK(d.pause_dist_partial);
	CHECK_U64(d.pause_max_ns.value, 2000000ull + 1255);
	CHECK_U64(d.pause_p50_ns.value, 2000000ull + 1000 + 127);
	/* one pause: every figure is that pause */
	log_pauses(&a, 990, one_long_among_short);
	log_pauses(&b, 991, one_long_among_short);
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_count.value, 1);
	CHECK_U64(d.pause_p50_ns.value, 900000000ull);
	CHECK_U64(d.pause_p99_ns.value, 900000000ull);
	CHECK_U64(d.pause_max_ns.value, 900000000ull);
	CHECK(!d.pause_dist_partial);
	/* two pauses: the median is the shorter (nearest rank), p99 the longer */
	log_pauses(&b, 992, one_long_among_short);
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_p50_ns.value, 2000000ull + 991);
	CHECK_U64(d.pause_p99_ns.value, 900000000ull);
	/* no pause in the interval: a count of 0 and no percentiles */
	log_pauses(&a, 992, one_long_among_short);
	gt_derive(&a, &b, &d);
	CHECK(d.pause_count.valid);
	CHECK_U64(d.pause_count.value, 0);
	CHECK(!d.pause_p50_ns.valid);
	CHECK(!d.pause_max_ns.valid);
}

static void test_pause_distribution_needs_a_log(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	/* a collector that times no single pause: n/a, not 0 */
	gt_derive(&a, &b, &d);
	CHECK(!d.pause_count.valid);
	CHECK(!d.pause_p99_ns.valid);
	/* the first sample has no interval */
	log_pauses(&b, 5, one_to_hundred_ms);
	gt_derive(NULL, &b, &d);
	CHECK(!d.pause_count.valid);
	/* a log that went backwards (a new session) gives no window */
	log_pauses(&a, 9, one_to_hundred_ms);
	gt_derive(&a, &b, &d);
	CHECK(!d.pause_count.valid);
	/* the same function serves longer windows: pauses 2..4 of b's log */
	struct gt_pause_dist w;
	gt_pause_dist(&b, 2, &w);
	CHECK_U64(w.count.value, 3);
	CHECK_U64(w.p50_ns.value, 4000000ull);
	CHECK_U64(w.max_ns.value, 5000000ull);
	gt_pause_dist(&b, 6, &w);
	CHECK(!w.count.valid);
}

/* .NET: totals as of the runtime's polls, which run on their own phase. */
static void at_poll(struct gt_sample *s, uint64_t total, double poll_s, double prev_poll_s, uint64_t prev_total)
{
	s->alloc_source = GT_ALLOC_SOURCE_EXACT;
	gt_u64_set(&s->alloc_bytes_total, total);
	s->alloc_at.valid = true;
	s->alloc_at.ns = (uint64_t)(poll_s * 1e9);
	s->alloc_at.prev_ns = (uint64_t)(prev_poll_s * 1e9);
	s->alloc_at.prev_total = prev_total;
}

static void test_alloc_rate_over_the_runtimes_intervals(void)
{
	struct gt_sample a = base_sample(10000000000ull), b = base_sample(11000000000ull);
	struct gt_derived d;
	/* samples at 10 s and 11 s; polls at 9.3, 10.3 (1 GB) and 10.8 (a
	 * shorter interval: 0.4 GB more): 1.4 GB over the 1.5 s between the
	 * polls, whatever the samples' phase */
	at_poll(&a, 1000000000ull, 9.3, 8.3, 0);
	at_poll(&b, 2400000000ull, 10.8, 10.3, 2000000000ull);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.alloc_rate_bps.value, 1.4e9 / 1.5, 1e-3);
	CHECK_NEAR(d.alloc_span_s.value, 1.5, 1e-9);
	/* the first figure: the sample before had none, so the last poll
	 * interval alone (0.4 GB in 0.5 s) */
	struct gt_sample none = base_sample(10000000000ull);
	none.alloc_source = GT_ALLOC_SOURCE_EXACT;
	none.alloc_at.valid = true;
	gt_derive(&none, &b, &d);
	CHECK_NEAR(d.alloc_rate_bps.value, 0.8e9, 1e-3);
	/* no poll between the samples: again the last poll interval, not 0 */
	gt_derive(&b, &b, &d);     /* same moment: no interval at all */
	CHECK(!d.alloc_rate_bps.valid);
	struct gt_sample c = b;
	c.mono_ns = 11500000000ull;
	gt_derive(&b, &c, &d);
	CHECK_NEAR(d.alloc_rate_bps.value, 0.8e9, 1e-3);
	/* requests are read as of the same polls and divide by their span */
	gt_u64_set(&a.opcount_total, 100);
	gt_u64_set(&b.opcount_total, 250);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.opcount_rate.value, 100.0, 1e-9);
	CHECK_NEAR(d.bytes_per_op.value, 1.4e9 / 150, 1e-6);
	/* a total as of the sample and one as of a poll are two series */
	struct gt_sample e = a;
	e.alloc_at.valid = false;
	gt_u64_set(&b.alloc_bytes_total, 2400000000ull);
	b.alloc_at.prev_total = 2400000000ull + 1; /* and a poll interval that went backwards */
	gt_derive(&e, &b, &d);
	CHECK(!d.alloc_rate_bps.valid);
}

/* Pause time by when it happened (pause_at): the interval's is the part
 * of the pauses between the two samples' moments, whatever the total of
 * the pauses read did; a share is never above 1. */
static void test_pause_share_by_when_pauses_happened(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	/* a 3 s pause read whole in this 1 s interval, of which 0.6 s fell in it */
	gt_u64_set(&a.pause_total_ns, 0);
	gt_u64_set(&b.pause_total_ns, 3000000000ull);
	b.pause_at = (struct gt_pause_at){ true, 1000000000ull, 3000000000ull, 2400000000ull, 0 };
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_ns.value, 600000000ull);
	CHECK_NEAR(d.pause_share.value, 0.6, 1e-12);
	/* samples not one after the other: both by the runtime's clock */
	struct gt_sample c = base_sample(4000000000ull);
	a.pause_at = (struct gt_pause_at){ true, 500000000ull, 100000000ull, 0, 0 };
	c.pause_at = (struct gt_pause_at){ true, 3000000000ull, 1600000000ull, 1500000000ull, 0 };
	gt_derive(&a, &c, &d);
	CHECK_U64(d.pause_ns.value, 1500000000ull);
	CHECK_NEAR(d.pause_share.value, 0.5, 1e-12);
	/* no pause_at: the total of the pauses read, and the last guard holds
	 * its share at 1 where the collector credited more than the interval
	 * (10 s after the host started: a 3 s pause fits in its time) */
	a = base_sample(9000000000ull), b = base_sample(10000000000ull);
	gt_u64_set(&a.pause_total_ns, 0);
	gt_u64_set(&b.pause_total_ns, 3000000000ull);
	gt_derive(&a, &b, &d);
	CHECK_U64(d.pause_ns.value, 3000000000ull);
	CHECK(d.pause_share.valid && d.pause_share.value <= 1.0);
	/* figures as of the same earlier moment as the sample before's (.NET's
	 * pause counter before it is 2.5 s old), nothing credited: no share */
	a.pause_at = (struct gt_pause_at){ false, 0, 0, 0, 500000000ull };
	b.pause_at = (struct gt_pause_at){ true, a.mono_ns, 0, 0, 500000000ull };
	gt_derive(&a, &b, &d);
	CHECK(!d.pause_ns.valid && !d.pause_share.valid);
	b.pause_at.ns = 1500000000ull;        /* a span of the runtime's time */
	gt_derive(&a, &b, &d);
	CHECK(d.pause_ns.valid && d.pause_ns.value == 0 && d.pause_share.valid);
}

/* The large objects' share, counted at the GCs with all the bytes they
 * count, is of those: one window, within [0, 1], where the LOH bytes of a
 * GC over the second's allocation rate read 7.07. */
static void test_large_share_of_the_bytes_counted_with_it(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, 10000000);          /* 10 MB/s */
	gt_u64_set(&a.large_alloc_bytes_total, 0);
	gt_u64_set(&b.large_alloc_bytes_total, 70700000);    /* a GC counted 70.7 MB of LOH */
	gt_u64_set(&a.large_alloc_of_total, 0);
	gt_u64_set(&b.large_alloc_of_total, 101000000);      /* of 101 MB since the GC before */
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.large_alloc_share.value, 0.7, 1e-12);
	CHECK_NEAR(d.large_alloc_rate_bps.value, 7e6, 1e-3);
	/* no GC in the interval: nothing counted, n/a rather than 0 */
	b.large_alloc_bytes_total = a.large_alloc_bytes_total;
	b.large_alloc_of_total = a.large_alloc_of_total;
	gt_derive(&a, &b, &d);
	CHECK(!d.large_alloc_share.valid);
	CHECK(!d.large_alloc_rate_bps.valid);
	/* counted as the allocation is (a JVM): the share of the rates, at most 1 */
	b.large_alloc_of_total.valid = a.large_alloc_of_total.valid = false;
	gt_u64_set(&b.large_alloc_bytes_total, 5000000);
	gt_derive(&a, &b, &d);
	CHECK_NEAR(d.large_alloc_share.value, 0.5, 1e-12);
}

/* A poll of the requests that has not arrived: the interval counts 0
 * operations with 0 bytes and 0 collections (all as of the same poll), and
 * the next its two polls' whole, rather than no figure for it. */
static void test_opcount_of_an_interval_without_a_new_poll(void)
{
	struct gt_sample a = base_sample(1000000000ull), b = base_sample(2000000000ull);
	struct gt_derived d;
	a.alloc_source = b.alloc_source = GT_ALLOC_SOURCE_EXACT;
	a.alloc_at.valid = b.alloc_at.valid = true;
	a.alloc_at.ns = b.alloc_at.ns = 700000000ull;
	a.alloc_at.prev_ns = b.alloc_at.prev_ns = 0;
	gt_u64_set(&a.alloc_bytes_total, 5000);
	b.alloc_bytes_total = a.alloc_bytes_total;
	gt_u64_set(&a.opcount_total, 40);
	b.opcount_total = a.opcount_total;
	gt_u64_set(&a.opcount_collections_total, 3);
	b.opcount_collections_total = a.opcount_collections_total;
	gt_derive(&a, &b, &d);
	CHECK(d.opcount.valid && d.opcount.value == 0);
	CHECK(d.opcount_alloc_bytes.valid && d.opcount_alloc_bytes.value == 0);
	CHECK(d.opcount_collections.valid && d.opcount_collections.value == 0);
	CHECK(!d.opcount_rate.valid);              /* no span for a rate */
	CHECK(!d.bytes_per_op.valid);
	struct gt_sample c = base_sample(3000000000ull);
	c.alloc_source = GT_ALLOC_SOURCE_EXACT;
	c.alloc_at = b.alloc_at;
	c.alloc_at.ns = 2700000000ull;
	gt_u64_set(&c.alloc_bytes_total, 85000);
	gt_u64_set(&c.opcount_total, 48);
	gt_u64_set(&c.opcount_collections_total, 5);
	gt_derive(&b, &c, &d);
	CHECK_U64(d.opcount.value, 8);
	CHECK_U64(d.opcount_alloc_bytes.value, 80000);
	CHECK_U64(d.opcount_collections.value, 2);
	CHECK_NEAR(d.opcount_rate.value, 4.0, 1e-9);
	CHECK_NEAR(d.bytes_per_op.value, 10000.0, 1e-9);
}

/* The plausibility rules (model/plausible.h, man page "Plausibility"):
 * for each, one figure just inside its bound that stays, and one outside
 * that is n/a, named with its rule. The host: 24 GiB, up 1000 s. */
#define HOST_MEM (24ull << 30)
#define UP_NS 1000000000000ull

static bool named(const struct gt_derived *d, const char *figure)
{
	for (unsigned i = 0; i < d->implausible.n; i++)
		if (strcmp(d->implausible.e[i].figure, figure) == 0 &&
		    strncmp(d->implausible.e[i].rule, GT_IMPLAUSIBLE ": ", strlen(GT_IMPLAUSIBLE) + 2) == 0)
			return true;
	return false;
}

static struct gt_sample host_sample(uint64_t mono_ns)
{
	struct gt_sample s = base_sample(mono_ns);
	gt_u64_set(&s.host_mem_total_bytes, HOST_MEM);
	return s;
}

/* Rule "in use": memory a process uses is memory the host has. */
static void test_rule_in_use_within_host_memory(void)
{
	struct gt_sample s = host_sample(UP_NS);
	struct gt_derived d;
	gt_u64_set(&s.heap_used_bytes, HOST_MEM);
	gt_u64_set(&s.rss_bytes, HOST_MEM);
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.heap_used_bytes.valid && d.cur.rss_bytes.valid && d.implausible.n == 0);
	gt_u64_set(&s.heap_used_bytes, HOST_MEM + 1);
	gt_u64_set(&s.rss_bytes, HOST_MEM + 1);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.heap_used_bytes.valid && named(&d, "memory.heap"));
	CHECK(!d.cur.rss_bytes.valid && named(&d, "memory.working_set_bytes"));
	/* the host's memory unknown (an old recording): no such rule */
	s.host_mem_total_bytes.valid = false;
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.heap_used_bytes.valid);
}

/* Rule "reserved": a committed or maximum size fits a process's address
 * space, though it may exceed the host's memory (overcommit). */
static void test_rule_reserved_within_address_space(void)
{
	struct gt_sample s = host_sample(UP_NS);
	struct gt_derived d;
	gt_u64_set(&s.heap_max_bytes, GT_PLAUSIBLE_ADDRESS_SPACE);
	gt_u64_set(&s.heap_committed_bytes, 4 * HOST_MEM);
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.heap_max_bytes.valid && d.cur.heap_committed_bytes.valid);
	gt_u64_set(&s.heap_max_bytes, (1ull << 63) - 1);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.heap_max_bytes.valid && named(&d, "memory.heap"));
	CHECK(d.cur.heap_committed_bytes.valid);
}

/* Rule "inversion": used <= committed <= max, else both n/a. */
static void test_rule_inversions(void)
{
	struct gt_sample s = host_sample(UP_NS);
	struct gt_derived d;
	gt_u64_set(&s.old_used_bytes, 100);
	gt_u64_set(&s.old_committed_bytes, 100);
	gt_u64_set(&s.old_max_bytes, 100);
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.old_used_bytes.valid && d.cur.old_committed_bytes.valid && d.cur.old_max_bytes.valid);
	gt_u64_set(&s.old_used_bytes, 101);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.old_used_bytes.valid && !d.cur.old_committed_bytes.valid && named(&d, "live_set.old"));
	struct gt_generation *g = &s.generations[0];
	gt_u64_set(&g->committed_bytes, 200);
	gt_u64_set(&g->max_bytes, 150);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.generations[0].committed_bytes.valid && !d.cur.generations[0].max_bytes.valid);
	CHECK(named(&d, "generations[].bytes"));
}

/* Rule for totals of bytes: no more than 4 TiB/s since the host started. */
static void test_rule_total_bytes_since_the_host_started(void)
{
	struct gt_sample s = host_sample(UP_NS);
	struct gt_derived d;
	uint64_t most = (uint64_t)(GT_PLAUSIBLE_BANDWIDTH_BPS * 1000);
	gt_u64_set(&s.alloc_bytes_total, most);
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.alloc_bytes_total.valid);
	gt_u64_set(&s.alloc_bytes_total, most * 2);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.alloc_bytes_total.valid && named(&d, "alloc.bytes_total"));
}

/* Rule for totals of time and of collections: no more time than the host
 * has been up, no more than one collection a microsecond of it. */
static void test_rule_totals_of_time_and_collections(void)
{
	struct gt_sample s = host_sample(UP_NS);
	struct gt_derived d;
	gt_u64_set(&s.pause_total_ns, UP_NS);
	gt_u64_set(&s.generations[1].collections, 1000000000ull);
	gt_derive(NULL, &s, &d);
	CHECK(d.cur.pause_total_ns.valid && d.cur.generations[1].collections.valid);
	gt_u64_set(&s.pause_total_ns, UP_NS + 1);
	gt_u64_set(&s.generations[1].collections, 1000000001ull);
	gt_derive(NULL, &s, &d);
	CHECK(!d.cur.pause_total_ns.valid && named(&d, "pause.total_s"));
	CHECK(!d.cur.generations[1].collections.valid && named(&d, "generations[].collections"));
}

/* Rule for GC CPU: no more than the kernel counts for the whole process
 * (and a second of slack for the two readings' moments). */
static void test_rule_gc_cpu_within_the_process(void)
{
	struct gt_sample a = host_sample(UP_NS), b = host_sample(UP_NS + 1000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.cpu_hz, 100);
	gt_u64_set(&b.cpu_hz, 100);
	gt_u64_set(&a.cpu_ticks, 1000);
	gt_u64_set(&b.cpu_ticks, 1100);
	gt_u64_set(&a.gc_cpu_ns, 5000000000ull);
	gt_u64_set(&b.gc_cpu_ns, 12000000000ull);   /* 11 s of the process's 10, the slack's second */
	gt_derive(&a, &b, &d);
	CHECK(d.gc_cpu_share.valid);
	gt_u64_set(&b.gc_cpu_ns, 12000000001ull);
	gt_derive(&a, &b, &d);
	CHECK(!d.gc_cpu_share.valid && named(&d, "pause.gc_cpu_share"));
}

/* Rule for the allocation rate: no faster than memory can be written. */
static void test_rule_alloc_rate_within_bandwidth(void)
{
	struct gt_sample a = host_sample(UP_NS), b = host_sample(UP_NS + 1000000000ull);
	struct gt_derived d;
	uint64_t bw = (uint64_t)GT_PLAUSIBLE_BANDWIDTH_BPS;
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, bw);
	gt_derive(&a, &b, &d);
	CHECK(d.alloc_rate_bps.valid && d.implausible.n == 0);
	gt_u64_set(&b.alloc_bytes_total, bw + 1024);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_rate_bps.valid && !d.alloc_span_s.valid && named(&d, "alloc.rate_bps"));
	/* an absurd earlier total gives no rate either */
	gt_u64_set(&a.alloc_bytes_total, UINT64_MAX - 1);
	gt_u64_set(&b.alloc_bytes_total, UINT64_MAX);
	gt_derive(&a, &b, &d);
	CHECK(!d.alloc_rate_bps.valid);
}

/* Rule for collections per minute: at most one a microsecond. */
static void test_rule_collections_per_interval(void)
{
	struct gt_sample a = host_sample(UP_NS), b = host_sample(UP_NS + 1000000000ull);
	struct gt_derived d;
	gt_u64_set(&a.generations[0].collections, 0);
	gt_u64_set(&b.generations[0].collections, 1000000);
	gt_derive(&a, &b, &d);
	CHECK(d.generations[0].per_minute.valid);
	gt_u64_set(&b.generations[0].collections, 1000001);
	gt_derive(&a, &b, &d);
	CHECK(!d.generations[0].per_minute.valid && !d.generations[0].collections.valid);
	CHECK(named(&d, "generations[].collections_per_min"));
}

/* Rules for operations: no more than 8-byte counter writes at the
 * bandwidth, and bytes per operation from bytes memory could take. */
static void test_rule_operations(void)
{
	struct gt_sample a = host_sample(UP_NS), b = host_sample(UP_NS + 1000000000ull);
	struct gt_derived d;
	uint64_t most = (uint64_t)GT_PLAUSIBLE_OPCOUNT_PER_S;
	gt_u64_set(&a.opcount_total, 0);
	gt_u64_set(&b.opcount_total, most);
	gt_u64_set(&a.alloc_bytes_total, 0);
	gt_u64_set(&b.alloc_bytes_total, 1u << 30);
	gt_derive(&a, &b, &d);
	CHECK(d.opcount_rate.valid && d.bytes_per_op.valid);
	gt_u64_set(&b.opcount_total, most + 1024);
	gt_derive(&a, &b, &d);
	CHECK(!d.opcount_rate.valid && !d.bytes_per_op.valid && named(&d, "ops.rate_per_s"));
	gt_u64_set(&b.opcount_total, 10);
	gt_u64_set(&b.alloc_bytes_total, (uint64_t)GT_PLAUSIBLE_BANDWIDTH_BPS + 1024);
	gt_derive(&a, &b, &d);
	CHECK(!d.bytes_per_op.valid && named(&d, "ops.bytes_per_op"));
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
	RUN_TEST(test_humongous_whole_regions);
	RUN_TEST(test_eden_tails_upper_bound);
	RUN_TEST(test_cpu_share_uses_hz);
	RUN_TEST(test_generations_matched_by_name);
	RUN_TEST(test_pause_distribution_of_an_interval);
	RUN_TEST(test_pause_distribution_partial_and_small_windows);
	RUN_TEST(test_pause_distribution_needs_a_log);
	RUN_TEST(test_alloc_rate_over_the_runtimes_intervals);
	RUN_TEST(test_pause_share_by_when_pauses_happened);
	RUN_TEST(test_large_share_of_the_bytes_counted_with_it);
	RUN_TEST(test_opcount_of_an_interval_without_a_new_poll);
	RUN_TEST(test_rule_in_use_within_host_memory);
	RUN_TEST(test_rule_reserved_within_address_space);
	RUN_TEST(test_rule_inversions);
	RUN_TEST(test_rule_total_bytes_since_the_host_started);
	RUN_TEST(test_rule_totals_of_time_and_collections);
	RUN_TEST(test_rule_gc_cpu_within_the_process);
	RUN_TEST(test_rule_alloc_rate_within_bandwidth);
	RUN_TEST(test_rule_collections_per_interval);
	RUN_TEST(test_rule_operations);
	return check_summary();
}
