/* gctop's JVMTI agent: entry points. Loaded at start-up with
 * -agentpath:libgctop-agent.so[=OPTIONS] or into a running JVM by gctop's
 * dynamic attach (`load`), any number of times: a later load reuses the
 * first environment and only applies its options (agent_options.h).
 *
 * Its return codes are GCTOP_AGENT_RC_* (segment/gctop_segment.h), which
 * gctop turns into sentences. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/agent.h"

#include "segment/gctop_segment.h"

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread)
{
	(void)jvmti;
	(void)jni;
	(void)thread;
	pthread_mutex_lock(&agent_state.lock);
	agent_state.vm_live = true;
	agent_start_watchdog();
	agent_jmx_start();
	pthread_mutex_unlock(&agent_state.lock);
}

static void remove_on_exit(void)
{
	struct agent *a = &agent_state;
	/* The watchdog may be mid-tick; a bounded wait keeps shutdown moving.
	 * Without the lock the file is still removed, and the mapping (which
	 * callbacks may use) stays. */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 1;
	bool locked = pthread_mutex_timedlock(&a->lock, &ts) == 0;
	__atomic_store_n(&a->dead, true, __ATOMIC_RELEASE);
	struct gctop_pub *p = __atomic_load_n(&a->pub, __ATOMIC_SEQ_CST);
	if (locked) {
		agent_stop_sampling(false);
		if (p)
			gctop_pub_unlink(p);
		pthread_mutex_unlock(&a->lock);
	} else if (p) {
		gctop_pub_unlink(p);
	}
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
	(void)jvmti;
	(void)jni;
	remove_on_exit();
}

/* Whether HotSpot's sampler is the one that loses count of a thread's TLAB
 * bytes when it allocates outside its TLAB, and so samples the wrong
 * objects (JDK-8356372, fixed in JDK 25). JVMTI's version number carries
 * the JDK's feature release since JDK 9; one that cannot be read is taken
 * as old. */
static bool sampler_biased(jvmtiEnv *j)
{
	jint v = 0;
	if ((*j)->GetVersionNumber(j, &v) != JVMTI_ERROR_NONE)
		return true;
	unsigned major = ((unsigned)v & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
	return major < AGENT_SAMPLER_FIXED_IN;
}

/* Once per library: environment, callbacks, the non-solo events. */
static int agent_init(JavaVM *vm)
{
	struct agent *a = &agent_state;
	if (a->initialised)
		return 0;
	jvmtiEnv *j = NULL;
	if ((*vm)->GetEnv(vm, (void **)&j, JVMTI_VERSION_11) != JNI_OK || !j)
		return GCTOP_AGENT_RC_NO_JVMTI;
	a->vm = vm;
	a->jvmti = j;
	a->sampler_biased = sampler_biased(j);

	jvmtiCapabilities c;
	memset(&c, 0, sizeof(c));
	c.can_generate_garbage_collection_events = 1;
	a->have_gc_events = (*j)->AddCapabilities(j, &c) == JVMTI_ERROR_NONE;

	jvmtiEventCallbacks cb;
	memset(&cb, 0, sizeof(cb));
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	cb.SampledObjectAlloc = agent_on_sampled_alloc;
	cb.GarbageCollectionStart = agent_on_gc_start;
	cb.GarbageCollectionFinish = agent_on_gc_finish;
	(*j)->SetEventCallbacks(j, &cb, (jint)sizeof(cb));
	(*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
	(*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
	if (a->have_gc_events) {
		(*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_START, NULL);
		(*j)->SetEventNotificationMode(j, JVMTI_ENABLE, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, NULL);
	}
	a->initialised = true;
	return 0;
}

/* Publishes the prefixes for the callbacks. The previous list is leaked on
 * purpose: a callback may still be reading it, and it is a few KiB at most
 * once per load. */
static void apply_prefixes(const struct agent_prefixes *p)
{
	const struct agent_prefixes *cur = __atomic_load_n(&agent_state.prefixes, __ATOMIC_ACQUIRE);
	if (cur && memcmp(cur, p, sizeof(*p)) == 0)
		return;
	struct agent_prefixes *copy = cur ? malloc(sizeof(*copy)) : &agent_state.first_prefixes;
	if (!copy)
		return;
	*copy = *p;
	__atomic_store_n(&agent_state.prefixes, copy, __ATOMIC_RELEASE);
}

static int agent_load(JavaVM *vm, const char *options, bool live)
{
	struct agent *a = &agent_state;
	struct agent_options opt;
	char err[256];
	if (agent_options_parse(options, &opt, err, sizeof(err)) != 0) {
		fprintf(stderr, "gctop agent: %s\n", err);
		return GCTOP_AGENT_RC_BAD_OPTIONS;
	}
	pthread_mutex_lock(&a->lock);
	int rc = agent_init(vm);
	if (rc != 0)
		goto out;
	if (live)
		a->vm_live = true;
	/* -agentpath keeps its segment when idle so that a gctop can resume it
	 * without loading a second copy of the library from another path. */
	if (!live)
		opt.linger = true;
	if (opt.stop) {
		a->opt.stop = true;
		agent_stop_sampling(!a->opt.linger);
		goto out;
	}
	if (!a->pub) {
		a->opt = opt;
	} else {
		/* Linger and the directory shape the existing segment; the rest
		 * applies at once. */
		a->opt.stop = false;
		a->opt.interval = opt.interval;
		a->opt.watchdog_ns = opt.watchdog_ns;
		a->opt.prefixes = opt.prefixes;
	}
	apply_prefixes(&a->opt.prefixes);
	if (agent_ensure_segment(err, sizeof(err)) != 0) {
		fprintf(stderr, "gctop agent: %s\n", err);
		rc = GCTOP_AGENT_RC_NO_SEGMENT;
		goto out;
	}
	if (opt.ops_only) {
		/* The operations counter only: nothing sampled, nothing that
		 * costs the application's threads; a segment just made says so. */
		a->ops_kept = true;
		if (!a->sampling)
			gctop_pub_set_state(a->pub, GCTOP_SEG_STOPPED, "loaded for the operations counter only");
	} else {
		agent_start_sampling();
		if (opt.interval)
			agent_set_interval(opt.interval);
	}
	/* Threads may attach to the VM only once it is live; at start-up the
	 * watchdog starts from VMInit. */
	if (a->vm_live && agent_start_watchdog() != 0)
		gctop_pub_set_state(a->pub, GCTOP_SEG_FAILED, "the agent could not start its watchdog thread");
	if (a->vm_live)
		agent_jmx_start();
out:
	pthread_mutex_unlock(&a->lock);
	return rc;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved)
{
	(void)reserved;
	return agent_load(vm, options, false);
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *reserved)
{
	(void)reserved;
	return agent_load(vm, options, true);
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
	(void)vm;
	remove_on_exit();
}
