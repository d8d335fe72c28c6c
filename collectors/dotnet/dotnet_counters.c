#include "collectors/dotnet/dotnet_counters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void gt_dn_series_add(struct gt_dn_series *s, int64_t ts, uint64_t value)
{
	/* Events of one provider come from one thread in order; an older
	 * timestamp is a replay and would break the interpolation. */
	if (s->count > 0) {
		unsigned last = (s->next + GT_DN_SERIES_LEN - 1) % GT_DN_SERIES_LEN;
		if (ts <= s->ts[last])
			return;
		if (value < s->value[last])
			value = s->value[last];
	}
	s->ts[s->next] = ts;
	s->value[s->next] = value;
	s->next = (s->next + 1) % GT_DN_SERIES_LEN;
	if (s->count < GT_DN_SERIES_LEN)
		s->count++;
}

bool gt_dn_series_nth(const struct gt_dn_series *s, unsigned age, int64_t *ts, uint64_t *value)
{
	if (age >= s->count)
		return false;
	unsigned i = (s->next + 2 * GT_DN_SERIES_LEN - 1 - age) % GT_DN_SERIES_LEN;
	*ts = s->ts[i];
	*value = s->value[i];
	return true;
}

bool gt_dn_series_at(const struct gt_dn_series *s, int64_t ts, uint64_t *value)
{
	if (s->count == 0)
		return false;
	unsigned first = (s->next + GT_DN_SERIES_LEN - s->count) % GT_DN_SERIES_LEN;
	if (ts <= s->ts[first]) {
		*value = s->value[first];
		return true;
	}
	for (unsigned k = 1; k < s->count; k++) {
		unsigned a = (first + k - 1) % GT_DN_SERIES_LEN, b = (first + k) % GT_DN_SERIES_LEN;
		if (ts <= s->ts[b]) {
			/* in doubles: hostile timestamps could overflow an int64 difference */
			double f = ((double)ts - (double)s->ts[a]) / ((double)s->ts[b] - (double)s->ts[a]);
			*value = s->value[a] + (uint64_t)llround(f * (double)(s->value[b] - s->value[a]));
			return true;
		}
	}
	*value = s->value[(s->next + GT_DN_SERIES_LEN - 1) % GT_DN_SERIES_LEN];
	return true;
}

void gt_dn_counters_init(struct gt_dn_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->qpc_freq = 1000000000;
}

/* The fields gctop reads of an EventCounters payload. */
struct fields {
	char name[96];
	double mean, increment, interval_s;
	bool have_mean, have_increment, have_interval;
};

static void on_field(void *ctx, const char *name, const struct gt_nettrace_value *v)
{
	struct fields *f = ctx;
	if (strcmp(name, "Name") == 0 && v->string)
		snprintf(f->name, sizeof(f->name), "%s", v->string);
	else if (strcmp(name, "Mean") == 0 && !v->string) {
		f->mean = v->number;
		f->have_mean = true;
	} else if (strcmp(name, "IntervalSec") == 0 && !v->string) {
		f->interval_s = v->number;
		f->have_interval = true;
	} else if (strcmp(name, "Increment") == 0 && !v->string) {
		f->increment = v->number;
		f->have_increment = true;
	}
}

/* The runtime's total is a sum over the GC heaps active at the poll
 * (GCHeap::GetTotalAllocatedBytes): when DATAS takes heaps away it falls
 * by what they had allocated, and rises by as much when they return
 * (dotnet/runtime#131069, fixed after .NET 10). So the runtime's running
 * total is followed as it is, and gctop's is its highest: never more than
 * the truth, and equal to it again once every heap is back. While the
 * runtime's is below its highest, what the remaining heaps allocate is not
 * seen, and the polls are counted as held back. */
#define ALLOC_RAW_LIMIT (INT64_C(1) << 62)

static bool sane(double v)
{
	return isfinite(v) && v >= 0 && v < 1.8e19;
}

/* An alloc-rate increment: negative when DATAS took heaps away. */
static bool sane_increment(double v)
{
	return isfinite(v) && fabs(v) < (double)ALLOC_RAW_LIMIT;
}

