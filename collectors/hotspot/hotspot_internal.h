/* Internals of the HotSpot collector, shared by its files:
 *   hotspot.c                 the collector interface and its life (probe, open, close)
 *   hotspot_sample.c          each poll and sample (the perf data's copy, read)
 *   hotspot_list.c            every JVM the user can see, for gctop --list
 *   hotspot_find.c            which process is a JVM, and where its perf-data file is
 *   hotspot_counters.c        the counters gctop reads, resolved once, and what they mean
 *   hotspot_info.c            the header facts (version, collector, heap flags)
 *   hotspot_alloc_estimate.c  the allocation estimate from eden fills
 *   hotspot_pauses.c          the log of individual pauses
 *   hotspot_durations.c       each collector's pauses by length, since gctop began watching
 *   hotspot_mx_names.c        the collectors' and pools' names as the JVM's MXBeans give them
 *   hotspot_tick.c            when to poll while the JVM collects
 *   hotspot_causes.c          what caused the collections (sun.gc.lastCause at each poll)
 *   hotspot_live.c            the live set: old used after the collections that reach it
 *   hotspot_opcount.c         the application's operations counter (--ops)
 *   hotspot_watch.c           the parts of the perf data a poll copies
 *   hotspot_census.c          the census of live objects (attach `inspectheap`),
 *                             hotspot_histo.c its class histogram's parser
 * and in sub-folders, the transport and the sampler:
 *   perfdata/                 the hsperfdata file: its format, mapped and copied
 *   attach/                   the attach protocol that loads gctop's agent, and
 *                             the sampler that reads the agent's segment
 *                             (attach/hotspot_sampler.c)
 *   jfr/                      the flight recorder as a source: the chunk reader
 *                             (jfr_reader.h), gctop's recording, its repository
 *                             followed and its allocation samples tabled
 *                             (jfr/jfr_sampler.h) */
#ifndef GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_INTERNAL_H
#define GCTOP_COLLECTORS_HOTSPOT_HOTSPOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"
#include "model/sample.h"
#include "collectors/backend.h"
#include "collectors/hotspot/hotspot_alloc_estimate.h"
#include "collectors/hotspot/hotspot_alloc_ring.h"
#include "collectors/hotspot/perfdata/hsperf.h"

/* ---- hotspot_find.c ---- */

/* A java process: /proc/PID/exe is named java or maps libjvm.so (falling
 * back to comm and argv[0] when those are unreadable). */
bool hotspot_find_is_java(pid_t pid);

/* "-XX:-UsePerfData" or "-XX:+PerfDisableSharedMem" when the JVM's options
 * (command line and the JAVA_TOOL_OPTIONS family) turn shared perf data off,
 * else NULL. */
const char *hotspot_find_disabled_flag(pid_t pid);

/* Finds the perf-data file of pid: /tmp/hsperfdata_* / PID in our mount
 * namespace, else /proc/PID/root/tmp/hsperfdata_* / NSPID, the newest if
 * several users have one. Returns 1 found (path filled), 0 none, -1 with
 * err when the process's /tmp cannot be looked at. */
int hotspot_find_perfdata(pid_t pid, char *path, size_t path_len, struct gt_error *err);

/* Reads pid's perf data once: read(p, arg) on a copy taken now. The file
 * must be euid's. 0, or -1 when there is none to read. */
int hotspot_find_peek(pid_t pid, uid_t euid, void (*read)(const struct hsperf *p, void *arg), void *arg);

/* 1 while pid runs (not a zombie), 0 when it has gone. */
int hotspot_find_alive(pid_t pid);

/* ---- hotspot_census.c ---- */

/* The backend's census hook (collectors/backend.h). */
int hotspot_census(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
		   struct gt_error *err);

/* ---- hotspot_counters.c ---- */

enum hotspot_gc {
	HOTSPOT_GC_UNKNOWN = 0,
	HOTSPOT_GC_G1,
	HOTSPOT_GC_PARALLEL,
	HOTSPOT_GC_SERIAL,
	HOTSPOT_GC_Z,              /* single generation (JDK 17, or 21+ without ZGenerational) */
	HOTSPOT_GC_Z_GENERATIONAL,
	HOTSPOT_GC_SHENANDOAH,
};

