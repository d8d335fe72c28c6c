#include "views/metrics_writer.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "views/metrics_emit.h"

#define OPENMETRICS_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define TEXT_TYPE "text/plain; version=0.0.4; charset=utf-8"
/* pid, runtime and main, escaped: main is at most 255 bytes, each of which
 * may double when escaped, so a main class is never cut; then the container
 * and pod ids, hex and '-' only, so never escaped. */
#define BASE_LABELS_LEN 768
_Static_assert(BASE_LABELS_LEN >=
		       sizeof("pid=\"-2147483648\",runtime=\"unknown\",main=\"\"") + 2 * GT_METRICS_LABEL_VALUE_MAX +
			       sizeof(",container_id=\"\",k8s_pod_uid=\"\"") +
			       sizeof(((struct gt_target_info *)0)->container_id) +
			       sizeof(((struct gt_target_info *)0)->k8s_pod_uid),
	       "room for the longest main label escaped and both ids");

enum gt_metrics_format gt_metrics_negotiate(const char *accept)
{
	return accept && strstr(accept, "application/openmetrics-text") ? GT_METRICS_OPENMETRICS : GT_METRICS_TEXT;
}

const char *gt_metrics_content_type(enum gt_metrics_format f)
{
	return f == GT_METRICS_OPENMETRICS ? OPENMETRICS_TYPE : TEXT_TYPE;
}

static void base_labels(char *out, size_t size, const struct gt_target_info *info)
{
	char pid[24];
	snprintf(pid, sizeof(pid), "%d", (int)info->pid);
	out[0] = '\0';
	gt_metrics_label_add(out, size, "pid", pid);
	gt_metrics_label_add(out, size, "runtime", gt_runtime_name(info->runtime));
	gt_metrics_label_add(out, size, "main", info->main_class);
	/* Named as OpenTelemetry's container.id and k8s.pod.uid become in
	 * Prometheus. Left out outside a container: Prometheus reads a missing
	 * label as an empty one, so writing container_id="" would only add
	 * bytes to every series of every bare process. */
	if (info->container_id[0])
		gt_metrics_label_add(out, size, "container_id", info->container_id);
	if (info->k8s_pod_uid[0])
		gt_metrics_label_add(out, size, "k8s_pod_uid", info->k8s_pod_uid);
}

static void created_cache(struct gt_metrics_created_cache *c, const struct gt_metrics_target *t)
{
	c->v[0] = t->watch_start_s;
	c->v[1] = gt_metrics_since_s(t, GT_ALLOC_SINCE_PROCESS_START);
	for (int k = 0; k < GT_METRICS_CREATED_CACHE; k++)
		snprintf(c->text[k], sizeof(c->text[k]), "%.15g", c->v[k]);
}

int gt_metrics_write(FILE *out, enum gt_metrics_format f, const struct gt_metrics_config *cfg,
		     const struct gt_metrics_target *t, size_t n)
{
	const struct gt_duration_bounds *durations = cfg && cfg->durations ? cfg->durations : &gt_duration_bounds_otel;
	char (*base)[BASE_LABELS_LEN] = n ? calloc(n, sizeof(*base)) : NULL;
	struct gt_metrics_created_cache *created = n ? calloc(n, sizeof(*created)) : NULL;
	if (n && (!base || !created)) {
		free(base);
		free(created);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		base_labels(base[i], sizeof(base[i]), t[i].info);
		created_cache(&created[i], &t[i]);
	}
	const struct gt_metrics_filter *filter = cfg ? cfg->filter : NULL;
	for (size_t k = 0; k < gt_metrics_family_count; k++) {
		if (filter && !gt_metrics_filter_keeps(filter, gt_metrics_families[k].name,
						       gt_metrics_family_suffix(&gt_metrics_families[k])))
			continue;
		struct gt_metrics_emit e = { .out = out, .format = f, .fam = &gt_metrics_families[k], .durations = durations };
		for (size_t i = 0; i < n; i++) {
			e.base = base[i];
			e.created = &created[i];
			const struct gt_metrics_family *m = &gt_metrics_families[k];
			if (m->emit)
				m->emit(&e, &t[i]);
			else
				gt_metrics_gauge(&e, NULL, *(const struct gt_u64 *)((const char *)t[i].sample + m->sample_field));
		}
	}
	free(base);
	free(created);
	if (f == GT_METRICS_OPENMETRICS)
		fputs("# EOF\n", out);
	return ferror(out) ? -1 : 0;
}
