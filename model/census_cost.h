/* What a census costs the target's memory, and whether the target has room
 * for it (issue 36): gctop takes a census only when its expected cost fits
 * the target's headroom, or when the user says --census-anyway (the
 * screen: y to a question that states both figures).
 *
 * The cost is what the runtime holds while it walks the heap, measured as
 * the target's resident set's peak rise over a census (bench/census.py,
 * bench/README.md section 4): a fixed part and a share of the live bytes.
 * The live bytes are the heap in
 * use (or, where the runtime gives none, the resident set, which holds it).
 * The headroom is the least of the container's memory limit less its
 * working set and the host's available memory (MemAvailable); a GC heap's
 * own limit (GCHeapHardLimit, -Xmx) does not bound it: what a census holds
 * is outside the collected heap. Pure. */
#ifndef GCTOP_MODEL_CENSUS_COST_H
#define GCTOP_MODEL_CENSUS_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/runtime.h"
#include "model/sample.h"

/* The two figures and the verdict. */
struct gt_census_fit {
	bool known;                 /* the runtime's cost is measured */
	uint64_t cost_bytes;
	uint64_t live_bytes;
	const char *live_what;      /* "heap in use", "resident set" */
	bool have_headroom;         /* false: neither a limit nor the host's figure was readable */
	uint64_t headroom_bytes;
	const char *headroom_what;  /* "the container's memory limit less its working set" */
	bool fits;                  /* cost <= headroom, or nothing to judge by */
};

/* The verdict for a census of the target s was sampled from, with the
 * host's available memory (invalid: unknown). m NULL: unmeasured. */
void gt_census_fit_judge(const struct gt_census_memory *m, const struct gt_sample *s,
			 struct gt_u64 host_available, struct gt_census_fit *out);

/* The refusal, one sentence naming both figures and --census-anyway:
 * "a census would cost .NET process 42 about 310 MiB of memory (...),
 * more than its headroom of 61 MiB (...); ...". display: the runtime's
 * name in sentences. */
void gt_census_fit_refusal(const struct gt_census_fit *f, const char *display, int pid, char *buf, size_t len);

/* The same figures for the screen's y/N question: "it costs about 310 MiB
 * of its memory against 61 MiB of headroom (...)", with ", more than
 * fits" when it does not. */
void gt_census_fit_figures(const struct gt_census_fit *f, char *buf, size_t len);

#endif
