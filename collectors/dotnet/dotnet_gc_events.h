/* Microsoft-Windows-DotNETRuntime GC events: payload layouts (parsed by
 * length, since newer versions append fields) and the running state built
 * from them: collections by condemned generation, stop-the-world pauses from
 * SuspendEE/RestartEE, heap sizes after the last GC, committed memory.
 * Cumulative figures count from the start of gctop's session.
 *
 * Each pause is the time the program stood still: from GCSuspendEEBegin to
 * GCRestartEEBegin on the same thread, for suspensions ForGC, and ForGCPrep
 * by a background GC thread (its final mark). A ForGCPrep suspension by a
 * thread that suspends ForGC too is the Server GC thread changing the heap
 * count under DATAS, which is no GC pause. (The thread tells them apart
 * where the background GC's GCStart cannot: another thread writes it, and
 * it can reach the stream after the final mark's restart.) For blocking GCs
 * this is what GC.GetTotalPauseDuration counts (gc.cpp: total_suspended_time
 * from suspended_start_time, taken just before SuspendEE); for a background
 * GC's final mark the runtime starts its clock before its thread waits for
 * the GC lock, while the program runs, so its figure is higher there (see
 * tests/integration/dotnet_accuracy.sh and the man page).
 * RestartEEEnd is not the end: it is written by the restarting thread after
 * it resumes the others, and on a loaded machine that thread can wait for a
 * CPU for milliseconds while the program already runs again. */
#ifndef GCTOP_COLLECTORS_DOTNET_GC_EVENTS_H
#define GCTOP_COLLECTORS_DOTNET_GC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collectors/dotnet/dotnet_gc_frag.h"
#include "model/sample.h"

enum {
	GT_DN_EV_GC_START = 1,
	GT_DN_EV_GC_END = 2,
	GT_DN_EV_RESTART_EE_END = 3,
	GT_DN_EV_HEAP_STATS = 4,
	GT_DN_EV_RESTART_EE_BEGIN = 7,
	GT_DN_EV_SUSPEND_EE_BEGIN = 9,
	GT_DN_EV_GC_DYNAMIC = 39,
	GT_DN_EV_PER_HEAP_HISTORY = 204,
	GT_DN_EV_GLOBAL_HEAP_HISTORY = 205,
};

struct gt_dn_gc_start {
	uint32_t count;      /* the GC's index since process start */
	uint32_t depth;      /* condemned generation */
	uint32_t reason;
	uint32_t type;       /* 0 blocking, 1 background, 2 foreground */
};

struct gt_dn_heap_stats {
	uint64_t gen_size[GT_DN_GENS];    /* gen0, gen1, gen2, LOH, POH after the GC */
	/* bytes the GC kept, by the generation they were in (TotalPromotedSize):
	 * after a gen2 GC their sum is the live set (TraceEvent's
	 * TotalPromoted). The sizes are not: GenerationSize2+3+4 hold the free
	 * space between the objects too (fragmentation), measured 302 MB of
	 * size against 285.5 MB promoted on a 256 MiB heap (.NET 10). */
	uint64_t promoted[GT_DN_GENS];
	bool has_poh;            /* version 2 appends POH */
};

struct gt_dn_global_history {
	uint64_t gen0_budget;
	int32_t num_heaps;
	uint32_t condemned;
	uint32_t reason;
	uint32_t pause_mode;     /* GCLatencyMode: 0 batch, 1 interactive, 2 low latency, 3 sustained, 4 no GC */
	bool has_pause_mode;
};

int gt_dn_parse_gc_start(const uint8_t *p, size_t n, struct gt_dn_gc_start *out);
int gt_dn_parse_heap_stats(const uint8_t *p, size_t n, struct gt_dn_heap_stats *out);
int gt_dn_parse_suspend(const uint8_t *p, size_t n, uint32_t *reason);
int gt_dn_parse_global_history(const uint8_t *p, size_t n, struct gt_dn_global_history *out);

/* GCPerHeapHistory_V3: one heap's free space (free list plus free objects)
 * per generation after the GC. pointer_size is the Trace object's. */
struct gt_dn_per_heap {
	uint32_t heap_index;
	unsigned n_generations;
	uint64_t fragmented[GT_DN_GENS];
	/* bytes of objects (size less free space) before and after this GC */
	uint64_t objects_before[GT_DN_GENS], objects_after[GT_DN_GENS];
};
int gt_dn_parse_per_heap(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_per_heap *out);
/* A GCDynamicEvent named CommittedUsage: the sum of its five committed-byte
 * figures. 0, 1 when the event is another dynamic event, -1 malformed. */
int gt_dn_parse_committed_usage(const uint8_t *p, size_t n, uint64_t *committed);

/* The runtime's name for a GC reason ("AllocSmall", "Induced", ...). */
const char *gt_dn_gc_reason_name(uint32_t reason);

