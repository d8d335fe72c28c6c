/* The runtimes gctop knows, for the layers above the session, which do not
 * reach the collectors' registry (collectors/registry.h) themselves: the
 * record's runtime names, and what --help, -l and the picker say of each
 * ("JVM or .NET"). */
#ifndef GCTOP_SESSION_RUNTIMES_H
#define GCTOP_SESSION_RUNTIMES_H

#include <stddef.h>

#include "model/runtime.h"

/* The i-th runtime's traits, in probe order, or NULL past the last. */
const struct gt_runtime_traits *gt_runtimes_at(size_t i);
/* Every runtime's display name joined with conj (" or ": "JVM or .NET")
 * into buf, which it returns. */
const char *gt_runtimes_names(char *buf, size_t len, const char *conj);

#endif
