/* --ops jmx: on gctop's side (collectors/hotspot/attach/hotspot_sampler_opcount.c):
 * what a reading of the agent's ops block makes of the sample's operations,
 * and the counter carried to the sample's moment. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/attach/hotspot_sampler_opcount.h"
#include "model/derive.h"
#include "tests/unit/check.h"

#define GEN 77
#define SPEC "jmx:d:type=Ops,*:Count"

static struct gt_segment_reading reading;

/* A reading of segment GEN answering o's request with status, value at read_ns. */
static const struct gt_segment_reading *answer(const struct gt_hotspot_sampler_opcount *o, uint32_t status, uint64_t value,
					       uint64_t read_ns, const char *reason)
{
	memset(&reading, 0, sizeof(reading));
	reading.snap.generation = GEN;
	reading.opcount = (struct gt_segment_opcount){ .present = true, .answered = true, .req_id = o->id,
					       .answer_id = o->id, .status = status, .value = value, .read_ns = read_ns };
	snprintf(reading.opcount.reason, sizeof(reading.opcount.reason), "%s", reason);
	return &reading;
}

/* o for SPEC, its request asked in segment GEN. */
static bool asked(struct gt_hotspot_sampler_opcount *o)
{
	if (gt_hotspot_sampler_opcount_init(o, SPEC) != 0)
		return false;
	o->asked_gen = GEN;
	return true;
}

/* s has no operations, and why says what its reason holds. */
static bool unavailable_says(const struct gt_sample *s, const char *why)
{
	return !s->opcount_total.valid && s->opcount_unavailable && strstr(s->opcount_unavailable, why);
}

static void fill(struct gt_hotspot_sampler_opcount *o, uint64_t now, struct gt_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->mono_ns = now;
	gt_hotspot_sampler_opcount_fill(o, &reading, now, NULL, false, s);
}

static void test_statuses(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(gt_hotspot_sampler_opcount_init(&o, "perf.counter") == -1);
	CHECK(gt_hotspot_sampler_opcount_init(&o, SPEC) == 0 && o.id != 0);
	CHECK_STR(o.name, "d:type=Ops,*");
	CHECK_STR(o.attr, "Count");
	o.asked_gen = GEN;

	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.present = false; /* an agent older than the ops block */
	fill(&o, 1000, &s);
	CHECK(unavailable_says(&s, "older than --ops jmx:"));
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.req_id = o.id + 1; /* another gctop asked since */
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "another gctop"));
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.answer_id = 0; /* not answered yet */
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "not read the attribute yet"));
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.answered = false; /* torn */
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "not read the attribute yet"));
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	fill(&o, 1000 + 2500000000ull, &s); /* a getter that blocks */
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "over 2 s old"));

	answer(&o, GCTOP_SEG_OPS_NO_MBEAN, 0, 1000, "");
	fill(&o, 1000, &s);
	CHECK_STR(s.opcount_unavailable, "no MBean of this name is registered (yet)");
	answer(&o, GCTOP_SEG_OPS_NOT_NUMBER, 0, 1000, "java.lang.String");
	fill(&o, 1000, &s);
	CHECK_STR(s.opcount_unavailable, "the attribute is not a number: java.lang.String");
	const char *first = s.opcount_unavailable;
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable == first); /* kept once: samples keep the pointer */
	answer(&o, GCTOP_SEG_OPS_TOO_MANY, 0, 1000, "");
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "more than 64 MBeans"));
	/* past the store of detailed sentences: the sentence alone */
	char detail[32];
	for (int i = 0; i < 20; i++) {
		snprintf(detail, sizeof(detail), "com.example.E%d", i);
		answer(&o, GCTOP_SEG_OPS_FAILED, 0, 1000, detail);
		fill(&o, 1000, &s);
		CHECK(s.opcount_unavailable && strncmp(s.opcount_unavailable, "reading the attribute threw", 27) == 0);
	}
	CHECK_STR(s.opcount_unavailable, "reading the attribute threw");
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	fill(&o, 1000, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 10 && s.opcount_unavailable == NULL);
}

/* The count is given as the agent read it, at its moment (no rate carries
 * it anywhere); a sum that falls (an MBean went) starts over instead of
 * holding or going back. */
