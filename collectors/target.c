#include "collectors/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/host/cgroup.h"
#include "collectors/host/proc.h"
#include "collectors/registry.h"

struct gt_target {
	pid_t pid;
	const struct gt_backend_ops *ops;
	struct gt_backend *collector;
	struct gt_proc *proc;
	struct gt_cgroup *cgroup;
	struct gt_target_info info;
	bool exited;
	struct gt_sample last;    /* kept so an exited target still shows its last figures */
};

/* A process started a moment ago may not have exec'd its runtime yet (a
 * shell or launcher that execs java or dotnet), so an unclaimed young
 * process is probed again for a little while before gctop gives up on it. */
#define TARGET_EXEC_GRACE_MS 2000
#define TARGET_PROBE_STEP_MS 20

/* What is left of pid's grace (0: none, or its start time is unknown). */
static unsigned exec_grace_left_ms(pid_t pid)
{
	uint64_t start_ms, now_ms = (uint64_t)gt_wall_ms();
	if (gt_proc_start_time_ms(pid, &start_ms) != 0 || now_ms >= start_ms + TARGET_EXEC_GRACE_MS)
		return 0;
	return (unsigned)(start_ms + TARGET_EXEC_GRACE_MS - now_ms);
}

static const struct gt_backend_ops *find_runtime(const struct gt_backend_ops *const *backends, pid_t pid,
						 struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, exec_grace_left_ms(pid), TARGET_PROBE_STEP_MS);
	for (;;) {
		for (const struct gt_backend_ops *const *o = backends; *o; o++) {
			enum gt_probe p = (*o)->probe(pid, err);
			if (p == GT_PROBE_YES)
				return *o;
			if (p == GT_PROBE_ERROR)
				return NULL;
		}
		if (!gt_proc_exists(pid))
			break;
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return NULL;
		if (again == 0)
			break;
	}
	char wanted[256];
	gt_fail(err, GT_EXIT_NOT_RUNTIME, "process %d is neither %s; run gctop --list to see the processes gctop can watch",
		(int)pid, gt_registry_wanted(wanted, sizeof(wanted)));
	return NULL;
}

struct gt_target *gt_target_open(pid_t pid, struct gt_error *err)
{
	return gt_target_open_from(gt_backends, pid, err);
}

struct gt_target *gt_target_open_from(const struct gt_backend_ops *const *backends, pid_t pid, struct gt_error *err)
{
	struct gt_target *t = gt_calloc(sizeof(*t), err);
	if (!t)
		return NULL;
	t->pid = pid;
	t->info.pid = pid;
	/* First: it checks /proc and the pid before any probe reads them. */
	t->proc = gt_proc_open(pid, err);
	if (!t->proc)
		goto fail;
	t->ops = find_runtime(backends, pid, err);
	if (!t->ops)
		goto fail;
	t->collector = t->ops->open(pid, &t->info, err);
	if (!t->collector)
		goto fail;
	t->info.runtime = t->ops->traits;
	gt_proc_fill_info(pid, &t->info);
	t->cgroup = gt_cgroup_open(pid, &t->info);
	return t;
fail:
	gt_target_close(t);
	return NULL;
}

const struct gt_target_info *gt_target_info(const struct gt_target *t)
{
	return &t->info;
}

int gt_target_wait_fd(const struct gt_target *t)
{
	if (t->exited || !t->ops->wait_fd)
		return -1;
	return t->ops->wait_fd(t->collector);
}

bool gt_target_wait_may_lag(const struct gt_target *t)
{
	return !t->exited && t->ops->wait_may_lag && t->ops->wait_may_lag(t->collector);
}

uint64_t gt_target_poll_interval_ns(const struct gt_target *t)
{
	if (t->exited || !t->ops->poll_interval_ns)
		return 0;
	return t->ops->poll_interval_ns(t->collector);
}

void gt_target_settle(struct gt_target *t, uint64_t deadline_ns)
{
	if (!t->exited && t->ops->settle)
		t->ops->settle(t->collector, deadline_ns);
}

void gt_target_poll(struct gt_target *t, uint64_t now_ns)
{
	if (!t->exited && t->ops->poll)
		t->ops->poll(t->collector, now_ns);
}

