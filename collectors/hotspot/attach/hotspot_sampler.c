#include "collectors/hotspot/attach/hotspot_sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/host/safe_path.h"
#include "collectors/hotspot/attach/hotspot_attach.h"
#include "collectors/hotspot/attach/hotspot_sampler_opcount.h"
#include "model/percentile.h"
#include "segment/reader.h"

#define SAMPLER_START_WAIT_MS 3000
#define SAMPLER_START_STEP_MS 50
/* A writer heartbeat older than this belongs to a dead or frozen agent. */
#define SAMPLER_STALE_NS 2000000000ull
/* The agent's first answer to --ops jmx: comes within its idle tick (1 s)
 * and one reading; a getter that blocks is waited for no longer. */
#define SAMPLER_OPCOUNT_WAIT_MS 2500

struct gt_hotspot_sampler {
	pid_t pid;
	struct gt_attach_status st;
	char path[256];
	struct gt_segment *seg;
	struct gt_segment_reading reading;   /* the newest */
	struct gt_hotspot_sampler_track exact;       /* the exact total, never less than reported before */
	struct hotspot_alloc_ring exact_ring;        /* the exact total at each segment read, for --ops jmx: */
	struct gt_hotspot_sampler_opcount opcount;   /* --ops jmx:, when asked for */
	struct gt_alloc_stacks *stacks;      /* behind the newest reading's sites; NULL: none */
	bool have_stacks;
	/* Loaded for the operations counter only (--ops-agent): the reader
	 * heartbeat, which would wake allocation sampling in a lingering
	 * agent, is never written. */
	bool ops_only;
};

int gt_hotspot_sampler_find_agent(char *buf, size_t len, struct gt_error *err)
{
	const char *env = getenv("GCTOP_AGENT");
	if (env && *env) {
		if (access(env, R_OK) != 0)
			return gt_fail(err, GT_EXIT_FAILURE, "GCTOP_AGENT names %s, which cannot be read", env);
		snprintf(buf, len, "%s", env);
		return 0;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			static const char *const rel[] = { "libgctop-agent.so", "../lib/gctop/libgctop-agent.so" };
			for (size_t i = 0; i < 2; i++) {
				if (snprintf(buf, len, "%s/%s", exe, rel[i]) < (int)len && access(buf, R_OK) == 0)
					return 0;
			}
		}
	}
	return gt_fail(err, GT_EXIT_FAILURE,
		       "gctop's agent libgctop-agent.so is not installed next to gctop or in ../lib/gctop; "
		       "set GCTOP_AGENT to its path");
}

static int sampler_read(struct gt_hotspot_sampler *m, struct gt_error *e)
{
	int rc = gt_segment_read(m->seg, &m->reading, e);
	m->reading.snap.mono_ns = gt_mono_ns();
	return rc;
}

/* Process pid's segment: /tmp/.gctop-seg-NSPID under its root, reached
 * without following any link (collectors/host/safe_path.h). */
static int sampler_open_target_segment(pid_t pid, pid_t nspid, uid_t owner_uid, struct gt_segment **out,
				       struct gt_error *err)
{
	*out = NULL;
	char path[256], name[64];
	gt_segment_path_for(pid, nspid, path, sizeof(path));
	snprintf(name, sizeof(name), GCTOP_SEG_FILE_PREFIX "%d", (int)nspid);
	int root = gt_sp_open_root(pid);
	int tmp = root >= 0 ? gt_sp_openat(root, "tmp", O_PATH | O_DIRECTORY, 0) : -1;
	int e = errno;
	if (root >= 0)
		close(root);
	if (tmp < 0) {
		gt_fail(err, e == ELOOP || e == ENOTDIR ? GT_EXIT_BAD_DATA : GT_EXIT_NO_DATA,
			"cannot open the /tmp of process %d without following a link: %s", (int)pid, strerror(e));
		errno = e;
		return -1;
	}
	int rc = gt_segment_openat(tmp, name, path, owner_uid, out, err);
	e = errno;
	close(tmp);
	errno = e;
	return rc;
}

static bool sampler_open_segment(struct gt_hotspot_sampler *m)
{
	struct gt_error e;
	if (m->seg) {
		gt_segment_close(m->seg);
		m->seg = NULL;
	}
	return sampler_open_target_segment(m->pid, m->st.nspid, m->st.euid, &m->seg, &e) == 0;
}

/* A segment an agent is serving right now (not a file left by a dead JVM
 * whose pid came back). */
