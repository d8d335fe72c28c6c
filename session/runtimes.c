#include "session/runtimes.h"

#include "collectors/registry.h"

const struct gt_runtime_traits *gt_runtimes_at(size_t i)
{
	return gt_registry_at(i);
}

const char *gt_runtimes_names(char *buf, size_t len, const char *conj)
{
	return gt_registry_names(buf, len, conj);
}
