/* --ops jmx: on gctop's side (collectors/hotspot/attach/hotspot_sampler_opcount.c):
 * what a reading of the agent's ops block makes of the sample's operations,
 * and the counter carried to the sample's moment. */
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/attach/hotspot_sampler_opcount.h"
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

static void fill(struct gt_hotspot_sampler_opcount *o, uint64_t now, struct gt_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->mono_ns = now;
	gt_hotspot_sampler_opcount_fill(o, &reading, now, s);
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
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strstr(s.opcount_unavailable, "older than --ops jmx:"));
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

/* Two readings 100 ms apart give the rate the total is carried at to the
 * sample's moment (at most 500 ms on); a sum that falls (an MBean went)
 * starts over instead of holding or going back. */
static void test_carried_to_sample(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(gt_hotspot_sampler_opcount_init(&o, SPEC) == 0);
	o.asked_gen = GEN;
	uint64_t t = 10000000000ull;
	answer(&o, GCTOP_SEG_OPS_OK, 1000, t, "");
	fill(&o, t + 50000000, &s);
	CHECK_U64(s.opcount_total.value, 1000); /* one reading: no rate yet */
	answer(&o, GCTOP_SEG_OPS_OK, 1200, t + 100000000, ""); /* 2000/s */
	fill(&o, t + 150000000, &s);
	CHECK_U64(s.opcount_total.value, 1300);
	fill(&o, t + 900000000, &s); /* past the 500 ms bound: the reading itself, never less than given */
	CHECK_U64(s.opcount_total.value, 1300);
	answer(&o, GCTOP_SEG_OPS_OK, 400, t + 200000000, "");
	fill(&o, t + 250000000, &s);
	CHECK_U64(s.opcount_total.value, 400);

	/* the allocation total holds instead (hotspot_sampler.c) */
	struct gt_hotspot_sampler_track k = { .hold = true };
	CHECK_U64(gt_hotspot_sampler_track_at(&k, 1, 5000, 100, 100), 5000);
	CHECK_U64(gt_hotspot_sampler_track_at(&k, 1, 4000, 200, 200), 5000);
}

/* Another gctop's request for the same counter serves this one too (and is
 * beaten by it); one for another counter is not beaten, so that it stops
 * with its gctop. */
static void test_shared_request(void)
{
	struct gt_hotspot_sampler_opcount o;
	struct gt_sample s;
	CHECK(gt_hotspot_sampler_opcount_init(&o, SPEC) == 0);
	o.asked_gen = GEN;
	answer(&o, GCTOP_SEG_OPS_OK, 10, 1000, "");
	reading.opcount.req_id = reading.opcount.answer_id = o.id + 1;
	snprintf(reading.opcount.req_name, sizeof(reading.opcount.req_name), "d:type=Ops,*");
	snprintf(reading.opcount.req_attr, sizeof(reading.opcount.req_attr), "Count");
	fill(&o, 1000 + 400000000, &s);
	CHECK(s.opcount_total.valid && s.opcount_total.value == 10);
	fill(&o, 1000 + 600000000, &s); /* read long ago: that gctop stopped, this one's own answer comes */
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strstr(s.opcount_unavailable, "not read the attribute yet"));
	CHECK(gt_hotspot_sampler_opcount_wanted(&o, &reading));
	snprintf(reading.opcount.req_attr, sizeof(reading.opcount.req_attr), "Other");
	fill(&o, 1000, &s);
	CHECK(!s.opcount_total.valid && s.opcount_unavailable && strstr(s.opcount_unavailable, "another gctop"));
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
	gt_hotspot_sampler_opcount_fill(&o, &reading, 1000, &s);
	CHECK(s.opcount_total.valid);
	CHECK_STR(s.opcount_counter, "jmx:Catalina:type=GlobalRequestProcessor,*:requestCount");
	answer(&o, GCTOP_SEG_OPS_NO_MBEAN, 0, 1000, "");
	fill(&o, 1000, &s);
	CHECK(s.opcount_unavailable && strstr(s.opcount_unavailable, "no web server's request counter"));

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
	RUN_TEST(test_statuses);
	RUN_TEST(test_carried_to_sample);
	RUN_TEST(test_shared_request);
	return check_summary();
}
