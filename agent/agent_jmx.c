/* --ops jmx: inside the JVM: the MBean attribute a reader asks for in the
 * segment's ops block, summed over the MBeans its name matches, read by a
 * thread of the agent's own (never an application thread, never the
 * watchdog: an attribute's getter is application code and may block; then
 * only this thread waits, and the answer's read_ns tells the reader how
 * old it is) and published with its status.
 *
 * Bounded work: one reading per tick while a reader beats the request, a
 * pattern matched again only every AGENT_JMX_REQUERY_TICKS (or when an
 * MBean went), at most GCTOP_SEG_OPS_MAX_MBEANS MBeans summed (more is an
 * answer of its own, TOO_MANY), every JNI local dropped each tick, every
 * exception cleared where it is raised. Idle (no request) it wakes once a
 * second and touches no Java.
 *
 * Two requests are more than a name: GCTOP_SEG_OPS_SERVER_NAME asks for
 * the request counter of whichever web server registered one (looked for
 * again every AGENT_JMX_REQUERY_TICKS while none has: Tomcat registers its
 * MBeans seconds after the JVM starts), and a plain name no MBean has is
 * tried once more with its values quoted, since Tomcat quotes them and the
 * two are different names to JMX. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent/agent.h"

#define AGENT_JMX_TICK_NS 100000000ull
#define AGENT_JMX_IDLE_NS 1000000000ull
#define AGENT_JMX_REQUERY_TICKS 10
#define AGENT_JMX_LOCALS 32
#define AGENT_JMX_REASON GCTOP_SEG_OPS_REASON_LEN
#define AGENT_JMX_NAME_LEN GCTOP_SEG_OPS_NAME_LEN
/* Keys of a plain name tried quoted one by one (then all at once). */
#define JMX_QUOTED_KEYS 8

/* The web servers' request counters, tried in this order; each is summed
 * over its connectors or listeners. Tomcat's names were read from a
 * running Tomcat 10 (its values are quoted: name="http-nio-8080");
 * Jetty's (a StatisticsHandler, exported by jetty-jmx) and WildFly's
 * (undertow listeners, statistics-enabled) are from their sources and
 * documentation. Jetty's "requests" is in every StatisticsHandler from 9.4
 * to 12.1 (12.0.3 on deprecate it for "requestTotal", the same count, but
 * keep it), so one name covers them. Spring Boot registers the embedded
 * Tomcat's MBeans only with server.tomcat.mbeanregistry.enabled=true. */
static const struct {
	const char *name, *attr;
} jmx_server_counters[] = {
	{ "Catalina:type=GlobalRequestProcessor,*", "requestCount" },
	{ "Tomcat:type=GlobalRequestProcessor,*", "requestCount" }, /* embedded (Spring Boot) */
	{ "org.eclipse.jetty.server.handler:type=statisticshandler,*", "requests" },
	{ "jboss.as:subsystem=undertow,server=*,http-listener=*", "requestCount" },
};
#define JMX_SERVER_COUNTERS (sizeof(jmx_server_counters) / sizeof(jmx_server_counters[0]))

struct jmx_java {
	jclass mf, objname, number, inf, anf, mbe_wrapped[3];
	jmethodID server, ctor, is_pattern, query, get_attr, long_value, to_array, size, get_cause, get_message,
		class_name, get_class, is_registered;
	jobject mbs;                         /* the platform MBeanServer, once asked for */
	bool missing;                        /* no java.management: said once, never looked for again */
};

/* What the thread serves: one request of one segment. */
struct jmx_served {
	uint64_t id, gen, beat, beat_ns;
	jobject name;                        /* global ObjectName, NULL when refused */
	jstring attr;
	jobject beans[GCTOP_SEG_OPS_MAX_MBEANS];
	unsigned n_beans, ticks;
	uint32_t found;                      /* MBeans the name matched at the last query */
	bool resolved, pattern;
	bool server;                         /* GCTOP_SEG_OPS_SERVER_NAME: name and attr are a server's */
	int counter;                         /* jmx_server_counters' index in name, -1 none */
	char quoted[AGENT_JMX_REASON];       /* the quoted name registered instead, or "" */
	unsigned quoted_tick;                /* ticks when it is looked for again */
};

