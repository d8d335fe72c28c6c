#include "collectors/dotnet/dotnet_gc_events.h"

#include <string.h>

#include "base/utf16.h"
#include "base/cursor.h"

int gt_dn_parse_gc_start(const uint8_t *p, size_t n, struct gt_dn_gc_start *out)
{
	/* GCStart V0 had Count, Reason (8 bytes); V1 added Depth, Type: use V1+ only. */
	if (n < 16)
		return -1;
	out->count = (uint32_t)gt_le(p, 4);
	out->depth = (uint32_t)gt_le(p + 4, 4);
	out->reason = (uint32_t)gt_le(p + 8, 4);
	out->type = (uint32_t)gt_le(p + 12, 4);
	return 0;
}

int gt_dn_parse_heap_stats(const uint8_t *p, size_t n, struct gt_dn_heap_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 64)
		return -1;
	/* GenerationSize0..3 (gen0 to LOH), each followed by its promoted size */
	for (int g = GT_DN_GEN0; g < GT_DN_POH; g++) {
		out->gen_size[g] = gt_le(p + 16 * g, 8);
		out->promoted[g] = gt_le(p + 16 * g + 8, 8);
	}
	/* V2 appends GenerationSize4 (POH) after ClrInstanceID at offset 94,
	 * then TotalPromotedSize4. */
	if (n >= 102) {
		out->gen_size[GT_DN_POH] = gt_le(p + 94, 8);
		out->has_poh = true;
	}
	if (n >= 110)
		out->promoted[GT_DN_POH] = gt_le(p + 102, 8);
	return 0;
}

int gt_dn_parse_suspend(const uint8_t *p, size_t n, uint32_t *reason)
{
	if (n < 4)
		return -1;
	*reason = (uint32_t)gt_le(p, 4);
	return 0;
}

int gt_dn_parse_global_history(const uint8_t *p, size_t n, struct gt_dn_global_history *out)
{
	memset(out, 0, sizeof(*out));
	if (n < 24)
		return -1;
	out->gen0_budget = gt_le(p, 8);
	out->num_heaps = (int32_t)gt_le(p + 8, 4);
	out->condemned = (uint32_t)gt_le(p + 12, 4);
	out->reason = (uint32_t)gt_le(p + 20, 4);
	/* V2 appends PauseMode and MemoryPressure after ClrInstanceID. */
	if (n >= 34) {
		out->pause_mode = (uint32_t)gt_le(p + 30, 4);
		out->has_pause_mode = true;
	}
	return 0;
}

int gt_dn_parse_per_heap(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_per_heap *out)
{
	memset(out, 0, sizeof(*out));
	if (pointer_size != 4 && pointer_size != 8)
		return -1;
	size_t ptr = (size_t)pointer_size;
	/* ClrInstanceID, six pointer-sized allocation figures, six u32s
	 * (efficiency, two condemn reasons, mechanisms, heap index),
	 * ExtraGen0Commit, Count, then Count records of ten u64s. */
	size_t heap_index_at = 2 + 6 * ptr + 5 * 4;
	size_t count_at = heap_index_at + 4 + ptr;
	size_t data_at = count_at + 4;
	if (n < data_at)
		return -1;
	out->heap_index = (uint32_t)gt_le(p + heap_index_at, 4);
	uint32_t count = (uint32_t)gt_le(p + count_at, 4);
	if (count > (n - data_at) / 80)
		return -1;
	out->n_generations = count < GT_DN_GENS ? count : GT_DN_GENS;
	for (unsigned g = 0; g < out->n_generations; g++) {
		const uint8_t *r = p + data_at + 80 * g;
		/* SizeBefore, FreeListBefore, FreeObjBefore, SizeAfter, FreeListAfter, FreeObjAfter */
		uint64_t size_before = gt_le(r, 8), free_before = gt_le(r + 8, 8) + gt_le(r + 16, 8);
		uint64_t size_after = gt_le(r + 24, 8);
		out->fragmented[g] = gt_le(r + 32, 8) + gt_le(r + 40, 8);
		out->objects_before[g] = size_before > free_before ? size_before - free_before : 0;
		out->objects_after[g] = size_after > out->fragmented[g] ? size_after - out->fragmented[g] : 0;
	}
	return 0;
}

