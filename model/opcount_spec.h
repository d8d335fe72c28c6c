/* The operations counter --ops names: a perf-data counter's name, or
 * "jmx:OBJECTNAME:ATTRIBUTE", an MBean attribute that gctop's agent reads
 * inside the JVM, summed over the MBeans when OBJECTNAME is a pattern
 * (jmx:Catalina:type=GlobalRequestProcessor,name=*:requestCount). The
 * attribute is what follows the last colon, as in jmxterm's "bean
 * attribute" pair and jmx_exporter's <bean><>attribute, since an ObjectName
 * holds colons of its own. Pure. */
#ifndef GCTOP_MODEL_OPCOUNT_SPEC_H
#define GCTOP_MODEL_OPCOUNT_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#define GT_OPCOUNT_JMX_PREFIX "jmx:"
#define GT_OPCOUNT_JMX_NAME_MAX 200   /* the ObjectName, bytes */
#define GT_OPCOUNT_JMX_ATTR_MAX 63    /* the attribute, bytes */

/* The request counter of whichever web server the JVM runs (Tomcat,
 * Jetty, WildFly's Undertow), found by gctop's agent without an MBean
 * named: a jmx: spec like the others, read through the agent. */
#define GT_OPCOUNT_SERVER_REQUESTS "jmx:requests"

/* True when spec has the jmx: form (well made or not), GT_OPCOUNT_SERVER_REQUESTS too. */
bool gt_opcount_is_jmx(const char *spec);

/* True when spec is GT_OPCOUNT_SERVER_REQUESTS. */
bool gt_opcount_is_server(const char *spec);

/* Splits a jmx: spec into the ObjectName (name, GT_OPCOUNT_JMX_NAME_MAX + 1
 * bytes) and the attribute (attr, GT_OPCOUNT_JMX_ATTR_MAX + 1 bytes). Returns 0,
 * or -1 with a phrase in *why: the ObjectName must have a domain and a colon
 * before its keys, printable ASCII only; the attribute letters, digits and
 * _ $ - only. */
int gt_opcount_jmx_split(const char *spec, char *name, char *attr, const char **why);

#endif
