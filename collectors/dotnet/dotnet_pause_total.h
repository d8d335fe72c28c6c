/* The pause time of a .NET process as the runtime itself counts it:
 * GC.GetTotalPauseDuration, published once a second as the System.Runtime
 * counter total-pause-time-by-gc (.NET 7 and later; dotnet_counters.c).
 *
 * The events time each pause from its suspension to its restart, but the
 * runtime starts its clock for a background GC's final mark before the
 * suspension, when the thread that suspends waits for another (the GC
 * thread that restarted the program a moment earlier), by some tens of ms
 * on a loaded machine: the events read 6-18% low under Server GC, and no
 * event marks where that clock starts. So the total comes from the
 * counter, and the single pauses (their distribution, the longest) from
 * the events.
 *
 * The counter is known up to its last poll, so the sample's pause time is
 * the counter's as of GT_DN_PAUSE_AGE_NS before the sample (its age,
 * declared). Between two polls the
 * total is placed by the events: the pauses as the events time them, and
 * what they missed at the starts of the background GCs' final marks
 * between the polls (where the runtime's clock for them starts early);
 * where the events saw no final mark or more pause time than the counter,
 * the counter's growth spread as the events' pause time is, linearly
 * where the events saw none. Each interval so covers a span of the sample
 * interval's length, and the total at each poll is the runtime's own. */
#ifndef GCTOP_COLLECTORS_DOTNET_PAUSE_TOTAL_H
#define GCTOP_COLLECTORS_DOTNET_PAUSE_TOTAL_H

#include <stdbool.h>
#include <stdint.h>

#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"

/* The counter's age at the sample: its poll interval (1 s) and the time
 * the events that place its growth between polls can take to reach gctop
 * on a loaded machine (more than GT_DN_STREAM_LAG_NS there). Measured on a
 * loaded 2-core machine (Server GC, fixed heap count): at 1.5 s a total
 * placed before a pause's events had come was up to 22 ms off the
 * runtime's at that moment, at 2.5 s at most 9 ms. */
#define GT_DN_PAUSE_AGE_NS 2500000000LL

/* The first runtime version with total-pause-time-by-gc. */
#define GT_DN_PAUSE_COUNTER_MAJOR 7

/* The pause time the runtime counted from its first poll up to the moment
 * at (its clock), placed between the polls around at by the events of g;
 * after the last poll, that poll's total and the events' pause time since
 * (a pause of seconds holds the runtime's polls back: its time is counted
 * as it goes, and the next poll's total corrects it). false where at is
 * before the first poll kept or there is none. */
bool gt_dn_pause_total_at(const struct gt_dn_series *polls, const struct gt_dn_gc *g, int64_t at, uint64_t *total);

#endif
