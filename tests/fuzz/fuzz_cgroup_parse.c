/* libFuzzer target for the cgroup text parsers (collectors/host/cgroup_parse.c).
 * Every parser sees the same bytes, since any file may come back in any
 * shape (a group deleted mid-read, a kernel with other fields); the results
 * are checked against what each parser promises. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/host/cgroup_parse.h"

static void require(int ok)
{
	if (!ok)
		abort();
}

static void check_path(bool has, const char *path)
{
	if (!has)
		return;
	size_t n = strnlen(path, GT_CGROUP_PATH_MAX);
	require(n > 0 && n < GT_CGROUP_PATH_MAX && path[0] == '/');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy, so ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);

	struct gt_cgroup_membership m;
	int rc = gt_cgroup_parse_membership(text, size, &m);
	require(rc == ((m.has_v1_memory || m.has_v2) ? 0 : -1));
	check_path(m.has_v1_memory, m.v1_memory_path);
	check_path(m.has_v2, m.v2_path);

	uint64_t v = 0;
	enum gt_cgroup_limit limit = gt_cgroup_parse_limit(text, size, &v);
	require(limit != GT_CGROUP_LIMIT_SET || v < GT_CGROUP_V1_UNLIMITED_MIN);
	(void)gt_cgroup_parse_u64(text, size, &v);

	static const char *const keys[] = {
		"inactive_file", "total_inactive_file", "hierarchical_memory_limit", "oom_kill",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		(void)gt_cgroup_parse_keyed(text, size, keys[i], &v);

	/* a line holds one byte at least, so no more lines than bytes */
	require(gt_cgroup_parse_count_lines(text, size) <= size);

	double pct = -1;
	if (gt_cgroup_parse_psi_some_avg10(text, size, &pct) == 0)
		require(pct >= 0.0 && pct <= 100.0);

	free(text);
	return 0;
}
