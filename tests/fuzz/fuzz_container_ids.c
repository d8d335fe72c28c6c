/* libFuzzer target for the container and pod ids read from a target's
 * /proc/PID/cgroup (collectors/host/container_ids.c): the text is the
 * target's to shape, and what comes out becomes a Prometheus label, so
 * each id is either empty or exactly the shape the parser promises. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/host/container_ids.h"

static void require(int ok)
{
	if (!ok)
		abort();
}

static int hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static void check_container_id(const char *id)
{
	size_t n = strnlen(id, GT_CONTAINER_ID_LEN + 1);
	require(n == 0 || n == GT_CONTAINER_ID_LEN);
	for (size_t i = 0; i < n; i++)
		require(hex(id[i]));
}

static void check_pod_uid(const char *uid)
{
	size_t n = strnlen(uid, GT_POD_UID_LEN + 1);
	require(n == 0 || n == GT_POD_UID_LEN);
	for (size_t i = 0; i < n; i++)
		require((i == 8 || i == 13 || i == 18 || i == 23) ? uid[i] == '-' : hex(uid[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy, so ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct gt_container_ids ids;
	memset(&ids, 'x', sizeof(ids));
	gt_container_ids_parse(text, size, &ids);
	check_container_id(ids.container_id);
	check_pod_uid(ids.pod_uid);
	/* The whole input as one group's path, as gctop reads it now. */
	memset(&ids, 'x', sizeof(ids));
	gt_container_ids_from_path(text, size, &ids);
	check_container_id(ids.container_id);
	check_pod_uid(ids.pod_uid);
	free(text);
	return 0;
}