#define HOTSPOT_COLLECTOR_SLOTS 10  /* sun.gc.collector.0..9, with holes */
#define HOTSPOT_GENERATIONS 2
#define HOTSPOT_SPACES 3
/* sun.gc.cause between the JVM's collection operations */
#define HOTSPOT_CAUSE_NONE "No GC"

struct hotspot_collector_counters {
	const struct hsperf_entry *name;
	hsperf_long invocations, time, last_entry, last_exit;
};

struct hotspot_space_counters {
	hsperf_long used, capacity, max_capacity;
};

struct hotspot_generation_counters {
	hsperf_long capacity, max_capacity;
	struct hotspot_space_counters space[HOTSPOT_SPACES];
};

struct hotspot_counters {
	enum hotspot_gc gc;
	int64_t frequency;          /* ticks per second (sun.os.hrt.frequency) */
	unsigned g1_eden_slack_pct; /* G1: GCLockerEdenExpansionPercent, included in eden capacity */
	struct hotspot_collector_counters collector[HOTSPOT_COLLECTOR_SLOTS];
	struct hotspot_generation_counters generation[HOTSPOT_GENERATIONS];
	hsperf_long metaspace_used, metaspace_capacity;
	hsperf_long safepoints, safepoint_time, safepoint_sync_time;
	hsperf_long gc_cpu_time;
	hsperf_long create_vm_begin_ms;
	hsperf_long tlab_alloc_words, tlab_fills, tlab_gc_waste, tlab_refill_waste, tlab_slow_allocs;
	hsperf_long promoted;       /* Parallel: sun.gc.policy.promoted */
	hsperf_long live_at_last_full_gc; /* Parallel: old used after the last full GC */
	hsperf_long class_space_used, class_space_capacity; /* the compressed class space */
	unsigned jdk_major;         /* 17, 25; 0 unknown */
	bool shenandoah_generational;
	hsperf_long hrt_ticks;      /* the JVM clock, sampled every 50 ms (absent on 25) */
	const struct hsperf_entry *cause, *last_cause;
};

enum hotspot_gc hotspot_counters_detect_gc(const struct hsperf *p);
const char *hotspot_gc_name(enum hotspot_gc gc);

/* Resolves every counter gctop reads. Call again after hsperf_refresh adds entries. */
void hotspot_counters_resolve(struct hotspot_counters *c, const struct hsperf *p);

/* Perf data's ticks at frequency (per second) in ns, saturating: a hostile
 * file's values cannot overflow. */
uint64_t hotspot_ticks_at_to_ns(int64_t ticks, int64_t frequency);
uint64_t hotspot_ticks_to_ns(const struct hotspot_counters *c, int64_t ticks);

/* The estimator's inputs, by loads only. */
void hotspot_counters_alloc_reading(const struct hsperf *p, const struct hotspot_counters *c,
				    struct hotspot_alloc_reading *r);

/* Heap, generations, collectors, pauses (except pause_max_ns), safepoints,
 * GC CPU, causes, metaspace and the large-object availability of out. */
void hotspot_counters_fill_sample(const struct hsperf *p, const struct hotspot_counters *c, struct gt_sample *out);

/* A counter's value, 0 when absent or negative; a space's capacity as
 * the collector means it (G1's padding taken off). */
uint64_t hotspot_load_u64(hsperf_long c);
uint64_t hotspot_capacity(const struct hotspot_counters *c, hsperf_long counter);
/* The most recent pause of any collector whose times are pauses: its end
 * (ticks) and length (ns). 0 ok, -1 when none is known. */
int hotspot_counters_last_pause(const struct hotspot_counters *c, int64_t *exit_ticks, uint64_t *ns);

/* ---- hotspot_mx_names.c ---- */
/* Names out's collectors (filled by hotspot_counters_fill_sample, in slot
 * order) as their GarbageCollectorMXBeans do, mx_name and mx_action NULL
 * where no bean counts the same; and fills the memory pools, named and
 * sized as the MemoryPoolMXBeans give them. */
void hotspot_mx_fill(const struct hotspot_counters *c, struct gt_sample *out);

