/* Fuzz target: the perf-data parser and everything gctop derives from a
 * parsed buffer (counter resolution, sample and header filling, the
 * allocation estimator). Any input must be rejected or read without a
 * crash, an out-of-bounds access or undefined behaviour. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/hotspot/hotspot_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A mapping is page-aligned; give the parser the same alignment and
	 * exactly `size` readable bytes so ASan sees any overrun. */
	uint8_t *buf = aligned_alloc(8, size ? (size + 7) & ~(size_t)7 : 8);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	struct hsperf p;
	struct gt_error err;
	if (hsperf_init(&p, buf, size, "fuzz input", &err) != 0) {
		free(buf);
		return 0;
	}
	/* Unsigned: the sum of hostile counters wraps by definition instead of
	 * overflowing (which would be the harness's own undefined behaviour). */
	volatile uint64_t sink = 0;
	char text[128];
	for (size_t i = 0; i < p.count; i++) {
		const struct hsperf_entry *e = &p.entries[i];
		if (e->type == 'J') {
			int64_t v;
			if (hsperf_read_long(&p, e->name, &v) == 0)
				sink += (uint64_t)v;
		} else {
			hsperf_read_string_entry(&p, e, text, sizeof(text));
		}
	}
	hsperf_refresh(&p);

	struct hotspot_counters c;
	hotspot_counters_resolve(&c, &p);
	struct gt_target_info info;
	memset(&info, 0, sizeof(info));
	hotspot_info_fill(&p, c.gc, &info);
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	hotspot_counters_fill_sample(&p, &c, &s);
	hotspot_mx_fill(&c, &s);
	/* the durations from two polls of the same bytes, and the first */
	struct hotspot_durations d;
	memset(&d, 0, sizeof(d));
	hotspot_durations_note(&d, &c, false);
	hotspot_durations_note(&d, &c, true);
	hotspot_durations_fill(&d, &c, &s);

	struct hotspot_alloc_estimate a;
	hotspot_alloc_estimate_init(&a, c.gc == HOTSPOT_GC_G1 ? HOTSPOT_ALLOC_EDEN : HOTSPOT_ALLOC_HEAP_GROWTH,
				    c.gc == HOTSPOT_GC_G1);
	struct hotspot_alloc_reading r;
	hotspot_counters_alloc_reading(&p, &c, &r);
	hotspot_alloc_estimate_step(&a, &r);
	hotspot_alloc_estimate_step(&a, &r);
	sink += a.total_bytes;
	(void)sink;

	hsperf_free(&p);
	free(buf);
	return 0;
}
