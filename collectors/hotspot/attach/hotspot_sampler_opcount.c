/* --ops jmx: on gctop's side: the request gctop writes into the agent's
 * segment, and the agent's answer as the sample's operations. */
#include "collectors/hotspot/attach/hotspot_sampler_opcount.h"

#include "collectors/host/proc.h"

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
#define OPCOUNT_OTHER "another gctop reads another counter through this JVM's agent now (one at a time per " \
		      "JVM); this one's comes back a few seconds after that gctop stops"
#define OPCOUNT_STALE "the agent's last reading is over 2 s old: the attribute's getter has not returned since"
#define OPCOUNT_NO_SERVER "no web server's request counter is registered (yet): gctop's agent looks for Tomcat's " \
			  "GlobalRequestProcessor, Jetty's StatisticsHandler and WildFly's Undertow listeners " \
			  "(Spring Boot's embedded Tomcat registers its MBeans only with " \
			  "server.tomcat.mbeanregistry.enabled=true)"
#define OPCOUNT_NO_ALLOC_SINCE "no allocation reading within 500 ms before the agent's reading of the counter " \
			       "(gctop's polls fell in a collection): no bytes of its moment to set beside it"
#define OPCOUNT_ONE_ALLOC "one allocation reading so far, before the agent's reading of the counter: no rate " \
			  "to carry it on to the counter's moment"
#define OPCOUNT_ALLOC_OLDER "the agent's reading of the counter is older than the allocation readings gctop " \
			    "keeps: no bytes of its moment to set beside it"
#define OPCOUNT_CLOCK_UNKNOWN "the JVM's time namespace's clock offset is unreadable (/proc/PID/timens_offsets): " \
			      "the agent's readings, on the JVM's clock, cannot be dated on gctop's"
#define OPCOUNT_QUOTED "no MBean of this name is registered, but one of the same name with its values quoted is: "
/* A request of another gctop's that nobody has beaten for this long was
 * left behind (its gctop stopped): this one asks for its own again. Every
 * gctop beats its request at least once a second. */
#define OPCOUNT_RECLAIM_NS 3000000000ull
/* An answer to another gctop's request for the same counter is taken while
 * it is this fresh (the agent reads every 100 ms while it is beaten). */
#define OPCOUNT_SHARED_FRESH_NS 500000000ull

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

/* Texts kept for the process's life: the sentences with the agent's
 * detail, and apart from them (so that failures cannot crowd them out)
 * the names of the server counters the agent found. */
struct opcount_store {
	pthread_mutex_t lock;
	unsigned n;
	char text[OPCOUNT_DETAILED_MAX][OPCOUNT_DETAILED_LEN];
};
static struct opcount_store opcount_detailed = { .lock = PTHREAD_MUTEX_INITIALIZER };
static struct opcount_store opcount_found = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* prefix then detail, kept once in store; fallback when the detail is
 * empty or the store is full. */
static const char *opcount_keep(struct opcount_store *store, const char *prefix, const char *detail,
				const char *fallback)
{
	if (!detail[0])
		return fallback;
	char s[OPCOUNT_DETAILED_LEN];
	snprintf(s, sizeof(s), "%s%s", prefix, detail);
	const char *out = fallback;
	pthread_mutex_lock(&store->lock);
	for (unsigned i = 0; i < store->n && out == fallback; i++)
		if (strcmp(store->text[i], s) == 0)
			out = store->text[i];
	if (out == fallback && store->n < OPCOUNT_DETAILED_MAX) {
		memcpy(store->text[store->n], s, sizeof(s));
		out = store->text[store->n++];
	}
	pthread_mutex_unlock(&store->lock);
	return out;
}

