/* The .NET census (dotnet_census.h): a second diagnostics connection with a
 * session that asks for the heap dump, read until the collection it
 * induced has ended and the program runs again, then stopped and read to
 * its end.
 *
 * The session's start makes the runtime induce a blocking gen2
 * collection (GCHeapCollect at Verbose) and walk the heap in it; the
 * collection is the first GCStart at depth 2 that is not a background one,
 * as dotnet-gcdump takes it, with the reason Induced (a blocking gen2 the
 * runtime chose under load is not it). Its pause is from the SuspendEE
 * before it to the RestartEE after its GCStop (the walk is inside it),
 * worked out by the events' counts and timestamps, not their order in the
 * stream: under Server GC several GC threads write them, and the runtime
 * writes one thread's events after another's (dotnet_census_run.h). The
 * runtime's
 * type cache would leave out the types an earlier dump named, so a
 * session that turns the Type keyword off runs before (and after, which
 * also hands the runtime back gctop's own level: gt_dn_settle_runtime). */
#include "collectors/dotnet/dotnet_census.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/dotnet/dotnet_census_run.h"
#include "collectors/dotnet/ipc/diag_ipc.h"
#include "collectors/dotnet/nettrace/nettrace.h"
#include "collectors/dotnet/sampler/dotnet_alloc_events.h"
#include "collectors/dotnet/sampler/dotnet_sampler.h"

#define CENSUS_KEYWORDS                                                                                 \
	(GT_DN_KEYWORD_GC | GT_DN_KEYWORD_TYPE | GT_DN_KEYWORD_GC_HEAP_DUMP | GT_DN_KEYWORD_GC_HEAP_COLLECT | \
	 GT_DN_KEYWORD_GC_HEAP_AND_TYPE_NAMES)
/* StopTracing once the walk is read; then the rest of the stream (events
 * still in the runtime's other buffers) has this long to arrive. */
#define STOP_TIMEOUT_MS 2000
#define DRAIN_NS 5000000000ull
#define READ_SIZE 65536
#define NS_PER_S 1000000000ull

static void on_trace(void *ctx, const struct gt_nettrace_trace *t)
{
	struct gt_dn_census_run *r = ctx;
	r->qpc_freq = t->qpc_freq;
}

static void on_event(void *ctx, const struct gt_nettrace_event *e)
{
	gt_dn_census_run_event(ctx, e);
}
enum read_end { READ_DONE, READ_ENDED, READ_TIMEOUT, READ_QUIT, READ_FAILED };

/* Reads the stream into the parser until the collection is over (or, with
 * to_end, until the stream ends), the deadline passes or quit. */
static enum read_end read_stream(struct gt_dn_census_run *r, struct gt_nettrace *parser, int fd, uint8_t *buf,
				 uint64_t deadline_ns, bool to_end)
{
	for (;;) {
		if (!to_end && r->phase == GT_DN_CENSUS_DONE)
			return READ_DONE;
		enum gt_wait_result w = gt_wait_fd(fd, POLLIN, deadline_ns);
		if (w == GT_WAIT_TIMEOUT)
			return READ_TIMEOUT;
		if (w == GT_WAIT_QUIT)
			return READ_QUIT;
		ssize_t n = read(fd, buf, READ_SIZE);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n <= 0)
			return n == 0 ? READ_ENDED : READ_FAILED;
		int fed = gt_nettrace_feed(parser, buf, (size_t)n);
		if (fed < 0)
			return READ_FAILED;
		if (fed > 0)
			return READ_ENDED;
	}
}

static int ms_until(uint64_t deadline_ns)
{
	uint64_t now = gt_mono_ns();
	if (now >= deadline_ns)
		return 1;
	uint64_t ms = (deadline_ns - now) / 1000000;
	return ms > 3600000 ? 3600000 : (int)ms + 1;
}

/* How the walk's first reading ended, as the census's outcome: 0 when the
 * collection was read to its restart, else -1 with err. */
