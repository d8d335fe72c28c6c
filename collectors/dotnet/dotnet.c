/* The .NET collector: one EventPipe session per watched process over the
 * diagnostics IPC socket, carrying the GC events (DotNETRuntime, GC keyword,
 * Informational) and the runtime's counters, parsed as they stream in. Here
 * its interface and its life; the session and the sample in the files
 * collectors/dotnet/dotnet_internal.h names. */
#include "collectors/dotnet/dotnet_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/dotnet/dotnet_census.h"
#include "collectors/dotnet/dotnet_info.h"
#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/dotnet/proc/dotnet_proc.h"

/* ---- probe ---- */

static bool diagnostics_disabled(pid_t pid)
{
	char v[16];
	return (gt_dotnet_proc_getenv(pid, "DOTNET_EnableDiagnostics", v, sizeof(v)) == 0 && strcmp(v, "0") == 0) ||
	       (gt_dotnet_proc_getenv(pid, "COMPlus_EnableDiagnostics", v, sizeof(v)) == 0 && strcmp(v, "0") == 0) ||
	       (gt_dotnet_proc_getenv(pid, "DOTNET_EnableDiagnostics_IPC", v, sizeof(v)) == 0 && strcmp(v, "0") == 0);
}

static enum gt_probe dotnet_probe(pid_t pid, struct gt_error *err)
{
	char path[GT_DIAG_PATH_MAX];
	struct gt_error ferr = { 0 };
	int found = gt_diag_find_socket(pid, path, sizeof(path), &ferr);
	if (found == 0)
		return GT_PROBE_YES;
	if (gt_dotnet_proc_maps_coreclr(pid) != 1) {
		if (found < 0) {
			if (err)
				*err = ferr;
			return GT_PROBE_ERROR;
		}
		return GT_PROBE_NO;
	}
	if (found < 0) {
		if (err)
			*err = ferr;
		return GT_PROBE_ERROR;
	}
	if (diagnostics_disabled(pid)) {
		gt_fail(err, GT_EXIT_NO_DATA,
			".NET process %d runs with DOTNET_EnableDiagnostics=0, so it has no diagnostics socket; "
			"restart it without that setting to watch it", (int)pid);
		return GT_PROBE_ERROR;
	}
	/* A runtime still starting has not made its socket yet: open waits. */
	return GT_PROBE_YES;
}

/* ---- open ---- */

/* How long a runtime that is still starting has to make its socket. */
#define SOCKET_WAIT_MS 3000
#define SOCKET_WAIT_STEP_MS 100

static int wait_for_socket(pid_t pid, char *path, size_t size, struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, SOCKET_WAIT_MS, SOCKET_WAIT_STEP_MS);
	for (;;) {
		int rc = gt_diag_find_socket(pid, path, size, err);
		if (rc <= 0)
			return rc;
		if (kill(pid, 0) != 0 && errno == ESRCH)
			return gt_fail(err, GT_EXIT_TARGET_EXITED, "process %d exited before gctop could attach", (int)pid);
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			break;
	}
	if (diagnostics_disabled(pid))
		return gt_fail(err, GT_EXIT_NO_DATA,
			       ".NET process %d runs with DOTNET_EnableDiagnostics=0, so it has no diagnostics socket; "
			       "restart it without that setting to watch it", (int)pid);
	return gt_fail(err, GT_EXIT_TIMEOUT,
		       ".NET process %d has no diagnostics socket in its TMPDIR after %d seconds; "
		       "if it runs in a container, run gctop as root on the host", (int)pid, SOCKET_WAIT_MS / 1000);
}

/* The target's CLOCK_MONOTONIC is gctop's when both are in one time
 * namespace (the kernel's handle for it is the same inode). */
static bool same_time_namespace(pid_t pid)
{
	char path[64];
	struct stat self, target;
	snprintf(path, sizeof(path), "/proc/%d/ns/time", (int)pid);
	return stat("/proc/self/ns/time", &self) == 0 && stat(path, &target) == 0 &&
	       self.st_ino == target.st_ino && self.st_dev == target.st_dev;
}

static struct gt_backend *dotnet_open(pid_t pid, struct gt_target_info *info, struct gt_error *err)
{
	struct gt_backend *c = gt_calloc(sizeof(*c), err);
	if (!c)
		return NULL;
	c->pid = pid;
	c->fd = -1;
	c->read_buf = malloc(DOTNET_READ_BUF_SIZE);
	if (!c->read_buf) {
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
		goto fail;
	}
	if (wait_for_socket(pid, c->socket_path, sizeof(c->socket_path), err) != 0)
		goto fail;
	struct gt_diag_process_info pi;
	if (gt_diag_process_info(pid, c->socket_path, DOTNET_IPC_TIMEOUT_MS, &pi, err) != 0)
		goto fail;
	gt_dn_fill_info(pid, &pi, info);
	c->hard_limit = info->heap_max_bytes;

	c->runtime_major = gt_diag_runtime_major(pi.runtime_version);