static int size_index(const char *name)
{
	static const char *const names[GT_DN_GENS] = {
		[GT_DN_GEN0] = "gen-0-size", [GT_DN_GEN1] = "gen-1-size", [GT_DN_GEN2] = "gen-2-size",
		[GT_DN_LOH] = "loh-size", [GT_DN_POH] = "poh-size",
	};
	for (int i = 0; i < GT_DN_GENS; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* The longest IntervalSec taken as one (seconds): the runtime's polls are
 * a second apart here, and a hostile figure must not make a span of years. */
#define INTERVAL_MAX_S 3600.0

/* interval_ns: the poll's IntervalSec, 0 where it has none. */
static void alloc_poll(struct gt_dn_counters *c, int64_t ts, int64_t increment, uint64_t interval_ns)
{
	if (c->have_alloc) {
		/* events of one provider come from one thread in order: an older
		 * or equal timestamp is a replay */
		if (ts <= c->alloc_ts)
			return;
		c->alloc_prev_ts = c->alloc_ts;
		c->alloc_prev_total = c->alloc_total;
		c->alloc_ts = ts;
		c->alloc_raw += increment;
		if (c->alloc_raw > ALLOC_RAW_LIMIT || c->alloc_raw < -ALLOC_RAW_LIMIT)
			c->alloc_raw = c->alloc_raw > 0 ? ALLOC_RAW_LIMIT : -ALLOC_RAW_LIMIT;
		if (c->alloc_raw > (int64_t)c->alloc_total)
			c->alloc_total = (uint64_t)c->alloc_raw;
		else if (c->alloc_raw < (int64_t)c->alloc_total)
			c->alloc_held_polls++;
		gt_dn_series_add(&c->alloc_polls, ts, c->alloc_total);
		gt_dn_series_add(&c->alloc_held, ts, c->alloc_held_polls);
		return;
	}
	/* The first poll's increment runs from the last poll the runtime made
	 * for any session, if its counter group was running (another session,
	 * or one that ended: the group keeps its cadence), which IntervalSec
	 * spans; else from the moment this session's enable reset the counter,
	 * which the runtime does not stamp: it stamps the interval's start
	 * after resetting every counter of the group, and its end before
	 * reading them one by one, so on first use (JIT, a loaded machine) the
	 * increment spans 20-300 ms more than its IntervalSec says (measured on
	 * .NET 10: first figures 2-15% high). gctop times the enable itself
	 * (first_counts): the increment counts, over the longer of IntervalSec
	 * and the time since (dotnet.c). Without that (.NET 8 even sends every
	 * byte since the process started as its first) it only starts the
	 * count. Between two polls both ends are event timestamps. */
	c->have_alloc = true;
	c->alloc_ts = c->alloc_prev_ts = ts;
	c->alloc_raw = c->first_counts && increment > 0 ? increment : 0;
	c->alloc_total = c->alloc_prev_total = (uint64_t)c->alloc_raw;
	c->alloc_first_counted = c->first_counts;
	c->alloc_first_interval_ns = interval_ns;
	gt_dn_series_add(&c->alloc_polls, ts, c->alloc_total);
	gt_dn_series_add(&c->alloc_held, ts, c->alloc_held_polls);
}

/* How much more pause time than wall time one poll's increment can hold
 * (ns): a poll's read and its event's timestamp are apart by a pause now
 * and then. An increment beyond the time since the poll before plus this
 * is no interval's growth (a session started again on .NET 8, whose first
 * increment is the whole total; a hostile figure) and adds nothing. */
#define PAUSE_INCREMENT_SLACK_NS 1e9

/* A total-pause-time-by-gc poll: the running total since the first. */
static void pause_poll(struct gt_dn_counters *c, int64_t ts, double increment_ms)
{
	int64_t last_ts;
	uint64_t last;
	if (gt_dn_series_nth(&c->pause_polls, 0, &last_ts, &last)) {
		/* an older or equal timestamp is a replay (gt_dn_series_add) */
		if (ts <= last_ts)
			return;
		double ns = increment_ms * 1e6;
		/* in doubles: hostile timestamps could overflow an int64 difference */
		if (isfinite(ns) && ns > 0 && ns <= (double)ts - (double)last_ts + PAUSE_INCREMENT_SLACK_NS)
			c->pause_total_ns += (uint64_t)llround(ns);
	}
	gt_dn_series_add(&c->pause_polls, ts, c->pause_total_ns);
}

void gt_dn_counters_event(struct gt_dn_counters *c, const struct gt_nettrace_event *e)
{
	const char *prov = e->meta->provider;
	bool runtime = strcmp(prov, "System.Runtime") == 0;
	bool hosting = strcmp(prov, "Microsoft.AspNetCore.Hosting") == 0;
	if ((!runtime && !hosting) || strcmp(e->meta->event_name, "EventCounters") != 0)
		return;
	struct fields f;
	memset(&f, 0, sizeof(f));
	if (gt_nettrace_decode(e->meta, e->payload, e->payload_len, on_field, &f) != 0)
		return;
	if (runtime && strcmp(f.name, "alloc-rate") == 0 && f.have_increment && sane_increment(f.increment)) {
		bool interval = f.have_interval && isfinite(f.interval_s) && f.interval_s > 0 && f.interval_s < INTERVAL_MAX_S;
		alloc_poll(c, e->timestamp, (int64_t)llround(f.increment), interval ? (uint64_t)llround(f.interval_s * 1e9) : 0);
	} else if (runtime && strcmp(f.name, "total-pause-time-by-gc") == 0 && f.have_increment) {
		pause_poll(c, e->timestamp, f.increment);
	} else if (runtime && f.have_mean && sane(f.mean) && size_index(f.name) >= 0) {
		int i = size_index(f.name);
		c->size[i] = (uint64_t)llround(f.mean);
		c->size_valid[i] = true;
	} else if (runtime && strcmp(f.name, "gc-committed") == 0 && f.have_mean && sane(f.mean * 1e6)) {
		/* published in MB (1e6 bytes) with the bytes in its decimals */
		c->committed = (uint64_t)llround(f.mean * 1e6);
		c->have_committed = true;
	} else if (hosting && strcmp(f.name, "total-requests") == 0 && f.have_mean && sane(f.mean)) {
		gt_dn_series_add(&c->requests, e->timestamp, (uint64_t)llround(f.mean));
	}
}