/* ---- hotspot_durations.c ---- */
/* Each collector's pauses since gctop began watching, by length. */
struct hotspot_durations {
	bool primed[HOTSPOT_COLLECTOR_SLOTS];
	/* at the last poll: the finished pauses' count, their time, the newest's exit */
	int64_t finished[HOTSPOT_COLLECTOR_SLOTS], time[HOTSPOT_COLLECTOR_SLOTS], exit[HOTSPOT_COLLECTOR_SLOTS];
	/* the pause the last poll saw under way: its number (from 1) and entry */
	bool pending_valid[HOTSPOT_COLLECTOR_SLOTS];
	int64_t pending_no[HOTSPOT_COLLECTOR_SLOTS], pending_entry[HOTSPOT_COLLECTOR_SLOTS];
	struct gt_duration_hist hist[HOTSPOT_COLLECTOR_SLOTS];
};
/* Folds one poll's counters into d; count false (the open) only notes where
 * the counters are. */
void hotspot_durations_note(struct hotspot_durations *d, const struct hotspot_counters *c, bool count);
/* Copies each collector's histogram into out's collectors (filled by
 * hotspot_counters_fill_sample, in slot order). */
void hotspot_durations_fill(const struct hotspot_durations *d, const struct hotspot_counters *c, struct gt_sample *out);
/* Whether slot k is one of the sample's collectors. */
bool hotspot_collector_listed(const struct hotspot_collector_counters *k);
/* What the live set's rules read at a poll (hotspot_live.c). */
struct hotspot_live_reading {
	uint64_t mono_ns;
	bool in_progress;           /* as the allocation reading's */
	uint64_t invocations[3];    /* collectors 0-2, as the allocation reading read them */
	uint64_t old_used;          /* generation.1.space.0.used */
	bool has_live_at_full;      /* Parallel: liveAtLastFullGc */
	uint64_t live_at_full;
	char cause[32];             /* sun.gc.cause, read for ZGC and Shenandoah only ("" elsewhere) */
};

/* The live reading from the allocation reading a (same poll) and the
 * counters only it needs. */
void hotspot_counters_live_reading(const struct hsperf *p, const struct hotspot_counters *c,
				   const struct hotspot_alloc_reading *a, struct hotspot_live_reading *r);

/* Old-generation occupancy as jstat -gc shows it: OU, OC, OGCMX. */
void hotspot_counters_fill_old(const struct hotspot_counters *c, struct gt_sample *out);

/* ---- hotspot_live.c ---- */

struct hotspot_live {
	enum hotspot_gc gc;
	bool shenandoah_generational; /* no point then (hotspot_live_unavailable) */
	bool started;               /* invocations holds a settled poll's counts */
	uint64_t invocations[3];
	bool armed;                 /* ZGC, Shenandoah: a cycle was seen, not yet its end */
	bool window;                /* G1: a concurrent cycle was seen (and no full GC since);
				     * ZGC: a major cycle ended (and the next has not begun) */
	bool young_seen;            /* G1: a young or mixed collection since the last Remark or Cleanup */
	bool have_least;
	uint64_t least, least_at_ns;
	struct gt_live_log log;
};

/* Why gc gives no live-set point (one sentence), or NULL. */
const char *hotspot_live_unavailable(enum hotspot_gc gc, bool shenandoah_generational);
void hotspot_live_init(struct hotspot_live *l, enum hotspot_gc gc, bool shenandoah_generational);
/* Adds the points one poll's reading completes. */
void hotspot_live_note(struct hotspot_live *l, const struct hotspot_live_reading *r);
/* Fills out->live_log and out->live_unavailable. */
void hotspot_live_fill(const struct hotspot_live *l, struct gt_sample *out);

/* ---- hotspot_pauses.c ---- */

/* The pauses seen so far: pause k (from 0) at ns[k % GT_PAUSE_RING]. */
struct hotspot_pause_log {
	uint64_t count;
	uint64_t ns[GT_PAUSE_RING];
};

void hotspot_pause_log_add(struct hotspot_pause_log *l, uint64_t ns);
/* Adds the pause of a collector whose lastExitTime just changed to exit,
 * when its stamps (ticks) describe a finished pause of ns. */
