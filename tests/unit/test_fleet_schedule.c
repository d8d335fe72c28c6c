/* The fleet's scheduling with --serve's policy (a round_ns): an idle
 * member is read at the rounds only, a collecting one at its own tick;
 * an open step asks for every member old enough, not a fixed batch, and
 * notes when the youngest will be; a listing comes no more often than once
 * a second; members are found by a binary search and a look at
 * those added since; and the fleet's look between rounds is due at its
 * own clock or when a member is old enough to open. No runtime is needed:
 * the pids are above the kernel's PID_MAX_LIMIT, so that none is a
 * process. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "session/fleet_internal.h"
#include "tests/unit/check.h"

#define NO_PROCESS (4194304 + 10)
#define SEC 1000000000ull

static void test_idle_ticks_at_rounds(void)
{
	uint64_t now = 50 * SEC;
	/* the picker (no round_ns): every collector at its own tick */
	CHECK_U64(gt_fleet_tick_after(SEC, 0, now), now + SEC);
	CHECK_U64(gt_fleet_tick_after(0, 0, now), FLEET_NEVER);
	/* --serve -d 15: the idle tick waits for the round, a collecting
	 * JVM's (a few ms, a quarter second while its eden moves) does not */
	CHECK_U64(gt_fleet_tick_after(FLEET_IDLE_TICK_NS, 15 * SEC, now), FLEET_NEVER);
	CHECK_U64(gt_fleet_tick_after(5000000, 15 * SEC, now), now + 5000000);
	CHECK_U64(gt_fleet_tick_after(SEC / 4, 15 * SEC, now), now + SEC / 4);
	/* -d 0.25: a tick no faster than the rounds is the rounds' */
	CHECK_U64(gt_fleet_tick_after(SEC / 4, SEC / 4, now), FLEET_NEVER);
	CHECK_U64(gt_fleet_tick_after(SEC / 8, SEC / 4, now), now + SEC / 8);
}

/* n members, not yet open, listed with a start that many ms ago */
static struct gt_fleet_member *members(size_t n, uint64_t age_ms)
{
	struct gt_fleet_member *m = calloc(n, sizeof(*m));
	uint64_t wall = (uint64_t)gt_wall_ms();
	for (size_t i = 0; m && i < n; i++) {
		m[i].pid = NO_PROCESS + (pid_t)i;
		m[i].seen = true;
		m[i].wait_fd = -1;
		gt_u64_set(&m[i].listed.start_time_ms, wall - age_ms);
	}
	return m;
}

static void test_open_every_candidate(void)
{
	struct gt_fleet f;
	memset(&f, 0, sizeof(f));
	f.policy.round_ns = SEC;
	f.policy.open_min_age_ms = 1000;
	f.count = 100;
	f.m = members(f.count, 5000);
	/* the youngest two started a moment ago: noted, not asked for */
	uint64_t wall = (uint64_t)gt_wall_ms();
	gt_u64_set(&f.m[10].listed.start_time_ms, wall - 200);
	gt_u64_set(&f.m[20].listed.start_time_ms, wall - 600);
	pid_t *pids = calloc(f.count, sizeof(*pids));
	uint64_t now = gt_mono_ns();
	CHECK_U64(gt_fleet_open_candidates(&f, now, pids, f.count), 98);
	CHECK_STR(f.m[10].note, "starting");
	/* the older of the two is old enough first: in about 0.4 s */
	CHECK(f.disc.next_open_ns > now + SEC / 4 && f.disc.next_open_ns <= now + SEC / 2);
	/* none starting: nothing to wait for */
	gt_u64_set(&f.m[10].listed.start_time_ms, wall - 5000);
	gt_u64_set(&f.m[20].listed.start_time_ms, wall - 5000);
	CHECK_U64(gt_fleet_open_candidates(&f, now, pids, f.count), 100);
	CHECK_U64(f.disc.next_open_ns, FLEET_NEVER);
	free(pids);
	free(f.m);
}

