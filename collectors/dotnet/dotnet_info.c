#include "collectors/dotnet/dotnet_info.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "collectors/host/cgroup.h"
#include "collectors/dotnet/dotnet_config.h"
#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/dotnet/proc/dotnet_proc.h"

/* The memory limit of the target's cgroup, 0 when it has none. */
static uint64_t container_limit(pid_t pid)
{
	struct gt_target_info tmp;
	memset(&tmp, 0, sizeof(tmp));
	struct gt_cgroup *cg = gt_cgroup_open(pid, &tmp);
	if (!cg)
		return 0;
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	gt_cgroup_sample(cg, &s);
	gt_cgroup_close(cg);
	return s.cgroup_limit_bytes.valid ? s.cgroup_limit_bytes.value : 0;
}

static uint64_t physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

void gt_dn_fill_info(pid_t pid, const struct gt_diag_process_info *pi, struct gt_target_info *info)
{
	info->runtime = &gt_dotnet_runtime;
	snprintf(info->runtime_version, sizeof(info->runtime_version), "%s", pi->runtime_version);
	snprintf(info->command_line, sizeof(info->command_line), "%s", pi->command_line);
	snprintf(info->main_class, sizeof(info->main_class), "%s", pi->entry_assembly);
	snprintf(info->source, sizeof(info->source), "eventpipe");
	if (pi->pid > 0)
		info->nspid = (pid_t)pi->pid;

	struct gt_dn_config cfg;
	gt_dn_config_read(pid, pi->command_line, &cfg);
	/* The server GC's threads are the live evidence; the settings decide
	 * while they are not there yet. */
	bool server = gt_dotnet_proc_count_threads(pid, ".NET Server GC") > 0 || cfg.server == 1;
	int major = gt_diag_runtime_major(pi->runtime_version);
	bool concurrent = cfg.concurrent != 0;
	/* DATAS is on by default for Server GC from .NET 9, opt-in on .NET 8. */
	bool datas = server && (cfg.datas == 1 || (major >= 9 && cfg.datas != 0));
	snprintf(info->gc_name, sizeof(info->gc_name), "%s", server ? "Server" : "Workstation");
	snprintf(info->gc_mode, sizeof(info->gc_mode), "%s%s", concurrent ? "concurrent" : "non-concurrent",
		 datas ? ", DATAS" : "");
	uint64_t limit;
	const char *how;
	if (gt_dn_config_hard_limit(&cfg, container_limit(pid), physical_memory(), &limit, &how))
		gt_u64_set(&info->heap_max_bytes, limit);
	/* The settings that size the heap, as the user would write them. */
	if (cfg.have_hard_limit)
		snprintf(info->heap_flags, sizeof(info->heap_flags), "GCHeapHardLimit=0x%llx",
			 (unsigned long long)cfg.hard_limit);
	else if (cfg.hard_limit_percent > 0)
		snprintf(info->heap_flags, sizeof(info->heap_flags), "GCHeapHardLimitPercent=%d", cfg.hard_limit_percent);
}

