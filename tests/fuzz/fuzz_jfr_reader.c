/* Fuzz target for the JFR chunk reader (collectors/hotspot/jfr/): the
 * input is a chunk, opened with the default limits and again with tight
 * ones (so the limits' own paths run), and every event is read through
 * the paths gctop's JFR source reads (strings, integers, times, counts,
 * references, stack frames by index), as a chunk a target's user wrote
 * could make it. The header alone is read too. The bytes are copied to a
 * buffer of their exact size, so a read past them trips ASan. */
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/jfr/jfr_reader.h"

static const char *const string_paths[] = {
	"objectClass.name", "eventThread.javaName", "name", "when", "cause",
	"stackTrace.frames[0].method.type.name", "stackTrace.frames[0].method.name",
};
static const char *const int_paths[] = { "weight", "gcId", "heapUsed", "allocated", "stackTrace.frames[1].lineNumber" };
static const char *const ns_paths[] = { "startTime", "duration", "sumOfPauses", "longestPause" };
enum { FUZZ_FRAMES = 4 };

static void fuzz_event(const struct gt_jfr_event *ev)
{
	struct gt_error err;
	char s[64];
	int64_t v;
	double d;
	uint32_t n;
	uint64_t key;
	for (size_t i = 0; i < sizeof(string_paths) / sizeof(string_paths[0]); i++)
		gt_jfr_get_string(&ev->value, string_paths[i], s, sizeof(s), &err);
	for (size_t i = 0; i < sizeof(int_paths) / sizeof(int_paths[0]); i++) {
		gt_jfr_get_int(&ev->value, int_paths[i], &v, &err);
		gt_jfr_get_double(&ev->value, int_paths[i], &d, &err);
	}
	for (size_t i = 0; i < sizeof(ns_paths) / sizeof(ns_paths[0]); i++)
		gt_jfr_get_ns(&ev->value, ns_paths[i], &v, &err);
	gt_jfr_get_ref(&ev->value, "stackTrace", &key, &err);
	if (gt_jfr_get_count(&ev->value, "stackTrace.frames", &n, &err) == GT_JFR_OK) {
		char path[64];
		for (uint32_t i = 0; i < n && i < FUZZ_FRAMES; i++) {
			struct gt_jfr_value frame;
			snprintf(path, sizeof(path), "stackTrace.frames[%u]", i);
			if (gt_jfr_get(&ev->value, path, &frame, &err) == GT_JFR_OK) {
				gt_jfr_get_string(&frame, "method.type.name", s, sizeof(s), &err);
				gt_jfr_get_int(&frame, "lineNumber", &v, &err);
				gt_jfr_value_type(&frame);
			}
		}
	}
}

static void fuzz_chunk(const uint8_t *p, size_t n, const struct gt_jfr_limits *lim)
{
	struct gt_jfr_reader *r = NULL;
	struct gt_error err;
	if (gt_jfr_open(p, n, lim, &r, &err) != GT_JFR_OK)
		return;
	uint64_t id;
	gt_jfr_type_id(r, "jdk.ObjectAllocationSample", &id);
	struct gt_jfr_event ev;
	size_t first = 0;
	while (gt_jfr_next(r, &ev, &err) == GT_JFR_OK) {
		if (!first)
			first = gt_jfr_position(r);
		fuzz_event(&ev);
	}
	/* going on from a place given before reads the same events again */
	if (first && gt_jfr_seek(r, first, &err) == GT_JFR_OK)
		while (gt_jfr_next(r, &ev, &err) == GT_JFR_OK)
			;
	struct gt_jfr_stats st;
	gt_jfr_stats(r, &st);
	if (st.bytes_held > gt_jfr_memory_bound(lim))
		abort();
	gt_jfr_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);
	if (!p)
		return 0;
	memcpy(p, data, size);
	struct gt_jfr_header h;
	struct gt_error err;
	gt_jfr_header_read(p, size, &h, &err);
	fuzz_chunk(p, size, NULL);
	struct gt_jfr_limits tight = gt_jfr_default_limits;
	tight.max_strings = 512;
	tight.max_elements = 4096;
	tight.max_classes = 64;
	tight.max_fields = 512;
	tight.max_pool_entries = 256;
	tight.max_checkpoints = 4;
	tight.max_string_bytes = 16;
	tight.max_depth = 4;
	tight.max_metadata_bytes = 64 << 10;
	fuzz_chunk(p, size, &tight);
	free(p);
	return 0;
}
