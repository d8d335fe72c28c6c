#include "record/record_format.h"

#include <string.h>

#include "session/runtimes.h"

#define U64(type, member) { #member, offsetof(type, member) }
/* A member whose name in the files is not its C name: the operations
 * counter is "opcount" in code, "ops" in the files recordings already hold. */
#define U64_AS(name, type, member) { name, offsetof(type, member) }
#define TEXT(type, member) { #member, offsetof(type, member), sizeof(((type *)0)->member) }
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct gt_record_field sample_u64_f[] = {
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
	U64(struct gt_sample, large_waste_max_bytes_total),
	U64(struct gt_sample, alloc_excess_max_bytes_total),
	U64(struct gt_sample, large_waste_bytes_total),
	U64(struct gt_sample, large_alloc_of_total),
	U64(struct gt_sample, pinned_bytes),
	U64(struct gt_sample, heap_used_bytes),
	U64(struct gt_sample, heap_committed_bytes),
	U64(struct gt_sample, heap_max_bytes),
	U64(struct gt_sample, metaspace_used_bytes),
	U64(struct gt_sample, metaspace_committed_bytes),
	U64(struct gt_sample, gc_hard_limit_bytes),
	U64_AS("ops_total", struct gt_sample, opcount_total),
	U64_AS("ops_collections_total", struct gt_sample, opcount_collections_total),
	U64_AS("ops_at_ns", struct gt_sample, opcount_at_ns),
	U64_AS("ops_alloc_total", struct gt_sample, opcount_alloc_total),
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
	U64(struct gt_sample, old_used_bytes),
	U64(struct gt_sample, old_committed_bytes),
	U64(struct gt_sample, old_max_bytes),
	U64(struct gt_sample, host_mem_total_bytes),
};
const struct gt_record_fields gt_record_sample_u64 = { sample_u64_f, COUNT(sample_u64_f) };

static const struct gt_record_field sample_strings_f[] = {
	U64(struct gt_sample, alloc_bound_reason),
	U64(struct gt_sample, alloc_unavailable),
	U64(struct gt_sample, large_source),
	U64(struct gt_sample, large_unavailable),
	U64_AS("ops_name", struct gt_sample, opcount_name),
	U64_AS("ops_counter", struct gt_sample, opcount_counter),
	U64_AS("ops_unavailable", struct gt_sample, opcount_unavailable),
	U64(struct gt_sample, live_unavailable),
	U64(struct gt_sample, pause_unavailable),
	U64(struct gt_sample, pause_source),
};
const struct gt_record_fields gt_record_sample_strings = { sample_strings_f, COUNT(sample_strings_f) };

static const struct gt_record_field causes_u64_f[] = {
	U64(struct gt_collection_causes, seen),
	U64(struct gt_collection_causes, induced),
	U64(struct gt_collection_causes, humongous),
	U64(struct gt_collection_causes, gen2),
	U64(struct gt_collection_causes, gen2_alloc_large),
	U64(struct gt_collection_causes, census),
	U64(struct gt_collection_causes, inspection),
};
const struct gt_record_fields gt_record_causes_u64 = { causes_u64_f, COUNT(causes_u64_f) };

static const struct gt_record_field info_u64_f[] = {
	U64(struct gt_target_info, start_time_ms),
	U64(struct gt_target_info, heap_max_bytes),
	U64(struct gt_target_info, cgroup_limit_bytes),
};
const struct gt_record_fields gt_record_info_u64 = { info_u64_f, COUNT(info_u64_f) };

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

static const struct gt_record_field generation_u64_f[] = {
	U64(struct gt_generation, collections),
	U64(struct gt_generation, collections_inclusive),
	U64(struct gt_generation, used_bytes),
	U64(struct gt_generation, committed_bytes),
	U64(struct gt_generation, max_bytes),
	U64(struct gt_generation, fragmented_bytes),
};
const struct gt_record_fields gt_record_generation_u64 = { generation_u64_f, COUNT(generation_u64_f) };

static const struct gt_record_field collector_u64_f[] = {
	U64(struct gt_collector_stat, invocations),
	U64(struct gt_collector_stat, time_ns),
};
const struct gt_record_fields gt_record_collector_u64 = { collector_u64_f, COUNT(collector_u64_f) };

const char *gt_record_state_name(enum gt_target_state s)
{
	return s == GT_TARGET_EXITED ? "exited" : "live";
}

/* A recording's runtime number: 0 unknown, then the registry's runtimes
 * from 1 (session/runtimes.h). Only the name is written: the numbers are
 * this program's, not the format's. */
const struct gt_runtime_traits *gt_record_runtime(int v)
{
	return v > 0 ? gt_runtimes_at((size_t)v - 1) : NULL;
}

static int runtimes_last(void)
{
	int n = 0;
	while (gt_runtimes_at((size_t)n))
		n++;
	return n;
}

static const char *enum_name(enum gt_record_enum e, int v)
{
	switch (e) {
	case GT_RECORD_RUNTIME: return gt_runtime_name(gt_record_runtime(v));
	case GT_RECORD_ALLOC_SOURCE: return gt_alloc_source_name((enum gt_alloc_source)v);
	case GT_RECORD_ALLOC_SINCE: return gt_alloc_since_name((enum gt_alloc_since)v);
	case GT_RECORD_STATE: return gt_record_state_name((enum gt_target_state)v);
	case GT_RECORD_SAMPLER_STATE: return gt_sampler_state_name((enum gt_sampler_state)v);
	case GT_RECORD_HEAP: return gt_alloc_heap_name((enum gt_alloc_heap)v);
	}
	return NULL;
}

int gt_record_enum_from(enum gt_record_enum e, const char *name)
{
	static const int last[] = {
		[GT_RECORD_RUNTIME] = 0, /* runtimes_last() */
		[GT_RECORD_ALLOC_SOURCE] = GT_ALLOC_SOURCE_SAMPLED,
		[GT_RECORD_ALLOC_SINCE] = GT_ALLOC_SINCE_PROCESS_START,
		[GT_RECORD_STATE] = GT_TARGET_EXITED,
		[GT_RECORD_SAMPLER_STATE] = GT_SAMPLER_FAILED,
		[GT_RECORD_HEAP] = GT_ALLOC_HEAP_PINNED,
	};
	int end = e == GT_RECORD_RUNTIME ? runtimes_last() : last[e];
	for (int v = 0; name && v <= end; v++) {
		const char *n = enum_name(e, v);
		if (n && strcmp(n, name) == 0)
			return v;
	}
	return -1;
}
