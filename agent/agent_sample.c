/* The allocation-sampling callback. It runs in the allocating thread, many
 * threads at once: no Java allocation, no lock, only JVMTI queries and
 * atomics. Method names are resolved once into a lock-free cache. */
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"
#include "base/jvm_type_name.h"
#include "segment/sample_weight.h"

/* The deepest walk: a library recursing under the application frame (a
 * nested collection's toString, three frames a level) runs past 100 frames;
 * walked only for a stack whose first SAMPLE_FIRST_DEPTH frames hold no
 * application frame, and costing only the frames the stack has. */
#define SAMPLE_MAX_DEPTH 256
#define CACHE_SLOTS 8192u        /* power of two */
#define CACHE_PROBES 16
#define NAME_LEN GCTOP_SEG_NAME_LEN

/* jmethodID -> "package.Class.method". Keyed by the id, which HotSpot keeps
 * allocated (and never hands to another method) for the life of the VM, so a
 * cached name cannot come to describe a different method. */
struct method_entry {
	uintptr_t id;     /* 0 empty */
	int ready;        /* name complete */
	uint64_t named_in; /* the generation of the segment its name was published in */
	char name[NAME_LEN];
};

static struct method_entry method_cache[CACHE_SLOTS];
static __thread bool own_thread;

void agent_mark_own_thread(void)
{
	own_thread = true;
}

static void deallocate(jvmtiEnv *jvmti, char *p)
{
	if (p)
		(*jvmti)->Deallocate(jvmti, (unsigned char *)p);
}

static bool resolve_method(jvmtiEnv *jvmti, JNIEnv *jni, jmethodID m, char *out, size_t len)
{
	jclass cls = NULL;
	char *csig = NULL, *mname = NULL;
	bool ok = false;
	if ((*jvmti)->GetMethodDeclaringClass(jvmti, m, &cls) == JVMTI_ERROR_NONE &&
	    (*jvmti)->GetClassSignature(jvmti, cls, &csig, NULL) == JVMTI_ERROR_NONE &&
	    (*jvmti)->GetMethodName(jvmti, m, &mname, NULL, NULL) == JVMTI_ERROR_NONE) {
		char cname[NAME_LEN];
		gt_jvm_type_name(csig, GT_JVM_DESCRIPTOR, cname, sizeof(cname));
		snprintf(out, len, "%.*s.%s", (int)(len / 2), cname, mname);
		ok = true;
	}
	deallocate(jvmti, csig);
	deallocate(jvmti, mname);
	/* A local reference per sample would pile up in threads that never
	 * return to Java between samples. */
	if (cls)
		(*jni)->DeleteLocalRef(jni, cls);
	return ok;
}

static uint64_t mix(uintptr_t x)
{
	uint64_t h = (uint64_t)x;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h;
}

/* The method's name, from the cache or resolved into scratch. NULL when the
 * method cannot be resolved. *entry: its cache entry, NULL when it has none. */
static const char *method_entry_name(jvmtiEnv *jvmti, JNIEnv *jni, jmethodID m, char *scratch,
				     struct method_entry **entry)
{
	*entry = NULL;
	uintptr_t id = (uintptr_t)m;
	uint64_t h = mix(id);
	for (unsigned i = 0; i < CACHE_PROBES; i++) {
		struct method_entry *e = &method_cache[(h + i) & (CACHE_SLOTS - 1)];
		uintptr_t cur = __atomic_load_n(&e->id, __ATOMIC_ACQUIRE);
		if (cur == 0) {
			uintptr_t expect = 0;
			if (__atomic_compare_exchange_n(&e->id, &expect, id, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				if (!resolve_method(jvmti, jni, m, e->name, sizeof(e->name)))
					snprintf(e->name, sizeof(e->name), "(unknown method)");
				__atomic_store_n(&e->ready, 1, __ATOMIC_RELEASE);
				*entry = e;
				return e->name;
			}
			cur = expect;
		}
		if (cur == id) {
			if (__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE)) {
				*entry = e;
				return e->name;
			}
			break; /* another thread is resolving it right now */
		}
	}
	return resolve_method(jvmti, jni, m, scratch, NAME_LEN) ? scratch : NULL;
}

/* Publishes a frame's method name, once per segment for a cached method
 * (a name resolved into scratch is published each time). */
static void publish_name(struct gctop_pub *pub, jmethodID m, const char *name, struct method_entry *e)
{
	uint64_t gen = pub->hdr->generation;
	if (e && __atomic_load_n(&e->named_in, __ATOMIC_RELAXED) == gen)
		return;
	if (gctop_pub_method(pub, (uint64_t)(uintptr_t)m, name) && e)
		__atomic_store_n(&e->named_in, gen, __ATOMIC_RELAXED);
}

