/* HotSpot's census of live objects (collectors/backend.h census): the
 * attach command `inspectheap`, as jmap -histo:live sends it, which makes
 * the JVM run a full collection and walk its heap inside one safepoint,
 * then reply with its class histogram (collectors/hotspot/hotspot_histo.c).
 * Loads nothing into the JVM. What it cost is the growth of the JVM's own
 * time reaching and at safepoints (sun.rt.safepointSyncTime and
 * sun.rt.safepointTime) across the exchange: it covers the full collection
 * and the heap walk, which the collector's time alone would miss, and the
 * threads' wait for the slowest to stop (the program stands still from the
 * safepoint's start: under load that wait was 0.8 ms of a 9 ms census);
 * a safepoint of another cause in the same second or two is counted with
 * it. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "collectors/hotspot/hotspot_histo.h"
#include "collectors/hotspot/hotspot_internal.h"
#include "collectors/hotspot/attach/hotspot_attach.h"

/* The histogram of a large application (tens of thousands of classes, a
 * row of about 100 bytes each) is a few MiB; past this it is cut. */
#define CENSUS_REPLY_MAX (16u << 20)

static const char why_cut[] = "the class histogram was longer than 16 MiB; the rows after that were not read";
static const char why_cut_capped[] = "the class histogram had more rows than a census keeps (65536) and was longer "
				     "than 16 MiB: the rows after the largest 65536 are left out, and the totals "
				     "are the sums of the rows in its first 16 MiB";

struct safepoint_time {
	bool valid;
	uint64_t ns;
};

static void read_safepoint(const struct hsperf *p, void *arg)
{
	struct safepoint_time *t = arg;
	int64_t at, reaching = 0, freq;
	if (hsperf_read_long(p, "sun.rt.safepointTime", &at) != 0 || at < 0 ||
	    hsperf_read_long(p, "sun.os.hrt.frequency", &freq) != 0 || freq <= 0)
		return;
	/* every JDK gctop reads has both; one without the second is read at
	 * its time at safepoints alone */
	if (hsperf_read_long(p, "sun.rt.safepointSyncTime", &reaching) != 0 || reaching < 0)
		reaching = 0;
	uint64_t at_ns = hotspot_ticks_at_to_ns(at, freq), reaching_ns = hotspot_ticks_at_to_ns(reaching, freq);
	t->valid = true;
	t->ns = at_ns > UINT64_MAX - reaching_ns ? UINT64_MAX : at_ns + reaching_ns;
}

/* The reply's status line: 0 and the histogram after it, else the JVM's
 * refusal in err. */
static int histogram_of(pid_t pid, const struct gt_attach_output *o, struct gt_census *out, struct gt_error *err)
{
	struct gt_attach_reply r;
	if (!o->text || gt_attach_parse_reply(o->text, o->len, &r) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d closed the attach connection without a class histogram",
			       (int)pid);
	if (r.status != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d refused the class histogram (status %d): %s", (int)pid,
			       r.status, r.message[0] ? r.message : "no reason given");
	size_t len = o->len;
	if (o->truncated) /* the last line may be cut in the middle of a number */
		while (len && o->text[len - 1] != '\n')
			len--;
	if (gt_hotspot_histo_parse(o->text, len, out) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory reading the class histogram of JVM %d", (int)pid);
	if (o->truncated)
		out->partial_why = out->partial_why == gt_hotspot_histo_why_cap ? why_cut_capped : why_cut;
	return 0;
}

int hotspot_census(const struct gt_target_info *info, struct gt_census *out, uint64_t deadline_ns,
		   struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	struct gt_attach_status st;
	if (gt_attach_read_status(info->pid, &st, err) != 0)
		return -1;
	struct safepoint_time before = { 0 }, after = { 0 };
	hotspot_find_peek(info->pid, st.euid, read_safepoint, &before);
	/* jmap's three arguments: live objects only (a full collection first),
	 * no file (the reply carries the table), the JVM's own parallelism. */
	const char *const args[4] = { "inspectheap", "-live", "", "" };
	struct gt_attach_output o;
	uint64_t start = gt_mono_ns();
	if (gt_hotspot_attach_command(info->pid, "take a census of its live objects", args, deadline_ns, CENSUS_REPLY_MAX,
				      &o, err) != 0)
		return -1;
	uint64_t end = gt_mono_ns();
	int rc = histogram_of(info->pid, &o, out, err);
	free(o.text);
	if (rc != 0)
		return -1;
	hotspot_find_peek(info->pid, st.euid, read_safepoint, &after);
	out->wall_ms = gt_wall_ms();
	out->mono_ns = end;
	out->took_ns = end - start;
	if (before.valid && after.valid && after.ns >= before.ns) {
		out->pause_valid = true;
		out->pause_ns = after.ns - before.ns;
	}
	return 0;
}
