/* --ops jmx: on gctop's side: the request gctop writes into the agent's
 * segment, and the agent's answer as the sample's operations. */
#include "collectors/hotspot/attach/hotspot_sampler_opcount.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

_Static_assert(GT_OPCOUNT_JMX_NAME_MAX < GCTOP_SEG_OPS_NAME_LEN, "an ObjectName fits the segment's request");
_Static_assert(GT_OPCOUNT_JMX_ATTR_MAX < GCTOP_SEG_OPS_ATTR_LEN, "an attribute fits the segment's request");

/* An answer older than this: the agent's reading thread has not come back
 * (an attribute's getter that blocks). It reads every 100 ms. */
#define OPCOUNT_STALE_NS 2000000000ull
/* Sentences with the agent's detail kept for the process's life (samples
 * keep pointers to them; a recording keeps 32 distinct texts at most). */
#define OPCOUNT_DETAILED_MAX 8
#define OPCOUNT_DETAILED_LEN 256

#define OPCOUNT_OLD_AGENT "the agent in this JVM is older than --ops jmx: (its segment has no ops block); " \
			  "restart the JVM to load this gctop's agent"
#define OPCOUNT_WAITING "gctop's agent has not read the attribute yet"
#define OPCOUNT_OTHER "another gctop has since asked this JVM's agent for another counter; one --ops jmx: " \
		      "at a time per JVM"
#define OPCOUNT_STALE "the agent's last reading is over 2 s old: the attribute's getter has not returned since"

static const char *const opcount_status_text[GCTOP_SEG_OPS_STATUS_MAX + 1] = {
	[GCTOP_SEG_OPS_NONE] = OPCOUNT_WAITING,
	[GCTOP_SEG_OPS_OK] = NULL,
	[GCTOP_SEG_OPS_NO_MBEAN] = "no MBean of this name is registered (yet)",
	[GCTOP_SEG_OPS_NO_ATTRIBUTE] = "the MBean has no attribute of this name",
	[GCTOP_SEG_OPS_NOT_NUMBER] = "the attribute is not a number",
	[GCTOP_SEG_OPS_NEGATIVE] = "the attribute is below 0, which counts no operations",
	[GCTOP_SEG_OPS_FAILED] = "reading the attribute threw",
	[GCTOP_SEG_OPS_BAD_NAME] = "the JVM refuses this ObjectName",
	[GCTOP_SEG_OPS_TOO_MANY] = "the pattern matches more than 64 MBeans, more than gctop sums; name fewer",
	[GCTOP_SEG_OPS_NO_JMX] = "this JVM has no MBean server",
};
_Static_assert(GCTOP_SEG_OPS_MAX_MBEANS == 64, "the sentence above names the bound");

static struct {
	pthread_mutex_t lock;
	unsigned n;
	char text[OPCOUNT_DETAILED_MAX][OPCOUNT_DETAILED_LEN];
} opcount_detailed = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* "sentence: detail", kept once for the process's life; the sentence alone
 * when the detail is empty or the store is full. */
static const char *opcount_with_detail(const char *sentence, const char *detail)
{
	if (!detail[0])
		return sentence;
	char s[OPCOUNT_DETAILED_LEN];
	snprintf(s, sizeof(s), "%s: %s", sentence, detail);
	const char *out = sentence;
	pthread_mutex_lock(&opcount_detailed.lock);
	for (unsigned i = 0; i < opcount_detailed.n && out == sentence; i++)
		if (strcmp(opcount_detailed.text[i], s) == 0)
			out = opcount_detailed.text[i];
	if (out == sentence && opcount_detailed.n < OPCOUNT_DETAILED_MAX) {
		memcpy(opcount_detailed.text[opcount_detailed.n], s, sizeof(s));
		out = opcount_detailed.text[opcount_detailed.n++];
	}
	pthread_mutex_unlock(&opcount_detailed.lock);
	return out;
}

uint64_t gt_hotspot_sampler_track_at(struct gt_hotspot_sampler_track *t, uint64_t gen, uint64_t value,
				     uint64_t value_ns, uint64_t at_ns)
{
	if (t->gen != gen) {
		t->gen = gen;
		t->last_ns = t->prev_ns = 0;
	}
	if (!t->hold && t->last_ns && value < t->last) {
		/* Counted again from less (an MBean went, a counter was reset):
		 * no rate across that, and nothing held from before. */
		t->last_ns = t->prev_ns = 0;
		t->reported = 0;
	}
	if (value_ns != t->last_ns) {
		t->prev = t->last;
		t->prev_ns = t->last_ns;
		t->last = value;
		t->last_ns = value_ns;
	}
	double v = (double)t->last;
	if (t->prev_ns && t->last_ns > t->prev_ns && t->last >= t->prev && at_ns > t->last_ns &&
	    at_ns - t->last_ns <= GT_HOTSPOT_SAMPLER_EXTRAPOLATE_MAX_NS) {
		double rate = (double)(t->last - t->prev) / (double)(t->last_ns - t->prev_ns);
		v += rate * (double)(at_ns - t->last_ns);
	}
	uint64_t out = (uint64_t)v;
	if (out < t->reported && t->reported - out < (1ull << 40))
		out = t->reported;
	t->reported = out;
	return out;
}

int gt_hotspot_sampler_opcount_init(struct gt_hotspot_sampler_opcount *o, const char *spec)
{
	memset(o, 0, sizeof(*o));
	const char *why;
	if (gt_opcount_jmx_split(spec, o->name, o->attr, &why) != 0)
		return -1;
	o->spec = spec;
	/* An id no other gctop picks: time, pid and an address mixed. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^ (uintptr_t)o;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	o->id = x ? x : 1;
	return 0;
}

void gt_hotspot_sampler_opcount_ask(struct gt_hotspot_sampler_opcount *o, struct gt_segment *seg,
				    const struct gt_segment_reading *r)
{
	if (!o->spec || !r->opcount.present || o->asked_gen == r->snap.generation)
		return;
	if (gt_segment_request_opcount(seg, o->id, o->name, o->attr) == 0)
		o->asked_gen = r->snap.generation;
}

bool gt_hotspot_sampler_opcount_answered(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r)
{
	return r->opcount.answered && r->opcount.answer_id == o->id && r->opcount.status != GCTOP_SEG_OPS_NONE;
}

/* Why r holds no operations figure for this gctop, or NULL. */
static const char *opcount_unavailable(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
				       uint64_t now)
{
	const struct gt_segment_opcount *a = &r->opcount;
	if (!a->present)
		return OPCOUNT_OLD_AGENT;
	if (a->req_id != o->id && o->asked_gen == r->snap.generation)
		return OPCOUNT_OTHER;
	if (!gt_hotspot_sampler_opcount_answered(o, r))
		return OPCOUNT_WAITING;
	if (now > a->read_ns && now - a->read_ns > OPCOUNT_STALE_NS)
		return OPCOUNT_STALE;
	if (a->status == GCTOP_SEG_OPS_OK)
		return NULL;
	return opcount_with_detail(opcount_status_text[a->status], a->reason);
}

void gt_hotspot_sampler_opcount_fill(struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r, uint64_t now,
				  struct gt_sample *s)
{
	if (!o->spec)
		return;
	s->opcount_total.valid = false;
	s->opcount_unavailable = opcount_unavailable(o, r, now);
	if (s->opcount_unavailable)
		return;
	gt_u64_set(&s->opcount_total, gt_hotspot_sampler_track_at(&o->track, r->snap.generation, r->opcount.value,
								      r->opcount.read_ns, s->mono_ns));
}
