/* gctop's flight recording (jfr_recording.h).
 *
 * The lease: JFR.start's duration= makes a recording end by itself, but no
 * command lengthens a running recording's duration (JFR.configure sets the
 * repository and buffers, not a recording). So each lease is a recording of
 * its own, gctop-<pid>-<n>: the next starts before the last is stopped, and
 * since every disk recording writes into the same chunks, the stream gctop
 * reads has no gap. Each start and stop rotates the chunk (a safepoint
 * operation), twice a renewal.
 *
 * filename=/dev/null: on JDK 21 and later a recording with a duration and
 * no file name is written at its end to a file in the JVM's working
 * directory; a lease that ends (gctop killed) or is stopped must leave
 * nothing behind, so its data goes to /dev/null, which every file system
 * namespace a JVM runs in has. */
#include "collectors/hotspot/jfr/jfr_recording.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/hotspot/attach/hotspot_attach.h"

/* The first JFR.start in a JVM loads JFR's Java side (1-3 s on a busy
 * machine); the others take milliseconds. */
#define JFR_START_DEADLINE_NS (20ull * 1000000000ull)
#define JFR_CMD_DEADLINE_NS (5ull * 1000000000ull)
#define JFR_REPLY_MAX 65536
/* The attach protocol's argument limit (HotSpot's arg_length_max). */
#define JFR_ARG_MAX 1024
#define JFR_LISTED_MAX 64

/* Only the events gctop reads, with the JDK's default.jfc throttle for the
 * allocation samples (150 a second, which the JDK states costs under 1%).
 * maxage and maxsize keep the repository small: gctop reads each chunk
 * within a second of its flush. */
static const char jfr_events[] =
	"settings=none maxage=60s maxsize=16m "
	"+jdk.ObjectAllocationSample#enabled=true +jdk.ObjectAllocationSample#throttle=150/s "
	"+jdk.ObjectAllocationSample#stackTrace=true "
	"+jdk.ThreadAllocationStatistics#enabled=true +jdk.ThreadAllocationStatistics#period=1s "
	"+jdk.GarbageCollection#enabled=true +jdk.GCPhasePause#enabled=true +jdk.GCHeapSummary#enabled=true";

static const char jfr_purpose[] = "start a flight recording in it (use --allocators=agent instead)";

/* Numbers each lease of this gctop, so two never share a name. */
static atomic_uint jfr_lease_no;

int jfr_recording_command(const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "JFR.start name=%s duration=%ds filename=/dev/null %s", name, JFR_LEASE_S,
			 jfr_events);
	return n < 0 || (size_t)n >= len || (size_t)n >= JFR_ARG_MAX ? -1 : 0;
}

/* One jcmd exchange; the reply's verdict against expect. */
static int jfr_jcmd(pid_t pid, const char *line, const char *expect, uint64_t deadline, struct gt_attach_output *out,
		    struct gt_error *err)
{
	const char *const args[4] = { "jcmd", line, "", "" };
	if (gt_hotspot_attach_command(pid, jfr_purpose, args, deadline, JFR_REPLY_MAX, out, err) != 0)
		return -1;
	char why[JFR_REPLY_WHY_LEN];
	switch (jfr_reply_verdict(out->text, out->len, expect, why, sizeof(why))) {
	case JFR_REPLY_OK:
		return 0;
	case JFR_REPLY_DISABLED:
		gt_fail(err, GT_EXIT_FAILURE, "JVM %d runs with its flight recorder disabled (-XX:-FlightRecorder); "
			"--allocators=agent loads gctop's agent instead", (int)pid);
		break;
	case JFR_REPLY_NO_JFR:
		gt_fail(err, GT_EXIT_FAILURE, "JVM %d has no flight recorder (its runtime image lacks the jdk.jfr "
			"module); --allocators=agent loads gctop's agent instead", (int)pid);
		break;
	default:
		gt_fail(err, GT_EXIT_FAILURE, "JVM %d refused a flight recording: %s; --allocators=agent loads "
			"gctop's agent instead", (int)pid, why);
		break;
	}
	free(out->text);
	out->text = NULL;
	return -1;
}

/* Whether process pid is a gctop that runs (its recordings are its own). */
static bool jfr_gctop_alive(pid_t pid)
{
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return false;
	char path[64], comm[32] = "";
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return true; /* there, but not ours to look at: leave it */
	bool ok = fgets(comm, sizeof(comm), f) != NULL;
	fclose(f);
	return !ok || strncmp(comm, "gctop", 5) == 0;
}