#define GT_DN_OPEN_SUSPENSIONS 8
/* How long an event can wait in the runtime before gctop reads it: the
 * session's streaming thread writes its buffers out and, with nothing to
 * write, sleeps 100 ms (ep-session.c); on a loaded machine it runs later.
 * A suspension under way is counted up to this long before a sample: a
 * shorter one has most likely ended with its end still in the runtime's
 * buffers (counting it to the sample took time back from the next pauses
 * and split short pauses at samples), a longer one's last part goes to
 * the next interval. */
#define GT_DN_STREAM_LAG_NS 200000000LL
/* GC starts kept: a counter poll is a second or so old, a GC storm has
 * some hundred GCs a second at most. */
#define GT_DN_GC_STARTS 1024
/* Server GC heaps tracked for the LOH allocation count (one per core). */
#define GT_DN_MAX_HEAPS 256
/* Workstation GC suspends on any allocating thread, but only Server GC
 * (one GC thread) uses ForGCPrep outside a background GC. */
#define GT_DN_GC_SUSPENDERS 16
/* Threads whose last GCEnd waits for its GCHeapStats: the GC threads of a
 * process write them (Workstation: any allocating thread and the
 * background GC's; Server: one per heap at most). */
#define GT_DN_LIVE_THREADS 16

struct gt_dn_gc {
	int64_t qpc_freq;

	/* collections by condemned generation (GCs whose deepest generation was N) */
	uint64_t by_depth[GT_DN_COLLECTED];
	uint64_t gc_index;            /* Count of the last GCStart */
	uint32_t last_reason;
	bool have_reason;
	bool background_running;
	/* the last GCs' starts by the runtime's clock (GC k, counted from 0
	 * since the session began, at gc_start_ts[k % GT_DN_GC_STARTS]), to
	 * count the collections up to a moment other than the sample's */
	int64_t gc_start_ts[GT_DN_GC_STARTS];
	uint64_t gc_started;
	/* collections by reason (GCStart's), for the sample's causes */
	uint64_t induced;              /* Induced, InducedNotForced, InducedLowMemory, InducedCompacting */
	uint64_t gen2_alloc_large;     /* gen2 collections with reason AllocLarge */

	/* pauses: GC suspensions under way, one per suspending thread. The
	 * stream is in time order per thread only (a thread can write an event
	 * after another thread's later one), so two suspensions by different
	 * threads can overlap in it. */
	struct gt_dn_suspension {
		bool used;
		uint32_t reason;
		uint64_t tid;
		int64_t ts;
	} open[GT_DN_OPEN_SUSPENSIONS];
	/* the threads that suspended ForGC lately (ring) */
	uint64_t gc_suspenders[GT_DN_GC_SUSPENDERS];
	unsigned n_gc_suspenders;
	uint64_t pause_total_ns;
	uint64_t pause_count;           /* pauses timed since the session began */
	uint64_t pause_log[GT_PAUSE_RING]; /* pause k at pause_log[k % GT_PAUSE_RING] */
	/* pause k's start and end by the runtime's clock, beside pause_log, so
	 * that its time is credited to the intervals it spans */
	struct gt_dn_pause_span {
		int64_t from, to;
		bool final_mark;       /* a background GC's (ForGCPrep) */
	} pause_span[GT_PAUSE_RING];
	/* the moment the last sample's pause figures were taken as of, by the
	 * runtime's clock and by gctop's, for the next sample's window, and
	 * the pause time credited to the samples' intervals so far */
	bool have_pause_at;
	int64_t pause_at;
	uint64_t pause_at_mono;
	uint64_t pause_credited;
	uint64_t last_pause_ns;
	uint64_t window_max_pause_ns;  /* longest since gt_dn_gc_take_window_max */
	bool have_pause;

	/* heap after the last GC: the one that ended last by the runtime's
	 * clock (heap_ts), which is not always the one read last (see
	 * dotnet_gc_frag.h) */
	bool have_heap;
	int64_t heap_ts;
	struct gt_dn_heap_stats heap;
	bool have_committed;
	uint64_t committed;
	bool have_history;
	int64_t history_ts;
	struct gt_dn_global_history history;

	/* The live set (model/sample.h's live_log): what each gen2 GC kept, by
	 * its GCHeapStats, which the GC's thread writes right after its GCEnd
	 * (the GCEnd names the GC and its depth, the stats do neither).
	 * Point k at live[k % GT_LIVE_RING], ts by the runtime's clock. */
	struct gt_dn_live_point {
		uint64_t bytes;
		int64_t ts;
		bool background;
	} live[GT_LIVE_RING];
	uint64_t live_count;
	struct gt_dn_live_wait {
		bool used;
		uint64_t tid;
		uint32_t index;          /* the GC's Count */
		uint32_t depth;
		bool background;
	} live_wait[GT_DN_LIVE_THREADS];
	unsigned next_live_wait;
	/* the last GC that started as a background GC: its Count (0 none) and
	 * the thread that started it */
	uint32_t bgc_index;
	uint64_t bgc_start_tid;