static int walk_outcome(enum read_end end, const struct gt_dn_census_run *r, const struct gt_nettrace *parser,
			uint64_t deadline_ns, uint64_t started_ns, struct gt_error *err)
{
	static const char *const how_far[] = {
		[GT_DN_CENSUS_WAIT_START] = "no blocking gen2 collection began",
		[GT_DN_CENSUS_IN_GC] = "its collection began but did not end",
		[GT_DN_CENSUS_AFTER_STOP] = "its collection ended but the program did not restart",
		[GT_DN_CENSUS_DONE] = "",
	};
	switch (end) {
	case READ_DONE:
		return 0;
	case READ_QUIT:
		return gt_wait_interrupted(err);
	case READ_TIMEOUT:
		return gt_fail(err, GT_EXIT_TIMEOUT, "the runtime's heap dump did not end within the census's %llu s (%s)",
			       (unsigned long long)((deadline_ns - started_ns) / NS_PER_S), how_far[r->phase]);
	case READ_ENDED:
		return gt_fail(err, GT_EXIT_FAILURE, "the runtime ended the census's session before its collection "
			       "ended");
	default:
		return gt_fail(err, GT_EXIT_FAILURE, "the census's event stream is malformed: %s",
			       gt_nettrace_error(parser) ? gt_nettrace_error(parser) : "read error");
	}
}

/* Runs the session on the second connection: 0 with the walk read, -1
 * with err. */
static int run_session(struct gt_dn_census_run *r, pid_t pid, const char *path, uint64_t deadline_ns,
		       struct gt_dn_census_end *se, struct gt_error *err)
{
	struct gt_diag_session_opts opts = { 0, false };
	struct gt_diag_provider prov = { GT_DN_RUNTIME_PROVIDER, CENSUS_KEYWORDS, GT_EP_LEVEL_VERBOSE, NULL, NULL, 0 };
	struct gt_nettrace_callbacks cb = { r, on_trace, on_event };
	struct gt_nettrace *parser = gt_nettrace_new(&cb);
	uint8_t *buf = malloc(READ_SIZE);
	uint64_t id, started = gt_mono_ns();
	int rc = -1, fd = -1;
	if (!parser || !buf)
		gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	else
		fd = gt_diag_collect_tracing(pid, path, ms_until(deadline_ns), GT_DN_CENSUS_BUFFER_MB, &opts, &prov,
					     1, &id, err);
	if (fd >= 0) {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		enum read_end end = read_stream(r, parser, fd, buf, deadline_ns, false);
		rc = walk_outcome(end, r, parser, deadline_ns, started, err);
		if (end != READ_ENDED)
			gt_diag_stop_tracing(path, STOP_TIMEOUT_MS, id);
		if (rc == 0) {
			uint64_t drain = gt_mono_ns() + DRAIN_NS;
			end = read_stream(r, parser, fd, buf, drain < deadline_ns ? drain : deadline_ns, true);
			if (end == READ_QUIT)
				rc = gt_wait_interrupted(err);
			se->cut = end != READ_ENDED;
		}
		close(fd);
	}
	if (parser)
		se->dropped = gt_nettrace_stats(parser)->dropped;
	gt_nettrace_free(parser);
	free(buf);
	return rc;
}

int gt_dn_census(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
		 struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	char path[GT_DIAG_PATH_MAX];
	int found = gt_diag_find_socket(info->pid, path, sizeof(path), err);
	if (found != 0)
		return found < 0 ? -1 : gt_fail(err, GT_EXIT_NO_DATA, ".NET process %d has no diagnostics socket",
						(int)info->pid);
	struct gt_dn_census_run r = { .table = gt_dn_census_table_new() };
	if (!r.table)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	out->wall_ms = gt_wall_ms();
	out->mono_ns = gt_mono_ns();
	gt_dn_settle_runtime(info->pid, path);
	struct gt_dn_census_end se = { 0 };
	int rc = run_session(&r, info->pid, path, deadline_ns, &se, err);
	gt_dn_settle_runtime(info->pid, path);
	if (rc == 0 && gt_dn_census_table_result(r.table, out) != 0)
		rc = gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	if (rc == 0) {
		out->partial_why = gt_dn_census_run_partial(&r, &se);
		gt_dn_census_run_pause(&r, out);
		out->took_ns = gt_mono_ns() - out->mono_ns;
	}
	gt_dn_census_table_free(r.table);
	return rc;
}
