/* The growable array (base/array.h): doubling from the first size, new
 * slots zeroed, the old ones kept, and sizes that would overflow refused
 * with the array left as it was. */
#include <stdint.h>
#include <stdlib.h>

#include "base/array.h"
#include "tests/unit/check.h"

static void grows_by_doubling_and_zeroes_new_slots(void)
{
	int *v = NULL;
	size_t cap = 0;
	v = gt_array_grow(v, &cap, 1, sizeof(*v), 4);
	CHECK(v != NULL);
	CHECK_U64(cap, 4);
	for (size_t i = 0; i < cap; i++)
		CHECK_U64(v[i], 0);
	v[0] = 7;
	v[3] = 9;
	int *w = gt_array_grow(v, &cap, 5, sizeof(*v), 4);
	CHECK(w != NULL);
	CHECK_U64(cap, 8);
	CHECK_U64(w[0], 7);
	CHECK_U64(w[3], 9);
	for (size_t i = 4; i < cap; i++)
		CHECK_U64(w[i], 0);
	/* more than twice at once: doubled until it fits */
	w = gt_array_grow(w, &cap, 33, sizeof(*w), 4);
	CHECK_U64(cap, 64);
	free(w);
}

static void room_enough_changes_nothing(void)
{
	size_t cap = 0;
	char *v = gt_array_grow(NULL, &cap, 3, 1, 16);
	CHECK_U64(cap, 16);
	CHECK(gt_array_grow(v, &cap, 16, 1, 16) == v);
	CHECK_U64(cap, 16);
	free(v);
}

static void overflowing_sizes_are_refused(void)
{
	size_t cap = 0;
	char *v = gt_array_grow(NULL, &cap, 2, 8, 2);
	CHECK(v != NULL);
	size_t before = cap;
	CHECK(gt_array_grow(v, &cap, SIZE_MAX / 4, 8, 2) == NULL);
	CHECK_U64(cap, before);
	CHECK(gt_array_grow(v, &cap, SIZE_MAX, 1, 2) == NULL);
	CHECK_U64(cap, before);
	free(v);
}

int main(void)
{
	RUN_TEST(grows_by_doubling_and_zeroes_new_slots);
	RUN_TEST(room_enough_changes_nothing);
	RUN_TEST(overflowing_sizes_are_refused);
	return check_summary();
}
