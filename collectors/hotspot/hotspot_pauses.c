/* The individual pauses the poll tick sees, for the pause distribution. */
#include "collectors/hotspot/hotspot_internal.h"

#include <string.h>

void hotspot_pause_log_add(struct hotspot_pause_log *l, uint64_t ns)
{
	l->ns[l->count % GT_PAUSE_RING] = ns;
	l->count++;
}

_Static_assert(sizeof(((struct hotspot_pause_log *)0)->ns) == sizeof(((struct gt_sample *)0)->pause_log.ns),
	       "the collector's pause log is copied whole into the sample's");

void hotspot_pause_log_fill(const struct hotspot_pause_log *l, struct gt_sample *out)
{
	out->pause_log.valid = true;
	out->pause_log.count = l->count;
	memcpy(out->pause_log.ns, l->ns, sizeof(out->pause_log.ns));
}

/* One pause per new lastExitTime of a collector: its exit minus its entry,
 * read once. A collector that paused twice between two polls shows only its
 * second pause; the first is not in the log (pause_total_ns still has it). */
void hotspot_pause_log_note(struct hotspot_pause_log *l, int64_t entry, int64_t exit, uint64_t ns)
{
	if (exit > 0 && entry > 0 && entry <= exit)
		hotspot_pause_log_add(l, ns);
}