struct jmx_answer {
	enum gctop_seg_ops_status status;
	uint64_t value;
	uint32_t matched;
	char reason[AGENT_JMX_REASON];
};

static bool jmx_started;

static jclass jmx_global_class(JNIEnv *env, const char *name)
{
	jclass c = (*env)->FindClass(env, name);
	if (agent_jni_cleared(env) || !c)
		return NULL;
	jclass g = (*env)->NewGlobalRef(env, c);
	(*env)->DeleteLocalRef(env, c);
	return g;
}

/* The classes and methods, once; false (and a reason) when the JVM has no
 * java.management. */
static bool jmx_java_init(JNIEnv *env, struct jmx_java *j, struct jmx_answer *a)
{
	if (j->mf)
		return true;
	if (j->missing) {
		a->status = GCTOP_SEG_OPS_NO_JMX;
		snprintf(a->reason, sizeof(a->reason), "this JVM has no java.management module");
		return false;
	}
	jclass obj = jmx_global_class(env, "java/lang/Object"), thr = jmx_global_class(env, "java/lang/Throwable");
	jclass cls = jmx_global_class(env, "java/lang/Class"), set = jmx_global_class(env, "java/util/Set");
	jclass srv = jmx_global_class(env, "javax/management/MBeanServer");
	j->objname = jmx_global_class(env, "javax/management/ObjectName");
	j->number = jmx_global_class(env, "java/lang/Number");
	j->inf = jmx_global_class(env, "javax/management/InstanceNotFoundException");
	j->anf = jmx_global_class(env, "javax/management/AttributeNotFoundException");
	j->mbe_wrapped[0] = jmx_global_class(env, "javax/management/MBeanException");
	j->mbe_wrapped[1] = jmx_global_class(env, "javax/management/ReflectionException");
	j->mbe_wrapped[2] = jmx_global_class(env, "javax/management/RuntimeMBeanException");
	jclass mf = jmx_global_class(env, "java/lang/management/ManagementFactory");
	if (!obj || !thr || !cls || !set || !srv || !j->objname || !j->number || !j->inf || !j->anf || !mf) {
		j->missing = true;
		return jmx_java_init(env, j, a);
	}
	j->server = (*env)->GetStaticMethodID(env, mf, "getPlatformMBeanServer", "()Ljavax/management/MBeanServer;");
	j->ctor = (*env)->GetMethodID(env, j->objname, "<init>", "(Ljava/lang/String;)V");
	j->is_pattern = (*env)->GetMethodID(env, j->objname, "isPattern", "()Z");
	j->query = (*env)->GetMethodID(env, srv, "queryNames",
				       "(Ljavax/management/ObjectName;Ljavax/management/QueryExp;)Ljava/util/Set;");
	j->get_attr = (*env)->GetMethodID(env, srv, "getAttribute",
					  "(Ljavax/management/ObjectName;Ljava/lang/String;)Ljava/lang/Object;");
	j->is_registered = (*env)->GetMethodID(env, srv, "isRegistered", "(Ljavax/management/ObjectName;)Z");
	j->long_value = (*env)->GetMethodID(env, j->number, "longValue", "()J");
	j->to_array = (*env)->GetMethodID(env, set, "toArray", "()[Ljava/lang/Object;");
	j->size = (*env)->GetMethodID(env, set, "size", "()I");
	j->get_cause = (*env)->GetMethodID(env, thr, "getCause", "()Ljava/lang/Throwable;");
	j->get_message = (*env)->GetMethodID(env, thr, "getMessage", "()Ljava/lang/String;");
	j->class_name = (*env)->GetMethodID(env, cls, "getName", "()Ljava/lang/String;");
	j->get_class = (*env)->GetMethodID(env, obj, "getClass", "()Ljava/lang/Class;");
	agent_jni_cleared(env);
	j->mf = mf; /* last: the check above */
	return true;
}