	gt_dn_gc_init(&c->gc, 1000000000);
	gt_dn_counters_init(&c->counters);
	c->counters.first_counts = c->runtime_major >= GT_DN_FIRST_INCREMENT_MAJOR;
	/* seen on 8.0: a first alloc-rate increment of everything since start */
	c->same_clock = same_time_namespace(pid);
	c->have_offset = c->same_clock;
	if (dotnet_session_start(c, err) != 0)
		goto fail;
	return c;
fail:
	if (c->fd >= 0)
		close(c->fd);
	free(c->read_buf);
	free(c);
	return NULL;
}

/* ---- streaming ---- */

static int dotnet_wait_fd(const struct gt_backend *c)
{
	return c->ended || c->failed ? -1 : c->fd;
}

/* The stream's events are timed by their own timestamps, and a sample
 * reads whatever is pending; only the arrival times that learn the clock
 * offset of another time namespace (dotnet_session.c) and the sampler's tick
 * want the stream read at once. */
static bool dotnet_wait_may_lag(const struct gt_backend *c)
{
	return c->same_clock && !c->sampler && !c->alloc;
}

static uint64_t dotnet_poll_interval(const struct gt_backend *c)
{
	return c->sampler ? gt_dn_sampler_next_ns(c->sampler, gt_mono_ns()) : 0;
}

/* ---- close ---- */

static void dotnet_close(struct gt_backend *c)
{
	if (!c)
		return;
	gt_dn_sampler_free(c->sampler);
	dotnet_session_stop(c);
	gt_dn_alloc_free(c->alloc);
	free(c->alloc_snap);
	free(c->alloc_stacks);
	free(c->read_buf);
	free(c);
}

/* ---- allocation sampling ---- */

/* Starts allocation sampling, after a short rundown session that names the
 * methods already compiled: on 10, AllocationSampled and the method loads
 * in a session of their own (sampler/dotnet_sampler.h); on 8 and 9,
 * gctop's session restarted with stacks, the method loads and
 * AllocationTick. Nothing is loaded into the process. On failure the
 * collector keeps (or gets back) its session without sampling. */
static int dotnet_enable_allocators(struct gt_backend *c, const char *packages, const char *source,
				    struct gt_error *err)
{
	if (c->alloc)
		return 0;
	/* one source: the runtime's own allocation events */
	if (source)
		return gt_fail(err, GT_EXIT_USAGE, "--allocators takes no source on a .NET process (it reads the runtime's "
			       "own allocation events); drop =%s", source);
	if (c->ended || c->failed)
		return gt_fail(err, GT_EXIT_NO_DATA, "gctop's EventPipe session of process %d has ended", (int)c->pid);
	c->alloc = gt_dn_alloc_new(c->runtime_major >= 10, packages, err);
	if (!c->alloc)
		return -1;
	c->alloc_snap = gt_calloc(sizeof(*c->alloc_snap), err);
	c->alloc_stacks = c->alloc_snap ? gt_calloc(sizeof(*c->alloc_stacks), err) : NULL;
	if (!c->alloc_stacks) {
		dotnet_session_free_sampling(c);
		return -1;
	}
	gt_dn_alloc_set_pointer_size(c->alloc, c->gc.pointer_size);
	if (dotnet_session_start_sampling(c, err) != 0) {
		dotnet_session_stop_sampling(c);
		return -1;
	}
	gt_dn_alloc_snapshot(c->alloc, gt_mono_ns(), c->alloc_snap);
	gt_dn_alloc_stacks(c->alloc, c->alloc_stacks);
	return 0;
}

/* Back to the session without stacks and allocation events. */
static void dotnet_disable_allocators(struct gt_backend *c)
{
	if (c->alloc)
		dotnet_session_stop_sampling(c);
}

static const struct gt_alloc_snapshot *dotnet_allocators(const struct gt_backend *c)
{
	return c->alloc ? c->alloc_snap : NULL;
}

static const struct gt_alloc_stacks *dotnet_alloc_stacks(const struct gt_backend *c)
{
	return c->alloc ? c->alloc_stacks : NULL;
}

const struct gt_backend_ops gt_dotnet_ops = {
	.name = "dotnet",
	.traits = &gt_dotnet_runtime,
	.discovery = &gt_dotnet_discovery,
	.probe = dotnet_probe,
	.open = dotnet_open,
	.wait_fd = dotnet_wait_fd,
	.wait_may_lag = dotnet_wait_may_lag,
	.poll = dotnet_poll,
	.poll_interval_ns = dotnet_poll_interval,
	.settle = dotnet_settle,
	.sample = dotnet_sample,
	.close = dotnet_close,
	.list = gt_dn_list,
	.enable_allocators = dotnet_enable_allocators,
	.disable_allocators = dotnet_disable_allocators,
	.allocators = dotnet_allocators,
	.alloc_stacks = dotnet_alloc_stacks,
	.census = gt_dn_census,
};
