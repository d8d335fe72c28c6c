/* The skeleton runtime's traits (model/runtime.h) and what /tmp shows of
 * its processes: every name, word and piece of advice the layers above
 * would otherwise spell themselves. */
#include "collectors/skeleton/skeleton_internal.h"

#include <stddef.h>

/* What users type for it in the picker's filter, its display name first. */
static const char *const skeleton_words[] = { "Skeleton", "skeleton", NULL };

/* Its collectors' names in the picker, whole and brief; the picker shows
 * one not listed as the backend names it. */
static const struct gt_gc_name skeleton_gc_names[] = {
	{ "none", "none", "none" },
	{ NULL, NULL, NULL },
};

/* What the layers above know of it (model/runtime.h). A field left out is
 * a figure or a feature it has not: a real runtime says each. */
const struct gt_runtime_traits gt_skeleton_runtime = {
	.name = "skeleton",
	.display = "Skeleton",
	.words = skeleton_words,
	.wanted = "a process that made " GT_SKELETON_DIR "/" GT_SKELETON_PREFIX "<pid>",
	.collections_counting = NULL,
	.condemned_generations = 0,
	.has_gc_cpu_and_safepoints = false,
	.has_metaspace = false,
	.own_opcount = false,
	.opcount_takes = "the skeleton's \"" GT_SKELETON_OPCOUNT_COUNTER "\"",
	.allocators_load_code = false,
	.allocators_stop = "nothing was started",
	.census_cost = "costs the skeleton's process nothing: it holds no objects to count",
	.induced_call = "a collection call",
	.advice = NULL,  /* the shared rows only (model/findings_advice.c) */
	.n_advice = 0,
	.gc_names = skeleton_gc_names,
	.regions = { .target_count = 0 },  /* no regions a large object takes whole */
	.help = {
		.reads = "a Skeleton process (one that made " GT_SKELETON_DIR "/" GT_SKELETON_PREFIX "<pid>; "
			 "gctop's tests make it)",
		.opcount = "on a Skeleton process, its \"" GT_SKELETON_OPCOUNT_COUNTER "\"",
		.census = "a Skeleton process counts nothing",
	},
};

/* What /tmp shows when one of its processes comes or goes (session/fleet_tmp.c). */
const struct gt_discovery gt_skeleton_discovery = {
	.pid_prefix = GT_SKELETON_PREFIX,
};