/* s (a Java string, may be NULL) as printable ASCII into buf. */
static void jmx_ascii(JNIEnv *env, jstring s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!s)
		return;
	const char *u = (*env)->GetStringUTFChars(env, s, NULL);
	if (agent_jni_cleared(env) || !u)
		return;
	size_t o = 0;
	for (const char *p = u; *p && o + 1 < len; p++)
		buf[o++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
	buf[o] = '\0';
	(*env)->ReleaseStringUTFChars(env, s, u);
}

/* The class name of o into buf (JDK code only: Object.getClass, Class.getName). */
static void jmx_class_name(JNIEnv *env, const struct jmx_java *j, jobject o, char *buf, size_t len)
{
	buf[0] = '\0';
	jobject c = o ? (*env)->CallObjectMethod(env, o, j->get_class) : NULL;
	jstring n = !agent_jni_cleared(env) && c ? (*env)->CallObjectMethod(env, c, j->class_name) : NULL;
	if (!agent_jni_cleared(env))
		jmx_ascii(env, n, buf, len);
}

/* The pending exception, cleared, as an answer: what a getAttribute
 * exception means, and the class of what the getter threw. */
static void jmx_exception(JNIEnv *env, const struct jmx_java *j, struct jmx_answer *a)
{
	jthrowable t = (*env)->ExceptionOccurred(env);
	(*env)->ExceptionClear(env);
	a->status = GCTOP_SEG_OPS_FAILED;
	if (!t)
		return;
	if ((*env)->IsInstanceOf(env, t, j->inf)) {
		a->status = GCTOP_SEG_OPS_NO_MBEAN;
		return;
	}
	if ((*env)->IsInstanceOf(env, t, j->anf)) {
		a->status = GCTOP_SEG_OPS_NO_ATTRIBUTE;
		return;
	}
	/* The MBean server wraps what the getter threw: name that. */
	for (int i = 0; i < 3; i++) {
		if (j->mbe_wrapped[i] && (*env)->IsInstanceOf(env, t, j->mbe_wrapped[i])) {
			jthrowable cause = (*env)->CallObjectMethod(env, t, j->get_cause);
			if (!agent_jni_cleared(env) && cause)
				t = cause;
			break;
		}
	}
	jmx_class_name(env, j, t, a->reason, sizeof(a->reason));
}

static void jmx_drop_beans(JNIEnv *env, struct jmx_served *s)
{
	for (unsigned i = 0; i < s->n_beans; i++)
		(*env)->DeleteGlobalRef(env, s->beans[i]);
	s->n_beans = 0;
	s->resolved = false;
}

static void jmx_forget(JNIEnv *env, struct jmx_served *s)
{
	jmx_drop_beans(env, s);
	if (s->name)
		(*env)->DeleteGlobalRef(env, s->name);
	if (s->attr)
		(*env)->DeleteGlobalRef(env, s->attr);
	memset(s, 0, sizeof(*s));
}

static bool jmx_printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return false;
	return true;
}

/* An ObjectName from printable ASCII, as a local reference; NULL with the
 * answer (BAD_NAME and the JVM's reason) when the JVM refuses it. */
static jobject jmx_object_name(JNIEnv *env, const struct jmx_java *j, const char *text, struct jmx_answer *a)
{
	jstring str = (*env)->NewStringUTF(env, text);
	jobject name = !agent_jni_cleared(env) && str ? (*env)->NewObject(env, j->objname, j->ctor, str) : NULL;
	if (str)
		(*env)->DeleteLocalRef(env, str);
	if ((*env)->ExceptionCheck(env)) {
		jthrowable t = (*env)->ExceptionOccurred(env);
		(*env)->ExceptionClear(env);
		a->status = GCTOP_SEG_OPS_BAD_NAME;
		jstring m = (*env)->CallObjectMethod(env, t, j->get_message);
		if (!agent_jni_cleared(env))
			jmx_ascii(env, m, a->reason, sizeof(a->reason));
		return NULL;
	}
	if (!name)
		a->status = GCTOP_SEG_OPS_FAILED;
	return name;
}

