/* Findings: what the figures of a session mean, as verdicts a person can act
 * on ("GC pauses took 12% of the worst minute"), each with its evidence (the
 * named figures and the window they cover) and one next step.
 *
 * Pure: the newest derived sample and the history in, the findings out; no
 * clock, no I/O. A rule whose figures are n/a says nothing: a finding never
 * comes from a missing figure. The thresholds are the named constants of
 * findings.c, each with its source; man/gctop.1 (FINDINGS) lists them. */
#ifndef GCTOP_MODEL_FINDINGS_H
#define GCTOP_MODEL_FINDINGS_H

#include <stdbool.h>

#include "model/derive.h"
#include "model/history.h"
#include "model/sample.h"

enum gt_severity {
	GT_SEVERITY_NONE = 0,     /* no finding */
	GT_SEVERITY_INFO,
	GT_SEVERITY_WARNING,
	GT_SEVERITY_CRITICAL,
};

/* How an evidence figure is written; its key names the unit too. */
enum gt_evidence_unit {
	GT_EVIDENCE_COUNT = 0,
	GT_EVIDENCE_SHARE,        /* 0..1, written as a percentage in text */
	GT_EVIDENCE_SECONDS,
	GT_EVIDENCE_MILLIS,
	GT_EVIDENCE_BYTES,
	GT_EVIDENCE_RATIO,        /* a plain number with fractions: collections per operation */
	GT_EVIDENCE_UNIX_MS,      /* a moment, ms since the epoch: written as UTC time in text */
};

struct gt_evidence {
	const char *key;          /* the JSON key: "pause_share", "window_s" ... */
	enum gt_evidence_unit unit;
	double value;
};

#define GT_FINDING_TITLE_LEN 160
#define GT_FINDING_ADVICE_LEN 448
#define GT_FINDING_EVIDENCE_MAX 6
#define GT_FINDINGS_MAX 12

struct gt_finding {
	const char *id;           /* stable: "pause-share", "long-pause" ... */
	enum gt_severity severity;
	char title[GT_FINDING_TITLE_LEN];
	unsigned n_evidence;
	struct gt_evidence evidence[GT_FINDING_EVIDENCE_MAX];
	/* The runtime's own word for why (long-pause: the GC cause or reason
	 * of the collection), sanitised; "" when there is none. */
	char cause[GT_NAME_LEN];
	/* One next step in the runtime's words (model/findings_advice.h):
	 * advice names options (-b, --json, --doctor), advice_keys the
	 * full-screen view's keys. */
	char advice[GT_FINDING_ADVICE_LEN];
	char advice_keys[GT_FINDING_ADVICE_LEN];
};

struct gt_findings {
	const struct gt_runtime_traits *runtime;  /* whose words the advice is in, or NULL */
	unsigned count;
	struct gt_finding items[GT_FINDINGS_MAX];   /* worst first */
	enum gt_severity worst;
};

/* What a holder of many processes keeps of a finding: which one holds and
 * how bad (id is the finding's own static string). */
struct gt_finding_brief {
	const char *id;
	enum gt_severity severity;
};

/* Applies every rule to the session's figures: d is the newest derived
 * sample (NULL: none yet, no findings), h its history (may be NULL). */
void gt_findings_compute(const struct gt_target_info *info, const struct gt_derived *d, const struct gt_history *h,
			 struct gt_findings *out);

/* "info", "warning", "critical" ("none" for GT_SEVERITY_NONE). */
const char *gt_severity_name(enum gt_severity s);

/* The size of the regions a large object takes whole in runtime rt's heap
 * (model/runtime.h regions: G1's): the size its flag sets in heap_flags,
 * else the runtime's own choice from the heap max; 0 when neither is
 * known or the runtime's heap has no such regions. */
uint64_t gt_findings_region_bytes(const struct gt_runtime_traits *rt, const char *heap_flags, struct gt_u64 heap_max);

#endif
