#include "collectors/registry.h"

#include <stdio.h>
#include <string.h>

/* Explicit table rather than constructor registration: the probe order is
 * visible here and does not depend on link order. A new runtime adds its
 * ops here; outside its folder it touches nothing else in the code (its
 * docs and its tests: CONTRIBUTING.md, "Adding a runtime"). The skeleton
 * (collectors/skeleton/) is not listed: it would claim no process a test
 * did not arrange, but every sentence that names the runtimes ("JVM or
 * .NET") and --help would name it too. tests/static/third_runtime.sh
 * lists it here, in a copy of the tree, and runs the checks. */
extern const struct gt_backend_ops gt_hotspot_ops;
extern const struct gt_backend_ops gt_dotnet_ops;

const struct gt_backend_ops *const gt_backends[] = {
	&gt_hotspot_ops,
	&gt_dotnet_ops,
	NULL,
};

const struct gt_runtime_traits *gt_registry_at(size_t i)
{
	for (size_t k = 0; gt_backends[k]; k++)
		if (k == i)
			return gt_backends[k]->traits;
	return NULL;
}

const struct gt_runtime_traits *gt_registry_find(const char *name)
{
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; name && (rt = gt_registry_at(i)); i++)
		if (strcmp(rt->name, name) == 0)
			return rt;
	return NULL;
}

/* field(rt) of each runtime that has one, "a, b conj c". */
static const char *join(char *buf, size_t len, const char *(*field)(const struct gt_runtime_traits *),
			const char *conj)
{
	const char *words[8];
	size_t n = 0, used = 0;
	const struct gt_runtime_traits *rt;
	for (size_t i = 0; (rt = gt_registry_at(i)) && n < sizeof(words) / sizeof(words[0]); i++)
		if (field(rt))
			words[n++] = field(rt);
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const char *sep = i == 0 ? "" : i + 1 == n ? conj : ", ";
		int w = snprintf(buf + used, len - used, "%s%s", sep, words[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

static const char *display(const struct gt_runtime_traits *rt) { return rt->display; }
static const char *wanted(const struct gt_runtime_traits *rt) { return rt->wanted; }
static const char *opcount_takes(const struct gt_runtime_traits *rt) { return rt->opcount_takes; }

const char *gt_registry_names(char *buf, size_t len, const char *conj)
{
	return join(buf, len, display, conj);
}

const char *gt_registry_wanted(char *buf, size_t len)
{
	return join(buf, len, wanted, " nor ");
}

const char *gt_registry_opcount_takes(char *buf, size_t len)
{
	return join(buf, len, opcount_takes, " or ");
}
