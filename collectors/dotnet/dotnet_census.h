/* The .NET census of live objects by type (collectors/backend.h census):
 * the runtime's own heap dump over EventPipe, as dotnet-gcdump takes it. */
#ifndef GCTOP_COLLECTORS_DOTNET_CENSUS_H
#define GCTOP_COLLECTORS_DOTNET_CENSUS_H

#include <stdint.h>

#include "base/error.h"
#include "model/census.h"
#include "model/sample.h"

/* The session's buffer in the target: the runtime walks the heap during
 * the collection, before gctop can read, so the whole dump (32 bytes an
 * object and 12 a reference: ~170 MB for a heap of 256 MiB with 3.8 M
 * objects) waits in it; what does not fit is lost, and the census says
 * so. dotnet-gcdump asks the same. Allocated as it fills, freed when the
 * session ends. */
#define GT_DN_CENSUS_BUFFER_MB 1024
/* The walked bytes may fall short of what the collection promoted (the
 * runtime's own count of live bytes) by this share before the census is
 * called partial: 0.7% was measured on a complete walk (research 28 §5). */
#define GT_DN_CENSUS_SHORT_PERCENT 5

int gt_dn_census(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
		 struct gt_error *err);

#endif
