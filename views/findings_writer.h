/* The findings (model/findings.h) in every output: the -b text block, the
 * --json key "findings", the --doctor report, and the one-line figures the
 * screen's findings pane draws. */
#ifndef GCTOP_VIEWS_FINDINGS_WRITER_H
#define GCTOP_VIEWS_FINDINGS_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "model/findings.h"

/* One evidence figure as text, "pause share 12.3%", "window 60 s". */
const char *gt_findings_evidence_text(char *buf, size_t len, const struct gt_evidence *e);

/* All of a finding's evidence, comma separated. */
const char *gt_findings_evidence_line(char *buf, size_t len, const struct gt_finding *f);

/* The "Findings:" section of a -b block (and of --doctor's report): one
 * finding per line, its evidence and advice beneath. */
void gt_text_write_findings(FILE *out, const struct gt_findings *f);

/* --doctor's first line: the process, its runtime's version and GC
 * (the target's own strings, sanitised as every output's are) and how
 * long it was watched. */
void gt_text_write_doctor_header(FILE *out, const struct gt_target_info *info, double watched_s);

/* Adds "findings": [{"id", "severity", "title", "evidence": {...}, "advice"}]
 * to a sample's object; an empty array when there is none. */
void gt_json_add_findings(struct json_object *sample, const struct gt_findings *f);

#endif