static void jfr_stop_name(pid_t pid, const char *name)
{
	char line[JFR_NAME_LEN + 32];
	snprintf(line, sizeof(line), "JFR.stop name=%s", name);
	struct gt_attach_output out;
	struct gt_error e;
	if (jfr_jcmd(pid, line, "Stopped recording", gt_mono_ns() + JFR_CMD_DEADLINE_NS, &out, &e) == 0)
		free(out.text);
}

/* The running recordings of gctops that are gone: stopped. JFR.check also
 * tells a JVM without JFR before anything starts. */
static int jfr_stop_leftovers(pid_t pid, struct gt_error *err)
{
	struct gt_attach_output out;
	const char *const args[4] = { "jcmd", "JFR.check", "", "" };
	if (gt_hotspot_attach_command(pid, jfr_purpose, args, gt_mono_ns() + JFR_START_DEADLINE_NS, JFR_REPLY_MAX,
				      &out, err) != 0)
		return -1;
	char why[JFR_REPLY_WHY_LEN];
	enum jfr_reply_verdict v = jfr_reply_verdict(out.text, out.len, "", why, sizeof(why));
	struct jfr_listed listed[JFR_LISTED_MAX];
	size_t n = v == JFR_REPLY_OK ? jfr_reply_recordings(out.text, out.len, listed, JFR_LISTED_MAX) : 0;
	free(out.text);
	if (v == JFR_REPLY_DISABLED || v == JFR_REPLY_NO_JFR)
		return jfr_jcmd(pid, "JFR.check", "", gt_mono_ns() + JFR_CMD_DEADLINE_NS, &out, err);
	for (size_t i = 0; i < n; i++) {
		pid_t owner;
		if (listed[i].running && jfr_name_parse(listed[i].name, &owner) && owner != getpid() &&
		    !jfr_gctop_alive(owner))
			jfr_stop_name(pid, listed[i].name);
	}
	return 0;
}

static int jfr_start_lease(struct jfr_recording *r, char *name, size_t len, struct gt_error *err)
{
	snprintf(name, len, JFR_NAME_PREFIX "%d-%u", (int)getpid(), atomic_fetch_add(&jfr_lease_no, 1) + 1);
	char line[JFR_ARG_MAX];
	if (jfr_recording_command(name, line, sizeof(line)) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "the JFR.start command is longer than the attach protocol takes");
	struct gt_attach_output out;
	if (jfr_jcmd(r->pid, line, "Started recording", gt_mono_ns() + JFR_START_DEADLINE_NS, &out, err) != 0)
		return -1;
	free(out.text);
	return 0;
}

int jfr_recording_start(struct jfr_recording *r, pid_t pid, struct gt_error *err)
{
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	if (jfr_stop_leftovers(pid, err) != 0)
		return -1;
	char name[JFR_NAME_LEN];
	if (jfr_start_lease(r, name, sizeof(name), err) != 0)
		return -1;
	memcpy(r->name, name, sizeof(r->name));
	r->started_ns = gt_mono_ns();
	struct gt_attach_output out;
	/* the repository exists once a disk recording runs */
	if (jfr_jcmd(pid, "JFR.configure", "", gt_mono_ns() + JFR_CMD_DEADLINE_NS, &out, err) != 0) {
		jfr_recording_stop(r);
		return -1;
	}
	int rc = jfr_reply_repository(out.text, out.len, r->repository, sizeof(r->repository));
	free(out.text);
	if (rc != 0) {
		jfr_recording_stop(r);
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d did not say where its flight recorder keeps its chunks "
			       "(JFR.configure); --allocators=agent loads gctop's agent instead", (int)pid);
	}
	return 0;
}

int jfr_recording_renew(struct jfr_recording *r, uint64_t now, struct gt_error *err)
{
	if (!r->name[0] || now - r->started_ns < JFR_RENEW_NS)
		return 0;
	char name[JFR_NAME_LEN];
	if (jfr_start_lease(r, name, sizeof(name), err) != 0)
		return -1;
	jfr_stop_name(r->pid, r->name);
	memcpy(r->name, name, sizeof(r->name));
	r->started_ns = now;
	return 0;
}

void jfr_recording_stop(struct jfr_recording *r)
{
	if (!r->name[0])
		return;
	jfr_stop_name(r->pid, r->name);
	r->name[0] = '\0';
}