void hotspot_pause_log_note(struct hotspot_pause_log *l, int64_t entry, int64_t exit, uint64_t ns);
/* Copies the log into out->pause_log (valid). */
void hotspot_pause_log_fill(const struct hotspot_pause_log *l, struct gt_sample *out);

/* ---- hotspot_jfr_pauses.c ---- */

/* The pauses from gctop's flight recording joined to the perf data's:
 * the perf data's until the first sample after the recording began (the
 * join), JFR's from then on, each pause that ended at or after the join
 * (the perf data's time counter adds a pause as it ends, so one that
 * ended before the join is in the perf data's total, one under way is
 * not). */
struct hotspot_jfr_pauses {
	bool joined;
	int64_t join_wall_ns;      /* CLOCK_REALTIME of the join */
	uint64_t next;             /* the recording's next pause to take */
	struct gt_u64 base_ns;     /* the perf data's pause total at the join */
	uint64_t sum_ns;           /* JFR's pauses since */
	struct gt_u64 last_ns;     /* JFR's latest pause */
};

/* After the sample is filled from the perf data: JFR's pauses in place of
 * the perf data's while the recording runs (c->jfr). */
void hotspot_jfr_pauses_fill(struct gt_backend *c, struct gt_sample *out);

/* ---- hotspot_tick.c ---- */

#define HOTSPOT_TICK_MIN_NS 1000000ull   /* 1 ms */
#define HOTSPOT_TICK_MAX_NS 100000000ull /* 100 ms */

/* What the tick has seen of the intervals between collections (exit to
 * the next entry, on the JVM's clock). */
struct hotspot_tick_state {
	uint64_t collections;  /* young + full at the last poll */
	uint64_t last_exit_ns; /* the newest young or full exit then (JVM clock) */
	uint64_t prev_poll_ns; /* mono */
	uint64_t shortest_ns;  /* the shortest interval lately, 0 unknown */
};

/* Folds one poll's reading into t; period is the time between collections
 * lately (ns). */
void hotspot_tick_note(struct hotspot_tick_state *t, const struct hotspot_alloc_reading *r, uint64_t period);

/* Polls an interval (2-4) while collections come every period ns and the
 * shortest interval lately was shortest (0 unknown: 4). */
unsigned hotspot_tick_per_interval(uint64_t period, uint64_t shortest);

/* The time to the next poll at now (mono ns) while collections come every
 * period ns, the last one having ended at last_exit (mono ns, 0 unknown),
 * with per_interval polls an interval; dense: old grows between collections
 * (G1 humongous allocation), so it is read 64 times an interval (every
 * millisecond at 15 collections a second and more). */
uint64_t hotspot_tick_ns(uint64_t now, uint64_t last_exit, uint64_t period, unsigned per_interval, bool dense);

/* ---- hotspot_causes.c ---- */

struct hotspot_causes {
	bool started;          /* the first reading set the base */
	uint64_t collections;  /* young + full at the last poll */
	uint64_t seen, induced, humongous, inspection;
};

/* Counts the newest collection a poll found under its cause (the reading's
 * sun.gc.lastCause). */
void hotspot_causes_note(struct hotspot_causes *c, const struct hotspot_alloc_reading *r);
/* Fills out->causes (humongous only for G1). */
void hotspot_causes_fill(const struct hotspot_causes *c, bool g1, struct gt_sample *out);

/* ---- hotspot_opcount.c ---- */

struct hotspot_opcount {
	const char *name;     /* --ops NAME, NULL: none asked for */
	bool jmx;             /* NAME is jmx:...: the agent's sampler reads it */
	hsperf_long value;    /* NULL until the JVM publishes it as a long */
	const char *why;      /* static: why value is NULL */
};

void hotspot_opcount_init(struct hotspot_opcount *o, const char *name);
/* Looks the counter up (again, until found: an application creates it
 * when its code first runs). Call after hsperf_refresh adds entries. */
void hotspot_opcount_resolve(struct hotspot_opcount *o, const struct hsperf *p);
/* Fills out's operations: the total, or why there is none. */
void hotspot_opcount_fill(const struct hotspot_opcount *o, struct gt_sample *out);

/* ---- hotspot_watch.c ---- */