/* name and attr (printable ASCII) as the served ObjectName and attribute,
 * replacing any before; false with the answer. */
static bool jmx_set_name(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s, const char *name_text,
			 const char *attr_text, struct jmx_answer *a)
{
	jmx_drop_beans(env, s);
	if (s->name)
		(*env)->DeleteGlobalRef(env, s->name);
	if (s->attr)
		(*env)->DeleteGlobalRef(env, s->attr);
	s->name = s->attr = NULL;
	jobject name = jmx_object_name(env, j, name_text, a);
	if (!name)
		return false;
	jstring attr = (*env)->NewStringUTF(env, attr_text);
	if (agent_jni_cleared(env) || !attr) {
		a->status = GCTOP_SEG_OPS_FAILED;
		return false;
	}
	s->name = (*env)->NewGlobalRef(env, name);
	s->attr = (*env)->NewGlobalRef(env, attr);
	(*env)->DeleteLocalRef(env, name);
	(*env)->DeleteLocalRef(env, attr);
	return s->name && s->attr;
}

/* The request's ObjectName and attribute as Java objects (a server's
 * counter: none until jmx_resolve_server picks one); false with the answer
 * when the JVM refuses the name. */
static bool jmx_take_request(JNIEnv *env, const struct jmx_java *j, const struct gctop_pub_ops_request *r,
			     struct jmx_served *s, struct jmx_answer *a)
{
	/* Outside input: JNI takes modified UTF-8 only, so both strings are
	 * held to printable ASCII (as gctop writes them) before Java sees them. */
	if (!jmx_printable(r->name) || !jmx_printable(r->attr) || !r->attr[0]) {
		a->status = GCTOP_SEG_OPS_BAD_NAME;
		snprintf(a->reason, sizeof(a->reason), "not printable ASCII");
		return false;
	}
	s->counter = -1;
	s->server = strcmp(r->name, GCTOP_SEG_OPS_SERVER_NAME) == 0 && strcmp(r->attr, GCTOP_SEG_OPS_SERVER_ATTR) == 0;
	return s->server || jmx_set_name(env, j, s, r->name, r->attr, a);
}

/* The MBeans the served name matches now; false with the answer when the
 * query threw. */
static bool jmx_query(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s, struct jmx_answer *a)
{
	jmx_drop_beans(env, s);
	jboolean pattern = (*env)->CallBooleanMethod(env, s->name, j->is_pattern);
	if (agent_jni_cleared(env))
		pattern = JNI_TRUE;
	s->pattern = pattern;
	if (!pattern) {
		s->beans[0] = (*env)->NewGlobalRef(env, s->name);
		s->n_beans = s->beans[0] ? 1 : 0;
		s->found = s->n_beans;
		s->resolved = true;
		return true;
	}
	jobject set = (*env)->CallObjectMethod(env, j->mbs, j->query, s->name, NULL);
	jint n = !(*env)->ExceptionCheck(env) && set ? (*env)->CallIntMethod(env, set, j->size) : 0;
	jobjectArray arr = !(*env)->ExceptionCheck(env) && n > 0 && n <= (jint)GCTOP_SEG_OPS_MAX_MBEANS
				   ? (*env)->CallObjectMethod(env, set, j->to_array) : NULL;
	if ((*env)->ExceptionCheck(env)) {
		jmx_exception(env, j, a);
		return false;
	}
	s->found = n > 0 ? (uint32_t)n : 0;
	jsize len = arr ? (*env)->GetArrayLength(env, arr) : 0;
	for (jsize i = 0; i < len && s->n_beans < GCTOP_SEG_OPS_MAX_MBEANS; i++) {
		jobject o = (*env)->GetObjectArrayElement(env, arr, i);
		if (agent_jni_cleared(env) || !o)
			continue;
		s->beans[s->n_beans] = (*env)->NewGlobalRef(env, o);
		if (s->beans[s->n_beans])
			s->n_beans++;
		(*env)->DeleteLocalRef(env, o);
	}
	if (arr)
		(*env)->DeleteLocalRef(env, arr);
	if (set)
		(*env)->DeleteLocalRef(env, set);
	s->resolved = true;
	return true;
}

