/* Errors that reach the user (base/error.h): gt_fail's sentence and status,
 * and gt_calloc's zeroed object. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "tests/unit/check.h"

static void fail_sets_sentence_and_status(void)
{
	struct gt_error err = { 0 };
	CHECK(gt_fail(&err, GT_EXIT_NO_DATA, "process %d has %s", 42, "none") == -1);
	CHECK_U64(err.code, GT_EXIT_NO_DATA);
	CHECK_STR(err.msg, "process 42 has none");
	/* no error wanted: still -1 */
	CHECK(gt_fail(NULL, GT_EXIT_FAILURE, "ignored") == -1);
}

static void calloc_gives_a_zeroed_object(void)
{
	struct gt_error err = { GT_EXIT_OK, "" };
	unsigned char *p = gt_calloc(256, &err);
	CHECK(p != NULL);
	if (!p)
		return;
	size_t nonzero = 0;
	for (size_t i = 0; i < 256; i++)
		nonzero += p[i] != 0;
	CHECK_U64(nonzero, 0);
	CHECK_STR(err.msg, "");
	free(p);
}

int main(void)
{
	RUN_TEST(fail_sets_sentence_and_status);
	RUN_TEST(calloc_gives_a_zeroed_object);
	return check_summary();
}
