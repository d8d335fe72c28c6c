/* The GC configuration of a .NET process as its settings state it: the
 * DOTNET_ / COMPlus_ environment variables and the app's runtimeconfig.json,
 * read from outside the process (nothing is asked of the runtime). */
#ifndef GCTOP_COLLECTORS_DOTNET_CONFIG_H
#define GCTOP_COLLECTORS_DOTNET_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct gt_dn_config {
	int server;          /* -1 unset, 0 or 1 */
	int concurrent;      /* -1 unset, 0 or 1 */
	int datas;           /* DynamicAdaptationMode: -1 unset, 0 or 1 */
	bool have_hard_limit;
	uint64_t hard_limit; /* GCHeapHardLimit in bytes */
	int hard_limit_percent; /* GCHeapHardLimitPercent, or -1 */
};

/* The GC's heap hard limit as the runtime derives it: GCHeapHardLimit when
 * set; else GCHeapHardLimitPercent of the container limit (or of physical
 * memory); else, in a memory-limited container, 75% of that limit but at
 * least 20 MiB; else none. container_limit is 0 without one. Returns false
 * when there is no limit; *how names where the limit comes from. */
bool gt_dn_config_hard_limit(const struct gt_dn_config *cfg, uint64_t container_limit, uint64_t physical,
			     uint64_t *limit, const char **how);

/* command_line is the one ProcessInfo reports: its first *.dll argument
 * locates runtimeconfig.json. */
void gt_dn_config_read(pid_t pid, const char *command_line, struct gt_dn_config *out);

/* Looks up "key": value in runtimeconfig.json text: 1 true or nonzero,
 * 0 false or zero, -1 absent. For numbers, *number gets the value. */
int gt_dn_config_json_value(const char *json, const char *key, uint64_t *number);

#endif