static bool is_runtime_frame(const struct agent_prefixes *pf, const char *name)
{
	for (unsigned i = 0; i < pf->n; i++)
		if (strncmp(name, pf->p[i], strlen(pf->p[i])) == 0)
			return true;
	return false;
}

/* The stack behind a sample: its frames up to the first application frame
 * and a few callers beyond, each method's name published once. */
struct sample_stack {
	uint64_t ids[SAMPLE_MAX_DEPTH];
	uint32_t n;
};

/* Innermost frames kept of a stack deeper than a slot holds; the mark and
 * the frames up to the application's callers follow. */
#define STACK_HEAD_FRAMES 8

/* Fits st into GCTOP_SEG_STACK_FRAMES: its innermost frames, the elision
 * mark, and its outermost (the application frame and its callers). */
static void stack_fit(struct sample_stack *st)
{
	if (st->n <= GCTOP_SEG_STACK_FRAMES)
		return;
	uint32_t tail = GCTOP_SEG_STACK_FRAMES - STACK_HEAD_FRAMES - 1;
	st->ids[STACK_HEAD_FRAMES] = GCTOP_SEG_FRAME_ELIDED;
	memmove(st->ids + STACK_HEAD_FRAMES + 1, st->ids + st->n - tail, tail * sizeof(st->ids[0]));
	st->n = GCTOP_SEG_STACK_FRAMES;
}

/* Frames asked for first: as many as a stack slot holds. GetStackTrace's
 * cost grows with the frames it walks, and it is most of a sample's cost
 * (bench/README.md, 2c: under 40 frames of callers a sample took 7.6-8.6 us
 * asking for 48 frames, 4.9 us asking for 24); nearly every allocation has
 * its application frame and the callers kept beyond it within these. Only
 * a stack that has not is asked for again, to SAMPLE_MAX_DEPTH. */
#define SAMPLE_FIRST_DEPTH ((jint)GCTOP_SEG_STACK_FRAMES)
_Static_assert(GCTOP_SEG_STACK_FRAMES <= SAMPLE_MAX_DEPTH, "the first walk is no deeper than the last");

/* Whether frames[0..n) hold the first application frame and the callers
 * kept beyond it. */
static bool app_frame_within(jvmtiEnv *jvmti, JNIEnv *jni, const struct agent_prefixes *pf,
			     const jvmtiFrameInfo *frames, jint n)
{
	char scratch[NAME_LEN];
	for (jint i = 0; i + AGENT_STACK_CALLERS < n; i++) {
		struct method_entry *e;
		const char *name = method_entry_name(jvmti, jni, frames[i].method, scratch, &e);
		if (name && (!pf || !is_runtime_frame(pf, name)))
			return true;
	}
	return false;
}

/* The first frame outside the runtime's packages; the top frame when the
 * whole visible stack is the runtime's. st (may be NULL): the stack's
 * frames, whose names go into pub. */
static void first_app_frame(jvmtiEnv *jvmti, JNIEnv *jni, char *out, size_t len, struct gctop_pub *pub,
			    struct sample_stack *st)
{
	jvmtiFrameInfo frames[SAMPLE_MAX_DEPTH];
	jint n = 0, app = -1;
	const struct agent_prefixes *pf = __atomic_load_n(&agent_state.prefixes, __ATOMIC_ACQUIRE);
	char scratch[NAME_LEN], top_scratch[NAME_LEN];
	const char *top = NULL;

	jvmtiError err = (*jvmti)->GetStackTrace(jvmti, NULL, 0, SAMPLE_FIRST_DEPTH, frames, &n);
	if (err == JVMTI_ERROR_NONE && n == SAMPLE_FIRST_DEPTH && !app_frame_within(jvmti, jni, pf, frames, n))
		err = (*jvmti)->GetStackTrace(jvmti, NULL, 0, SAMPLE_MAX_DEPTH, frames, &n);
	if (err != JVMTI_ERROR_NONE || n <= 0) {
		snprintf(out, len, "(no Java frame)");
		return;
	}
	for (jint i = 0; i < n && (app < 0 || (st && i <= app + AGENT_STACK_CALLERS)); i++) {
		struct method_entry *e;
		const char *name = method_entry_name(jvmti, jni, frames[i].method, scratch, &e);
		/* a frame whose name cannot be had stays in its stack: the
		 * reader shows an id with no name as "(unknown method)" */
		if (st && st->n < SAMPLE_MAX_DEPTH) {
			st->ids[st->n++] = (uint64_t)(uintptr_t)frames[i].method;
			if (name)
				publish_name(pub, frames[i].method, name, e);
		}
		if (!name || app >= 0)
			continue;
		if (!pf || !is_runtime_frame(pf, name)) {
			snprintf(out, len, "%s", name);
			app = i;
			continue;
		}
		if (!top) {
			top = name == scratch ? memcpy(top_scratch, scratch, sizeof(top_scratch)) : name;
		}
	}
	if (app < 0)
		snprintf(out, len, "%s", top ? top : "(unknown method)");
	if (st)
		stack_fit(st);
}

