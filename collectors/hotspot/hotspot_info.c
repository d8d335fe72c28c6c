/* The header facts of a JVM, from its constant perf-data strings. */
#include "collectors/hotspot/hotspot_internal.h"
#include "collectors/hotspot/hotspot_runtime.h"

#include <stdio.h>
#include <string.h>

/* Options that decide how large the heap or its generations may be. */
static const char *const hotspot_heap_options[] = {
	"-Xmx", "-Xms", "-Xmn",
	"-XX:MaxHeapSize=", "-XX:InitialHeapSize=", "-XX:MinHeapSize=", "-XX:SoftMaxHeapSize=",
	"-XX:MaxRAMPercentage=", "-XX:InitialRAMPercentage=", "-XX:MinRAMPercentage=",
	"-XX:MaxRAMFraction=", "-XX:InitialRAMFraction=", "-XX:MinRAMFraction=", "-XX:MaxRAM=",
	"-XX:NewSize=", "-XX:MaxNewSize=", "-XX:NewRatio=", "-XX:SurvivorRatio=",
	"-XX:OldSize=", "-XX:MinHeapFreeRatio=", "-XX:MaxHeapFreeRatio=",
	"-XX:G1NewSizePercent=", "-XX:G1MaxNewSizePercent=", "-XX:G1HeapRegionSize=",
	"-XX:+UseContainerSupport", "-XX:-UseContainerSupport",
};

static bool hotspot_is_heap_option(const char *tok, size_t len)
{
	for (size_t i = 0; i < sizeof(hotspot_heap_options) / sizeof(hotspot_heap_options[0]); i++) {
		size_t n = strlen(hotspot_heap_options[i]);
		if (len >= n && strncmp(tok, hotspot_heap_options[i], n) == 0)
			return true;
	}
	return false;
}

void hotspot_info_heap_flags(const char *args, char *out, size_t out_len)
{
	size_t used = strlen(out);
	const char *s = args;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		const char *tok = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		size_t len = (size_t)(s - tok);
		if (len == 0 || !hotspot_is_heap_option(tok, len))
			continue;
		/* Whole options only: a cut flag would say something else. */
		size_t need = len + (used ? 1 : 0);
		if (used + need + 1 > out_len)
			return;
		if (used)
			out[used++] = ' ';
		memcpy(out + used, tok, len);
		used += len;
		out[used] = '\0';
	}
}

/* sun.rt.javaCommand is "MainClass args" or "app.jar args": keep the first word. */
static void hotspot_main_class(const char *command, char *out, size_t out_len)
{
	size_t n = strcspn(command, " \t");
	snprintf(out, out_len, "%.*s", (int)n, command);
}

void hotspot_info_fill(const struct hsperf *p, enum hotspot_gc gc, struct gt_target_info *info)
{
	info->runtime = &gt_hotspot_runtime;
	if (hsperf_read_string(p, "java.property.java.vm.version", info->runtime_version,
			       sizeof(info->runtime_version)) != 0 || !info->runtime_version[0])
		hsperf_read_string(p, "java.property.java.version", info->runtime_version, sizeof(info->runtime_version));
	snprintf(info->gc_name, sizeof(info->gc_name), "%s", hotspot_gc_name(gc));
	switch (gc) {
	case HOTSPOT_GC_Z_GENERATIONAL:
		snprintf(info->gc_mode, sizeof(info->gc_mode), "generational");
		break;
	case HOTSPOT_GC_Z:
		snprintf(info->gc_mode, sizeof(info->gc_mode), "single-generation");
		break;
	default:
		info->gc_mode[0] = '\0';
		break;
	}
	char command[1024];
	hsperf_read_string(p, "sun.rt.javaCommand", command, sizeof(command));
	hotspot_main_class(command, info->main_class, sizeof(info->main_class));

	char args[2048];
	info->heap_flags[0] = '\0';
	hsperf_read_string(p, "java.rt.vmArgs", args, sizeof(args));
	hotspot_info_heap_flags(args, info->heap_flags, sizeof(info->heap_flags));
	hsperf_read_string(p, "java.rt.vmFlags", args, sizeof(args));
	hotspot_info_heap_flags(args, info->heap_flags, sizeof(info->heap_flags));
	snprintf(info->source, sizeof(info->source), "hsperfdata");
}
