/* The skeleton runtime (collectors/skeleton/skeleton.h). Its "runtime" is
 * the process that opens it: it reads nothing from a target, so every
 * figure it leaves is invalid ("n/a", never 0), and the one it fills (its
 * own polls, as operations) shows where a real one goes.
 *
 * The folder has the shape every runtime's has: this file the interface
 * table and the target's life (probe, open, close, list, the requests the
 * user makes: --ops, allocation sampling); skeleton_sample.c the polls
 * and the sample fill; skeleton_runtime.c the traits the layers above
 * read; skeleton_internal.h what they share. A real runtime adds
 * sub-folders for its transport and its allocation sampler. */
#include "collectors/skeleton/skeleton_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"

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

const struct gt_backend_ops gt_skeleton_ops = {
	.name = "skeleton",
	.traits = &gt_skeleton_runtime,
	.discovery = &gt_skeleton_discovery,
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
