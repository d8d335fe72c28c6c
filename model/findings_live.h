/* The live-set-growth rule's verdict (model/findings.c adds the finding):
 * whether the live set grows steadily enough to call it, and how badly.
 * Pure: the live set's figures in. */
#ifndef GCTOP_MODEL_FINDINGS_LIVE_H
#define GCTOP_MODEL_FINDINGS_LIVE_H

#include "model/findings.h"
#include "model/live_set.h"

/* GT_SEVERITY_NONE when the live set does not grow steadily (or its
 * figures are n/a); else the severity. */
enum gt_severity gt_findings_live_verdict(const struct gt_live_set *l);

#endif