/* Every counter of c and o (o may be NULL) is in this many ranges at most. */
#define HOTSPOT_WATCH_MAX 128

/* Fills out (up to max) with the ranges of p's copy that c and o point
 * into: what a poll reads. Returns how many. */
size_t hotspot_watch_ranges(const struct hsperf *p, const struct hotspot_counters *c, const struct hotspot_opcount *o,
			    struct hsperf_range *out, size_t max);

/* ---- hotspot_find.c, from the resolved counters ---- */

/* 0 when the file's sun.rt.createVmBeginTime fits pid's start time (or
 * either is unknown; start_out then stays invalid), else -1 with err: the
 * file was left by an earlier process with the same pid. */
int hotspot_find_same_process(pid_t pid, const struct hotspot_counters *c, const char *path,
			      struct gt_u64 *start_out, struct gt_error *err);

/* ---- hotspot_list.c ---- */

void hotspot_list(struct gt_list *out);

/* ---- hotspot_info.c ---- */

/* Runtime facts of info from the counters: version, collector and its mode,
 * main class, heap-sizing flags, source. */
void hotspot_info_fill(const struct hsperf *p, enum hotspot_gc gc, struct gt_target_info *info);

/* Appends to out (space separated) the options of args that size the heap. */
void hotspot_info_heap_flags(const char *args, char *out, size_t out_len);

/* ---- hotspot.c and hotspot_sample.c: one watched JVM ---- */

struct gt_hotspot_sampler;
struct gt_hotspot_jfr;

struct gt_backend {
	pid_t pid;
	struct hsperf_map map;     /* its path (cut at 255 bytes) names the file in messages */
	struct hsperf perf;
	struct hotspot_counters counters;
	struct hotspot_alloc_estimate alloc;
	struct hotspot_alloc_ring alloc_polls; /* the estimate's total at its polls, for --ops jmx: */
	struct gt_u64 start_time_ms;
	int64_t last_exit_seen[HOTSPOT_COLLECTOR_SLOTS];
	uint64_t pause_max_ns;     /* since the previous sample */
	bool sampled;              /* a previous sample exists, so pause_max_ns covers a whole interval */
	/* The latest completed pause, kept because the counters hide it while
	 * the next pause of the same collector is under way. */
	int64_t last_pause_exit;
	struct gt_u64 last_pause_ns;
	struct gt_hotspot_sampler *sampler; /* the JVMTI agent's segment, once sampling is on */
	struct gt_hotspot_jfr *jfr;         /* or gctop's flight recording (jfr/jfr_sampler.h) */
	/* The perf-data file shrank under the mapping (its owner truncated
	 * it): why, reported by the next sample. */
	bool read_failed;
	struct gt_error read_err;
	struct hotspot_pause_log pauses;
	struct hotspot_jfr_pauses jfr_pauses;
	struct hotspot_durations durations;
	/* The adaptive poll tick: what the last poll saw, when a collection or a
	 * change of eden was last seen, and the time between collections lately. */
	uint64_t seen_collections, seen_eden_used;
	uint64_t last_gc_ns, last_change_ns;
	uint64_t gc_period_ns;     /* 0 until known */
	uint64_t prev_poll_ns;
	int64_t seen_invocations[3], seen_entry[3]; /* collectors 0-2 at the last poll */
	struct hotspot_tick_state tick; /* the intervals, for the polls an interval */
	struct hotspot_causes causes;
	struct hotspot_live live;  /* the live set's points (hotspot_live.c) */
	struct hotspot_opcount opcount;
	struct hsperf_range watch[HOTSPOT_WATCH_MAX]; /* what a poll copies (hotspot_watch.c) */
};

/* hotspot_sample.c: the backend's poll, tick and sample (see
 * collectors/backend.h), the pauses seen since the last poll (count: false
 * only notes where they are, at the open), and the perf data's copy narrowed
 * to what the counters read. */
void hotspot_poll(struct gt_backend *c, uint64_t now_ns);
uint64_t hotspot_poll_interval(const struct gt_backend *c);
int hotspot_sample(struct gt_backend *c, struct gt_sample *out, struct gt_error *err);
void hotspot_note_pauses(struct gt_backend *c, bool count);
void hotspot_watch(struct gt_backend *c);

#endif