int gt_dn_parse_committed_usage(const uint8_t *p, size_t n, uint64_t *committed)
{
	struct gt_cursor c = gt_cursor_at(p, n);
	char name[32];
	gt_cursor_utf16z(&c, name, sizeof(name));
	uint32_t size = gt_cursor_u32(&c);
	if (c.bad || size > gt_cursor_left(&c))
		return -1;
	if (strcmp(name, "CommittedUsage") != 0)
		return 1;
	if (size < 42)
		return -1;
	const uint8_t *d = gt_cursor_take(&c, size);
	if (!d)
		return -1;
	/* u16 version, then in use, in global decommit, in free, in global
	 * free, bookkeeping: together what the GC has committed. */
	uint64_t sum = 0;
	for (int i = 0; i < 5; i++)
		sum += gt_le(d + 2 + 8 * i, 8);
	*committed = sum;
	return 0;
}

const char *gt_dn_gc_reason_name(uint32_t reason)
{
	static const char *const names[] = {
		"AllocSmall", "Induced", "LowMemory", "Empty", "AllocLarge", "OutOfSpaceSOH",
		"OutOfSpaceLOH", "InducedNotForced", "Internal", "InducedLowMemory",
		"InducedCompacting", "LowMemoryHost", "PMFullGC", "LowMemoryHostBlocking",
	};
	return reason < sizeof(names) / sizeof(names[0]) ? names[reason] : "Unknown";
}

/* ---- state ---- */

void gt_dn_gc_init(struct gt_dn_gc *g, int64_t qpc_freq)
{
	memset(g, 0, sizeof(*g));
	g->qpc_freq = qpc_freq > 0 ? qpc_freq : 1000000000;
	g->pointer_size = 8;
}

/* From to, both the target's timestamps: a hostile pair must neither
 * overflow the difference nor convert a double past 2^64 (undefined). */
static uint64_t ticks_to_ns(const struct gt_dn_gc *g, int64_t from, int64_t to)
{
	if (to <= from)
		return 0;
	uint64_t ticks = (uint64_t)to - (uint64_t)from;
	if (g->qpc_freq == 1000000000)
		return ticks;
	double ns = (double)ticks * 1e9 / (double)g->qpc_freq;
	return ns < 18446744073709551616.0 ? (uint64_t)ns : UINT64_MAX;
}

enum { SUSPEND_FOR_GC = 1, SUSPEND_FOR_GC_PREP = 6 };

/* GCStart's reasons (gt_dn_gc_reason_name's order). */
enum {
	GC_REASON_INDUCED = 1,
	GC_REASON_ALLOC_LARGE = 4,
	GC_REASON_INDUCED_NOT_FORCED = 7,
	GC_REASON_INDUCED_LOW_MEMORY = 9,
	GC_REASON_INDUCED_COMPACTING = 10,
};

static bool reason_induced(uint32_t r)
{
	return r == GC_REASON_INDUCED || r == GC_REASON_INDUCED_NOT_FORCED || r == GC_REASON_INDUCED_LOW_MEMORY ||
	       r == GC_REASON_INDUCED_COMPACTING;
}

static void count_reason(struct gt_dn_gc *g, const struct gt_dn_gc_start *s)
{
	if (reason_induced(s->reason))
		g->induced++;
	if (s->depth == GT_DN_GEN2 && s->reason == GC_REASON_ALLOC_LARGE)
		g->gen2_alloc_large++;
}

