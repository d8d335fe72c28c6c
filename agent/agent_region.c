/* The G1 region size, from the JVM's own flags through
 * HotSpotDiagnosticMXBean (JVMTI has no call for it), read once by the
 * watchdog thread: with it the segment counts the samples of objects that
 * take whole regions and their regions' unused tails (gctop_segment.h). */
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"

/* VMOption values are short: "true", a size in bytes. */
#define AGENT_REGION_VALUE_LEN 32

struct diag_java {
	jobject bean;
	jmethodID get_option, get_value;
};

/* The value of flag name into buf; false when it cannot be read. */
static bool diag_option(JNIEnv *env, const struct diag_java *d, const char *name, char *buf, size_t len)
{
	bool ok = false;
	jstring n = (*env)->NewStringUTF(env, name);
	jobject opt = NULL;
	jstring v = NULL;
	if (!agent_jni_cleared(env) && n)
		opt = (*env)->CallObjectMethod(env, d->bean, d->get_option, n);
	if (!agent_jni_cleared(env) && opt)
		v = (*env)->CallObjectMethod(env, opt, d->get_value);
	if (!agent_jni_cleared(env) && v) {
		const char *s = (*env)->GetStringUTFChars(env, v, NULL);
		if (!agent_jni_cleared(env) && s) {
			ok = strlen(s) < len;
			if (ok)
				strcpy(buf, s);
			(*env)->ReleaseStringUTFChars(env, v, s);
		}
	}
	if (v)
		(*env)->DeleteLocalRef(env, v);
	if (opt)
		(*env)->DeleteLocalRef(env, opt);
	if (n)
		(*env)->DeleteLocalRef(env, n);
	return ok;
}

/* Each step runs only if the one before raised nothing (agent.h). */
static bool diag_init(JNIEnv *env, struct diag_java *d)
{
	memset(d, 0, sizeof(*d));
	jclass mf = (*env)->FindClass(env, "java/lang/management/ManagementFactory");
	jclass diag = NULL, vmo = NULL;
	jmethodID get = NULL;
	if (!agent_jni_cleared(env) && mf)
		get = (*env)->GetStaticMethodID(env, mf, "getPlatformMXBean",
						"(Ljava/lang/Class;)Ljava/lang/management/PlatformManagedObject;");
	if (!agent_jni_cleared(env) && get)
		diag = (*env)->FindClass(env, "com/sun/management/HotSpotDiagnosticMXBean");
	if (!agent_jni_cleared(env) && diag)
		d->bean = (*env)->CallStaticObjectMethod(env, mf, get, diag);
	if (!agent_jni_cleared(env) && d->bean)
		d->get_option = (*env)->GetMethodID(env, diag, "getVMOption",
						    "(Ljava/lang/String;)Lcom/sun/management/VMOption;");
	if (!agent_jni_cleared(env) && d->get_option)
		vmo = (*env)->FindClass(env, "com/sun/management/VMOption");
	if (!agent_jni_cleared(env) && vmo)
		d->get_value = (*env)->GetMethodID(env, vmo, "getValue", "()Ljava/lang/String;");
	agent_jni_cleared(env);
	if (vmo)
		(*env)->DeleteLocalRef(env, vmo);
	if (diag)
		(*env)->DeleteLocalRef(env, diag);
	if (mf)
		(*env)->DeleteLocalRef(env, mf);
	return d->bean && d->get_value;
}

uint64_t agent_region_bytes(JNIEnv *env)
{
	struct diag_java d;
	char g1[AGENT_REGION_VALUE_LEN], size[AGENT_REGION_VALUE_LEN];
	uint64_t region = 0;
	/* only G1 gives humongous objects whole regions (the flag has a value
	 * under the other collectors too) */
	if (diag_init(env, &d) && diag_option(env, &d, "UseG1GC", g1, sizeof(g1)) && strcmp(g1, "true") == 0 &&
	    diag_option(env, &d, "G1HeapRegionSize", size, sizeof(size))) {
		char *end;
		unsigned long long v = strtoull(size, &end, 10);
		region = end != size && *end == '\0' ? v : 0;
	}
	if (d.bean)
		(*env)->DeleteLocalRef(env, d.bean);
	return region;
}
