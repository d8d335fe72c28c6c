/* What every layer above the collectors may know of a runtime: its traits.
 *
 * Each runtime backend provides one struct gt_runtime_traits as a const in
 * its own folder (collectors/<runtime>/<runtime>_runtime.c) and points its
 * struct gt_backend_ops at it; the target info carries the pointer to the
 * sample's readers. Findings, writers, the screen, the picker and --help
 * ask the traits for names, words and advice instead of comparing with a
 * runtime they know, so a new runtime changes no file outside its folder
 * but the registry (tests/static/runtime_names.py checks it, and
 * tests/static/third_runtime.sh registers a third). NULL traits: a
 * runtime gctop does not know (a recording that names none). */
#ifndef GCTOP_MODEL_RUNTIME_H
#define GCTOP_MODEL_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a census costs the target's memory, measured (bench/census.py,
 * bench/README.md section 4): cost = fixed_bytes + live bytes *
 * per_live_percent / 100; model/
 * census_cost.h judges it against the target's headroom. per_live_percent
 * 0 and fixed_bytes 0: unmeasured. */
struct gt_census_memory {
	uint64_t fixed_bytes;
	uint32_t per_live_percent;
};

/* One next step for a finding id in the runtime's words. who: the step ends
 * by saying where to see who allocates; census: it starts with gctop's own
 * census, text being the runtime's tool as the alternative ("or ...")
 * (model/findings_advice.h says each the front end's way). */
struct gt_runtime_advice {
	const char *id;
	const char *text;
	bool who;
	bool census;
};

/* An allocation sampler's method as a person names it: the snapshot's
 * source (model/allocators.h) holds source. */
struct gt_sampler_name {
	const char *source;
	const char *name;
};

/* One of the runtime's collectors as the picker names it: whole where its
 * column has room, brief (at most GT_PICKER_GC_BRIEF characters, never
 * cut inside a word) where it has not. */
struct gt_gc_name {
	const char *name;   /* as the target info's gc_name has it: "Z" */
	const char *whole;  /* "ZGC" */
	const char *brief;  /* "ZGC" */
};

/* How the heap's regions are sized where a large object takes whole ones
 * (G1's humongous objects), for the findings' evidence: the size the flag
 * size_flag sets among the heap flags, else the heap's maximum over
 * target_count, rounded down to a power of two within [min_bytes,
 * max_bytes] (model/findings.h gt_findings_region_bytes). target_count 0:
 * the runtime's heap has no such regions. */
struct gt_heap_regions {
	const char *size_flag;     /* "-XX:G1HeapRegionSize=" */
	uint64_t target_count;
	uint64_t min_bytes, max_bytes;
};

/* What --help says of the runtime, joined over the registry by
 * frontends/help.c; each NULL where the runtime has nothing to say. */
struct gt_runtime_help {
	/* What gctop watches and through what: "a JVM (HotSpot 11 to 25,
	 * through its perf data)". Never NULL. */
	const char *reads;
	/* What --allocators does to it: "on .NET a second EventPipe
	 * session, nothing loaded". */
	const char *allocators;
	/* --allocator-packages' default: "System.,Microsoft.". */
	const char *packages;
	/* What --ops counts in it: "on a JVM, the perf-data counter NAME the
	 * application publishes ...". */
	const char *opcount;
	/* What --census does to it: "a JVM stops for a full collection ...". */
	const char *census;
};

struct gt_runtime_traits {
	/* The name outputs carry: JSON's and the recordings' "runtime", the
	 * metrics' runtime label, the header. Stable: recordings hold it. */
	const char *name;
	/* The name in sentences: "no JVM or .NET process ...". */
	const char *display;
	/* What users type for it in the picker's filter, display first. */
	const char *const *words;
	/* What a process of it must be for gctop to watch it, in the sentence
	 * "process N is neither a JVM with perf data nor a .NET process". */
	const char *wanted;

	/* How generations[].collections count ("exclusive": each collection
	 * once, by the oldest generation it collected; "per collector"), or
	 * NULL. The collected generations: the first condemned_generations
	 * slots, where a collection of one collects the younger ones too
	 * (recordings of format 1 held their counts inclusive). */
	const char *collections_counting;
	unsigned condemned_generations;

	/* Figures the runtime never has, whose rows the screen leaves out
	 * rather than show a row always n/a. */
	bool has_gc_cpu_and_safepoints;
	bool has_metaspace;

	/* Operations for bytes per operation: counted by the runtime itself
	 * (no --ops), or a counter --ops names. opcount_takes: what --ops names on
	 * it ("a JVM's perf-data counter"), or NULL. opcount_own: why it takes no
	 * --ops, after "process N is ", or NULL. */
	bool own_opcount;
	const char *opcount_takes;
	const char *opcount_own;

	/* Allocation sampling: whether enabling it loads code into the target
	 * (asked y/N first), and what stopping it does there. */
	bool allocators_load_code;
	const char *allocators_stop;       /* "the agent goes dormant within seconds" */
	const char *sampler_busy;          /* why the sampler is busy, or NULL */
	const struct gt_sampler_name *sampler_names;  /* ends with a NULL source */

	/* What a census of the live objects costs the target, one sentence
	 * for the y/N and --help ("stops the JVM for a full collection and a
	 * heap walk, about 1 s per GiB live"), or NULL: the runtime has none. */
	const char *census_cost;
	/* What it costs the target's memory, measured (bench/census.py): the
	 * headroom rule's figure (model/census_cost.h); zero: unmeasured. */
	struct gt_census_memory census_memory;
	/* Whether the runtime reports its census's collection as one the
	 * program asked for (causes.induced), so that the induced rule leaves
	 * gctop's own censuses out. */
	bool census_counts_as_induced;

	/* OpenTelemetry's namespace for the runtime's metrics ("jvm"): --serve
	 * writes the families named under it for this runtime only, or none
	 * (NULL). */
	const char *metrics_namespace;
	/* How the program asks for a collection ("System.gc()"). */
	const char *induced_call;
	/* Advice rows for the findings' ids, ahead of the generic ones
	 * (model/findings_advice.c); n_advice of them. A finding only this
	 * runtime's figures raise (G1's humongous collections) has its row
	 * here alone. */
	const struct gt_runtime_advice *advice;
	size_t n_advice;

	/* Its collectors' names in the picker, ending with a NULL name; a
	 * collector not listed is shown as the collectors name it. */
	const struct gt_gc_name *gc_names;
	/* Its heap's regions, where a large object takes whole ones. */
	struct gt_heap_regions regions;
	/* What --help says of it. */
	struct gt_runtime_help help;
};

/* traits' name, or "unknown" for NULL. */
const char *gt_runtime_name(const struct gt_runtime_traits *rt);

#endif