static void test_as_read(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(asked(&o));
	uint64_t t = 10000000000ull;
	answer(&o, GCTOP_SEG_OPS_OK, 1000, t, "");
	fill(&o, t + 50000000, &s);
	CHECK_U64(s.opcount_total.value, 1000);
	answer(&o, GCTOP_SEG_OPS_OK, 1200, t + 100000000, "");
	fill(&o, t + 150000000, &s);
	CHECK_U64(s.opcount_total.value, 1200);
	CHECK(s.opcount_at_ns.valid && s.opcount_at_ns.value == t + 100000000 && !s.opcount_alloc_total.valid);
	answer(&o, GCTOP_SEG_OPS_OK, 400, t + 200000000, "");
	fill(&o, t + 250000000, &s);
	CHECK_U64(s.opcount_total.value, 400);

	/* the allocation total holds instead (hotspot_sampler.c) */
	struct gt_hotspot_sampler_track k = { .hold = true };
	CHECK_U64(gt_hotspot_sampler_track_at(&k, 1, 5000, 100, 100), 5000);
	CHECK_U64(gt_hotspot_sampler_track_at(&k, 1, 4000, 200, 200), 5000);
}

#define MS 1000000ull
/* 1000 requests a second and a burst of 500 at 1.6 s, 1000 bytes each. */
static uint64_t requests_at(uint64_t ns)
{
	return ns / MS + (ns >= 1600 * MS ? 500 : 0);
}

/* The estimate's polls every 250 ms up to at. */
static void polls_to(struct hotspot_alloc_ring *g, uint64_t at)
{
	for (uint64_t t = 0; t <= at; t += 250 * MS)
		hotspot_alloc_ring_push(g, t, requests_at(t) * 1000);
}

/* A sample at at whose allocation total is the poll's there, with the
 * agent's latest reading of the requests taken at read. */
static void sample_at(struct gt_hotspot_sampler_opcount *o, struct hotspot_alloc_ring *g, uint64_t at, uint64_t read,
		      struct gt_sample *s)
{
	polls_to(g, at);
	answer(o, GCTOP_SEG_OPS_OK, requests_at(read), read, "");
	memset(s, 0, sizeof(*s));
	s->pid = 1;
	s->mono_ns = at;
	gt_u64_set(&s->alloc_bytes_total, requests_at(at) * 1000);
	gt_hotspot_sampler_opcount_fill(o, &reading, at, g, false, s);
}

/* The flaky tomcat_requests.sh: under load the agent's reading thread lags
 * (its latest reading 0.66 s old at the sample at 2 s) and the client
 * catches up in a burst after it. The requests as of the reading against
 * the allocation as of the sample read 4411 bytes per request for the
 * interval to 2 s; the allocation of the reading's own moment gives 1000 in
 * both intervals. */
static void test_burst_after_reading(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct hotspot_alloc_ring g = { 0 };
	struct gt_sample s0, s1, s2;
	struct gt_derived d;
	CHECK(asked(&o));
	sample_at(&o, &g, 900 * MS, 840 * MS, &s0); /* readings every 100 ms */
	sample_at(&o, &g, 1000 * MS, 940 * MS, &s0);
	sample_at(&o, &g, 2000 * MS, 1340 * MS, &s1); /* the thread stalled after 1.34 s */
	sample_at(&o, &g, 3000 * MS, 2940 * MS, &s2);
	CHECK(s1.opcount_total.valid && s1.opcount_unavailable == NULL);
	gt_derive(&s0, &s1, &d);
	CHECK(d.bytes_per_op.valid);
	CHECK(fabs(d.bytes_per_op.value - 1000.0) < 1e-9);
	CHECK(d.opcount_rate.valid);
	CHECK(fabs(d.opcount_rate.value - 1000.0) < 1e-9); /* over the 0.4 s between the readings */
	gt_derive(&s1, &s2, &d);
	CHECK(d.bytes_per_op.valid);
	CHECK(fabs(d.bytes_per_op.value - 1000.0) < 1e-9);
}

/* A reading older than the polls kept is n/a, with why; one up to 500 ms
 * past the newest poll (that at the sample fell in a collection) has the
 * allocation carried on at the last rate, and one further on is n/a. */
