/* The census's headroom rule (model/census_cost.h) on crafted samples:
 * the cost from a runtime's measured model, the headroom as the least of
 * the container's and the host's, the verdict, and the sentences naming
 * both figures. */
#include <string.h>

#include "model/census_cost.h"
#include "tests/unit/check.h"

#define MIB (1024ull * 1024ull)

static const struct gt_census_memory dotnet_like = { .fixed_bytes = 16 * MIB, .per_live_percent = 100 };
static const struct gt_census_memory jvm_like = { .fixed_bytes = 16 * MIB, .per_live_percent = 2 };

static struct gt_sample sample(uint64_t heap, uint64_t limit, uint64_t working_set)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_u64_set(&s.heap_used_bytes, heap);
	gt_u64_set(&s.rss_bytes, heap + 50 * MIB);
	if (limit) {
		gt_u64_set(&s.cgroup_limit_bytes, limit);
		gt_u64_set(&s.cgroup_usage_bytes, working_set + 10 * MIB);
		gt_u64_set(&s.cgroup_working_set_bytes, working_set);
	}
	return s;
}

static struct gt_u64 host(uint64_t bytes)
{
	struct gt_u64 v = { 0 };
	gt_u64_set(&v, bytes);
	return v;
}

/* The review's case: ~490 MiB live, the container's limit 60 MiB above. */
static void test_too_little_headroom_is_refused(void)
{
	struct gt_sample s = sample(490 * MIB, 610 * MIB, 550 * MIB);
	struct gt_census_fit f;
	gt_census_fit_judge(&dotnet_like, &s, host(8192 * MIB), &f);
	CHECK(f.known);
	CHECK_U64(f.cost_bytes, 506 * MIB);
	CHECK_U64(f.headroom_bytes, 60 * MIB);
	CHECK_STR(f.headroom_what, "its container's memory limit less its working set");
	CHECK(!f.fits);
	char buf[512];
	gt_census_fit_refusal(&f, ".NET", 4242, buf, sizeof(buf));
	CHECK(strstr(buf, "a census would cost .NET process 4242 about 506 MiB of memory (for its 490 MiB of heap in "
			  "use), more than its headroom of 60 MiB (its container's memory limit less its working set)") !=
	      NULL);
	CHECK(strstr(buf, "--census-anyway") != NULL);
	gt_census_fit_figures(&f, buf, sizeof(buf));
	CHECK_STR(buf, "it costs about 506 MiB of its memory against 60 MiB of headroom (its container's memory limit "
		       "less its working set): it does not fit, and the kernel could kill the target for it");
}

static void test_room_enough_fits(void)
{
	struct gt_sample s = sample(1024 * MIB, 0, 0);
	struct gt_census_fit f;
	gt_census_fit_judge(&jvm_like, &s, host(2048 * MIB), &f);
	/* 16 MiB and 2 % of 1 GiB, rounded down to the byte */
	CHECK_U64(f.cost_bytes, 16 * MIB + 1024 * MIB / 100 * 2 + 1024 * MIB % 100 * 2 / 100);
	CHECK_U64(f.headroom_bytes, 2048 * MIB);
	CHECK_STR(f.headroom_what, "the host's available memory, MemAvailable");
	CHECK(f.fits);
}

/* The least of the two: a host with less available than the container's room. */
static void test_headroom_is_the_least(void)
{
	struct gt_sample s = sample(100 * MIB, 4096 * MIB, 1024 * MIB);
	struct gt_census_fit f;
	gt_census_fit_judge(&dotnet_like, &s, host(90 * MIB), &f);
	CHECK_U64(f.headroom_bytes, 90 * MIB);
	CHECK_STR(f.headroom_what, "the host's available memory, MemAvailable");
	CHECK(!f.fits);
	/* no working set: the usage; a usage past the limit: no room at all */
	s.cgroup_working_set_bytes.valid = false;
	s.cgroup_usage_bytes.value = 5000 * MIB;
	gt_census_fit_judge(&dotnet_like, &s, host(8192 * MIB), &f);
	CHECK_U64(f.headroom_bytes, 0);
	CHECK_STR(f.headroom_what, "its container's memory limit less its usage");
}

/* No heap figure: the resident set stands for it; no model or no figure
 * of room: nothing to judge by, so it fits. */
static void test_unknowns(void)
{
	struct gt_sample s = sample(100 * MIB, 0, 0);
	s.heap_used_bytes.valid = false;
	struct gt_census_fit f;
	gt_census_fit_judge(&dotnet_like, &s, host(100 * MIB), &f);
	CHECK_U64(f.live_bytes, 150 * MIB);
	CHECK_STR(f.live_what, "resident set");
	CHECK(!f.fits);
	gt_census_fit_judge(NULL, &s, host(1), &f);
	CHECK(!f.known);
	CHECK(f.fits);
	gt_census_fit_judge(&dotnet_like, &s, (struct gt_u64){ 0 }, &f);
	CHECK(!f.have_headroom);
	CHECK(f.fits);
}

/* A target's absurd heap figure holds the cost at UINT64_MAX, never wraps
 * it to a small one that would fit. */
static void test_absurd_heap_saturates(void)
{
	struct gt_sample s = sample(UINT64_MAX - 5, 0, 0);
	struct gt_census_fit f;
	gt_census_fit_judge(&dotnet_like, &s, host(UINT64_MAX - 1), &f);
	CHECK_U64(f.cost_bytes, UINT64_MAX);
	CHECK(!f.fits);
	struct gt_census_memory big = { .fixed_bytes = 1, .per_live_percent = 4000000000u };
	s.heap_used_bytes.value = UINT64_MAX / 100;
	gt_census_fit_judge(&big, &s, host(UINT64_MAX - 1), &f);
	CHECK_U64(f.cost_bytes, UINT64_MAX);
}

int main(void)
{
	RUN_TEST(test_too_little_headroom_is_refused);
	RUN_TEST(test_room_enough_fits);
	RUN_TEST(test_headroom_is_the_least);
	RUN_TEST(test_unknowns);
	RUN_TEST(test_absurd_heap_saturates);
	return check_summary();
}
