/* The skeleton runtime: every hook of struct gt_backend_ops
 * (collectors/backend.h), each with what a real backend does there, for
 * whoever adds a runtime (CONTRIBUTING.md, "Adding a runtime"). Its
 * processes are those for which a test made the file a real runtime's
 * process would publish (GT_SKELETON_PREFIX): it reads nothing from them,
 * so every figure it leaves is invalid ("n/a", never 0), and the one it
 * fills (its own polls, as operations) shows where a real one goes. The
 * registry does not list it; tests/static/third_runtime.sh lists it in a
 * copy of the tree, as a third runtime, and runs the checks there.
 *
 * The folder has the shape every runtime's has: this file the interface
 * table and the target's life (probe, open, close, list, the requests the
 * user makes: --ops, allocation sampling, a census); skeleton_sample.c the
 * polls and the sample fill; skeleton_runtime.c the traits the layers
 * above read and what /tmp shows of its processes; skeleton_runtime.h
 * what the folder exports; skeleton_internal.h what its files share. A
 * real runtime adds sub-folders for its transport and its allocation
 * sampler, and every parser of the target's bytes has a fuzz target. */
#include "collectors/skeleton/skeleton_internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/clock.h"
#include "base/error.h"
#include "base/wait.h"
#include "model/census.h"

/* The file pid would publish: GT_SKELETON_DIR/GT_SKELETON_PREFIX<pid>. */
static void skeleton_file(pid_t pid, char *path, size_t len)
{
	snprintf(path, len, "%s/%s%d", GT_SKELETON_DIR, GT_SKELETON_PREFIX, (int)pid);
}

/* Is pid a process of this runtime? Look, never touch: read /proc or a
 * file the runtime publishes, never follow a link another user made; a
 * process of the runtime that cannot be read is GT_PROBE_ERROR with err
 * saying why (permission, a hostile path). The skeleton's process is one
 * whose file exists, a regular file of the process's own user. */
static enum gt_probe skeleton_probe(pid_t pid, struct gt_error *err)
{
	char path[64], proc[32];
	struct stat file, owner;
	skeleton_file(pid, path, sizeof(path));
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (lstat(path, &file) != 0 || stat(proc, &owner) != 0)
		return GT_PROBE_NO;
	if (!S_ISREG(file.st_mode) || file.st_uid != owner.st_uid) {
		gt_fail(err, GT_EXIT_BAD_DATA, "%s is not a regular file of process %d's user; not read", path, (int)pid);
		return GT_PROBE_ERROR;
	}
	return GT_PROBE_YES;
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

/* Lets go of the target: closes the transport, stops what the backend
 * started in it (an event session, a sampler), frees the state. */
static void skeleton_close(struct gt_backend *b)
{
	free(b);
}

/* Appends every process of the runtime the user can see (-l, the picker,
 * --serve), cheaply, without opening them, leaving out the ones the list
 * skips (a fleet's open members) before any work on them. */
static void skeleton_list(struct gt_list *out)
{
	DIR *d = opendir(GT_SKELETON_DIR);
	if (!d)
		return;
	struct dirent *e;
	struct gt_error err;
	while (!gt_wait_stop_requested() && (e = readdir(d))) {
		int pid;
		char end;
		if (sscanf(e->d_name, GT_SKELETON_PREFIX "%d%c", &pid, &end) != 1 || pid <= 0 ||
		    gt_list_skips(out, (pid_t)pid) || skeleton_probe((pid_t)pid, &err) != GT_PROBE_YES)
			continue;
		struct gt_list_entry *le = gt_list_add(out);
		if (!le)
			break;
		le->info.pid = (pid_t)pid;
		le->info.runtime = &gt_skeleton_runtime;
	}
	closedir(d);
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

/* --ops-agent: loads what reads the counter when it lives inside the
 * target (HotSpot's agent for an MBean), on that request alone and never
 * on a screen's loop (it is slow); 0 when the counter needs nothing
 * loaded, as the skeleton's does. NULL in the ops: nothing ever is. */
static int skeleton_enable_opcount_agent(struct gt_backend *b, struct gt_error *err)
{
	(void)b;
	(void)err;
	return 0;
}

/* Allocation sampling, only on the user's request (--allocators, key a);
 * allocators_load_code in the traits says whether it loads code into the
 * target, which the screen then asks y/N about first. */
static int skeleton_enable_allocators(struct gt_backend *b, const char *packages, const char *source,
				      struct gt_error *err)
{
	(void)b;
	(void)packages;
	(void)source;
	return gt_fail(err, GT_EXIT_FAILURE, "the skeleton runtime has no allocation sampler");
}

/* Stops the sampler: what stopping does in the target is the traits'
 * allocators_stop. */
static void skeleton_disable_allocators(struct gt_backend *b)
{
	(void)b;
}

/* The newest site tables (model/allocators.h), or NULL while sampling is
 * off. */
static const struct gt_alloc_snapshot *skeleton_allocators(const struct gt_backend *b)
{
	(void)b;
	return NULL;
}

/* The top stacks behind the newest reading's sites, or NULL. */
static const struct gt_alloc_stacks *skeleton_alloc_stacks(const struct gt_backend *b)
{
	(void)b;
	return NULL;
}

/* A census of the live objects by type (model/census.h), on the user's
 * request only (--census, or the screen's key after a y/N that states the
 * traits' census_cost). It runs on a worker thread while the target is
 * watched, so it reads only info, never the open backend; it is bounded
 * by deadline_ns and the quit flag; a real one fills the types with
 * gt_census_add, sorts them with gt_census_sort and says what it cost the
 * target (pause_ns) where the runtime tells. The skeleton's process holds
 * no objects: its census is empty. */
static int skeleton_census(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
			   struct gt_error *err)
{
	(void)deadline_ns;
	memset(out, 0, sizeof(*out));
	if (skeleton_probe(info->pid, err) != GT_PROBE_YES)
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d is gone", (int)info->pid);
	out->wall_ms = gt_wall_ms();
	out->mono_ns = gt_mono_ns();
	return 0;
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
	.enable_opcount_agent = skeleton_enable_opcount_agent,
	.enable_allocators = skeleton_enable_allocators,
	.disable_allocators = skeleton_disable_allocators,
	.allocators = skeleton_allocators,
	.alloc_stacks = skeleton_alloc_stacks,
	.census = skeleton_census,
};