void gt_dn_gc_fill_causes(const struct gt_dn_gc *g, struct gt_sample *out)
{
	uint64_t seen = 0;
	for (unsigned d = 0; d < GT_DN_COLLECTED; d++)
		seen += g->by_depth[d];
	gt_u64_set(&out->causes.seen, seen);
	gt_u64_set(&out->causes.induced, g->induced);
	gt_u64_set(&out->causes.gen2, g->by_depth[GT_DN_GEN2]);
	gt_u64_set(&out->causes.gen2_alloc_large, g->gen2_alloc_large);
}

static struct gt_dn_suspension *find_open(struct gt_dn_gc *g, uint64_t tid)
{
	for (unsigned i = 0; i < GT_DN_OPEN_SUSPENSIONS; i++)
		if (g->open[i].used && g->open[i].tid == tid)
			return &g->open[i];
	return NULL;
}

static bool suspends_for_gc(const struct gt_dn_gc *g, uint64_t tid)
{
	unsigned n = g->n_gc_suspenders < GT_DN_GC_SUSPENDERS ? g->n_gc_suspenders : GT_DN_GC_SUSPENDERS;
	for (unsigned i = 0; i < n; i++)
		if (g->gc_suspenders[i] == tid)
			return true;
	return false;
}

static void suspension_begin(struct gt_dn_gc *g, uint64_t tid, int64_t ts, uint32_t reason)
{
	if (reason == SUSPEND_FOR_GC && !suspends_for_gc(g, tid))
		g->gc_suspenders[g->n_gc_suspenders++ % GT_DN_GC_SUSPENDERS] = tid;
	struct gt_dn_suspension *s = find_open(g, tid);
	/* A thread suspends once at a time: an open one on it lost its end. */
	for (unsigned i = 0; !s && i < GT_DN_OPEN_SUSPENSIONS; i++)
		if (!g->open[i].used)
			s = &g->open[i];
	/* More threads than slots: the oldest start is the likeliest stale. */
	if (!s) {
		s = &g->open[0];
		for (unsigned i = 1; i < GT_DN_OPEN_SUSPENSIONS; i++)
			if (g->open[i].ts < s->ts)
				s = &g->open[i];
	}
	*s = (struct gt_dn_suspension){ true, reason, tid, ts };
}

static void record_pause(struct gt_dn_gc *g, int64_t from, int64_t to, bool final_mark)
{
	uint64_t ns = ticks_to_ns(g, from, to);
	g->pause_span[g->pause_count % GT_PAUSE_RING] = (struct gt_dn_pause_span){ from, to, final_mark };
	g->pause_total_ns += ns;
	g->last_pause_ns = ns;
	g->have_pause = true;
	if (ns > g->window_max_pause_ns)
		g->window_max_pause_ns = ns;
	g->pause_log[g->pause_count % GT_PAUSE_RING] = ns;
	g->pause_count++;
}

/* A ForGCPrep suspension is a pause unless its thread also suspends ForGC
 * (the heap count changing under DATAS, see dotnet_gc_events.h). */
static bool suspension_is_pause(const struct gt_dn_gc *g, const struct gt_dn_suspension *s)
{
	return s->reason == SUSPEND_FOR_GC || !suspends_for_gc(g, s->tid);
}

static void suspension_end(struct gt_dn_gc *g, uint64_t tid, int64_t ts)
{
	/* A restart on a thread with no GC suspension under way ends one that
	 * was not for a GC (the debugger's, a precise allocation count). */
	struct gt_dn_suspension *s = find_open(g, tid);
	if (!s)
		return;
	s->used = false;
	if (suspension_is_pause(g, s))
		record_pause(g, s->ts, ts, s->reason == SUSPEND_FOR_GC_PREP);
}

/* Bytes allocated into one generation of one heap since its previous GC
 * (see gt_dn_gc). A background GC's sweep can free LOH objects between two
 * GCs, so a drop is counted as nothing rather than as negative allocation. */
static uint64_t allocated_since(uint64_t before, uint64_t after_last)
{
	return before > after_last ? before - after_last : 0;
}

