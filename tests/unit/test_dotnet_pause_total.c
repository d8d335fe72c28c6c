/* The .NET pause time from the runtime's own counter
 * (collectors/dotnet/dotnet_pause_total.h): the polls' running total, and
 * the total placed between two polls by the events. */
#include <stdio.h>
#include <string.h>

#include "collectors/dotnet/dotnet_counters.h"
#include "collectors/dotnet/dotnet_gc_events.h"
#include "collectors/dotnet/dotnet_pause_total.h"
#include "tests/unit/check.h"

#define S 1000000000LL
#define MS 1000000LL

static const uint8_t suspend_for_gc[10] = { 1, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t suspend_for_gc_prep[10] = { 6, 0, 0, 0, 9, 0, 0, 0, 0, 0 };
static const uint8_t restart[2] = { 0, 0 };

/* total-pause-time-by-gc as the runtime sends it: { Payload: { Name,
 * Increment } }, the increment in ms. */
static void poll(struct gt_dn_counters *c, int64_t ts, double increment_ms)
{
	static struct gt_nettrace_meta m;
	static struct gt_nettrace_field f[3];
	memset(&m, 0, sizeof(m));
	snprintf(m.provider, sizeof(m.provider), "System.Runtime");
	snprintf(m.event_name, sizeof(m.event_name), "EventCounters");
	f[0] = (struct gt_nettrace_field){ .type = GT_NT_OBJECT, .subtree = 3, .n_children = 2, .name = "Payload" };
	f[1] = (struct gt_nettrace_field){ .type = GT_NT_STRING, .subtree = 1, .name = "Name" };
	f[2] = (struct gt_nettrace_field){ .type = GT_NT_DOUBLE, .subtree = 1, .name = "Increment" };
	m.fields = f;
	m.n_fields = 3;
	m.n_top = 1;
	m.fields_decodable = true;
	uint8_t p[128];
	size_t n = 0;
	for (const char *s = "total-pause-time-by-gc"; *s; s++) {
		p[n++] = (uint8_t)*s;
		p[n++] = 0;
	}
	p[n++] = 0;
	p[n++] = 0;
	memcpy(p + n, &increment_ms, 8);
	struct gt_nettrace_event e = { .meta = &m, .payload = p, .payload_len = (uint32_t)(n + 8), .timestamp = ts };
	gt_dn_counters_event(c, &e);
}

/* The first poll only starts the count (.NET 8 sends the whole total since
 * the process started first); each later one adds its increment; a replay,
 * a negative or non-finite increment and one longer than the time since the
 * poll before (plus a second) add nothing. */
static void test_polls_add_up(void)
{
	static struct gt_dn_counters c;
	gt_dn_counters_init(&c);
	poll(&c, 10 * S, 5000.0);
	CHECK_U64(c.pause_total_ns, 0);
	poll(&c, 11 * S, 120.5);
	CHECK_U64(c.pause_total_ns, 120500000);
	poll(&c, 11 * S, 300.0);                   /* a replay */
	poll(&c, 12 * S, -4.0);
	poll(&c, 13 * S, 0.0 / 0.0);
	CHECK_U64(c.pause_total_ns, 120500000);
	poll(&c, 14 * S, 2500.0);                  /* 2.5 s in 1 s */
	CHECK_U64(c.pause_total_ns, 120500000);
	poll(&c, 15 * S, 1400.0);                  /* a pause that held the poll back */
	CHECK_U64(c.pause_total_ns, 1520500000);
	CHECK_U64(c.pause_polls.count, 6);
}

static void pause_on(struct gt_dn_gc *g, uint64_t tid, const uint8_t *suspend, int64_t from, int64_t to)
{
	gt_dn_gc_event(g, GT_DN_EV_SUSPEND_EE_BEGIN, tid, from, suspend, 10);
	gt_dn_gc_event(g, GT_DN_EV_RESTART_EE_BEGIN, tid, to, restart, sizeof(restart));
}

/* Between two polls 100 ms apart in the runtime's count, the events saw a
 * 20 ms blocking pause and a 30 ms final mark: the pauses as timed, and
 * the 50 ms they missed at the final mark's start (the runtime's clock for
 * it starts before its suspension); exact at the polls; none before the
 * first poll. */
static void test_missed_time_at_the_final_mark(void)
{
	static struct gt_dn_counters c;
	static struct gt_dn_gc g;
	gt_dn_counters_init(&c);
	gt_dn_gc_init(&g, 1000000000);
	poll(&c, 10 * S, 0);
	pause_on(&g, 1, suspend_for_gc, 10 * S + 200 * MS, 10 * S + 220 * MS);
	pause_on(&g, 2, suspend_for_gc_prep, 10 * S + 600 * MS, 10 * S + 630 * MS);
	poll(&c, 11 * S, 100.0);
	uint64_t t = 1;
	CHECK(!gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S - 1, &t));
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S, &t));
	CHECK_U64(t, 0);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S + 210 * MS, &t));
	CHECK_U64(t, 10 * MS);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S + 500 * MS, &t));
	CHECK_U64(t, 20 * MS);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S + 615 * MS, &t));
	CHECK_U64(t, 85 * MS);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 11 * S, &t));
	CHECK_U64(t, 100 * MS);
	/* after the last poll (a long pause holds the next back): the events'
	 * pauses since, one under way counted up to the moment */
	gt_dn_gc_event(&g, GT_DN_EV_SUSPEND_EE_BEGIN, 1, 11 * S + 100 * MS, suspend_for_gc, 10);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 13 * S + 100 * MS, &t));
	CHECK_U64(t, 2100 * MS);
}

/* With no final mark between the polls the counter's growth is spread as
 * the events' pauses are; with no pause seen, linearly. */
static void test_spread_without_a_final_mark(void)
{
	static struct gt_dn_counters c;
	static struct gt_dn_gc g;
	gt_dn_counters_init(&c);
	gt_dn_gc_init(&g, 1000000000);
	poll(&c, 10 * S, 0);
	pause_on(&g, 1, suspend_for_gc, 10 * S + 200 * MS, 10 * S + 240 * MS);
	poll(&c, 11 * S, 44.0);
	poll(&c, 12 * S, 10.0);
	uint64_t t;
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 10 * S + 220 * MS, &t));
	CHECK_U64(t, 22 * MS);
	CHECK(gt_dn_pause_total_at(&c.pause_polls, &g, 11 * S + 250 * MS, &t));
	CHECK_U64(t, 46500 * 1000);
}

int main(void)
{
	RUN_TEST(test_polls_add_up);
	RUN_TEST(test_missed_time_at_the_final_mark);
	RUN_TEST(test_spread_without_a_final_mark);
	return check_summary();
}
