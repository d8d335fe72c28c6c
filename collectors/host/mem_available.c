/* The host's available memory (collectors/host/mem_available.h). */
#include "collectors/host/mem_available.h"

#include <libproc2/meminfo.h>

#include "base/error.h"
#include "collectors/host/proc.h"

#define KIB 1024ull

struct gt_u64 gt_host_mem_available(void)
{
	struct gt_u64 out = { 0 };
	struct meminfo_info *mi = NULL;
	/* libproc2 ends the program when /proc is missing: checked first */
	if (gt_proc_check_mounted(NULL) != 0 || procps_meminfo_new(&mi) < 0)
		return out;
	struct meminfo_result *r = procps_meminfo_get(mi, MEMINFO_MEM_AVAILABLE);
	if (r && r->result.ul_int > 0)
		gt_u64_set(&out, (uint64_t)r->result.ul_int * KIB);
	procps_meminfo_unref(&mi);
	return out;
}