	int pointer_size;             /* the Trace object's, for GCPerHeapHistory */
	struct gt_dn_frag frag;

	/* Bytes allocated on the large object heap, counted at each GC: objects
	 * only come into the LOH by allocation, so its object bytes before a GC
	 * less those after the one before (per heap) are what was allocated in
	 * between. Allocation since the last GC is counted at the next. The
	 * same count over gen0, the LOH and the POH (every place the program
	 * allocates into) is all the bytes allocated between the same GCs,
	 * the LOH's share's denominator over the LOH figure's own window: the
	 * runtime's allocated-bytes counter is polled at other moments, and
	 * the LOH bytes of a GC that came after several seconds of allocation,
	 * divided by one second's, read 165% to 707% in a GC storm. */
	uint64_t alloc_after[GT_DN_MAX_HEAPS][3];   /* gen0, LOH, POH objects after the heap's last GC */
	bool loh_seen[GT_DN_MAX_HEAPS];
	uint64_t loh_alloc_total;
	uint64_t gc_alloc_total;                    /* every generation, counted with loh_alloc_total */
	bool have_loh_alloc;
};

void gt_dn_gc_init(struct gt_dn_gc *g, int64_t qpc_freq);

/* Feeds one DotNETRuntime event. Unknown ids and short payloads are ignored. */
void gt_dn_gc_event(struct gt_dn_gc *g, uint32_t event_id, uint64_t thread_id, int64_t ts,
		    const uint8_t *payload, size_t len);

/* Copies the collections by cause into out->causes. */
void gt_dn_gc_fill_causes(const struct gt_dn_gc *g, struct gt_sample *out);

/* Fills out->pause_at for the sample taken at mono_ns (gctop's
 * CLOCK_MONOTONIC), which is at by the runtime's clock: the pause time
 * credited to the intervals up to the previous sample and up to this one.
 * An interval is credited the pause time known up to its end not yet
 * credited to one before it, up to its own length: the pauses timed so
 * far less their parts after the moment, and the suspensions under way
 * that will count as pauses up to GT_DN_STREAM_LAG_NS before it. A pause
 * under way at a sample is so split there, and time that reaches gctop
 * late (a start read after the sample past it) goes to the next interval
 * with room: the intervals add up to the pauses and none holds more pause
 * than time. Time counted for a suspension under way whose end turns out
 * to be earlier is taken back from the pauses that follow. Pauses that
 * ended after the previous moment but are no longer in pause_span (more
 * than GT_PAUSE_RING since) are counted whole. */
void gt_dn_gc_fill_pause_at(struct gt_dn_gc *g, uint64_t mono_ns, int64_t at, struct gt_sample *out);

/* Credits the pause time known up to the moment at (runtime's clock),
 * known, to the interval ending with the sample taken at mono_ns, as
 * gt_dn_gc_fill_pause_at does with the pauses timed here: up to the
 * interval's length, the rest to the next intervals with room. at is the
 * moment the figure is as of, which can be earlier than the sample's (the
 * runtime's pause counter, dotnet_pause_total.h). */
void gt_dn_gc_credit_pause(struct gt_dn_gc *g, uint64_t mono_ns, int64_t at, uint64_t known, struct gt_sample *out);

/* The pause time timed from the events up to the moment at (runtime's
 * clock): the pauses so far less their parts after it, and the
 * suspensions under way that count as pauses up to it. */
uint64_t gt_dn_gc_pause_until(const struct gt_dn_gc *g, int64_t at);

/* Background GCs' final marks that started after the moment after and
 * by until (runtime's clock), in *n; false where pauses since after have
 * left the ring of the last GT_PAUSE_RING. */
bool gt_dn_gc_final_marks(const struct gt_dn_gc *g, int64_t after, int64_t until, uint64_t *n);

/* GCs started up to the moment at (runtime's clock), for the collections
 * over the span of operations read as of the runtime's counter poll
 * (gt_sample's opcount_collections_total). GCs older than the GT_DN_GC_STARTS
 * last are counted whatever their time. */
uint64_t gt_dn_gc_collections_until(const struct gt_dn_gc *g, int64_t at);

/* Returns the longest pause since the previous call and starts a new window. */
uint64_t gt_dn_gc_take_window_max(struct gt_dn_gc *g);

/* True while a GC suspension is under way. */
bool gt_dn_gc_suspended(const struct gt_dn_gc *g);

/* Forgets the suspensions under way (the session restarts: their ends
 * would come in another stream, and half a pause is not one). */
void gt_dn_gc_forget_suspensions(struct gt_dn_gc *g);

#endif
