#include "record/record_format.h"

#include <string.h>

#define U64(type, member) { #member, offsetof(type, member) }
#define TEXT(type, member) { #member, offsetof(type, member), sizeof(((type *)0)->member) }
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct gt_record_field gt_record_sample_u64[] = {
	U64(struct gt_sample, alloc_bytes_total),
	U64(struct gt_sample, alloc_blind_collections),
	U64(struct gt_sample, gc_heap_count),
	U64(struct gt_sample, pause_total_ns),
	U64(struct gt_sample, last_pause_ns),
	U64(struct gt_sample, pause_max_ns),
	U64(struct gt_sample, safepoints),
	U64(struct gt_sample, safepoint_ns),
	U64(struct gt_sample, gc_cpu_ns),
	U64(struct gt_sample, agent_pauses),
	U64(struct gt_sample, agent_pause_total_ns),
	U64(struct gt_sample, agent_pause_p50_ns),
	U64(struct gt_sample, agent_pause_p99_ns),
	U64(struct gt_sample, agent_pause_max_ns),
	U64(struct gt_sample, large_bytes),
	U64(struct gt_sample, large_alloc_bytes_total),
	U64(struct gt_sample, pinned_bytes),
	U64(struct gt_sample, heap_used_bytes),
	U64(struct gt_sample, heap_committed_bytes),
	U64(struct gt_sample, heap_max_bytes),
	U64(struct gt_sample, metaspace_used_bytes),
	U64(struct gt_sample, metaspace_committed_bytes),
	U64(struct gt_sample, gc_hard_limit_bytes),
	U64(struct gt_sample, ops_total),
	U64(struct gt_sample, dropped_events),
	U64(struct gt_sample, rss_bytes),
	U64(struct gt_sample, rss_anon_bytes),
	U64(struct gt_sample, rss_file_bytes),
	U64(struct gt_sample, swap_bytes),
	U64(struct gt_sample, cpu_ticks),
	U64(struct gt_sample, cpu_hz),
	U64(struct gt_sample, threads),
	U64(struct gt_sample, cgroup_limit_bytes),
	U64(struct gt_sample, cgroup_usage_bytes),
	U64(struct gt_sample, cgroup_working_set_bytes),
	U64(struct gt_sample, cgroup_processes),
	U64(struct gt_sample, oom_kills),
};
const size_t gt_record_sample_u64_count = COUNT(gt_record_sample_u64);

const struct gt_record_field gt_record_sample_strings[] = {
	U64(struct gt_sample, alloc_bound_reason),
	U64(struct gt_sample, alloc_unavailable),
	U64(struct gt_sample, large_source),
	U64(struct gt_sample, large_unavailable),
	U64(struct gt_sample, ops_name),
};
const size_t gt_record_sample_strings_count = COUNT(gt_record_sample_strings);

const struct gt_record_field gt_record_info_u64[] = {
	U64(struct gt_target_info, start_time_ms),
	U64(struct gt_target_info, heap_max_bytes),
	U64(struct gt_target_info, cgroup_limit_bytes),
};
const size_t gt_record_info_u64_count = COUNT(gt_record_info_u64);

const struct gt_record_text_field gt_record_info_text[] = {
	TEXT(struct gt_target_info, runtime_version),
	TEXT(struct gt_target_info, gc_name),
	TEXT(struct gt_target_info, gc_mode),
	TEXT(struct gt_target_info, main_class),
	TEXT(struct gt_target_info, command_line),
	TEXT(struct gt_target_info, heap_flags),
	TEXT(struct gt_target_info, user),
	TEXT(struct gt_target_info, cgroup_path),
	TEXT(struct gt_target_info, source),
};
const size_t gt_record_info_text_count = COUNT(gt_record_info_text);

const struct gt_record_field gt_record_generation_u64[] = {
	U64(struct gt_generation, collections),
	U64(struct gt_generation, used_bytes),
	U64(struct gt_generation, committed_bytes),
	U64(struct gt_generation, max_bytes),
	U64(struct gt_generation, fragmented_bytes),
};
const size_t gt_record_generation_u64_count = COUNT(gt_record_generation_u64);

const struct gt_record_field gt_record_collector_u64[] = {
	U64(struct gt_collector_stat, invocations),
	U64(struct gt_collector_stat, time_ns),
};
const size_t gt_record_collector_u64_count = COUNT(gt_record_collector_u64);

const char *gt_record_state_name(enum gt_target_state s)
{
	return s == GT_TARGET_EXITED ? "exited" : "live";
}

/* The value in lo..hi whose name(value) is name, or -1. */
static int from_name(const char *name, int lo, int hi, const char *(*fn)(int))
{
	for (int v = lo; name && v <= hi; v++) {
		const char *n = fn(v);
		if (n && strcmp(n, name) == 0)
			return v;
	}
	return -1;
}

static const char *runtime_n(int v) { return gt_runtime_name((enum gt_runtime)v); }
static const char *source_n(int v) { return gt_alloc_source_name((enum gt_alloc_source)v); }
static const char *since_n(int v) { return gt_alloc_since_name((enum gt_alloc_since)v); }
static const char *state_n(int v) { return gt_record_state_name((enum gt_target_state)v); }
static const char *sampler_n(int v) { return gt_sampler_state_name((enum gt_sampler_state)v); }
static const char *heap_n(int v) { return gt_alloc_heap_name((enum gt_alloc_heap)v); }

int gt_record_runtime_from(const char *name)
{
	return from_name(name, GT_RUNTIME_UNKNOWN, GT_RUNTIME_DOTNET, runtime_n);
}

int gt_record_alloc_source_from(const char *name)
{
	return from_name(name, GT_ALLOC_SOURCE_NONE, GT_ALLOC_SOURCE_SAMPLED, source_n);
}

int gt_record_alloc_since_from(const char *name)
{
	return from_name(name, GT_ALLOC_SINCE_ATTACH, GT_ALLOC_SINCE_PROCESS_START, since_n);
}

int gt_record_state_from(const char *name)
{
	return from_name(name, GT_TARGET_LIVE, GT_TARGET_EXITED, state_n);
}

int gt_record_sampler_state_from(const char *name)
{
	return from_name(name, GT_SAMPLER_OFF, GT_SAMPLER_FAILED, sampler_n);
}

int gt_record_heap_from(const char *name)
{
	if (!name)
		return GT_ALLOC_HEAP_UNKNOWN;
	return from_name(name, GT_ALLOC_HEAP_SMALL, GT_ALLOC_HEAP_PINNED, heap_n);
}