/* A server's counter: the first of jmx_server_counters that matches an
 * MBean now; none leaves no MBeans (NO_MBEAN). */
static bool jmx_resolve_server(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s, struct jmx_answer *a)
{
	for (size_t i = 0; i < JMX_SERVER_COUNTERS; i++) {
		s->counter = -1;
		if (!jmx_set_name(env, j, s, jmx_server_counters[i].name, jmx_server_counters[i].attr, a) ||
		    !jmx_query(env, j, s, a))
			return false;
		if (s->found) {
			s->counter = (int)i;
			return true;
		}
	}
	return true;
}

/* The MBeans to read: the name itself, or what the pattern (or a server's
 * counter) matches now, asked again every AGENT_JMX_REQUERY_TICKS and
 * after one went. False with the answer when the query threw. */
static bool jmx_resolve(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s, struct jmx_answer *a)
{
	if (s->resolved && s->ticks % AGENT_JMX_REQUERY_TICKS != 0)
		return true;
	return s->server ? jmx_resolve_server(env, j, s, a) : jmx_query(env, j, s, a);
}

static bool jmx_put(char *out, size_t len, size_t *o, char c)
{
	if (*o + 1 >= len)
		return false;
	out[(*o)++] = c;
	return true;
}

/* name with its key value number which (or every one: -1) quoted as
 * ObjectName.quote does (none holds a quote, an asterisk, a question mark
 * or a newline: the JVM took name as a plain name, so only a backslash
 * needs escaping); false when nothing changed or it does not fit. A
 * quoted value is another name to JMX, so each is tried on its own. */
static bool jmx_quote_values(const char *name, int which, char *out, size_t len)
{
	const char *p = strchr(name, ':');
	if (!p)
		return false;
	size_t o = 0;
	bool changed = false;
	for (const char *c = name; c <= p; c++)
		if (!jmx_put(out, len, &o, *c))
			return false;
	for (int key = 0; *++p; key++) {
		const char *eq = strchr(p, '='), *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		bool quote = eq && eq < end && eq[1] != '"' && (which < 0 || which == key);
		for (; p < end; p++) {
			if (quote && p == eq + 1 && !jmx_put(out, len, &o, '"'))
				return false;
			if (quote && p > eq && *p == '\\' && !jmx_put(out, len, &o, '\\'))
				return false;
			if (!jmx_put(out, len, &o, *p))
				return false;
		}
		if (quote && ((eq + 1 == end && !jmx_put(out, len, &o, '"')) || !jmx_put(out, len, &o, '"')))
			return false;
		changed |= quote;
		if (!*p)
			break;
		if (!jmx_put(out, len, &o, ','))
			return false;
	}
	out[o] = '\0';
	return changed;
}

/* For a plain name no MBean has: the same name with its values quoted
 * into s->quoted when that one is registered (checked again with every
 * query); "" otherwise. */
static void jmx_find_quoted(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s,
			    const struct gctop_pub_ops_request *r)
{
	if (s->ticks < s->quoted_tick)
		return;
	s->quoted_tick = s->ticks + AGENT_JMX_REQUERY_TICKS;
	s->quoted[0] = '\0';
	char q[AGENT_JMX_NAME_LEN];
	struct jmx_answer ignored;
	for (int which = -1; which < JMX_QUOTED_KEYS && j->is_registered && !s->quoted[0]; which++) {
		if (!jmx_quote_values(r->name, which, q, sizeof(q)) || strlen(q) >= sizeof(s->quoted))
			continue;
		jobject name = jmx_object_name(env, j, q, &ignored);
		jboolean there = name ? (*env)->CallBooleanMethod(env, j->mbs, j->is_registered, name) : JNI_FALSE;
		if (!agent_jni_cleared(env) && there)
			snprintf(s->quoted, sizeof(s->quoted), "%s", q);
		if (name)
			(*env)->DeleteLocalRef(env, name);
	}
}