static bool sampler_live(struct gt_hotspot_sampler *m)
{
	struct gt_error e;
	if (!m->seg || sampler_read(m, &e) != 0)
		return false;
	uint64_t now = gt_mono_ns(), hb = m->reading.writer_heartbeat_ns;
	uint64_t age = now > hb ? now - hb : hb - now;
	if (age > SAMPLER_STALE_NS)
		return false;
	enum gt_sampler_state s = m->reading.snap.state;
	if (m->ops_only)
		return m->reading.opcount.present;
	return s == GT_SAMPLER_RUNNING || s == GT_SAMPLER_STARTING ||
	       (s == GT_SAMPLER_STOPPED && (m->reading.flags & GCTOP_SEG_F_LINGER));
}

/* Until the agent's segment, with its ops block, can be read (--ops-agent). */
static int sampler_wait_ops(struct gt_hotspot_sampler *m, struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, SAMPLER_START_WAIT_MS, SAMPLER_START_STEP_MS);
	for (;;) {
		struct gt_error e;
		if ((m->seg || sampler_open_segment(m)) && sampler_read(m, &e) == 0) {
			if (m->reading.opcount.present)
				return 0;
			return gt_fail(err, GT_EXIT_FAILURE, "JVM %d: the agent in it is older than --ops jmx: "
				       "(its segment has no ops block); restart the JVM to load this gctop's agent", (int)m->pid);
		}
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			return gt_fail(err, GT_EXIT_TIMEOUT, "gctop's agent in JVM %d made no segment within %d s",
				       (int)m->pid, SAMPLER_START_WAIT_MS / 1000);
	}
}

static int sampler_wait_running(struct gt_hotspot_sampler *m, struct gt_error *err)
{
	struct gt_retry retry;
	gt_retry_start(&retry, SAMPLER_START_WAIT_MS, SAMPLER_START_STEP_MS);
	for (;;) {
		if (m->seg || sampler_open_segment(m)) {
			gt_segment_beat(m->seg, gt_mono_ns());
			struct gt_error e;
			if (sampler_read(m, &e) == 0) {
				const struct gt_alloc_snapshot *s = &m->reading.snap;
				if (s->state == GT_SAMPLER_RUNNING)
					return 0;
				if (s->state == GT_SAMPLER_BUSY || s->state == GT_SAMPLER_FAILED)
					return gt_fail(err, GT_EXIT_FAILURE, "JVM %d: %s", (int)m->pid,
						       s->message[0] ? s->message : "allocation sampling could not start");
			}
		}
		int again = gt_retry_again(&retry, err);
		if (again < 0)
			return -1;
		if (again == 0)
			return gt_fail(err, GT_EXIT_TIMEOUT,
				       "gctop's agent in JVM %d did not start sampling within %d s", (int)m->pid,
				       SAMPLER_START_WAIT_MS / 1000);
	}
}

/* "a.,b." -> "packages=a.:b." for the agent. */
static int agent_options(const char *packages, char *buf, size_t len, struct gt_error *err)
{
	buf[0] = '\0';
	if (!packages || !*packages)
		return 0;
	int n = snprintf(buf, len, "packages=%s", packages);
	if (n < 0 || (size_t)n >= len)
		return gt_fail(err, GT_EXIT_USAGE, "--allocator-packages is too long");
	for (char *p = buf + 9; *p; p++) {
		if (*p == ',')
			*p = ':';
		else if (*p == '=' || (unsigned char)*p < 0x21)
			return gt_fail(err, GT_EXIT_USAGE, "--allocator-packages wants prefixes like com.example. separated by commas");
	}
	return 0;
}

/* The sampler, allocation sampling (ops_only false) or the operations
 * counter only. */
static struct gt_hotspot_sampler *sampler_start(pid_t pid, const char *packages, bool ops_only, struct gt_error *err)
{
	char opts[1024], agent[PATH_MAX];
	if (ops_only)
		snprintf(opts, sizeof(opts), "ops");
	else if (agent_options(packages, opts, sizeof(opts), err) != 0)
		return NULL;
	struct gt_hotspot_sampler *m = gt_calloc(sizeof(*m), err);
	if (!m)
		return NULL;
	m->pid = pid;
	m->ops_only = ops_only;
	if (gt_attach_read_status(pid, &m->st, err) != 0 ||
	    gt_segment_path_for(pid, m->st.nspid, m->path, sizeof(m->path)) != 0)
		goto fail;
	sampler_open_segment(m);
	if (!sampler_live(m)) {
		if (m->seg) {
			gt_segment_close(m->seg);
			m->seg = NULL;
		}
		if (gt_hotspot_sampler_find_agent(agent, sizeof(agent), err) != 0 ||
		    gt_hotspot_attach_load(pid, agent, opts, err) != 0)
			goto fail;
	} else {
		struct gt_error quiet = { 0 };
		if (gt_hotspot_sampler_find_agent(agent, sizeof(agent), &quiet) == 0)
			gt_hotspot_attach_clear_copy(pid, &m->st, agent);
	}
	if ((ops_only ? sampler_wait_ops(m, err) : sampler_wait_running(m, err)) != 0)
		goto fail;
	return m;
fail:
	gt_hotspot_sampler_close(m);
	return NULL;
}

