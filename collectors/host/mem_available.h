/* The host's available memory (MemAvailable of /proc/meminfo, through
 * libproc2): what the kernel can give a process before it must swap or
 * kill, the census's headroom on a host without a container limit
 * (model/census_cost.h). */
#ifndef GCTOP_COLLECTORS_MEM_AVAILABLE_H
#define GCTOP_COLLECTORS_MEM_AVAILABLE_H

#include "model/sample.h"

/* Invalid when /proc is not mounted or gives no MemAvailable (Linux 3.14
 * on has it). */
struct gt_u64 gt_host_mem_available(void);

#endif