static void count_alloc(struct gt_dn_gc *g, const struct gt_dn_per_heap *h)
{
	static const int into[3] = { GT_DN_GEN0, GT_DN_LOH, GT_DN_POH };
	if (h->heap_index >= GT_DN_MAX_HEAPS)
		return;
	uint32_t i = h->heap_index;
	if (g->loh_seen[i]) {
		uint64_t loh = allocated_since(h->objects_before[GT_DN_LOH], g->alloc_after[i][1]);
		g->loh_alloc_total += loh;
		g->gc_alloc_total += loh;
		g->gc_alloc_total += allocated_since(h->objects_before[GT_DN_GEN0], g->alloc_after[i][0]);
		g->gc_alloc_total += allocated_since(h->objects_before[GT_DN_POH], g->alloc_after[i][2]);
		g->have_loh_alloc = true;
	}
	for (int k = 0; k < 3; k++)
		g->alloc_after[i][k] = h->objects_after[into[k]];
	g->loh_seen[i] = true;
}

/* ---- the live set ---- */

static struct gt_dn_live_wait *live_wait_of(struct gt_dn_gc *g, uint64_t tid)
{
	for (unsigned i = 0; i < GT_DN_LIVE_THREADS; i++)
		if (g->live_wait[i].used && g->live_wait[i].tid == tid)
			return &g->live_wait[i];
	return NULL;
}

/* A GCEnd: its thread's next GCHeapStats describes this GC. A GC that
 * started as a background GC can go on as a blocking one (seen on .NET 10,
 * Workstation and Server: GCStart of type background, then its GCEnd on
 * the thread that started it, within its suspension, and
 * GC.GetGCMemoryInfo lists it as FullBlocking): a background GC ends on
 * the background GC's own thread. */
static void live_gc_end(struct gt_dn_gc *g, uint64_t tid, uint32_t index, uint32_t depth)
{
	struct gt_dn_live_wait *w = live_wait_of(g, tid);
	/* more GC threads than slots: the one written to longest ago goes */
	if (!w)
		w = &g->live_wait[g->next_live_wait++ % GT_DN_LIVE_THREADS];
	bool background = g->bgc_index != 0 && index == g->bgc_index && tid != g->bgc_start_tid;
	*w = (struct gt_dn_live_wait){ true, tid, index, depth, background };
}

/* A GCHeapStats: a point of the live set when its thread's GC was a gen2
 * (the stats carry no depth: TraceEvent's Depth guesses it from which
 * promoted figures are not 0). Checked on .NET 10, Workstation and Server:
 * a background GC's stats follow its GCEnd on its own thread too, and the
 * sum equals GC.GetGCMemoryInfo's PromotedBytes of the same GC less the
 * POH's size (8184 bytes of the runtime's own pinned arrays), which
 * GetGCMemoryInfo counts and TotalPromotedSize4 leaves out (0). */
static void live_heap_stats(struct gt_dn_gc *g, uint64_t tid, int64_t ts, const struct gt_dn_heap_stats *h)
{
	struct gt_dn_live_wait *w = live_wait_of(g, tid);
	if (!w)
		return;
	w->used = false;
	if (w->depth != GT_DN_GEN2)
		return;
	uint64_t kept = 0;
	for (int k = GT_DN_GEN0; k < GT_DN_GENS; k++)
		kept = h->promoted[k] > UINT64_MAX - kept ? UINT64_MAX : kept + h->promoted[k];
	struct gt_dn_live_point *p = &g->live[g->live_count++ % GT_LIVE_RING];
	*p = (struct gt_dn_live_point){ kept, ts, w->background };
}

static void heap_stats_event(struct gt_dn_gc *g, uint64_t tid, int64_t ts, const uint8_t *payload, size_t len)
{
	struct gt_dn_heap_stats h;
	if (gt_dn_parse_heap_stats(payload, len, &h) != 0)
		return;
	live_heap_stats(g, tid, ts, &h);
	if (!g->have_heap || ts >= g->heap_ts) {
		g->heap = h;
		g->heap_ts = ts;
		g->have_heap = true;
	}
}

