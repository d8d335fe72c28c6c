/* The registry: every runtime gctop knows (collectors/registry.c), and the
 * sentences that name them all, so that no layer above spells a runtime's
 * name (session/runtimes.h is their door to it). */
#ifndef GCTOP_COLLECTORS_REGISTRY_H
#define GCTOP_COLLECTORS_REGISTRY_H

#include <stddef.h>

#include "collectors/backend.h"

/* The i-th runtime's traits, in probe order, or NULL past the last. */
const struct gt_runtime_traits *gt_registry_at(size_t i);
/* The runtime whose traits are named name, or NULL. */
const struct gt_runtime_traits *gt_registry_find(const char *name);

/* Every runtime's display name, joined as a sentence says them with conj
 * (" or ": "JVM or .NET"; three: "JVM, .NET or X"), into buf; returns buf. */
const char *gt_registry_names(char *buf, size_t len, const char *conj);
/* What each runtime's process must be, joined by " nor " ("a JVM with
 * perf data nor a .NET process"), for "process N is neither ...". */
const char *gt_registry_wanted(char *buf, size_t len);
/* What --ops names on the runtimes that take it, joined by " or ". */
const char *gt_registry_opcount_takes(char *buf, size_t len);

#endif
