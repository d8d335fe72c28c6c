/* --metrics-include and --metrics-exclude: see metrics_filter.h. */
#include "views/metrics_filter.h"

#include <stdio.h>
#include <string.h>

#include "views/metrics_emit.h"

/* What a family's name may hold (OpenMetrics' metric name characters). */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:"

static bool entry_matches(const struct gt_metrics_filter_entry *e, const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);
	if (e->prefix)
		return strncmp(name, e->name, e->len) == 0 || (n < e->len && strncmp(name, e->name, n) == 0 &&
							      strncmp(suffix, e->name + n, e->len - n) == 0);
	return (e->len == n && strncmp(name, e->name, n) == 0) ||
	       (s && e->len == n + s && strncmp(name, e->name, n) == 0 && strncmp(suffix, e->name + n, s) == 0);
}

static bool any_matches(const struct gt_metrics_filter_entry *e, size_t n, const char *name, const char *suffix)
{
	for (size_t i = 0; i < n; i++)
		if (entry_matches(&e[i], name, suffix))
			return true;
	return false;
}

bool gt_metrics_filter_keeps(const struct gt_metrics_filter *f, const char *name, const char *sample_suffix)
{
	if (!f)
		return true;
	if (f->n_include && !any_matches(f->include, f->n_include, name, sample_suffix))
		return false;
	return !any_matches(f->exclude, f->n_exclude, name, sample_suffix);
}

/* Whether e matches a family gctop writes. */
static bool names_a_family(const struct gt_metrics_filter_entry *e)
{
	for (size_t k = 0; k < gt_metrics_family_count; k++)
		if (entry_matches(e, gt_metrics_families[k].name, gt_metrics_family_suffix(&gt_metrics_families[k])))
			return true;
	return false;
}

int gt_metrics_filter_parse(struct gt_metrics_filter *f, const char *list, bool include, char *why, size_t why_size)
{
	struct gt_metrics_filter_entry *to = include ? f->include : f->exclude;
	size_t *n = include ? &f->n_include : &f->n_exclude;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		size_t name = strspn(p, NAME_CHARS);
		bool prefix = name + 1 == len && p[name] == '*';
		if (len == 0) {
			snprintf(why, why_size, "has an empty entry");
			return -1;
		}
		if (name != len && !prefix) {
			snprintf(why, why_size, "'%.*s' is neither a family's name nor a prefix ending in *",
				 (int)(len > 100 ? 100 : len), p);
			return -1;
		}
		if (*n == GT_METRICS_FILTER_MAX) {
			snprintf(why, why_size, "has more than %d entries", GT_METRICS_FILTER_MAX);
			return -1;
		}
		struct gt_metrics_filter_entry e = { p, name, prefix };
		if (!names_a_family(&e)) {
			snprintf(why, why_size, "'%.*s' matches no family gctop writes (gctop(1), METRICS, lists them)",
				 (int)(len > 100 ? 100 : len), p);
			return -1;
		}
		to[(*n)++] = e;
		p += len;
		if (!*p)
			return 0;
	}
}