int gt_target_sample(struct gt_target *t, struct gt_sample *out, struct gt_error *err)
{
	if (t->exited) {
		*out = t->last;
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d has exited", (int)t->pid);
	}
	memset(out, 0, sizeof(*out));
	out->pid = t->pid;
	out->mono_ns = gt_mono_ns();
	out->wall_ms = gt_wall_ms();
	out->state = GT_TARGET_LIVE;

	struct gt_error rerr = { 0 };
	int rc = t->ops->sample(t->collector, out, &rerr);
	if (gt_proc_sample(t->proc, out) != 0 || (rc != 0 && rerr.code == GT_EXIT_TARGET_EXITED)) {
		t->exited = true;
		t->last.state = GT_TARGET_EXITED;
		t->last.mono_ns = out->mono_ns;
		t->last.wall_ms = out->wall_ms;
		*out = t->last;
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d has exited", (int)t->pid);
	}
	if (rc != 0) {
		if (err)
			*err = rerr;
		return -1;
	}
	gt_cgroup_sample(t->cgroup, out);
	if (out->heap_max_bytes.valid)
		t->info.heap_max_bytes = out->heap_max_bytes;
	if (out->cgroup_limit_bytes.valid)
		t->info.cgroup_limit_bytes = out->cgroup_limit_bytes;
	t->last = *out;
	return 0;
}

gt_census_fn gt_target_census_fn(const struct gt_target *t)
{
	return t->ops->census;
}

void gt_target_close(struct gt_target *t)
{
	if (!t)
		return;
	if (t->collector)
		t->ops->close(t->collector);
	if (t->proc)
		gt_proc_close(t->proc);
	if (t->cgroup)
		gt_cgroup_close(t->cgroup);
	free(t);
}

int gt_target_set_opcount(struct gt_target *t, const char *name, struct gt_error *err)
{
	/* A runtime that counts its operations itself takes no counter (.NET:
	 * the requests); its traits say why. */
	if (!t->ops->set_opcount) {
		char takes[256];
		const char *own = t->ops->traits->opcount_own;
		return gt_fail(err, GT_EXIT_USAGE, "--ops names %s; process %d is %s",
			       gt_registry_opcount_takes(takes, sizeof(takes)), (int)t->pid,
			       own ? own : "of a runtime that takes no --ops");
	}
	return t->ops->set_opcount(t->collector, name, err);
}

int gt_target_enable_opcount_agent(struct gt_target *t, struct gt_error *err)
{
	if (t->exited)
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d has exited", (int)t->pid);
	return t->ops->enable_opcount_agent ? t->ops->enable_opcount_agent(t->collector, err) : 0;
}

int gt_target_enable_allocators(struct gt_target *t, const char *packages, const char *source, struct gt_error *err)
{
	if (t->exited)
		return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d has exited", (int)t->pid);
	if (!t->ops->enable_allocators)
		return gt_fail(err, GT_EXIT_FAILURE, "gctop cannot sample the allocations of a %s process", t->ops->name);
	return t->ops->enable_allocators(t->collector, packages, source, err);
}

void gt_target_disable_allocators(struct gt_target *t)
{
	if (!t->exited && t->ops->disable_allocators)
		t->ops->disable_allocators(t->collector);
}

const struct gt_alloc_snapshot *gt_target_allocators(const struct gt_target *t)
{
	return t->ops->allocators ? t->ops->allocators(t->collector) : NULL;
}

const struct gt_alloc_stacks *gt_target_alloc_stacks(const struct gt_target *t)
{
	return t->ops->alloc_stacks ? t->ops->alloc_stacks(t->collector) : NULL;
}

void gt_target_list_all(struct gt_list *out)
{
	for (const struct gt_backend_ops *const *o = gt_backends; *o; o++)
		if ((*o)->list)
			(*o)->list(out);
	for (size_t i = 0; i < out->count; i++) {
		/* A quit, or a fleet's listing worker told to end: what is left
		 * would be thrown away (a few ms a process, 50 ms of an exit
		 * under AddressSanitizer). */
		if (gt_wait_stop_requested()) {
			out->count = i;
			break;
		}
		struct gt_list_entry *e = &out->entries[i];
		gt_proc_fill_info(e->info.pid, &e->info);
		struct gt_error err;
		struct gt_proc *p = gt_proc_open(e->info.pid, &err);
		if (p) {
			gt_proc_sample(p, &e->sample);
			gt_proc_close(p);
		}
	}
}
