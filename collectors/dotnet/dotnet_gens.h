/* The .NET GC's generation slots, kept in the .NET backend: the sample has
 * generations[] in whatever order a runtime gives them, and the layers
 * above learn the collected ones from the traits' condemned_generations. */
#ifndef GCTOP_COLLECTORS_DOTNET_DOTNET_GENS_H
#define GCTOP_COLLECTORS_DOTNET_DOTNET_GENS_H

#include "model/sample.h"

/* The .NET GC's generation slots, in the runtime's order (its events and
 * counters list sizes so) and the order a .NET sample's generations[] has.
 * A GC condemns a generation and those younger: gen0..gen2 are the
 * collected ones (GT_DN_COLLECTED); the large and pinned object heaps are
 * collected with gen2. */
enum gt_dn_gen {
	GT_DN_GEN0 = 0,
	GT_DN_GEN1,
	GT_DN_GEN2,
	GT_DN_LOH,
	GT_DN_POH,
	GT_DN_GENS,                       /* how many slots */
	GT_DN_COLLECTED = GT_DN_GEN2 + 1, /* how many a GC can condemn */
};
_Static_assert(GT_DN_GENS <= GT_MAX_GENERATIONS, "a .NET sample holds every generation slot");
_Static_assert(GT_DN_COLLECTED <= GT_MAX_COLLECTORS, "a .NET sample holds a collector per condemned generation");

#endif