/* One MBean's attribute into *sum; false with the answer. */
static bool jmx_add(JNIEnv *env, const struct jmx_java *j, struct jmx_served *s, jobject bean, uint64_t *sum,
		    struct jmx_answer *a)
{
	jobject v = (*env)->CallObjectMethod(env, j->mbs, j->get_attr, bean, s->attr);
	if ((*env)->ExceptionCheck(env)) {
		jmx_exception(env, j, a);
		if (a->status == GCTOP_SEG_OPS_NO_MBEAN)
			s->resolved = false; /* gone: match the pattern again next tick */
		return false;
	}
	if (!v || !(*env)->IsInstanceOf(env, v, j->number)) {
		a->status = GCTOP_SEG_OPS_NOT_NUMBER;
		if (v)
			jmx_class_name(env, j, v, a->reason, sizeof(a->reason));
		else
			snprintf(a->reason, sizeof(a->reason), "null");
		return false;
	}
	jlong x = (*env)->CallLongMethod(env, v, j->long_value);
	(*env)->DeleteLocalRef(env, v);
	if ((*env)->ExceptionCheck(env)) {
		jmx_exception(env, j, a);
		return false;
	}
	if (x < 0) {
		a->status = GCTOP_SEG_OPS_NEGATIVE;
		return false;
	}
	if (__builtin_add_overflow(*sum, (uint64_t)x, sum)) {
		a->status = GCTOP_SEG_OPS_FAILED;
		snprintf(a->reason, sizeof(a->reason), "the sum is past 2^64");
		return false;
	}
	return true;
}

/* The answer to the request being served; *read_ns: the middle of the reading. */
static void jmx_answer(JNIEnv *env, struct jmx_java *j, struct jmx_served *s, const struct gctop_pub_ops_request *r,
		       struct jmx_answer *a, uint64_t *read_ns)
{
	if (!jmx_java_init(env, j, a))
		return;
	if (!j->mbs) {
		jobject mbs = (*env)->CallStaticObjectMethod(env, j->mf, j->server);
		if ((*env)->ExceptionCheck(env) || !mbs) {
			jmx_exception(env, j, a);
			a->status = GCTOP_SEG_OPS_NO_JMX;
			return;
		}
		j->mbs = (*env)->NewGlobalRef(env, mbs);
	}
	if (!s->name && !s->server && !jmx_take_request(env, j, r, s, a))
		return;
	if (!jmx_resolve(env, j, s, a))
		return;
	a->matched = s->found;
	if (s->found > GCTOP_SEG_OPS_MAX_MBEANS || s->n_beans == 0) {
		a->status = s->found ? GCTOP_SEG_OPS_TOO_MANY : GCTOP_SEG_OPS_NO_MBEAN;
		return;
	}
	uint64_t t0 = gctop_pub_now_ns(), sum = 0;
	for (unsigned i = 0; i < s->n_beans; i++) {
		if (!jmx_add(env, j, s, s->beans[i], &sum, a)) {
			if (a->status == GCTOP_SEG_OPS_NO_MBEAN && !s->pattern && !s->server) {
				jmx_find_quoted(env, j, s, r);
				snprintf(a->reason, sizeof(a->reason), "%s", s->quoted);
			}
			return;
		}
	}
	*read_ns = t0 + (gctop_pub_now_ns() - t0) / 2;
	a->status = GCTOP_SEG_OPS_OK;
	a->value = sum;
	/* Which server's counter was read, for the reader to name. */
	if (s->server && s->counter >= 0)
		snprintf(a->reason, sizeof(a->reason), "%s:%s", jmx_server_counters[s->counter].name,
			 jmx_server_counters[s->counter].attr);
}

/* The live segment's request, under the lock; false when there is none.
 * *quiet_ns: how long an unbeaten request is still served (the watchdog's
 * time). */
