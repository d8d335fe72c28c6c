/* gctop --serve's /metrics: what gctop knows of each watched process as
 * OpenMetrics 1.0 text, or the classic Prometheus text format 0.0.4 for a
 * scraper that asks for it. Pure: no clock, no I/O but the stream it is
 * given, so a scrape is a copy of text built once per sampling round.
 *
 * Names follow the OpenTelemetry semantic conventions for JVM and .NET
 * runtime metrics, mapped as the OpenTelemetry Prometheus exporter maps them
 * (dots become underscores, the unit is appended as a word, counters end in
 * _total); what the conventions lack goes under gctop_. Every series carries
 * pid, runtime and main (the main class or entry assembly, sanitised; never
 * the command line). A figure that is n/a is left out, never written as 0.
 * man/gctop.1 (METRICS) lists every family with its unit and labels. */
#ifndef GCTOP_VIEWS_METRICS_WRITER_H
#define GCTOP_VIEWS_METRICS_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "model/derive.h"
#include "model/findings.h"
#include "model/pause_hist.h"
#include "model/sample.h"
#include "views/metrics_filter.h"

enum gt_metrics_format {
	GT_METRICS_OPENMETRICS = 0,  /* application/openmetrics-text; version=1.0.0 */
	GT_METRICS_TEXT,             /* text/plain; version=0.0.4 */
};

/* What is known about one watched process. */
struct gt_metrics_target {
	const struct gt_target_info *info;
	const struct gt_sample *sample;      /* the newest: cumulative counters, current sizes */
	const struct gt_derived *derived;    /* between the two newest samples, or NULL */
	const struct gt_pause_hist *pauses;  /* or NULL */
	double watch_start_s;                /* when gctop began watching, seconds since the epoch */
	const struct gt_finding_brief *findings; /* what holds now (n_findings), or NULL */
	unsigned n_findings;
};

/* The format for an HTTP Accept header (NULL: none): OpenMetrics when the
 * scraper names application/openmetrics-text, else the classic text. */
enum gt_metrics_format gt_metrics_negotiate(const char *accept);

/* The Content-Type of a format. */
const char *gt_metrics_content_type(enum gt_metrics_format f);

/* How the families are written, the same for every target. */
struct gt_metrics_config {
	/* jvm_gc_duration_seconds' and gctop_gc_collector_duration_seconds'
	 * buckets (--gc-duration-buckets); NULL: OpenTelemetry's. */
	const struct gt_duration_bounds *durations;
	/* The families written (--metrics-include, --metrics-exclude); NULL:
	 * every one. */
	const struct gt_metrics_filter *filter;
};

/* Writes every family for targets t[0..n-1] (OpenMetrics ends with # EOF);
 * cfg NULL: the defaults. Returns 0, or -1 on a write error. */
int gt_metrics_write(FILE *out, enum gt_metrics_format f, const struct gt_metrics_config *cfg,
		     const struct gt_metrics_target *t, size_t n);

#endif
