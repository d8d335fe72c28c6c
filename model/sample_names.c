/* The words outputs and recordings use for a sample's enums (declared in
 * model/sample.h) and for a runtime (model/runtime.h's gt_runtime_name). */
#include "model/sample.h"

const char *gt_runtime_name(const struct gt_runtime_traits *rt)
{
	return rt ? rt->name : "unknown";
}

const char *gt_alloc_source_name(enum gt_alloc_source s)
{
	switch (s) {
	case GT_ALLOC_SOURCE_ESTIMATE: return "estimate";
	case GT_ALLOC_SOURCE_EXACT: return "exact";
	case GT_ALLOC_SOURCE_SAMPLED: return "sampled";
	case GT_ALLOC_SOURCE_NONE: break;
	}
	return "none";
}

const char *gt_alloc_since_name(enum gt_alloc_since s)
{
	return s == GT_ALLOC_SINCE_PROCESS_START ? "process_start" : "attach";
}