static bool jmx_request(struct gctop_pub **pub, uint64_t *gen, struct gctop_pub_ops_request *r, uint64_t *quiet_ns)
{
	struct agent *a = &agent_state;
	pthread_mutex_lock(&a->lock);
	*quiet_ns = a->opt.watchdog_ns;
	*pub = __atomic_load_n(&a->dead, __ATOMIC_ACQUIRE) ? NULL : a->pub;
	*gen = *pub ? (*pub)->hdr->generation : 0;
	bool have = *pub && gctop_pub_ops_request(*pub, r);
	pthread_mutex_unlock(&a->lock);
	return have;
}

/* One tick: serves the request while its reader beats it. Returns the
 * time to sleep before the next. */
static uint64_t jmx_tick(JNIEnv *env, struct jmx_java *j, struct jmx_served *s)
{
	struct agent *a = &agent_state;
	struct gctop_pub *pub;
	uint64_t gen, quiet_ns;
	struct gctop_pub_ops_request r;
	bool have = jmx_request(&pub, &gen, &r, &quiet_ns);
	uint64_t now = gctop_pub_now_ns();
	if (!have || r.id != s->id || gen != s->gen) {
		jmx_forget(env, s);
		if (!have)
			return AGENT_JMX_IDLE_NS;
		s->id = r.id;
		s->gen = gen;
		s->beat = r.beat;
		s->beat_ns = now;
	} else if (r.beat != s->beat) {
		s->beat = r.beat;
		s->beat_ns = now;
	}
	/* Nobody beats it any more (its reader left): nothing runs. */
	if (now - s->beat_ns > quiet_ns)
		return AGENT_JMX_IDLE_NS;
	struct jmx_answer ans;
	memset(&ans, 0, sizeof(ans));
	uint64_t read_ns = now;
	if ((*env)->PushLocalFrame(env, AGENT_JMX_LOCALS) != 0) {
		agent_jni_cleared(env);
		return AGENT_JMX_TICK_NS;
	}
	jmx_answer(env, j, s, &r, &ans, &read_ns);
	(*env)->PopLocalFrame(env, NULL);
	agent_jni_cleared(env);
	s->ticks++;
	pthread_mutex_lock(&a->lock);
	if (!a->dead && a->pub == pub && pub->hdr->generation == gen)
		gctop_pub_set_ops(pub, r.id, ans.status, ans.value, ans.matched, read_ns, ans.reason);
	pthread_mutex_unlock(&a->lock);
	return AGENT_JMX_TICK_NS;
}

static void *jmx_main(void *arg)
{
	(void)arg;
	struct agent *a = &agent_state;
	JNIEnv *env = NULL;
	struct jmx_java java;
	struct jmx_served served;
	memset(&java, 0, sizeof(java));
	memset(&served, 0, sizeof(served));
	uint64_t sleep_ns = AGENT_JMX_IDLE_NS;
	for (;;) {
		struct timespec ts = { (time_t)(sleep_ns / 1000000000ull), (long)(sleep_ns % 1000000000ull) };
		nanosleep(&ts, NULL);
		if (__atomic_load_n(&a->dead, __ATOMIC_ACQUIRE))
			break;
		if (!env) {
			/* Joins the VM only once a reader asks: an agent without
			 * --ops jmx: runs no Java here. */
			struct gctop_pub *pub;
			uint64_t gen, quiet_ns;
			struct gctop_pub_ops_request r;
			if (!jmx_request(&pub, &gen, &r, &quiet_ns))
				continue;
			JavaVMAttachArgs args = { JNI_VERSION_1_8, "gctop-agent-jmx", NULL };
			if ((*a->vm)->AttachCurrentThreadAsDaemon(a->vm, (void **)&env, &args) != JNI_OK)
				break;
			agent_mark_own_thread();
		}
		sleep_ns = jmx_tick(env, &java, &served);
	}
	return NULL;
}

void agent_jmx_start(void)
{
	if (jmx_started)
		return;
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	jmx_started = pthread_create(&t, &attr, jmx_main, NULL) == 0;
	pthread_attr_destroy(&attr);
}
