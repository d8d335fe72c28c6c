/* The skeleton runtime (collectors/skeleton/skeleton.h). Its "runtime" is
 * the process that opens it: it reads nothing from a target, so every
 * figure it leaves is invalid ("n/a", never 0), and the one it fills (its
 * own polls, as operations) shows where a real one goes. */
#include "collectors/skeleton/skeleton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"

/* A real backend polls as often as its runtime's figures change (HotSpot:
 * every eden fill it must see) or not at all (0) when it is told by a
 * descriptor (.NET's event stream). */
#define SKELETON_POLL_NS 100000000ull

/* Everything the backend keeps for one target: its transport (a mapped
 * file, a socket), its decoders' state, its allocation sampler. */
struct gt_backend {
	pid_t pid;
	uint64_t polls;          /* the skeleton's stand-in for a runtime's counters */
	const char *opcount_counter; /* --ops NAME, or NULL */
};

/* Is pid a process of this runtime? Look, never touch: read /proc or a
 * file the runtime publishes; a process of the runtime that cannot be read
 * is GT_PROBE_ERROR with err saying why (permission, a hostile path). The
 * skeleton's only process is the one running it. */
static enum gt_probe skeleton_probe(pid_t pid, struct gt_error *err)
{
	(void)err;
	return pid == getpid() ? GT_PROBE_YES : GT_PROBE_NO;
}

/* Connects, with a deadline, and fills the header facts of info: version,
 * collector, source (collectors/target.c sets info->runtime and the
 * process's own facts). */
static struct gt_backend *skeleton_open(pid_t pid, struct gt_target_info *info, struct gt_error *err)
{
	struct gt_backend *b = gt_calloc(sizeof(*b), err);
	if (!b)
		return NULL;
	b->pid = pid;
	snprintf(info->runtime_version, sizeof(info->runtime_version), "0");
	snprintf(info->gc_name, sizeof(info->gc_name), "none");
	snprintf(info->source, sizeof(info->source), "skeleton");
	return b;
}

static uint64_t skeleton_poll_interval(const struct gt_backend *b)
{
	(void)b;
	return SKELETON_POLL_NS;
}

/* A descriptor the loop waits on (an event stream), or -1: none here. */
static int skeleton_wait_fd(const struct gt_backend *b)
{
	(void)b;
	return -1;
}

/* Whether that descriptor's data may wait for a loop over many targets. */
static bool skeleton_wait_may_lag(const struct gt_backend *b)
{
	(void)b;
	return false;
}

/* Cheap work between samples: read what the stream brought, or look at
 * the figures an estimate must see every time. Never blocks. */
static void skeleton_poll(struct gt_backend *b, uint64_t now_ns)
{
	(void)now_ns;
	b->polls++;
}

/* Waits, bounded by the deadline, until a first interval's rates have
 * what they need (.NET: the runtime's first counter). */
static void skeleton_settle(struct gt_backend *b, uint64_t deadline_ns)
{
	(void)b;
	(void)deadline_ns;
}

/* Fills the runtime's fields of out with their validity bits; a figure the
 * runtime does not give stays invalid, and says why where a view asks. */
static int skeleton_sample(struct gt_backend *b, struct gt_sample *out, struct gt_error *err)
{
	(void)err;
	out->alloc_unavailable = "the skeleton runtime reads no allocations";
	out->large_unavailable = "the skeleton runtime reads no large objects";
	if (b->opcount_counter) {
		gt_u64_set(&out->opcount_total, b->polls);
		out->opcount_name = "operations";
		out->opcount_counter = b->opcount_counter;
	}
	return 0;
}

static void skeleton_close(struct gt_backend *b)
{
	free(b);
}

/* Appends every process of the runtime the user can see (-l, the picker,
 * --serve): cheap, without opening them. */
static void skeleton_list(struct gt_list *out)
{
	struct gt_list_entry *e = gt_list_add(out);
	if (!e)
		return;
	e->info.pid = getpid();
	e->info.runtime = &gt_skeleton_runtime;
}

/* --ops NAME: the runtime's counter of operations. NULL in the ops where
 * the runtime counts its own (then own_opcount in the traits). */
static int skeleton_set_opcount(struct gt_backend *b, const char *name, struct gt_error *err)
{
	if (strcmp(name, GT_SKELETON_OPCOUNT_COUNTER) != 0)
		return gt_fail(err, GT_EXIT_USAGE, "the skeleton runtime counts only \"%s\"", GT_SKELETON_OPCOUNT_COUNTER);
	b->opcount_counter = GT_SKELETON_OPCOUNT_COUNTER;
	return 0;
}

/* Allocation sampling, only on the user's request (--allocators, key a);
 * allocators_load_code in the traits says whether it loads code into the
 * target, which the screen then asks y/N about first. */
static int skeleton_enable_allocators(struct gt_backend *b, const char *packages, struct gt_error *err)
{
	(void)b;
	(void)packages;
	return gt_fail(err, GT_EXIT_FAILURE, "the skeleton runtime has no allocation sampler");
}

static void skeleton_disable_allocators(struct gt_backend *b)
{
	(void)b;
}

/* The newest site tables (model/allocators.h) and their stacks, or NULL
 * while sampling is off. */
static const struct gt_alloc_snapshot *skeleton_allocators(const struct gt_backend *b)
{
	(void)b;
	return NULL;
}

static const struct gt_alloc_stacks *skeleton_alloc_stacks(const struct gt_backend *b)
{
	(void)b;
	return NULL;
}

static const char *const skeleton_words[] = { "Skeleton", "skeleton", NULL };

/* What the layers above know of it (model/runtime.h): every name, word and
 * piece of advice they would otherwise spell themselves. */
const struct gt_runtime_traits gt_skeleton_runtime = {
	.name = "skeleton",
	.display = "Skeleton",
	.words = skeleton_words,
	.wanted = "the skeleton runtime's own process",
	.collections_counting = NULL,
	.condemned_generations = 0,
	.has_gc_cpu_and_safepoints = false,
	.has_metaspace = false,
	.own_opcount = false,
	.opcount_takes = "the skeleton's \"polls\"",
	.allocators_load_code = false,
	.allocators_stop = "nothing was started",
	.induced_call = "a collection call",
	.advice = NULL,  /* the shared rows only (model/findings_advice.c) */
	.n_advice = 0,
};

/* What /tmp shows when one of its processes comes or goes (session/fleet_tmp.c). */
static const struct gt_discovery skeleton_discovery = {
	.pid_prefix = "gctop-skeleton-",
};

const struct gt_backend_ops gt_skeleton_ops = {
	.name = "skeleton",
	.traits = &gt_skeleton_runtime,
	.discovery = &skeleton_discovery,
	.probe = skeleton_probe,
	.open = skeleton_open,
	.poll_interval_ns = skeleton_poll_interval,
	.wait_fd = skeleton_wait_fd,
	.wait_may_lag = skeleton_wait_may_lag,
	.poll = skeleton_poll,
	.settle = skeleton_settle,
	.sample = skeleton_sample,
	.close = skeleton_close,
	.list = skeleton_list,
	.set_opcount = skeleton_set_opcount,
	.enable_allocators = skeleton_enable_allocators,
	.disable_allocators = skeleton_disable_allocators,
	.allocators = skeleton_allocators,
	.alloc_stacks = skeleton_alloc_stacks,
};
