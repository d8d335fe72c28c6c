/* Turning sampling on and off, and the segment's life. Called with
 * agent_state.lock held, from Agent_OnAttach/OnLoad or the watchdog. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent.h"

struct agent agent_state = { .lock = PTHREAD_MUTEX_INITIALIZER };

static jvmtiCapabilities sampling_capability(void)
{
	jvmtiCapabilities c;
	memset(&c, 0, sizeof(c));
	c.can_generate_sampled_object_alloc_events = 1;
	return c;
}

void agent_set_interval(uint64_t bytes)
{
	if (bytes < AGENT_MIN_INTERVAL)
		bytes = AGENT_MIN_INTERVAL;
	if (bytes > AGENT_MAX_INTERVAL)
		bytes = AGENT_MAX_INTERVAL;
	struct agent *a = &agent_state;
	if (a->sampling && (*a->jvmti)->SetHeapSamplingInterval(a->jvmti, (jint)bytes) != JVMTI_ERROR_NONE)
		return;
	__atomic_store_n(&a->interval, bytes, __ATOMIC_RELAXED);
	if (a->pub)
		gctop_pub_set_interval(a->pub, bytes);
}

int agent_ensure_segment(char *err, size_t errlen)
{
	struct agent *a = &agent_state;
	if (a->pub)
		return 0;
	struct gctop_pub *p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char path[sizeof(p->path)];
	struct gctop_pub_config cfg = {
		.frame_slots = AGENT_FRAME_TABLE_SLOTS,
		.type_slots = AGENT_TYPE_TABLE_SLOTS,
		.stack_slots = AGENT_STACK_TABLE_SLOTS,
		.method_slots = AGENT_METHOD_TABLE_SLOTS,
		.flags = GCTOP_SEG_F_ALLOC_TOTAL | (a->have_gc_events ? GCTOP_SEG_F_PAUSES : 0) |
			 (a->opt.linger ? GCTOP_SEG_F_LINGER : 0),
		.source = a->sampler_biased ? AGENT_SOURCE_BIASED : AGENT_SOURCE,
		.ops = true,
	};
	if (gctop_pub_path(path, sizeof(path), a->opt.segment_dir, getpid()) != 0 ||
	    gctop_pub_create(p, path, &cfg, err, errlen) != 0) {
		free(p);
		return -1;
	}
	gctop_pub_set_interval(p, a->interval);
	uint64_t now = gctop_pub_now_ns();
	a->reader_value = gctop_pub_reader_heartbeat(p);
	a->reader_seen_ns = now;
	a->adapt_ns = 0;
	__atomic_store_n(&a->pub, p, __ATOMIC_SEQ_CST);
	return 0;
}

/* Takes the segment away from the callbacks and unmaps it once none is
 * inside. A callback stuck behind a safepoint for seconds is possible but
 * rare; then the mapping is left in place rather than pulled from under it. */
static void retire_segment(void)
{
	struct agent *a = &agent_state;
	struct gctop_pub *p = a->pub;
	if (!p)
		return;
	gctop_pub_unlink(p);
	__atomic_store_n(&a->pub, NULL, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 2000; i++) {
		if (__atomic_load_n(&a->inflight, __ATOMIC_SEQ_CST) == 0) {
			gctop_pub_close(p);
			free(p);
			return;
		}
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

int agent_start_sampling(void)
{
	struct agent *a = &agent_state;
	jvmtiEnv *j = a->jvmti;
	if (a->sampling || !a->pub)
		return 0;
	jvmtiCapabilities c = sampling_capability();
	jvmtiError e = (*j)->AddCapabilities(j, &c);
	if (e != JVMTI_ERROR_NONE) {
		/* The capability is solo: one environment at a time. */
		gctop_pub_set_state(a->pub, GCTOP_SEG_BUSY,
				    "another JVMTI agent (a profiler or APM agent) holds the allocation-sampling "
				    "capability of this JVM; stop it to sample allocators");
		return -1;
	}
	uint64_t interval = a->opt.interval ? a->opt.interval : (a->interval ? a->interval : AGENT_START_INTERVAL);
	a->sampling = true;
	agent_set_interval(interval);
	e = (*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
	if (e != JVMTI_ERROR_NONE) {
		a->sampling = false;
		(*j)->RelinquishCapabilities(j, &c);
		gctop_pub_set_state(a->pub, GCTOP_SEG_FAILED, "the JVM refused to turn allocation sampling on");
		return -1;
	}
	a->adapt_ns = 0;
	a->reader_seen_ns = gctop_pub_now_ns();
	gctop_pub_set_state(a->pub, GCTOP_SEG_RUNNING, NULL);
	return 0;
}

void agent_stop_sampling(bool remove_segment)
{
	struct agent *a = &agent_state;
	jvmtiEnv *j = a->jvmti;
	if (a->sampling) {
		jvmtiCapabilities c = sampling_capability();
		(*j)->SetEventNotificationMode(j, JVMTI_DISABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
		__atomic_store_n(&a->sampling, false, __ATOMIC_SEQ_CST);
		/* Gives the solo capability back so another tool can take it. */
		(*j)->RelinquishCapabilities(j, &c);
	}
	if (a->pub)
		gctop_pub_set_state(a->pub, GCTOP_SEG_STOPPED, NULL);
	if (remove_segment && !a->ops_kept)
		retire_segment();
}
