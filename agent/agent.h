/* The in-process JVMTI agent's shared state. One instance per loaded
 * library: HotSpot calls Agent_OnAttach again on a second load of the same
 * path, so everything lives in statics and the first jvmtiEnv is reused. */
#ifndef GCTOP_AGENT_H
#define GCTOP_AGENT_H

#include <jni.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "segment/publish.h"
#include "agent/agent_options.h"

/* The sampling interval stays in this range whatever the allocation rate. */
#define AGENT_MIN_INTERVAL (64u * 1024)
#define AGENT_MAX_INTERVAL (16u * 1024 * 1024)
#define AGENT_START_INTERVAL (1024u * 1024)
/* Samples per second the adaptive interval aims at: at the measured 2-5 us a
 * sample this is well under 1% of one core, and enough for shares within a
 * few points over a few seconds. */
#define AGENT_TARGET_SAMPLES_PER_S 500u
#define AGENT_TICK_NS 100000000ull
#define AGENT_FRAME_TABLE_SLOTS 1024u
#define AGENT_TYPE_TABLE_SLOTS 512u
/* The stacks behind the sites and the names of their methods: 1 MiB each. */
#define AGENT_STACK_TABLE_SLOTS 4096u
#define AGENT_METHOD_TABLE_SLOTS 4096u
/* Callers kept beyond the first application frame. */
#define AGENT_STACK_CALLERS 3
/* The JDK whose sampler counts the bytes allocated outside a TLAB with the
 * rest (JDK-8356372); before it the segment's source says the shares are
 * biased. */
#define AGENT_SAMPLER_FIXED_IN 25u
/* The segment's source, read by collectors/hotspot/hotspot_runtime.c. */
#define AGENT_SOURCE "jvmti-sampled"
#define AGENT_SOURCE_BIASED "jvmti-biased"   /* the segment holds 15 bytes */

struct agent {
	JavaVM *vm;
	jvmtiEnv *jvmti;
	pthread_mutex_t lock;          /* start/stop/tick; never taken in callbacks */
	bool initialised;
	bool vm_live;                  /* VMInit seen (or attached live): threads may attach */
	bool watchdog_started;
	bool have_gc_events;
	bool dead;                     /* VMDeath: no more work */
	struct agent_options opt;      /* latest options */
	/* A reader loaded the agent for the operations counter alone (option
	 * ops): the segment, which carries its request, stays while the JVM
	 * runs, even when allocation sampling started later stops. */
	bool ops_kept;

	/* The segment callbacks write into; NULL when there is none. Callbacks
	 * bump inflight before loading it so a retired segment is unmapped only
	 * when nobody is inside it. */
	struct gctop_pub *pub;
	unsigned inflight;
	bool sampling;                 /* the solo capability is held and events are on */
	bool sampler_biased;           /* the JVM's sampler predates JDK-8356372's fix */
	uint64_t interval;             /* bytes, as last set */
	const struct agent_prefixes *prefixes; /* immutable once published */
	struct agent_prefixes first_prefixes;  /* the first list, kept without malloc */

	/* Watchdog bookkeeping (watchdog thread and lock holders only). */
	uint64_t reader_value, reader_seen_ns;
	uint64_t adapt_ns, adapt_total, adapt_samples;
	uint64_t gc_start_ns;          /* VM thread only */
	uint64_t region_bytes;         /* G1's region size, 0 none or not known yet (watchdog-written) */
};

extern struct agent agent_state;

/* agent_control.c, with agent_state.lock held. */
int agent_start_sampling(void);
void agent_stop_sampling(bool remove_segment);
int agent_ensure_segment(char *err, size_t errlen);
void agent_set_interval(uint64_t bytes);

/* agent_sample.c */
void JNICALL agent_on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
				    jclass klass, jlong size);
void JNICALL agent_on_gc_start(jvmtiEnv *jvmti);
void JNICALL agent_on_gc_finish(jvmtiEnv *jvmti);
/* Marks the calling thread as the agent's own: its allocations are not sampled. */
void agent_mark_own_thread(void);
/* Clears a pending exception; true when there was one. Every JNI call that
 * can raise is followed by it before the next call: -Xcheck:jni reports a
 * call made with an exception pending, or one left unchecked. */
bool agent_jni_cleared(JNIEnv *env);

/* agent_watchdog.c */
int agent_start_watchdog(void);

/* agent_region.c: G1's region size from the JVM's flags, 0 when the heap is
 * not G1's or the flags cannot be read (a JNI-attached thread). */
uint64_t agent_region_bytes(JNIEnv *env);

/* agent_jmx.c: the thread that answers --ops jmx: (once the VM is live;
 * with agent_state.lock held). */
void agent_jmx_start(void);

#endif
