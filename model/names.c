#include "model/sample.h"

const char *gt_runtime_name(enum gt_runtime r)
{
	switch (r) {
	case GT_RUNTIME_HOTSPOT: return "hotspot";
	case GT_RUNTIME_DOTNET: return "dotnet";
	case GT_RUNTIME_UNKNOWN: break;
	}
	return "unknown";
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
