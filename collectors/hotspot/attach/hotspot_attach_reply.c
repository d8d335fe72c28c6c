/* The attach listener's replies: parsing them (pure, fuzzed) and turning a
 * `load` reply into what the user should read. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "segment/gctop_segment.h"
#include "collectors/hotspot/attach/hotspot_attach.h"

/* Status the JVM sends when the request's protocol version is unknown. */
#define ATTACH_ERROR_BADVERSION 101

static bool parse_int(const char *s, size_t len, int *out)
{
	char buf[16];
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || *end || end == buf || v < -1000000 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

int gt_attach_parse_reply(const char *buf, size_t len, struct gt_attach_reply *out)
{
	memset(out, 0, sizeof(*out));
	const char *nl = memchr(buf, '\n', len);
	size_t first = nl ? (size_t)(nl - buf) : len;
	if (!parse_int(buf, first, &out->status))
		return -1;
	const char *rest = nl ? nl + 1 : buf + len;
	size_t rlen = (size_t)(buf + len - rest);

	const char *nl2 = memchr(rest, '\n', rlen);
	size_t second = nl2 ? (size_t)(nl2 - rest) : rlen;
	static const char rc_prefix[] = "return code:";
	if (second >= sizeof(rc_prefix) - 1 && memcmp(rest, rc_prefix, sizeof(rc_prefix) - 1) == 0 &&
	    parse_int(rest + sizeof(rc_prefix) - 1, second - (sizeof(rc_prefix) - 1), &out->return_code)) {
		out->have_return_code = true;
	} else if (parse_int(rest, second, &out->return_code)) {
		out->have_return_code = true; /* JDK 8: a bare number */
	}
	if (out->have_return_code) {
		rest += second + (nl2 ? 1 : 0);
		rlen -= second + (nl2 ? 1 : 0);
	}
	size_t o = 0;
	bool sep = false;
	for (size_t i = 0; i < rlen && o + 1 < sizeof(out->message); i++) {
		unsigned char c = (unsigned char)rest[i];
		if (c == '\n' || c == '\r') {
			sep = o > 0;
			continue;
		}
		if (c < 0x20 || c == 0x7f)
			continue;
		if (sep) {
			if (o + 3 >= sizeof(out->message))
				break;
			memcpy(out->message + o, "; ", 2);
			o += 2;
			sep = false;
		}
		out->message[o++] = (char)c;
	}
	out->message[o] = '\0';
	return 0;
}

static int agent_rc_sentence(int rc, pid_t pid, struct gt_error *err)
{
	switch (rc) {
	case GCTOP_AGENT_RC_NO_JVMTI:
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d offers no JVMTI 11, so it cannot sample allocations (JDK 11 or newer is needed)", (int)pid);
	case GCTOP_AGENT_RC_BAD_OPTIONS:
		return gt_fail(err, GT_EXIT_USAGE, "gctop's agent refused its options (see the JVM's stderr for which)");
	case GCTOP_AGENT_RC_NO_SEGMENT:
		return gt_fail(err, GT_EXIT_FAILURE,
			       "gctop's agent could not create its shared-memory file in the /tmp of JVM %d; "
			       "check that the JVM's user can write there", (int)pid);
	default:
		return gt_fail(err, GT_EXIT_FAILURE, "gctop's agent failed to start in JVM %d (return code %d)", (int)pid, rc);
	}
}

int gt_attach_load_result(const struct gt_attach_reply *r, pid_t pid, struct gt_error *err)
{
	/* JDK 21+ answers 0 even when the load failed, with the reason as text;
	 * JDK 17 answers -1. So the text decides, whatever the status. */
	if (strstr(r->message, "Dynamic agent loading is not enabled"))
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d was started with -XX:-EnableDynamicAgentLoading, so gctop cannot load its sampling agent; "
			       "restart it without that flag, or with -agentpath:libgctop-agent.so", (int)pid);
	if (strstr(r->message, "was not loaded"))
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d could not load gctop's agent: %s", (int)pid, r->message);
	if (r->status == ATTACH_ERROR_BADVERSION)
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d does not speak the attach protocol version gctop uses", (int)pid);
	if (r->status == 0 && r->have_return_code)
		return r->return_code == 0 ? 0 : agent_rc_sentence(r->return_code, pid, err);
	return gt_fail(err, GT_EXIT_FAILURE, "JVM %d refused to load gctop's agent (status %d)%s%s", (int)pid, r->status,
		       r->message[0] ? ": " : "", r->message);
}

static bool status_field(const char *text, const char *name, const char **value)
{
	size_t n = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			*value = p + n + 1;
			return true;
		}
	}
	return false;
}

int gt_attach_parse_status(const char *text, pid_t pid, struct gt_attach_status *out)
{
	memset(out, 0, sizeof(*out));
	out->nspid = pid;
	const char *v;
	unsigned long a, b;
	if (!status_field(text, "Uid", &v) || sscanf(v, "%lu %lu", &a, &b) != 2)
		return -1;
	out->euid = (uid_t)b;
	if (!status_field(text, "Gid", &v) || sscanf(v, "%lu %lu", &a, &b) != 2)
		return -1;
	out->egid = (gid_t)b;
	if (status_field(text, "NSpid", &v)) {
		/* The last number is the pid in the innermost namespace. */
		const char *end = strchr(v, '\n');
		long last = -1;
		char *q;
		for (const char *p = v; p < (end ? end : v + strlen(v));) {
			long x = strtol(p, &q, 10);
			if (q == p)
				break;
			last = x;
			p = q;
		}
		if (last > 0)
			out->nspid = (pid_t)last;
	}
	unsigned long long cgt, ign, blk;
	const char *vc, *vi, *vb;
	if (status_field(text, "SigCgt", &vc) && status_field(text, "SigIgn", &vi) && status_field(text, "SigBlk", &vb) &&
	    sscanf(vc, "%llx", &cgt) == 1 && sscanf(vi, "%llx", &ign) == 1 && sscanf(vb, "%llx", &blk) == 1) {
		out->have_signals = true;
		out->sig_caught = cgt;
		out->sig_ignored = ign;
		out->sig_blocked = blk;
	}
	return 0;
}

bool gt_attach_catches_sigquit(const struct gt_attach_status *st)
{
	uint64_t bit = 1ull << (SIGQUIT - 1);
	return st->have_signals && (st->sig_caught & bit) && !(st->sig_ignored & bit);
}
