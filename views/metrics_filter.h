/* --metrics-include LIST and --metrics-exclude LIST: the metric families
 * --serve writes, as node_exporter's --collector.* flags and
 * jmx_exporter's includeObjectNames/excludeObjectNames choose theirs, so
 * that a fleet owner pays only for the series they use. LIST is
 * comma-separated; each entry a family's name as gctop writes it
 * (jvm_gc_duration_seconds; a counter also with its _total, an info with
 * its _info) or a prefix ending in * (jvm_*, gctop_live_set_*). With
 * include, only the families an entry matches are written; exclude then
 * drops those its entries match. A dropped family loses all its lines,
 * its HELP, TYPE and UNIT too. */
#ifndef GCTOP_VIEWS_METRICS_FILTER_H
#define GCTOP_VIEWS_METRICS_FILTER_H

#include <stdbool.h>
#include <stddef.h>

/* Entries in one list, at most: more than there are families. */
#define GT_METRICS_FILTER_MAX 64

struct gt_metrics_filter_entry {
	const char *name;    /* into the list given to the parser, which must outlive the filter */
	size_t len;          /* without the * */
	bool prefix;         /* ended in * */
};

struct gt_metrics_filter {
	struct gt_metrics_filter_entry include[GT_METRICS_FILTER_MAX], exclude[GT_METRICS_FILTER_MAX];
	size_t n_include, n_exclude;  /* n_include 0: every family, less the excluded */
};

/* Adds LIST's entries to f's include (or exclude) entries. 0, or -1 with
 * why set to the clause of a sentence that says what is wrong (an empty
 * entry, a character a family's name cannot have, a * not at the end, an
 * entry that matches no family gctop writes, too many). */
int gt_metrics_filter_parse(struct gt_metrics_filter *f, const char *list, bool include, char *why, size_t why_size);

/* Whether f (NULL: no filter) keeps the family named name (its name as
 * written on # TYPE in OpenMetrics) of type `sample_suffix` ("_total" for a
 * counter, "_info" for an info, else ""). */
bool gt_metrics_filter_keeps(const struct gt_metrics_filter *f, const char *name, const char *sample_suffix);

#endif