void gt_dn_gc_event(struct gt_dn_gc *g, uint32_t event_id, uint64_t thread_id, int64_t ts,
		    const uint8_t *payload, size_t len)
{
	switch (event_id) {
	case GT_DN_EV_GC_START: {
		struct gt_dn_gc_start s;
		if (gt_dn_parse_gc_start(payload, len, &s) != 0 || s.depth >= GT_DN_COLLECTED)
			return;
		g->by_depth[s.depth]++;
		g->gc_start_ts[g->gc_started++ % GT_DN_GC_STARTS] = ts;
		count_reason(g, &s);
		g->gc_index = s.count;
		g->last_reason = s.reason;
		g->have_reason = true;
		if (s.type == 1) {
			g->background_running = true;
			g->bgc_index = s.count;
			g->bgc_start_tid = thread_id;
		}
		break;
	}
	case GT_DN_EV_GC_END:
		if (len >= 4)
			gt_dn_frag_gc_end(&g->frag, thread_id, (uint32_t)gt_le(payload, 4), ts);
		if (len >= 8)
			live_gc_end(g, thread_id, (uint32_t)gt_le(payload, 4), (uint32_t)gt_le(payload + 4, 4));
		/* A background GC ends with its own GCEnd at depth 2; ephemeral GCs
		 * during it end earlier, so only the depth-2 end clears the flag. */
		if (len >= 8 && gt_le(payload + 4, 4) == 2)
			g->background_running = false;
		break;
	case GT_DN_EV_SUSPEND_EE_BEGIN: {
		uint32_t reason;
		if (gt_dn_parse_suspend(payload, len, &reason) == 0 &&
		    (reason == SUSPEND_FOR_GC || reason == SUSPEND_FOR_GC_PREP))
			suspension_begin(g, thread_id, ts, reason);
		break;
	}
	case GT_DN_EV_RESTART_EE_BEGIN:
		suspension_end(g, thread_id, ts);
		break;
	case GT_DN_EV_HEAP_STATS:
		heap_stats_event(g, thread_id, ts, payload, len);
		break;
	case GT_DN_EV_GLOBAL_HEAP_HISTORY: {
		struct gt_dn_global_history h;
		if (gt_dn_parse_global_history(payload, len, &h) != 0)
			break;
		if (!g->have_history || ts >= g->history_ts) {
			g->history = h;
			g->history_ts = ts;
			g->have_history = true;
		}
		gt_dn_frag_global(&g->frag, thread_id, h.num_heaps);
		break;
	}
	case GT_DN_EV_PER_HEAP_HISTORY: {
		struct gt_dn_per_heap h;
		if (gt_dn_parse_per_heap(payload, len, g->pointer_size, &h) == 0 && h.n_generations == 5) {
			gt_dn_frag_heap(&g->frag, thread_id, h.fragmented);
			count_alloc(g, &h);
		}
		break;
	}
	case GT_DN_EV_GC_DYNAMIC: {
		uint64_t c;
		if (gt_dn_parse_committed_usage(payload, len, &c) == 0) {
			g->committed = c;
			g->have_committed = true;
		}
		break;
	}
	default:
		break;
	}
}

bool gt_dn_gc_suspended(const struct gt_dn_gc *g)
{
	for (unsigned i = 0; i < GT_DN_OPEN_SUSPENSIONS; i++)
		if (g->open[i].used)
			return true;
	return false;
}

void gt_dn_gc_forget_suspensions(struct gt_dn_gc *g)
{
	memset(g->open, 0, sizeof(g->open));
}

/* Pause time up to the moment at (gt_dn_gc_fill_pause_at), the
 * suspensions under way up to open_at. */