struct gt_hotspot_sampler *gt_hotspot_sampler_start(pid_t pid, const char *packages, struct gt_error *err)
{
	return sampler_start(pid, packages, false, err);
}

struct gt_hotspot_sampler *gt_hotspot_sampler_start_ops(pid_t pid, struct gt_error *err)
{
	return sampler_start(pid, NULL, true, err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void fill_pauses(const struct gt_segment_reading *r, struct gt_sample *s)
{
	if (!r->pause_count.valid)
		return;
	s->agent_pauses = r->pause_count;
	s->agent_pause_total_ns = r->pause_total_ns;
	s->agent_pause_window = r->n_recent;
	if (!r->n_recent)
		return;
	uint64_t v[GCTOP_SEG_PAUSE_RING];
	memcpy(v, r->recent_ns, r->n_recent * sizeof(v[0]));
	qsort(v, r->n_recent, sizeof(v[0]), cmp_u64);
	gt_u64_set(&s->agent_pause_p50_ns, gt_percentile_u64(v, r->n_recent, 50));
	gt_u64_set(&s->agent_pause_p99_ns, gt_percentile_u64(v, r->n_recent, 99));
	gt_u64_set(&s->agent_pause_max_ns, v[r->n_recent - 1]);
}

/* The agent reads the exact total every 100 ms; the sample is taken at
 * another moment. Carrying the total forward at its latest rate to the
 * sample's time keeps per-interval rates from jittering by up to 10%. */
static void fill_alloc(struct gt_hotspot_sampler *m, struct gt_sample *s)
{
	const struct gt_segment_reading *r = &m->reading;
	if (!r->alloc_total.valid)
		return;
	m->exact.hold = true;
	gt_u64_set(&s->alloc_bytes_total,
		   gt_hotspot_sampler_track_at(&m->exact, r->snap.generation, r->alloc_total.value, r->alloc_total_ns, s->mono_ns));
	s->alloc_source = GT_ALLOC_SOURCE_EXACT;
	s->alloc_since = GT_ALLOC_SINCE_PROCESS_START;
}

/* G1 with an agent that knows the region size: the humongous objects'
 * bytes and their regions' tails from the samples, which see each object's
 * own size, replace the perf data's whole regions (the live bytes stay
 * those of the regions: what the heap holds). */
static void fill_large(const struct gt_segment_reading *r, struct gt_sample *s)
{
	if (!r->humongous_bytes.valid || !r->humongous_tail_bytes.valid)
		return;
	s->large_alloc_bytes_total = r->humongous_bytes;
	s->large_waste_bytes_total = r->humongous_tail_bytes;
	s->large_waste_max_bytes_total.valid = false;
	s->large_source = "g1-humongous-sampled";
}

void gt_hotspot_sampler_beat(struct gt_hotspot_sampler *m, uint64_t now_ns)
{
	/* A replaced segment is followed at the next sample; a beat into the
	 * old mapping meanwhile is harmless. */
	if (m && m->seg) {
		if (!m->ops_only)
			gt_segment_beat(m->seg, now_ns);
		if (gt_hotspot_sampler_opcount_wanted(&m->opcount, &m->reading))
			gt_segment_opcount_beat(m->seg, now_ns);
	}
}

/* Follows, beats and reads the segment: 0 with a new reading,
 * GT_SEGMENT_TORN keeping the previous one, -1 when there is none (no
 * segment, or one its owner damaged: the reading's state says so). */
static int sampler_refresh(struct gt_hotspot_sampler *m)
{
	if (!m->seg || gt_segment_replaced(m->seg)) {
		if (!sampler_open_segment(m)) {
			memset(&m->reading, 0, sizeof(m->reading));
			m->reading.snap.state = GT_SAMPLER_OFF;
			return -1;
		}
	}
	gt_hotspot_sampler_beat(m, gt_mono_ns());
	struct gt_error e;
	int rc = sampler_read(m, &e);
	if (rc == GT_SEGMENT_TORN)
		return rc; /* being rewritten: keep the previous reading */
	if (rc != 0) {
		/* Cut short or damaged by its owner: say so rather than show the
		 * last figures as current. */
		m->reading.snap.state = GT_SAMPLER_FAILED;
		snprintf(m->reading.snap.message, sizeof(m->reading.snap.message),
			 "the allocation segment was cut short or damaged by its owner; not reading it");
		return -1;
	}
	/* Every exact total read, also while --ops jmx: waits for its first
	 * answer: the count's readings are set beside these. */
	if (m->reading.alloc_total.valid)
		hotspot_alloc_ring_push(&m->exact_ring, m->reading.alloc_total_ns, m->reading.alloc_total.value);
	/* A segment the agent made again has not heard the request yet. */
	gt_hotspot_sampler_opcount_ask(&m->opcount, m->seg, &m->reading, gt_mono_ns());
	return 0;
}

static void sampler_fill_exact(struct gt_hotspot_sampler *m, struct gt_sample *s);

void gt_hotspot_sampler_sample(struct gt_hotspot_sampler *m, struct gt_sample *s, const struct hotspot_alloc_ring *polls)
{
	int rc = sampler_refresh(m);
	/* Loaded for the operations alone, the figures stay the perf data's
	 * even while another gctop has the agent sample: an exact total coming
	 * and going would read as counter resets in --serve. */
	if (rc == 0 && !m->ops_only && m->reading.snap.state == GT_SAMPLER_RUNNING)
		sampler_fill_exact(m, s);
	/* The operations whatever the sampling state (the agent answers while
	 * gctop beats the request), beside the allocation the sample has. */
	bool exact = s->alloc_source == GT_ALLOC_SOURCE_EXACT;
	if (rc != -1)
		gt_hotspot_sampler_opcount_fill(&m->opcount, &m->reading, gt_mono_ns(), exact ? &m->exact_ring : polls,
						exact, s);
}

/* The agent's own figures in place of the perf data's. */
static void sampler_fill_exact(struct gt_hotspot_sampler *m, struct gt_sample *s)
{
	/* An agent of an older layout has no stack table: no stacks, not empty ones. */
	if (!m->stacks)
		m->stacks = malloc(sizeof(*m->stacks));
	m->have_stacks = m->stacks && gt_segment_stacks(m->seg, &m->reading.snap, m->stacks) == 0;
	fill_alloc(m, s);
	fill_large(&m->reading, s);
	fill_pauses(&m->reading, s);
	/* The snapshot shares the sample's clock, so rates from snapshots and
	 * from samples cover the same spans. */
	m->reading.snap.mono_ns = s->mono_ns;
	if (s->alloc_source == GT_ALLOC_SOURCE_EXACT)
		m->reading.snap.exact_total = s->alloc_bytes_total;
}

/* While the agent's exact totals come (sampling has just begun), the
 * answer waits for readings of them around its moment too: the first
 * exact total is often read just before the first answer, and with that
 * one alone the first sample had no bytes beside its operations, so a
 * one-interval -b showed operations n/a on a busy machine. */
static bool sampler_opcount_datable(const struct gt_hotspot_sampler *m)
{
	return !m->reading.alloc_total.valid || m->ops_only ||
	       gt_hotspot_sampler_opcount_datable(&m->opcount, &m->reading, &m->exact_ring, true);
}

int gt_hotspot_sampler_set_opcount(struct gt_hotspot_sampler *m, const char *spec, struct gt_error *err)
{
	if (gt_hotspot_sampler_opcount_init(&m->opcount, spec) != 0)
		return gt_fail(err, GT_EXIT_USAGE, "--ops %s is no jmx:OBJECTNAME:ATTRIBUTE", spec);
	gt_hotspot_sampler_opcount_clock(&m->opcount, m->pid);
	struct gt_retry retry;
	gt_retry_start(&retry, SAMPLER_OPCOUNT_WAIT_MS, SAMPLER_START_STEP_MS);
	/* The first answer to this gctop's own request is waited for (one to
	 * an earlier gctop's for the same counter may be read before this
	 * request is, and the next sample then waits again), so that the first
	 * sample has it; one that does not come is no error: the samples say
	 * why. */
	for (;;) {
		const struct gt_segment_opcount *a = &m->reading.opcount;
		if (sampler_refresh(m) == 0 &&
		    (!a->present || (a->answer_id == m->opcount.id &&
				     gt_hotspot_sampler_opcount_answered(&m->opcount, &m->reading, gt_mono_ns()) &&
				     sampler_opcount_datable(m))))
			return 0;
		int again = gt_retry_again(&retry, err);
		if (again <= 0)
			return again;
	}
}

const struct gt_alloc_snapshot *gt_hotspot_sampler_snapshot(const struct gt_hotspot_sampler *m)
{
	return &m->reading.snap;
}

const struct gt_alloc_stacks *gt_hotspot_sampler_stacks(const struct gt_hotspot_sampler *m)
{
	return m->have_stacks ? m->stacks : NULL;
}

void gt_hotspot_sampler_close(struct gt_hotspot_sampler *m)
{
	if (!m)
		return;
	gt_segment_close(m->seg);
	free(m->stacks);
	free(m);
}
