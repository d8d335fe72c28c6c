/* The allocation and method events the .NET allocation sampler reads, by
 * their manifest layouts (native runtime events carry no field metadata):
 * AllocationSampled (.NET 10), GCAllocationTick_V4 (.NET 8 and 9), and the
 * verbose method load and rundown events that name JIT'd and R2R code. All
 * parse by length, since newer versions append fields. */
#ifndef GCTOP_COLLECTORS_DOTNET_ALLOC_EVENTS_H
#define GCTOP_COLLECTORS_DOTNET_ALLOC_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/allocators.h"

enum {
	GT_DN_EV_ALLOCATION_TICK = 10,       /* DotNETRuntime, GC keyword, Verbose */
	GT_DN_EV_METHOD_LOAD_VERBOSE = 143,  /* DotNETRuntime, Jit keyword, Verbose */
	GT_DN_EV_METHOD_DC_END_VERBOSE = 144, /* DotNETRuntimeRundown, at a session's end */
	GT_DN_EV_ALLOCATION_SAMPLED = 303,   /* DotNETRuntime, keyword 0x80000000000 */
};

#define GT_DN_RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define GT_DN_RUNDOWN_PROVIDER "Microsoft-Windows-DotNETRuntimeRundown"

#define GT_DN_KEYWORD_GC 0x1ull
#define GT_DN_KEYWORD_JIT 0x10ull
#define GT_DN_KEYWORD_ALLOCATION_SAMPLING 0x80000000000ull

/* The runtime's per-byte sampling probability is 1/102400. */
#define GT_DN_SAMPLING_MEAN_BYTES 102400.0

#define GT_DN_TYPE_NAME_LEN 160
#define GT_DN_METHOD_NAME_LEN 224

struct gt_dn_alloc_event {
	enum gt_alloc_heap heap;
	uint64_t type_id;                  /* MethodTable pointer */
	char type_name[GT_DN_TYPE_NAME_LEN];
	uint64_t object_size;
	double weight;                     /* estimated bytes this sample stands for */
};

/* AllocationSampled: the weight is the unbiased estimate of the bytes one
 * sampled object stands for, object_size / (1 - q^object_size). Tolerates
 * the intermediate layout with a HeapIndex after TypeName. 0 or -1. */
int gt_dn_parse_allocation_sampled(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_alloc_event *out);

/* GCAllocationTick_V2..V4: the weight is AllocationAmount64, the bytes of
 * that heap kind since the previous tick, all given to the type that
 * crossed the threshold (hence biased). 0 or -1. */
int gt_dn_parse_allocation_tick(const uint8_t *p, size_t n, int pointer_size, struct gt_dn_alloc_event *out);

/* size / (1 - (1 - 1/102400)^size), computed without cancellation. */
double gt_dn_sampled_weight(uint64_t size);

/* AllocationKind 0, 1, 2 as a heap. */
enum gt_alloc_heap gt_dn_alloc_heap(uint32_t kind);

struct gt_dn_method {
	uint64_t start;
	uint32_t size;
	uint32_t order;                    /* arrival, kept by gt_dn_methods_add */
	char name[GT_DN_METHOD_NAME_LEN];  /* "Namespace.Type.Method", in source form (dotnet_demangle.h) */
};

/* MethodLoadVerbose / MethodDCStartVerbose / MethodDCEndVerbose (V0-V2):
 * the code range and the name. 0, or -1 when malformed or empty. */
int gt_dn_parse_method_verbose(const uint8_t *p, size_t n, struct gt_dn_method *out);
/* The event names code (gt_dn_parse_method_verbose reads it): a live load,
 * or a rundown's enumeration at a session's end (DCStop/DCEnd, and DCStart
 * where a runtime sends it, share the load events' layout). */
bool gt_dn_is_method_name_event(const char *provider, uint32_t event_id);

#endif
