#include "collectors/dotnet/dotnet_config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/dotnet/proc/dotnet_proc.h"
#include "collectors/host/proc.h"

int gt_dn_config_json_value(const char *json, const char *key, uint64_t *number)
{
	char quoted[128];
	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	const char *p = strstr(json, quoted);
	if (!p)
		return -1;
	p += strlen(quoted);
	while (isspace((unsigned char)*p))
		p++;
	if (*p != ':')
		return -1;
	p++;
	while (isspace((unsigned char)*p) || *p == '"')
		p++;
	if (strncmp(p, "true", 4) == 0)
		return 1;
	if (strncmp(p, "false", 5) == 0)
		return 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 0);
	if (end == p)
		return -1;
	if (number)
		*number = v;
	return v != 0;
}

/* DOTNET_name, else the older COMPlus_name: -1 unset, else the value (hex for limits). */
static int env_value(pid_t pid, const char *name, uint64_t *number)
{
	static const char *const prefixes[] = { "DOTNET_", "COMPlus_" };
	for (int i = 0; i < 2; i++) {
		char var[96], val[64];
		snprintf(var, sizeof(var), "%s%s", prefixes[i], name);
		if (gt_dotnet_proc_getenv(pid, var, val, sizeof(val)) != 0)
			continue;
		char *end;
		/* The runtime reads these settings as hexadecimal. */
		unsigned long long v = strtoull(val, &end, 16);
		if (end == val)
			continue;
		if (number)
			*number = v;
		return v != 0;
	}
	return -1;
}

/* The app's runtimeconfig.json sits beside its first *.dll argument; the
 * path is the target's own, so it is read through /proc/PID/cwd when
 * relative and /proc/PID/root when the target lives in another mount
 * namespace. */
static char *read_runtimeconfig(pid_t pid, const char *command_line)
{
	const char *p = command_line;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *start = p;
		while (*p && *p != ' ')
			p++;
		size_t n = (size_t)(p - start);
		if (n <= 4 || n >= 400 || strncmp(p - 4, ".dll", 4) != 0)
			continue;
		char root[48] = "", path[512];
		if (start[0] != '/')
			snprintf(root, sizeof(root), "/proc/%d/cwd/", (int)pid);
		else if (gt_proc_same_mount_ns(pid) != 1)
			snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
		snprintf(path, sizeof(path), "%s%.*s.runtimeconfig.json", root, (int)(n - 4), start);
		FILE *f = fopen(path, "re");
		if (!f)
			return NULL;
		char *buf = calloc(1, 65536);
		if (buf && fread(buf, 1, 65535, f) == 0)
			buf[0] = '\0';
		fclose(f);
		return buf;
	}
	return NULL;
}

void gt_dn_config_read(pid_t pid, const char *command_line, struct gt_dn_config *out)
{
	char *json = read_runtimeconfig(pid, command_line);
	uint64_t limit = 0;
	/* The environment overrides runtimeconfig.json, as in the runtime. */
	out->server = env_value(pid, "gcServer", NULL);
	if (out->server < 0 && json)
		out->server = gt_dn_config_json_value(json, "System.GC.Server", NULL);
	out->concurrent = env_value(pid, "gcConcurrent", NULL);
	if (out->concurrent < 0 && json)
		out->concurrent = gt_dn_config_json_value(json, "System.GC.Concurrent", NULL);
	out->datas = env_value(pid, "GCDynamicAdaptationMode", NULL);
	if (out->datas < 0 && json)
		out->datas = gt_dn_config_json_value(json, "System.GC.DynamicAdaptationMode", NULL);
	out->have_hard_limit = false;
	uint64_t percent = 0;
	out->hard_limit_percent = -1;
	if ((env_value(pid, "GCHeapHardLimitPercent", &percent) == 1 ||
	     (json && gt_dn_config_json_value(json, "System.GC.HeapHardLimitPercent", &percent) == 1)) &&
	    percent <= 100)
		out->hard_limit_percent = (int)percent;
	if (env_value(pid, "GCHeapHardLimit", &limit) == 1 ||
	    (json && gt_dn_config_json_value(json, "System.GC.HeapHardLimit", &limit) == 1)) {
		out->have_hard_limit = true;
		out->hard_limit = limit;
	}
	free(json);
}

bool gt_dn_config_hard_limit(const struct gt_dn_config *cfg, uint64_t container_limit, uint64_t physical,
			     uint64_t *limit, const char **how)
{
	if (cfg->have_hard_limit) {
		*limit = cfg->hard_limit;
		*how = "GCHeapHardLimit";
		return true;
	}
	uint64_t total = container_limit ? container_limit : physical;
	if (cfg->hard_limit_percent > 0 && total) {
		*limit = total / 100 * (uint64_t)cfg->hard_limit_percent;
		*how = "GCHeapHardLimitPercent";
		return true;
	}
	if (container_limit) {
		uint64_t l = container_limit / 4 * 3;
		*limit = l > (20u << 20) ? l : (20u << 20);
		*how = "75% of the container limit";
		return true;
	}
	return false;
}