static uint64_t pause_until(const struct gt_dn_gc *g, int64_t at, int64_t open_at)
{
	uint64_t total = g->pause_total_ns, later = 0;
	uint64_t kept = g->pause_count < GT_PAUSE_RING ? g->pause_count : GT_PAUSE_RING;
	for (uint64_t k = g->pause_count - kept; k < g->pause_count; k++) {
		const struct gt_dn_pause_span *p = &g->pause_span[k % GT_PAUSE_RING];
		later += ticks_to_ns(g, p->from > at ? p->from : at, p->to);
	}
	/* later <= total: each part is of a pause counted in it */
	total -= later < total ? later : total;
	for (unsigned i = 0; i < GT_DN_OPEN_SUSPENSIONS; i++)
		if (g->open[i].used && suspension_is_pause(g, &g->open[i]))
			total += ticks_to_ns(g, g->open[i].ts, open_at < at ? open_at : at);
	return total;
}

uint64_t gt_dn_gc_pause_until(const struct gt_dn_gc *g, int64_t at)
{
	return pause_until(g, at, at);
}

bool gt_dn_gc_final_marks(const struct gt_dn_gc *g, int64_t after, int64_t until, uint64_t *n)
{
	uint64_t kept = g->pause_count < GT_PAUSE_RING ? g->pause_count : GT_PAUSE_RING;
	/* a pause older than the ring could have been one */
	if (kept == GT_PAUSE_RING && g->pause_span[g->pause_count % GT_PAUSE_RING].from > after)
		return false;
	*n = 0;
	for (uint64_t k = g->pause_count - kept; k < g->pause_count; k++) {
		const struct gt_dn_pause_span *p = &g->pause_span[k % GT_PAUSE_RING];
		if (p->final_mark && p->from > after && p->from <= until)
			(*n)++;
	}
	return true;
}

void gt_dn_gc_credit_pause(struct gt_dn_gc *g, uint64_t mono_ns, int64_t at, uint64_t known, struct gt_sample *out)
{
	/* a moment before the last one is a clock gone wrong: no window */
	if (g->have_pause_at && at >= g->pause_at && mono_ns > g->pause_at_mono) {
		uint64_t owed = known > g->pause_credited ? known - g->pause_credited : 0;
		uint64_t room = mono_ns - g->pause_at_mono;
		out->pause_at.valid = true;
		out->pause_at.prev_ns = g->pause_at_mono;
		out->pause_at.prev_total = g->pause_credited;
		g->pause_credited += owed < room ? owed : room;
		out->pause_at.total = g->pause_credited;
	} else {
		/* what happened before the first window is no interval's */
		g->pause_credited = known;
	}
	g->pause_at = at;
	g->pause_at_mono = mono_ns;
	g->have_pause_at = true;
}

void gt_dn_gc_fill_pause_at(struct gt_dn_gc *g, uint64_t mono_ns, int64_t at, struct gt_sample *out)
{
	/* hostile timestamps: at - lag must not wrap */
	int64_t open_at = at > INT64_MIN + GT_DN_STREAM_LAG_NS ? at - GT_DN_STREAM_LAG_NS : INT64_MIN;
	gt_dn_gc_credit_pause(g, mono_ns, at, pause_until(g, at, open_at), out);
}

uint64_t gt_dn_gc_collections_until(const struct gt_dn_gc *g, int64_t at)
{
	uint64_t kept = g->gc_started < GT_DN_GC_STARTS ? g->gc_started : GT_DN_GC_STARTS, later = 0;
	/* GCs start in the stream in time order but for a background GC's
	 * ephemeral ones, written by other threads: count each by its time */
	for (uint64_t k = g->gc_started - kept; k < g->gc_started; k++)
		if (g->gc_start_ts[k % GT_DN_GC_STARTS] > at)
			later++;
	return g->gc_started - later;
}

uint64_t gt_dn_gc_take_window_max(struct gt_dn_gc *g)
{
	uint64_t m = g->window_max_pause_ns;
	g->window_max_pause_ns = 0;
	return m;
}