/* "sentence: detail", kept; the sentence alone without a detail. */
static const char *opcount_with_detail(const char *sentence, const char *detail)
{
	char prefix[OPCOUNT_DETAILED_LEN];
	snprintf(prefix, sizeof(prefix), "%s: ", sentence);
	return opcount_keep(&opcount_detailed, prefix, detail, sentence);
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
	o->server = gt_opcount_is_server(spec);
	if (o->server) {
		snprintf(o->name, sizeof(o->name), "%s", GCTOP_SEG_OPS_SERVER_NAME);
		snprintf(o->attr, sizeof(o->attr), "%s", GCTOP_SEG_OPS_SERVER_ATTR);
	} else if (gt_opcount_jmx_split(spec, o->name, o->attr, &why) != 0) {
		return -1;
	}
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

void gt_hotspot_sampler_opcount_clock(struct gt_hotspot_sampler_opcount *o, pid_t pid)
{
	o->clock_why = gt_proc_monotonic_offset(pid, &o->clock_off_ns) == 0 ? NULL : OPCOUNT_CLOCK_UNKNOWN;
}

/* The request in r is this gctop's own, or another's for the same counter,
 * whose answers serve both. */
static bool opcount_served(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r)
{
	const struct gt_segment_opcount *a = &r->opcount;
	return a->req_id == o->id ||
	       (a->req_id && strcmp(a->req_name, o->name) == 0 && strcmp(a->req_attr, o->attr) == 0);
}

/* Another gctop's request for another counter in r: true once nobody has
 * beaten it for OPCOUNT_RECLAIM_NS. */
static bool opcount_left_behind(struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r, uint64_t now)
{
	if (r->opcount.req_beat != o->other_beat || !o->other_beat_ns) {
		o->other_beat = r->opcount.req_beat;
		o->other_beat_ns = now;
		return false;
	}
	return now - o->other_beat_ns > OPCOUNT_RECLAIM_NS;
}

void gt_hotspot_sampler_opcount_ask(struct gt_hotspot_sampler_opcount *o, struct gt_segment *seg,
				    const struct gt_segment_reading *r, uint64_t now)
{
	if (!o->spec || !r->opcount.present)
		return;
	if (o->asked_gen == r->snap.generation) {
		if (opcount_served(o, r)) {
			o->other_beat_ns = 0;
			return;
		}
		if (!opcount_left_behind(o, r, now))
			return;
	}
	if (gt_segment_request_opcount(seg, o->id, o->name, o->attr) == 0) {
		o->asked_gen = r->snap.generation;
		o->other_beat_ns = 0;
	}
}

bool gt_hotspot_sampler_opcount_wanted(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r)
{
	return o->spec && (!r->opcount.present || o->asked_gen != r->snap.generation || opcount_served(o, r));
}

bool gt_hotspot_sampler_opcount_answered(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
					 uint64_t now)
{
	const struct gt_segment_opcount *a = &r->opcount;
	if (!a->answered || !opcount_served(o, r) || a->answer_id != a->req_id || a->status == GCTOP_SEG_OPS_NONE)
		return false;
	/* Another gctop's answer counts once the agent is reading it now: one
	 * left by a gctop that stopped is old, and this one's own comes soon. */
	now += (uint64_t)o->clock_off_ns; /* onto the JVM's clock, which read_ns is on */
	return a->answer_id == o->id || (a->read_ns <= now && now - a->read_ns <= OPCOUNT_SHARED_FRESH_NS);
}

/* Why r holds no operations figure for this gctop, or NULL. */
static const char *opcount_unavailable(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
				       uint64_t now)
{
	const struct gt_segment_opcount *a = &r->opcount;
	if (!a->present)
		return OPCOUNT_OLD_AGENT;
	if (!opcount_served(o, r) && o->asked_gen == r->snap.generation)
		return OPCOUNT_OTHER;
	if (o->clock_why)
		return o->clock_why;
	if (!gt_hotspot_sampler_opcount_answered(o, r, now))
		return OPCOUNT_WAITING;
	now += (uint64_t)o->clock_off_ns;
	if (now > a->read_ns && now - a->read_ns > OPCOUNT_STALE_NS)
		return OPCOUNT_STALE;
	if (a->status == GCTOP_SEG_OPS_OK)
		return NULL;
	if (a->status == GCTOP_SEG_OPS_NO_MBEAN && o->server)
		return OPCOUNT_NO_SERVER;
	/* the agent names the quoted name only with NO_MBEAN for a plain name */
	if (a->status == GCTOP_SEG_OPS_NO_MBEAN)
		return opcount_keep(&opcount_detailed, OPCOUNT_QUOTED, a->reason, opcount_status_text[a->status]);
	return opcount_with_detail(opcount_status_text[a->status], a->reason);
}

/* The allocation total at the agent's reading at ns (its clock), or why
 * there is none. */
static const char *opcount_alloc_at(const struct gt_hotspot_sampler_opcount *o, const struct hotspot_alloc_ring *alloc,
				    bool alloc_jvm_clock, uint64_t ns, uint64_t *total)
{
	int64_t off = alloc_jvm_clock ? 0 : o->clock_off_ns;
	if (off > 0 && ns < (uint64_t)off)
		return OPCOUNT_ALLOC_OLDER;
	int rc = hotspot_alloc_ring_near(alloc, ns - (uint64_t)off, GT_HOTSPOT_SAMPLER_EXTRAPOLATE_MAX_NS, total);
	if (rc == HOTSPOT_ALLOC_RING_ONE)
		return OPCOUNT_ONE_ALLOC;
	return rc == 0 ? NULL : rc < 0 ? OPCOUNT_ALLOC_OLDER : OPCOUNT_NO_ALLOC_SINCE;
}

bool gt_hotspot_sampler_opcount_datable(const struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r,
					const struct hotspot_alloc_ring *alloc, bool alloc_jvm_clock)
{
	uint64_t total;
	return opcount_alloc_at(o, alloc, alloc_jvm_clock, r->opcount.read_ns, &total) == NULL;
}

void gt_hotspot_sampler_opcount_fill(struct gt_hotspot_sampler_opcount *o, const struct gt_segment_reading *r, uint64_t now,
				     const struct hotspot_alloc_ring *alloc, bool alloc_jvm_clock, struct gt_sample *s)
{
	if (!o->spec)
		return;
	s->opcount_total.valid = false;
	s->opcount_unavailable = opcount_unavailable(o, r, now);
	if (s->opcount_unavailable)
		return;
	/* A server's counter is named as the agent found it. */
	if (o->server)
		s->opcount_counter = opcount_keep(&opcount_found, GT_OPCOUNT_JMX_PREFIX, r->opcount.reason, s->opcount_counter);
	/* The count as the agent read it, at its own moment: carried to the
	 * sample's, it stood beside bytes of another moment (below). */
	uint64_t ns = r->opcount.read_ns;
	uint64_t value = gt_hotspot_sampler_track_at(&o->track, r->snap.generation, r->opcount.value, ns, ns);
	uint64_t total = 0;
	if (alloc) {
		s->opcount_unavailable = opcount_alloc_at(o, alloc, alloc_jvm_clock, ns, &total);
		if (s->opcount_unavailable)
			return;
		gt_u64_set(&s->opcount_alloc_total, total);
	}
	gt_u64_set(&s->opcount_total, value);
	gt_u64_set(&s->opcount_at_ns, ns - (uint64_t)o->clock_off_ns);
}