static void test_reading_outside_polls(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct hotspot_alloc_ring g = { 0 };
	struct gt_sample s;
	CHECK(asked(&o));
	for (uint64_t t = 10000 * MS; t <= 10000 * MS + HOTSPOT_ALLOC_RING_LEN * 10 * MS; t += 10 * MS)
		hotspot_alloc_ring_push(&g, t, t);
	answer(&o, GCTOP_SEG_OPS_OK, 5, 10005 * MS, ""); /* the oldest kept is 10.01 s */
	gt_hotspot_sampler_opcount_fill(&o, &reading, 11000 * MS, &g, false, &s);
	CHECK(unavailable_says(&s, "older than the allocation"));

	answer(&o, GCTOP_SEG_OPS_OK, 7, 10600 * MS, "");
	gt_hotspot_sampler_opcount_fill(&o, &reading, 11000 * MS, &g, false, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 7 && s.opcount_at_ns.value == 10600 * MS);
	CHECK(s.opcount_alloc_total.valid && s.opcount_alloc_total.value == 10600 * MS);
	answer(&o, GCTOP_SEG_OPS_OK, 9, 11000 * MS, ""); /* 360 ms after the newest poll (10.64 s) */
	gt_hotspot_sampler_opcount_fill(&o, &reading, 11000 * MS, &g, false, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 9 && s.opcount_alloc_total.value == 11000 * MS);
	answer(&o, GCTOP_SEG_OPS_OK, 11, 11200 * MS, ""); /* 560 ms after it */
	gt_hotspot_sampler_opcount_fill(&o, &reading, 11200 * MS, &g, false, &s);
	CHECK(unavailable_says(&s, "no allocation reading within"));
}

/* The first sample of a run: the agent's first exact total read just
 * before its first answer, and no other. The answer is not datable (one
 * reading gives no rate to carry it on at), and says so; once a total
 * read after it comes, it is, between the two. */
static void test_one_alloc_reading(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct hotspot_alloc_ring g = { 0 };
	struct gt_sample s;
	CHECK(asked(&o));
	hotspot_alloc_ring_push(&g, 10000 * MS, 1000);
	answer(&o, GCTOP_SEG_OPS_OK, 5, 10050 * MS, "");
	CHECK(!gt_hotspot_sampler_opcount_datable(&o, &reading, &g, true));
	memset(&s, 0, sizeof(s));
	gt_hotspot_sampler_opcount_fill(&o, &reading, 10060 * MS, &g, true, &s);
	CHECK(unavailable_says(&s, "one allocation reading"));
	hotspot_alloc_ring_push(&g, 10100 * MS, 2000);
	CHECK(gt_hotspot_sampler_opcount_datable(&o, &reading, &g, true));
	gt_hotspot_sampler_opcount_fill(&o, &reading, 10110 * MS, &g, true, &s);
	CHECK(s.opcount_total.valid && s.opcount_alloc_total.valid && s.opcount_alloc_total.value == 1500);
}

/* A JVM in another time namespace stamps its readings on its own clock:
 * taken at its offset from gctop's they are fresh and land on the polls;
 * an offset that cannot be read leaves them undated. */
static void test_time_namespace(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct hotspot_alloc_ring g = { 0 };
	struct gt_sample s;
	CHECK(asked(&o));
	o.clock_off_ns = 3600000 * MS; /* the JVM's clock an hour ahead */
	hotspot_alloc_ring_push(&g, 10000 * MS, 100);
	hotspot_alloc_ring_push(&g, 10200 * MS, 300);
	answer(&o, GCTOP_SEG_OPS_OK, 5, o.clock_off_ns + 10100 * MS, "");
	memset(&s, 0, sizeof(s));
	gt_hotspot_sampler_opcount_fill(&o, &reading, 10200 * MS, &g, false, &s);
	CHECK(s.opcount_total.valid && s.opcount_unavailable == NULL);
	CHECK(s.opcount_at_ns.value == 10100 * MS && s.opcount_alloc_total.value == 200);
	o.clock_why = "unreadable";
	gt_hotspot_sampler_opcount_fill(&o, &reading, 10200 * MS, &g, false, &s);
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strcmp(s.opcount_unavailable, "unreadable") == 0);
}

/* Interpolation between the readings around a moment; none outside them,
 * and none across a total that went back. */