static void test_find_sorted_and_added(void)
{
	struct gt_fleet f;
	memset(&f, 0, sizeof(f));
	f.count = 40;
	f.m = members(f.count, 5000);
	/* the first 30 in pid order (a prune), then 10 added since, unsorted */
	f.n_sorted = 30;
	for (size_t i = 30; i < 40; i++)
		f.m[i].pid = NO_PROCESS + 1000 - (pid_t)i;
	for (size_t i = 0; i < 40; i++)
		CHECK(gt_fleet_find(&f, f.m[i].pid) == &f.m[i]);
	CHECK(gt_fleet_find(&f, NO_PROCESS + 500) == NULL);
	CHECK(gt_fleet_find(&f, 1) == NULL);
	free(f.m);
}

static void test_listing_spaced(void)
{
	struct gt_fleet_policy p = { .list_on_change = true, .round_ns = SEC };
	struct gt_fleet_discovery d;
	memset(&d, 0, sizeof(d));
	/* a /tmp of its own, empty: no change after the first look */
	char root[] = "/tmp/gctop-unit-fleet-schedule.XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	d.tmp.root = root;
	uint64_t now = 100 * SEC;
	CHECK(gt_fleet_listing_due(&p, &d, now));
	CHECK(!gt_fleet_listing_due(&p, &d, now + FLEET_SWEEP_NS));
	/* a .NET socket came: a listing at each look while it settles, but
	 * not sooner than a second apart */
	d.changed_ns = now;
	CHECK(!gt_fleet_listing_due(&p, &d, now + FLEET_WATCH_NS));
	CHECK(gt_fleet_listing_due(&p, &d, now + FLEET_SWEEP_NS));
	/* the picker's policy lists every round */
	struct gt_fleet_policy every = { .list_on_change = false };
	CHECK(gt_fleet_listing_due(&every, &d, now + FLEET_SWEEP_NS + 1));
	gt_fleet_tmp_free(&d.tmp);
	rmdir(root);
}

static void test_watch_due(void)
{
	struct gt_fleet f;
	memset(&f, 0, sizeof(f));
	f.disc.next_open_ns = FLEET_NEVER;
	f.disc.next_watch_ns = 100 * SEC;
	/* no round_ns: the holder's rounds do everything */
	CHECK_U64(gt_fleet_next_watch_ns(&f), FLEET_NEVER);
	CHECK(!gt_fleet_watch(&f, 101 * SEC));
	f.policy.round_ns = 15 * SEC;
	f.policy.list_on_change = true;
	CHECK_U64(gt_fleet_next_watch_ns(&f), 100 * SEC);
	/* a member old enough before the next look: then */
	f.disc.next_open_ns = 99 * SEC;
	CHECK_U64(gt_fleet_next_watch_ns(&f), 99 * SEC);
	/* ... unless the worker is busy: its end chains the opens */
	f.disc.run.running = true;
	CHECK_U64(gt_fleet_next_watch_ns(&f), 100 * SEC);
	f.disc.run.running = false;
	/* a look (/tmp of its own, unchanged; listed a moment ago): what
	 * changed is published once, and the next look is FLEET_WATCH_NS later */
	char root[] = "/tmp/gctop-unit-fleet-watch.XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	f.disc.tmp.root = root;
	f.disc.tmp_stamp = gt_fleet_tmp_stamp(&f.disc.tmp);
	f.disc.next_open_ns = FLEET_NEVER;
	f.disc.listed_ns = 100 * SEC;
	f.changed = true;
	CHECK(!gt_fleet_watch(&f, 99 * SEC));
	CHECK(gt_fleet_watch(&f, 100 * SEC));
	CHECK_U64(f.disc.next_watch_ns, 100 * SEC + FLEET_WATCH_NS);
	CHECK(!gt_fleet_watch(&f, 100 * SEC + FLEET_WATCH_NS));
	/* no listing was asked for: nothing new in /tmp */
	CHECK(!f.disc.run.running);
	gt_fleet_free(&f);
	rmdir(root);
}

int main(void)
{
	RUN_TEST(test_idle_ticks_at_rounds);
	RUN_TEST(test_open_every_candidate);
	RUN_TEST(test_find_sorted_and_added);
	RUN_TEST(test_listing_spaced);
	RUN_TEST(test_watch_due);
	return check_summary();
}
