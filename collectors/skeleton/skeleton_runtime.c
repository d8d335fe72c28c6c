/* The skeleton runtime's traits (model/runtime.h) and what /tmp shows of
 * its processes: every name, word and piece of advice the layers above
 * would otherwise spell themselves. */
#include "collectors/skeleton/skeleton_internal.h"

#include <stddef.h>

static const char *const skeleton_words[] = { "Skeleton", "skeleton", NULL };

/* What the layers above know of it (model/runtime.h): every name, word and
 * piece of advice they would otherwise spell themselves. */
const struct gt_runtime_traits gt_skeleton_runtime = {
	.name = "skeleton",
	.display = "Skeleton",
	.words = skeleton_words,
	.wanted = "the skeleton runtime's own process",
	.collections_counting = NULL,
	.condemned_generations = 0,
	.has_gc_cpu_and_safepoints = false,
	.has_metaspace = false,
	.own_opcount = false,
	.opcount_takes = "the skeleton's \"polls\"",
	.allocators_load_code = false,
	.allocators_stop = "nothing was started",
	.induced_call = "a collection call",
	.advice = NULL,  /* the shared rows only (model/findings_advice.c) */
	.n_advice = 0,
};

/* What /tmp shows when one of its processes comes or goes (session/fleet_tmp.c). */
const struct gt_discovery gt_skeleton_discovery = {
	.pid_prefix = "gctop-skeleton-",
};
