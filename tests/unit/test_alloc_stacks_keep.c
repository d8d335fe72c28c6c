/* The stacks kept behind each site (model/alloc_stacks.c): the sites come
 * in the snapshot's order, each keeps its GT_ALLOC_STACKS_TOP largest
 * stacks whatever order the sampler's table gives them in, and shows them
 * largest first. The JFR reader and the agent's segment reader both fill
 * their tables this way. */
#include <stdlib.h>
#include <string.h>

#include "model/alloc_stacks.h"
#include "tests/unit/check.h"

static void sites_come_in_the_snapshots_order(void)
{
	static struct gt_alloc_snapshot snap;
	static struct gt_alloc_stacks out;
	memset(&snap, 0, sizeof(snap));
	snap.by_frame.n = 2;
	strcpy(snap.by_frame.sites[0].name, "Lab.keysHash");
	snap.by_frame.sites[0].bytes = 900;
	strcpy(snap.by_frame.sites[1].name, "Lab.lineFormat");
	snap.by_frame.sites[1].bytes = 100;
	out.n_sites = 7;
	gt_alloc_stacks_begin(&out, &snap);
	CHECK(out.n_sites == 2);
	CHECK_STR(out.sites[0].site, "Lab.keysHash");
	CHECK(out.sites[0].bytes == 900 && out.sites[0].n == 0 && out.sites[0].distinct == 0);
	CHECK_STR(out.sites[1].site, "Lab.lineFormat");
	CHECK(gt_alloc_stacks_find(&out, "Lab.lineFormat") == &out.sites[1]);
	/* more sites than a table holds: the first GT_ALLOC_SITES_MAX */
	snap.by_frame.n = GT_ALLOC_SITES_MAX + 3;
	gt_alloc_stacks_begin(&out, &snap);
	CHECK(out.n_sites == GT_ALLOC_SITES_MAX);
}

static void the_largest_stacks_stay_largest_first(void)
{
	struct gt_alloc_site_stacks site;
	memset(&site, 0, sizeof(site));
	/* 1..9 in a scrambled order: the five kept are 5..9 */
	static const uint64_t bytes[] = { 3, 9, 1, 7, 5, 2, 8, 4, 6 };
	unsigned kept = 0;
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		int k = gt_alloc_stacks_keep(&site, bytes[i], bytes[i] * 10);
		if (k >= 0) {
			kept++;
			CHECK(k < GT_ALLOC_STACKS_TOP && site.stacks[k].bytes == bytes[i]);
		}
	}
	CHECK(kept >= GT_ALLOC_STACKS_TOP && site.n == GT_ALLOC_STACKS_TOP);
	gt_alloc_stacks_sort(&site);
	for (unsigned k = 0; k < site.n; k++) {
		CHECK(site.stacks[k].bytes == 9 - k);
		CHECK(site.stacks[k].count == (9 - k) * 10);
	}
	/* no larger than the smallest kept: refused */
	CHECK(gt_alloc_stacks_keep(&site, 5, 1) == -1);
	CHECK(gt_alloc_stacks_keep(&site, 1, 1) == -1);
}

int main(void)
{
	RUN_TEST(sites_come_in_the_snapshots_order);
	RUN_TEST(the_largest_stacks_stay_largest_first);
	return check_summary();
}
