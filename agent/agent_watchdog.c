/* The watchdog: a daemon thread that publishes the exact allocation total
 * and the heartbeat, adapts the sampling interval, and stops sampling when
 * no reader has beaten for the watchdog time. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent/agent.h"

struct exact_total {
	jobject bean;     /* global ref to the ThreadMXBean, NULL when unavailable */
	jmethodID total;
};

/* Each step runs only if the one before raised nothing (agent.h). */
static void exact_init(JNIEnv *env, struct exact_total *x)
{
	memset(x, 0, sizeof(*x));
	jobject bean = NULL;
	jclass tmx = NULL, mf = (*env)->FindClass(env, "java/lang/management/ManagementFactory");
	jmethodID get = NULL, m = NULL;
	if (!agent_jni_cleared(env) && mf)
		get = (*env)->GetStaticMethodID(env, mf, "getThreadMXBean", "()Ljava/lang/management/ThreadMXBean;");
	if (!agent_jni_cleared(env) && get)
		bean = (*env)->CallStaticObjectMethod(env, mf, get);
	/* getTotalThreadAllocatedBytes: JDK 21, backported to 17.0.x and 11.0.x;
	 * without it gctop falls back to the sampled sum. */
	if (!agent_jni_cleared(env) && bean)
		tmx = (*env)->FindClass(env, "com/sun/management/ThreadMXBean");
	if (!agent_jni_cleared(env) && tmx)
		m = (*env)->GetMethodID(env, tmx, "getTotalThreadAllocatedBytes", "()J");
	if (!agent_jni_cleared(env) && m && (*env)->IsInstanceOf(env, bean, tmx)) {
		x->bean = (*env)->NewGlobalRef(env, bean);
		x->total = m;
	}
	if (mf)
		(*env)->DeleteLocalRef(env, mf);
	if (tmx)
		(*env)->DeleteLocalRef(env, tmx);
	if (bean)
		(*env)->DeleteLocalRef(env, bean);
}

static bool exact_read(JNIEnv *env, struct exact_total *x, uint64_t *out)
{
	if (!x->bean)
		return false;
	jlong v = (*env)->CallLongMethod(env, x->bean, x->total);
	if (agent_jni_cleared(env))
		return false;
	if (v < 0) /* thread allocated memory measurement is turned off */
		return false;
	*out = (uint64_t)v;
	return true;
}

/* Keeps samples near the target rate: interval = allocation rate / target. */
static void adapt_interval(struct agent *a, uint64_t now, uint64_t total)
{
	uint64_t samples = gctop_pub_samples(a->pub);
	if (a->adapt_ns == 0 || total < a->adapt_total) {
		a->adapt_ns = now;
		a->adapt_total = total;
		a->adapt_samples = samples;
		return;
	}
	uint64_t dt = now - a->adapt_ns;
	if (dt < 500000000ull)
		return;
	uint64_t requested = gctop_pub_requested_interval(a->pub);
	double rate = (double)(total - a->adapt_total) * 1e9 / (double)dt;
	a->adapt_ns = now;
	a->adapt_total = total;
	a->adapt_samples = samples;
	uint64_t want = requested ? requested : (uint64_t)(rate / AGENT_TARGET_SAMPLES_PER_S);
	if (want < AGENT_MIN_INTERVAL)
		want = AGENT_MIN_INTERVAL;
	if (want > AGENT_MAX_INTERVAL)
		want = AGENT_MAX_INTERVAL;
	/* Small moves are noise; leave the interval alone for them. */
	uint64_t cur = a->interval;
	if (want * 4 > cur * 5 || want * 5 < cur * 4)
		agent_set_interval(want);
}

static void tick(struct agent *a, bool have_total, uint64_t total, uint64_t now)
{
	if (a->dead || !a->pub)
		return;
	gctop_pub_heartbeat(a->pub, now);
	uint64_t r = gctop_pub_reader_heartbeat(a->pub);
	bool reader_beat = r != a->reader_value;
	if (reader_beat) {
		a->reader_value = r;
		a->reader_seen_ns = now;
	}
	if (!a->sampling) {
		/* A lingering segment (-agentpath) wakes up when a reader beats. */
		if (reader_beat && a->opt.linger)
			agent_start_sampling();
		return;
	}
	if (have_total)
		gctop_pub_set_alloc_total(a->pub, total, now);
	/* every tick: a segment made again starts without it */
	if (a->region_bytes)
		gctop_pub_set_region(a->pub, a->region_bytes);
	if (now - a->reader_seen_ns > a->opt.watchdog_ns) {
		agent_stop_sampling(!a->opt.linger);
		return;
	}
	if (!a->opt.interval)
		adapt_interval(a, now, have_total ? total : gctop_pub_est_bytes(a->pub));
}

static void *watchdog_main(void *arg)
{
	(void)arg;
	struct agent *a = &agent_state;
	JNIEnv *env = NULL;
	JavaVMAttachArgs args = { JNI_VERSION_1_8, "gctop-agent", NULL };
	if ((*a->vm)->AttachCurrentThreadAsDaemon(a->vm, (void **)&env, &args) != JNI_OK)
		return NULL;
	agent_mark_own_thread();
	struct exact_total x;
	exact_init(env, &x);
	a->region_bytes = agent_region_bytes(env);
	for (;;) {
		struct timespec ts = { 0, (long)AGENT_TICK_NS };
		nanosleep(&ts, NULL);
		if (__atomic_load_n(&a->dead, __ATOMIC_ACQUIRE))
			break;
		/* Java is called outside the lock: VMDeath takes the lock and must
		 * not wait behind a thread the VM may be stopping. */
		uint64_t total = 0;
		bool have = __atomic_load_n(&a->sampling, __ATOMIC_RELAXED) && exact_read(env, &x, &total);
		pthread_mutex_lock(&a->lock);
		tick(a, have, total, gctop_pub_now_ns());
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

int agent_start_watchdog(void)
{
	struct agent *a = &agent_state;
	if (a->watchdog_started)
		return 0;
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&t, &attr, watchdog_main, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return -1;
	a->watchdog_started = true;
	return 0;
}
