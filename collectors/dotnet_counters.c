#include "dotnet_counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
			double f = (double)(ts - s->ts[a]) / (double)(s->ts[b] - s->ts[a]);
			*value = s->value[a] + (uint64_t)llround(f * (double)(s->value[b] - s->value[a]));
			return true;
		}
	}
	*value = s->value[(s->next + GT_DN_SERIES_LEN - 1) % GT_DN_SERIES_LEN];
	return true;
}

void gt_dn_counters_init(struct gt_dn_counters *c, bool expect_metrics)
{
	memset(c, 0, sizeof(*c));
	c->expect_metrics = expect_metrics;
}

/* The fields gctop reads of an EventCounters or Metrics payload. */
struct fields {
	char name[96];          /* EventCounters Name, Metrics instrumentName */
	char meter[64];
	char tags[96];
	char value[48];         /* Metrics value (v1+): the absolute figure, as text */
	char counter_type[16];
	char error[160];
	double mean, increment;
	bool have_mean, have_increment;
};

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static void on_field(void *ctx, const char *name, const struct gt_nettrace_value *v)
{
	struct fields *f = ctx;
	if (strcmp(name, "Name") == 0 || strcmp(name, "instrumentName") == 0)
		copy(f->name, sizeof(f->name), v->string);
	else if (strcmp(name, "meterName") == 0)
		copy(f->meter, sizeof(f->meter), v->string);
	else if (strcmp(name, "tags") == 0)
		copy(f->tags, sizeof(f->tags), v->string);
	else if (strcmp(name, "value") == 0 || strcmp(name, "lastValue") == 0)
		copy(f->value, sizeof(f->value), v->string);
	else if (strcmp(name, "CounterType") == 0)
		copy(f->counter_type, sizeof(f->counter_type), v->string);
	else if (strcmp(name, "errorMessage") == 0)
		copy(f->error, sizeof(f->error), v->string);
	else if (strcmp(name, "Mean") == 0 && !v->string) {
		f->mean = v->number;
		f->have_mean = true;
	} else if (strcmp(name, "Increment") == 0 && !v->string) {
		f->increment = v->number;
		f->have_increment = true;
	}
}

/* Metric values are invariant-culture decimal text ("123", "0.0187",
 * "1.2E+15"); non-numeric or negative text is rejected. */
static bool parse_number(const char *s, double *out)
{
	if (!s[0])
		return false;
	char *end;
	double v = strtod(s, &end);
	if (*end || !isfinite(v) || v < 0 || v > 1.8e19)
		return false;
	*out = v;
	return true;
}

static int generation_index(const char *tags)
{
	static const char *const names[] = { "gen0", "gen1", "gen2", "loh", "poh" };
	const char *p = strstr(tags, "gc.heap.generation=");
	if (!p)
		return -1;
	p += strlen("gc.heap.generation=");
	for (int i = 0; i < 5; i++) {
		size_t n = strlen(names[i]);
		if (strncmp(p, names[i], n) == 0 && (p[n] == '\0' || p[n] == ','))
			return i;
	}
	return -1;
}

enum {
	METRICS_COUNTER_RATE = 4,
	METRICS_GAUGE = 5,
	METRICS_ERROR = 9,
	METRICS_MULTIPLE_SESSIONS = 15,
	METRICS_UPDOWN_RATE = 16,
	METRICS_MISCONFIGURED = 17,
};

static void on_metric(struct gt_dn_counters *c, struct gt_dn_gc *gc, const struct gt_nettrace_event *e,
		      const struct fields *f)
{
	uint32_t id = e->meta->event_id;
	if (id == METRICS_ERROR || id == METRICS_MULTIPLE_SESSIONS || id == METRICS_MISCONFIGURED) {
		c->metrics_failed = true;
		copy(c->metrics_error, sizeof(c->metrics_error), f->error[0] ? f->error : e->meta->event_name);
		return;
	}
	if (id != METRICS_COUNTER_RATE && id != METRICS_UPDOWN_RATE && id != METRICS_GAUGE)
		return;
	if (strcmp(f->meter, "System.Runtime") != 0)
		return;
	double v;
	if (!parse_number(f->value, &v))
		return;
	uint64_t u = (uint64_t)llround(v);
	if (strcmp(f->name, "dotnet.gc.heap.total_allocated") == 0) {
		gt_dn_series_add(&c->alloc, e->timestamp, u);
		c->alloc_since_start = true;
	} else if (strcmp(f->name, "dotnet.gc.collections") == 0) {
		/* The meter counts a GC under its deepest generation only. */
		int g = generation_index(f->tags);
		if (g >= 0 && g <= 2)
			gt_dn_total_anchor(&gc->by_depth[g], e->timestamp, u);
	} else if (strcmp(f->name, "dotnet.gc.pause.time") == 0) {
		/* The figure counts a pause once it is over: anchor on restart times. */
		c->pause_total_ns = (uint64_t)llround(v * 1e9);
		c->have_pause_total = true;
		gt_dn_total_anchor(&gc->pause_ns, e->timestamp, c->pause_total_ns);
	} else if (strcmp(f->name, "dotnet.gc.last_collection.heap.size") == 0) {
		int g = generation_index(f->tags);
		if (g >= 0) {
			c->size[g] = u;
			c->size_valid[g] = true;
			c->have_sizes = true;
		}
	} else if (strcmp(f->name, "dotnet.gc.last_collection.heap.fragmentation.size") == 0) {
		int g = generation_index(f->tags);
		if (g >= 0) {
			c->fragmented[g] = u;
			c->fragmented_valid[g] = true;
		}
	} else if (strcmp(f->name, "dotnet.gc.last_collection.memory.committed_size") == 0) {
		c->committed = u;
		c->have_committed = true;
	}
}

static void on_event_counter(struct gt_dn_counters *c, const struct gt_nettrace_event *e, const struct fields *f)
{
	if (strcmp(e->meta->provider, "Microsoft.AspNetCore.Hosting") == 0) {
		if (strcmp(f->name, "total-requests") == 0 && f->have_mean && f->mean >= 0 && f->mean < 1.8e19)
			gt_dn_series_add(&c->requests, e->timestamp, (uint64_t)llround(f->mean));
		return;
	}
	/* Only without the meter: its totals are exact since start, these
	 * increments only since attach. */
	if (strcmp(f->name, "alloc-rate") == 0 && f->have_increment && f->increment >= 0 &&
	    (!c->expect_metrics || c->metrics_failed) && !c->alloc_since_start) {
		c->alloc_increments += (uint64_t)llround(f->increment);
		gt_dn_series_add(&c->alloc, e->timestamp, c->alloc_increments);
	}
}

void gt_dn_counters_event(struct gt_dn_counters *c, struct gt_dn_gc *gc, const struct gt_nettrace_event *e)
{
	const char *prov = e->meta->provider;
	bool metrics = strcmp(prov, "System.Diagnostics.Metrics") == 0;
	bool counters = strcmp(e->meta->event_name, "EventCounters") == 0 &&
			(strcmp(prov, "System.Runtime") == 0 || strcmp(prov, "Microsoft.AspNetCore.Hosting") == 0);
	if (!metrics && !counters)
		return;
	struct fields f;
	memset(&f, 0, sizeof(f));
	if (gt_nettrace_decode(e->meta, e->payload, e->payload_len, on_field, &f) != 0)
		return;
	if (metrics)
		on_metric(c, gc, e, &f);
	else
		on_event_counter(c, e, &f);
}