static void test_ring(void)
{
	struct hotspot_alloc_ring g = { 0 };
	uint64_t v = 0;
	CHECK(hotspot_alloc_ring_at(&g, 5, &v) != 0);
	hotspot_alloc_ring_push(&g, 100, 1000);
	CHECK(hotspot_alloc_ring_near(&g, 150, 500, &v) == HOTSPOT_ALLOC_RING_ONE);
	hotspot_alloc_ring_push(&g, 200, 3000);
	hotspot_alloc_ring_push(&g, 200, 9000); /* the same poll again */
	CHECK(hotspot_alloc_ring_at(&g, 150, &v) == 0 && v == 2000);
	CHECK(hotspot_alloc_ring_at(&g, 100, &v) == 0 && v == 1000);
	CHECK(hotspot_alloc_ring_at(&g, 200, &v) == 0 && v == 3000);
	CHECK(hotspot_alloc_ring_at(&g, 99, &v) < 0);
	CHECK(hotspot_alloc_ring_at(&g, 201, &v) > 0);
	CHECK(hotspot_alloc_ring_near(&g, 250, 50, &v) == 0 && v == 4000); /* 20 a ns on */
	CHECK(hotspot_alloc_ring_near(&g, 251, 50, &v) > 0);
	CHECK(hotspot_alloc_ring_near(&g, 99, 50, &v) < 0);
	hotspot_alloc_ring_push(&g, 300, 10);
	CHECK(hotspot_alloc_ring_at(&g, 250, &v) < 0);
	for (uint64_t t = 1; t <= 2 * HOTSPOT_ALLOC_RING_LEN; t++)
		hotspot_alloc_ring_push(&g, 300 + t, 10 + t);
	CHECK(hotspot_alloc_ring_at(&g, 300 + HOTSPOT_ALLOC_RING_LEN, &v) < 0);
	CHECK(hotspot_alloc_ring_at(&g, 301 + HOTSPOT_ALLOC_RING_LEN, &v) == 0 && v == 11 + HOTSPOT_ALLOC_RING_LEN);
}

/* Another gctop's request for the same counter serves this one too (and is
 * beaten by it); one for another counter is not beaten, so that it stops
 * with its gctop. */
static void test_shared_request(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(asked(&o));
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.req_id = reading.opcount.answer_id = o.id + 1;
	snprintf(reading.opcount.req_name, sizeof(reading.opcount.req_name), "d:type=Ops,*");
	snprintf(reading.opcount.req_attr, sizeof(reading.opcount.req_attr), "Count");
	fill(&o, 1000 + 400000000, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 10);
	fill(&o, 1000 + 600000000, &s); /* read long ago: that gctop stopped, this one's own answer comes */
	CHECK(unavailable_says(&s, "not read the attribute yet"));
	CHECK(gt_hotspot_sampler_opcount_wanted(&o, &reading));
	snprintf(reading.opcount.req_attr, sizeof(reading.opcount.req_attr), "Other");
	fill(&o, 1000, &s);
	CHECK(unavailable_says(&s, "another gctop"));
	CHECK(!gt_hotspot_sampler_opcount_wanted(&o, &reading));
	reading.opcount.req_id = o.id;
	CHECK(gt_hotspot_sampler_opcount_wanted(&o, &reading));
}

/* jmx:requests: the agent names the server's counter it found, and says
 * which it looked for when none is there; a plain name's quoted form. */
static void test_server_and_quoted(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(gt_hotspot_sampler_opcount_init(&o, "jmx:requests") == 0 && o.server);
	CHECK_STR(o.name, GCTOP_SEG_OPS_SERVER_NAME);
	CHECK_STR(o.attr, GCTOP_SEG_OPS_SERVER_ATTR);
	o.asked_gen = GEN;
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "Catalina:type=GlobalRequestProcessor,*:requestCount");
	fill(&o, 1000, &s);
	s.opcount_counter = "jmx:requests";
	gt_hotspot_sampler_opcount_fill(&o, &reading, 1000, NULL, false, &s);
	CHECK(s.opcount_total.valid);
	CHECK_STR(s.opcount_counter, "jmx:Catalina:type=GlobalRequestProcessor,*:requestCount");
	answer(&o, GCTOP_SEG_OPS_NO_MBEAN, 0, 1000, "");
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "no web server's request counter"));
	CHECK(strstr(s.opcount_unavailable, "server.tomcat.mbeanregistry.enabled=true") != NULL);

	CHECK(gt_hotspot_sampler_opcount_init(&o, "jmx:Catalina:type=GlobalRequestProcessor,name=http-nio-8080:requestCount") == 0);
	o.asked_gen = GEN;
	answer(&o, GCTOP_SEG_OPS_NO_MBEAN, 0, 1000, "Catalina:type=GlobalRequestProcessor,name=\"http-nio-8080\"");
	fill(&o, 1000, &s);
	CHECK_STR(s.opcount_unavailable, "no MBean of this name is registered, but one of the same name with its values "
					 "quoted is: Catalina:type=GlobalRequestProcessor,name=\"http-nio-8080\"");
}

int main(void)
{
	/* first: test_statuses fills the store of detailed sentences */
	RUN_TEST(test_server_and_quoted);
	RUN_TEST(test_one_alloc_reading);
	RUN_TEST(test_statuses);
	RUN_TEST(test_as_read);
	RUN_TEST(test_burst_after_reading);
	RUN_TEST(test_reading_outside_polls);
	RUN_TEST(test_ring);
	RUN_TEST(test_time_namespace);
	RUN_TEST(test_shared_request);
	return check_summary();
}