static void type_name(jvmtiEnv *jvmti, jclass klass, char *out, size_t len)
{
	char *sig = NULL;
	if (klass && (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) == JVMTI_ERROR_NONE && sig)
		gt_jvm_type_name(sig, GT_JVM_DESCRIPTOR, out, len);
	else
		snprintf(out, len, "(unknown type)");
	deallocate(jvmti, sig);
}

/* Collections begun (GarbageCollectionStart), and the count this thread's
 * last sample saw. */
static uint64_t gc_count;
static __thread uint64_t gc_seen;

/* Whether this sample is its thread's first since a collection, on a JVM
 * whose sampler predates JDK-8356372's fix (agent.h). A collection retires
 * the thread's TLAB, and that sampler checks the thread's first allocation
 * after it with the bytes it was promised for the retired TLAB, counted
 * again for each allocation outside the TLAB since: bytes never allocated,
 * so the sample falls on the object allocated after the safepoint,
 * whatever its size. Issue 42's program (256 KiB buffers, then a request
 * string) on JDK 17 showed its StringBuilder at 9.7% of the bytes, 0.25%
 * without these samples (0.01% in truth). A sound first sample left out
 * with them sits where the collection did not choose it, so the shares
 * stay unbiased; only the samples are fewer. */
static bool first_after_gc(void)
{
	if (!agent_state.sampler_biased || !agent_state.have_gc_events)
		return false;
	uint64_t g = __atomic_load_n(&gc_count, __ATOMIC_RELAXED);
	if (g == gc_seen)
		return false;
	gc_seen = g;
	return true;
}

/* Adds one sample of weight w to the sites, the totals and the stacks. */
static void publish_sample(jvmtiEnv *jvmti, JNIEnv *jni, struct gctop_pub *pub, jclass klass, uint64_t w)
{
	char frame[NAME_LEN], type[NAME_LEN];
	struct sample_stack st = { .n = 0 };
	first_app_frame(jvmti, jni, frame, sizeof(frame), pub, &st);
	type_name(jvmti, klass, type, sizeof(type));
	gctop_pub_sample(pub, frame, type, GCTOP_SEG_HEAP_UNKNOWN, w);
	if (st.n)
		gctop_pub_stack(pub, frame, st.ids, st.n, w);
}

void JNICALL agent_on_sampled_alloc(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread, jobject object,
				    jclass klass, jlong size)
{
	(void)thread;
	(void)object;
	if (own_thread)
		return;
	bool unsound = first_after_gc();
	__atomic_fetch_add(&agent_state.inflight, 1, __ATOMIC_SEQ_CST);
	struct gctop_pub *pub = __atomic_load_n(&agent_state.pub, __ATOMIC_SEQ_CST);
	if (pub && __atomic_load_n(&agent_state.sampling, __ATOMIC_RELAXED)) {
		/* The bytes this sample stands for: its size over the chance
		 * that an object of its size is sampled at this interval. */
		uint64_t interval = __atomic_load_n(&agent_state.interval, __ATOMIC_RELAXED);
		uint64_t bytes = size > 0 ? (uint64_t)size : 0;
		uint64_t w = gctop_sample_weight(bytes, interval);
		/* an object larger than half a region is never in a TLAB: its
		 * sample is sound after a collection too */
		gctop_pub_region_object(pub, bytes, w);
		if (!unsound)
			publish_sample(jvmti, jni, pub, klass, w);
	}
	__atomic_fetch_sub(&agent_state.inflight, 1, __ATOMIC_SEQ_CST);
}

/* GC start and finish run in the VM thread with the world stopped: plain
 * stores and the segment's atomics only. */
void JNICALL agent_on_gc_start(jvmtiEnv *jvmti)
{
	(void)jvmti;
	agent_state.gc_start_ns = gctop_pub_now_ns();
	__atomic_fetch_add(&gc_count, 1, __ATOMIC_RELAXED);
}

void JNICALL agent_on_gc_finish(jvmtiEnv *jvmti)
{
	(void)jvmti;
	uint64_t start = agent_state.gc_start_ns, end = gctop_pub_now_ns();
	if (!start || end < start)
		return;
	agent_state.gc_start_ns = 0;
	__atomic_fetch_add(&agent_state.inflight, 1, __ATOMIC_SEQ_CST);
	struct gctop_pub *pub = __atomic_load_n(&agent_state.pub, __ATOMIC_SEQ_CST);
	if (pub)
		gctop_pub_pause(pub, end - start);
	__atomic_fetch_sub(&agent_state.inflight, 1, __ATOMIC_SEQ_CST);
}
