/* The top-allocators derive step and window: rates, shares, exact scaling,
 * sites new in the interval, counter restarts. */
#include <stdio.h>
#include <string.h>

#include "model/allocators.h"
#include "tests/unit/check.h"

static struct gt_alloc_snapshot a, b;
static struct gt_alloc_derived out;
static struct gt_alloc_window win;

static void site(struct gt_alloc_table *t, const char *name, uint64_t bytes)
{
	struct gt_alloc_site *s = &t->sites[t->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->bytes = bytes;
}

static void snap(struct gt_alloc_snapshot *s, double t, uint64_t gen, uint64_t samples, uint64_t x, uint64_t y,
		 uint64_t z)
{
	memset(s, 0, sizeof(*s));
	s->mono_ns = (uint64_t)(t * 1e9);
	s->generation = gen;
	s->state = GT_SAMPLER_RUNNING;
	snprintf(s->source, sizeof(s->source), "jvmti-sampled");
	s->samples = samples;
	s->est_bytes = x + y + z;
	s->by_frame.complete = true;
	if (x)
		site(&s->by_frame, "Lab.siteA", x);
	if (y)
		site(&s->by_frame, "Lab.siteB", y);
	if (z)
		site(&s->by_frame, "Lab.siteC", z);
	s->by_type.complete = true;
	site(&s->by_type, "byte[]", x + y + z);
}

static const struct gt_f64 no_exact = { 0, false };

static void test_shares_and_rates(void)
{
	snap(&a, 10, 1, 100, 600, 300, 100);
	snap(&b, 12, 1, 300, 1800, 900, 300);
	gt_derive_allocators(&a, &b, 2.0, no_exact, &out);
	CHECK(out.valid);
	CHECK_U64(out.samples, 200);
	CHECK_NEAR(out.window_s, 2.0, 1e-9);
	CHECK_U64(out.n_frames, 3);
	CHECK_STR(out.by_frame[0].name, "Lab.siteA");
	CHECK_NEAR(out.by_frame[0].share.value, 0.6, 1e-9);
	CHECK_NEAR(out.by_frame[0].bytes_per_s.value, 600, 1e-9);
	CHECK_STR(out.by_frame[2].name, "Lab.siteC");
	CHECK_NEAR(out.by_frame[2].share.value, 0.1, 1e-9);
	CHECK_NEAR(out.sampled_bps.value, 1000, 1e-9);
	CHECK_U64(out.n_types, 1);
	CHECK_NEAR(out.by_type[0].share.value, 1.0, 1e-9);
}

/* Samples decide the split, the exact counter the size. */
static void test_exact_scales_rates(void)
{
	snap(&a, 0, 1, 0, 0, 0, 0);
	snap(&b, 1, 1, 10, 600, 300, 100);
	struct gt_f64 exact = { 5000, true };
	gt_derive_allocators(&a, &b, 1.0, exact, &out);
	CHECK(out.valid);
	CHECK_NEAR(out.by_frame[0].bytes_per_s.value, 3000, 1e-6);
	CHECK_NEAR(out.by_frame[1].bytes_per_s.value, 1500, 1e-6);
}

static void test_new_site_needs_complete_prev(void)
{
	snap(&a, 0, 1, 10, 600, 300, 0);
	snap(&b, 1, 1, 20, 1200, 600, 200);
	gt_derive_allocators(&a, &b, 1.0, no_exact, &out);
	CHECK_U64(out.n_frames, 3); /* prev complete: siteC counts from 0 */
	a.by_frame.complete = false;
	gt_derive_allocators(&a, &b, 1.0, no_exact, &out);
	CHECK_U64(out.n_frames, 2); /* prev partial: siteC's start is unknown, left out */
	CHECK_NEAR(out.by_frame[0].share.value, 600.0 / 1100.0, 1e-9);
}

static void test_restart_and_first(void)
{
	snap(&a, 0, 1, 10, 600, 300, 100);
	snap(&b, 1, 2, 5, 60, 30, 10);
	gt_derive_allocators(&a, &b, 1.0, no_exact, &out);
	CHECK(!out.valid);
	CHECK_STR(out.source, "jvmti-sampled");
	CHECK(out.state == GT_SAMPLER_RUNNING);
	gt_derive_allocators(NULL, &b, 1.0, no_exact, &out);
	CHECK(!out.valid);
	snap(&b, 1, 1, 5, 60, 30, 10); /* same generation but counters fell */
	gt_derive_allocators(&a, &b, 1.0, no_exact, &out);
	CHECK(!out.valid);
	snap(&b, 1, 1, 20, 700, 400, 200);
	gt_derive_allocators(&a, &b, 0.0, no_exact, &out);
	CHECK(!out.valid);
}

static void test_idle_sites_left_out(void)
{
	snap(&a, 0, 1, 10, 600, 300, 100);
	snap(&b, 1, 1, 12, 800, 300, 100);
	gt_derive_allocators(&a, &b, 1.0, no_exact, &out);
	CHECK_U64(out.n_frames, 1);
	CHECK_NEAR(out.by_frame[0].share.value, 1.0, 1e-9);
}

static void test_window(void)
{
	memset(&win, 0, sizeof(win));
	gt_alloc_window_derive(&win, GT_ALLOC_WINDOW_NS, &out);
	CHECK(!out.valid && out.state == GT_SAMPLER_OFF);
	for (int i = 0; i <= 20; i++) {
		snap(&a, i, 1, (uint64_t)i * 10, (uint64_t)i * 600, (uint64_t)i * 300, (uint64_t)i * 100);
		gt_u64_set(&a.exact_total, (uint64_t)i * 2000);
		gt_alloc_window_push(&win, &a);
	}
	const struct gt_alloc_snapshot *base = gt_alloc_window_base(&win, 10000000000ull);
	CHECK(base && base->mono_ns == 10000000000ull);
	gt_alloc_window_derive(&win, 10000000000ull, &out);
	CHECK(out.valid);
	CHECK_NEAR(out.window_s, 10.0, 1e-9);
	CHECK_U64(out.samples, 100);
	CHECK_NEAR(out.by_frame[0].bytes_per_s.value, 0.6 * 2000, 1e-6);
	/* A new generation starts the window over. */
	snap(&a, 21, 2, 1, 1, 1, 1);
	gt_alloc_window_push(&win, &a);
	CHECK(gt_alloc_window_base(&win, 10000000000ull) == NULL);
	gt_alloc_window_derive(&win, 10000000000ull, &out);
	CHECK(!out.valid);
}

/* The least share of the readings after the window's base: a reading's
 * samples were taken at its own share; the base's were taken before. */
static void test_window_least_share(void)
{
	static const double share[21] = { [5] = 0.05, [10] = 0.1, [15] = 0.25, [18] = 0.5 };
	memset(&win, 0, sizeof(win));
	for (int i = 0; i <= 20; i++) {
		snap(&a, i, 1, (uint64_t)i * 10, (uint64_t)i * 600, (uint64_t)i * 300, (uint64_t)i * 100);
		gt_f64_set(&a.sampled_share, share[i] > 0 ? share[i] : 1);
		gt_alloc_window_push(&win, &a);
	}
	gt_alloc_window_derive(&win, 10000000000ull, &out);
	CHECK(out.valid && out.sampled_share.valid);
	CHECK_NEAR(out.sampled_share.value, 0.25, 1e-12);
	gt_alloc_window_derive(&win, 3000000000ull, &out);   /* base 17: 18..20 */
	CHECK_NEAR(out.sampled_share.value, 0.5, 1e-12);
	snap(&a, 21, 1, 210, 12600, 6300, 2100);   /* a reading that does not say */
	gt_alloc_window_push(&win, &a);
	gt_alloc_window_derive(&win, 10000000000ull, &out);
	CHECK(out.valid && !out.sampled_share.valid);
	gt_derive_allocators(NULL, &a, 1.0, no_exact, &out);
	CHECK(!out.sampled_share.valid);
}

int main(void)
{
	RUN_TEST(test_shares_and_rates);
	RUN_TEST(test_exact_scales_rates);
	RUN_TEST(test_new_site_needs_complete_prev);
	RUN_TEST(test_restart_and_first);
	RUN_TEST(test_idle_sites_left_out);
	RUN_TEST(test_window);
	RUN_TEST(test_window_least_share);
	return check_summary();
}
