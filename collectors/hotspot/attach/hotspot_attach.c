/* The attach conversation with a HotSpot JVM: checks, trigger, SIGQUIT,
 * socket, `load`. Every step that could harm the target is guarded: a JVM
 * that cannot attach, or would print a thread dump on SIGQUIT, is never
 * signalled. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/wait.h"
#include "collectors/hotspot/hotspot_internal.h"
#include "collectors/hotspot/attach/hotspot_attach.h"
#include "collectors/hotspot/attach/hotspot_attach_files.h"
#include "collectors/hotspot/perfdata/hsperf.h"
#include "collectors/host/safe_path.h"
#include "segment/gctop_segment.h"

#define ATTACH_SOCKET_WAIT_MS 5000
/* The listener usually starts within tens of ms: look often at first, then
 * back off to every 200 ms. */
#define ATTACH_SOCKET_STEP_MS 20
#define ATTACH_SOCKET_STEP_MAX_MS 200
/* The whole request and reply of a `load`; a JVM loads the agent well
 * within it. */
#define ATTACH_IO_TIMEOUT_MS 5000
#define ATTACH_REPLY_MAX 65536
#define ATTACH_REPLY_FIRST 65536
/* How often the JVM's maps are read for the agent while the reply is
 * awaited. */
#define ATTACH_MAPPED_STEP_NS 10000000ull

int gt_attach_read_status(pid_t pid, struct gt_attach_status *st, struct gt_error *err)
{
	char path[64], buf[8192];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gt_fail(err, GT_EXIT_NO_PROCESS, "process %d has gone", (int)pid);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return gt_fail(err, GT_EXIT_NO_PROCESS, "process %d has gone", (int)pid);
	buf[n] = '\0';
	if (gt_attach_parse_status(buf, pid, st) != 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot read the user of process %d", (int)pid);
	return 0;
}

/* sun.rt.jvmCapabilities: its first character is '1' when the JVM supports
 * attach (it is '0' with -XX:+DisableAttachMechanism). */
static void read_capabilities(const struct hsperf *p, void *arg)
{
	int *result = arg;
	char caps[72];
	if (hsperf_read_string(p, "sun.rt.jvmCapabilities", caps, sizeof(caps)) == 0 && caps[0])
		*result = caps[0] == '1';
}

/* 1 the JVM supports attach, 0 not, -1 unknown (no perf data to ask). */
static int attach_supported(pid_t pid, uid_t euid)
{
	int result = -1;
	hotspot_find_peek(pid, euid, read_capabilities, &result);
	return result;
}

/* The JVM's /tmp, opened from its root without following any link: a /tmp
 * that is a link (or a path through one) would be resolved against our root,
 * and is refused. The same descriptor serves the socket, the trigger and the
 * agent copy, so each is made, checked and removed in one directory. */
static int open_target_tmp(pid_t pid, struct gt_error *err)
{
	int root = gt_sp_open_root(pid);
	if (root < 0)
		return gt_fail(err, errno == EACCES || errno == EPERM ? GT_EXIT_PERMISSION : GT_EXIT_NO_PROCESS,
			       "cannot open the root directory of JVM %d: %s", (int)pid, strerror(errno));
	int tmp = gt_sp_openat(root, "tmp", O_PATH | O_DIRECTORY, 0);
	int e = errno;
	close(root);
	if (tmp >= 0)
		return tmp;
	if (e == ELOOP || e == ENOTDIR || e == EXDEV)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "the /tmp of JVM %d is a symbolic link or not a directory; gctop follows no links under "
			       "another process's root, so it will not attach", (int)pid);
	return gt_fail(err, GT_EXIT_FAILURE, "cannot open the /tmp of JVM %d: %s", (int)pid, strerror(e));
}

static bool socket_trusted(int tmp, const char *name, const struct gt_attach_status *st)
{
	struct stat sb;
	if (fstatat(tmp, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISSOCK(sb.st_mode) || (sb.st_mode & 077))
		return false;
	if (sb.st_uid != st->euid)
		return false;
	return geteuid() == 0 || (sb.st_uid == geteuid() && sb.st_gid == getegid());
}

/* What an attach is for, in the sentences that refuse it. */
struct attach_why {
	const char *user;        /* "... or as root to %s" */
	const char *disabled;    /* "... so gctop cannot %s" */
	const char *no_sigquit;  /* "... so gctop will not signal it%s" */
};

static const struct attach_why why_load = {
	"sample its allocators",
	"load its sampling agent; restart it without that flag, or with -agentpath:libgctop-agent.so",
	"; start it with -agentpath:libgctop-agent.so to sample allocators",
};

static int start_listener(pid_t pid, const struct gt_attach_status *st, int tmp, const char *sock,
			  const struct attach_why *why, struct gt_error *err)
{
	/* -Xrs and -XX:+ReduceSignalUsage JVMs start the listener at boot and
	 * leave SIGQUIT to its default action, which would kill them. */
	if (!gt_attach_catches_sigquit(st))
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d does not handle SIGQUIT (started with -Xrs?) and its attach listener is not running, "
			       "so gctop will not signal it%s", (int)pid, why->no_sigquit);
	/* What killed gctops left for any JVM of this /tmp (an attach that
	 * loads the agent has swept its copies too already). */
	gt_attach_clear_leftovers(tmp, NULL, st);
	struct gt_attach_trigger trigger;
	if (gt_attach_trigger_create(pid, st, tmp, &trigger) != 0)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "cannot create the attach trigger file for JVM %d: %s", (int)pid,
			       errno == EPERM ? "its /tmp neither belongs to its user nor is a sticky shared directory"
					      : strerror(errno));
	int rc = 0;
	if (kill(pid, SIGQUIT) != 0) {
		rc = gt_fail(err, errno == EPERM ? GT_EXIT_PERMISSION : GT_EXIT_NO_PROCESS,
			     "cannot signal JVM %d: %s", (int)pid, strerror(errno));
	} else {
		/* One signal only: a second one after the listener has started
		 * would be taken as a request for a thread dump. */
		struct gt_retry retry;
		gt_retry_start(&retry, ATTACH_SOCKET_WAIT_MS, ATTACH_SOCKET_STEP_MS);
		retry.step_add_ms = ATTACH_SOCKET_STEP_MS;
		retry.step_max_ms = ATTACH_SOCKET_STEP_MAX_MS;
		while (!socket_trusted(tmp, sock, st)) {
			int again = gt_retry_again(&retry, err);
			if (again > 0)
				continue;
			if (again == 0)
				rc = gt_fail(err, GT_EXIT_TIMEOUT, "JVM %d did not open its attach socket within %d s",
					     (int)pid, ATTACH_SOCKET_WAIT_MS / 1000);
			else
				rc = -1;
			break;
		}
	}
	gt_attach_trigger_remove(&trigger);
	return rc;
}

/* One deadline for the whole conversation (base/wait.h), which a quit
 * request also ends. */
static int wait_io(int fd, short events, uint64_t deadline)
{
	return gt_wait_fd(fd, events, deadline) == GT_WAIT_READY ? 0 : -1;
}

/* Where the attach socket is: the JVM's /tmp and the name in it, and
 * whose it must be. */
struct attach_peer {
	int tmp;
	const char *name;
	uid_t euid;
	pid_t pid;
	struct gt_attach_copy *copy;   /* removed as soon as the JVM maps it, or NULL */
};

/* A reply, grown as it arrives up to max bytes (then truncated). */
struct attach_buf {
	char *buf;
	size_t len, cap, max;
	bool truncated;
};

/* The wait for the reply, in slices: the JVM needs the copy only until it
 * has mapped it, and a gctop killed during Agent_OnAttach then leaves no
 * copy behind. */
static int wait_reply(int fd, const struct attach_peer *peer, uint64_t deadline)
{
	for (;;) {
		uint64_t slice = gt_mono_ns() + ATTACH_MAPPED_STEP_NS;
		enum gt_wait_result r = gt_wait_fd(fd, POLLIN, slice < deadline ? slice : deadline);
		if (r == GT_WAIT_READY)
			return 0;
		if (r != GT_WAIT_TIMEOUT || gt_mono_ns() >= deadline)
			return -1;
		if (peer->copy && peer->copy->name[0] && gt_attach_copy_mapped(peer->pid, peer->copy))
			gt_attach_agent_remove(peer->tmp, peer->copy);
	}
}

/* Room for more of the reply: 0, or -1 when it is full (truncated) or
 * memory is out. */
static int reply_room(struct attach_buf *r)
{
	if (r->len + 1 < r->cap)
		return 0;
	if (r->cap >= r->max) {
		r->truncated = true;
		return -1;
	}
	size_t cap = r->cap ? r->cap * 2 : ATTACH_REPLY_FIRST;
	if (cap > r->max)
		cap = r->max;
	char *b = realloc(r->buf, cap);
	if (!b)
		return -1;
	r->buf = b;
	r->cap = cap;
	return 0;
}

/* Reads the reply to its end, the buffer's end or the deadline. */
static int read_reply(int fd, const struct attach_peer *peer, struct attach_buf *reply, uint64_t deadline)
{
	for (;;) {
		if (reply_room(reply) != 0)
			return reply->truncated ? 0 : -ENOMEM;
		ssize_t r = recv(fd, reply->buf + reply->len, reply->cap - 1 - reply->len, 0);
		if (r > 0) {
			reply->len += (size_t)r;
		} else if (r == 0) {
			return 0;
		} else if (errno == EAGAIN || errno == EINTR) {
			if (wait_reply(fd, peer, deadline) != 0)
				return -ETIMEDOUT;
		} else {
			return -errno;
		}
	}
}

/* One request, one reply: v1 framing, "1\0cmd\0arg0\0arg1\0arg2\0". The
 * socket is reached through the directory fd and must be the JVM's own. */
static int attach_request(const struct attach_peer *peer, const char *const args[4], uint64_t deadline,
			  struct attach_buf *reply)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	int rc = 0;
	if (gt_sp_connect_unix(fd, peer->tmp, peer->name, peer->euid, peer->pid) != 0) {
		rc = -errno;
		goto out;
	}
	char req[4096];
	size_t n = 0;
	req[n++] = '1';
	req[n++] = '\0';
	for (int i = 0; i < 4; i++) {
		size_t l = strlen(args[i]);
		if (n + l + 1 > sizeof(req)) {
			rc = -E2BIG;
			goto out;
		}
		memcpy(req + n, args[i], l + 1);
		n += l + 1;
	}
	for (size_t off = 0; off < n;) {
		ssize_t w = send(fd, req + off, n - off, MSG_NOSIGNAL);
		if (w > 0) {
			off += (size_t)w;
		} else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_io(fd, POLLOUT, deadline) != 0) {
				rc = -ETIMEDOUT;
				goto out;
			}
		} else {
			rc = -errno;
			goto out;
		}
	}
	rc = read_reply(fd, peer, reply, deadline);
	if (reply->buf)
		reply->buf[reply->len] = '\0';
out:
	close(fd);
	return rc;
}

/* The agent publishes its segment as /tmp/.gctop-seg-NSPID, and cannot
 * replace a file of another user there (sticky /tmp). Such a file is not
 * the JVM's: gctop running as root removes it (by name in the directory it
 * checked; the name is gctop's, derived from this JVM's pid, so nothing
 * legitimate of another user can hold it while this JVM needs it), anyone
 * else is told what blocks sampling. */
static int clear_planted_segment(int tmp, const struct gt_attach_status *st, struct gt_error *err)
{
	char name[64];
	snprintf(name, sizeof(name), GCTOP_SEG_FILE_PREFIX "%d", (int)st->nspid);
	struct stat sb;
	if (fstatat(tmp, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || sb.st_uid == st->euid)
		return 0;
	if (geteuid() == 0 && !S_ISDIR(sb.st_mode) && gt_sp_unlink_same(tmp, name, &sb) == 0)
		return 0;
	return gt_fail(err, GT_EXIT_BAD_DATA,
		       "/tmp/%s of JVM %d belongs to uid %u, not to the JVM's user (uid %u), so gctop's agent cannot "
		       "publish its allocation segment there; remove that file (as root) and try again",
		       name, (int)st->nspid, (unsigned)sb.st_uid, (unsigned)st->euid);
}

void gt_hotspot_attach_clear_copy(pid_t pid, const struct gt_attach_status *st, const char *agent_so)
{
	struct gt_error err = { 0 };
	int tmp = open_target_tmp(pid, &err);
	if (tmp < 0)
		return;
	gt_attach_clear_own_copy(tmp, agent_so, st);
	close(tmp);
}

/* The JVM's attach socket, its listener started if it is not running:
 * sock filled. 0, or -1 with err. */
static int ensure_listener(pid_t pid, const struct gt_attach_status *st, int tmp, char sock[64],
			   const struct attach_why *why, struct gt_error *err)
{
	snprintf(sock, 64, ".java_pid%d", (int)st->nspid);
	if (socket_trusted(tmp, sock, st))
		return 0;
	struct stat sb;
	if (fstatat(tmp, sock, &sb, AT_SYMLINK_NOFOLLOW) == 0)
		return gt_fail(err, GT_EXIT_BAD_DATA,
			       "the attach socket /tmp/%s of JVM %d is not owned by the JVM's user with mode 0600; "
			       "not using it", sock, (int)pid);
	return start_listener(pid, st, tmp, sock, why, err);
}

/* One sentence for a failed request (attach_request's rc); a deadline
 * that passed gives timeout_code. */
static int request_failed(pid_t pid, int rc, enum gt_exit timeout_code, struct gt_error *err)
{
	return gt_fail(err, rc == -ETIMEDOUT ? timeout_code : GT_EXIT_FAILURE,
		       "the attach conversation with JVM %d failed: %s%s", (int)pid,
		       rc == -EPROTO ? "its attach socket is not the JVM's own" : strerror(-rc),
		       rc == -ECONNRESET || rc == -EPIPE ? " (the JVM accepts only its own user and group, or root)" : "");
}

/* The rest of gt_hotspot_attach_load, with the JVM's /tmp open. */
static int attach_load_in(pid_t pid, const struct gt_attach_status *st, int tmp, const char *agent_so,
			  const char *options, struct gt_error *err)
{
	/* Before anything is signalled: a planted segment would only make the
	 * agent fail once loaded. */
	if (clear_planted_segment(tmp, st, err) != 0)
		return -1;
	gt_attach_clear_leftovers(tmp, agent_so, st);
	char sock[64];
	if (ensure_listener(pid, st, tmp, sock, &why_load, err) != 0)
		return -1;
	struct gt_attach_copy copy;
	if (gt_attach_agent_copy(agent_so, tmp, st, &copy, err) != 0)
		return -1;
	const char *args[4] = { "load", copy.load_path, "true", options ? options : "" };
	struct attach_buf reply = { .max = ATTACH_REPLY_MAX };
	struct attach_peer peer = { tmp, sock, st->euid, pid, &copy };
	int rc = attach_request(&peer, args, gt_mono_ns() + (uint64_t)ATTACH_IO_TIMEOUT_MS * 1000000ull, &reply);
	/* The JVM keeps its mapping; the name is not needed after the load. */
	gt_attach_agent_remove(tmp, &copy);
	struct gt_attach_reply r;
	if (rc != 0) {
		rc = request_failed(pid, rc, GT_EXIT_FAILURE, err);
	} else if (gt_attach_parse_reply(reply.buf ? reply.buf : "", reply.len, &r) != 0) {
		rc = gt_fail(err, GT_EXIT_FAILURE,
			     "JVM %d closed the attach connection without a reply (it accepts only its own user and group, "
			     "or root)", (int)pid);
	} else {
		rc = gt_attach_load_result(&r, pid, err);
	}
	free(reply.buf);
	return rc;
}

/* The checks before any attach, and the JVM's /tmp opened: tmp filled.
 * 0, or -1 with err. */
static int attach_begin(pid_t pid, struct gt_attach_status *st, int *tmp, const struct attach_why *why,
			struct gt_error *err)
{
	if (gt_attach_read_status(pid, st, err) != 0)
		return -1;
	if (geteuid() != 0 && geteuid() != st->euid)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "JVM %d runs as another user; run gctop as that user or as root to %s", (int)pid, why->user);
	int supported = attach_supported(pid, st->euid);
	if (supported == 0)
		return gt_fail(err, GT_EXIT_FAILURE, "JVM %d was started with -XX:+DisableAttachMechanism, so gctop cannot %s",
			       (int)pid, why->disabled);
	if (supported < 0)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "cannot read the perf data of JVM %d to confirm it accepts attach; not signalling it", (int)pid);
	*tmp = open_target_tmp(pid, err);
	return *tmp < 0 ? -1 : 0;
}

int gt_hotspot_attach_load(pid_t pid, const char *agent_so, const char *options, struct gt_error *err)
{
	struct gt_attach_status st;
	int tmp;
	if (attach_begin(pid, &st, &tmp, &why_load, err) != 0)
		return -1;
	int rc = attach_load_in(pid, &st, tmp, agent_so, options, err);
	close(tmp);
	return rc;
}

int gt_hotspot_attach_command(pid_t pid, const char *purpose, const char *const args[4], uint64_t deadline_ns,
			      size_t reply_max, struct gt_attach_output *out, struct gt_error *err)
{
	memset(out, 0, sizeof(*out));
	char disabled[192];
	snprintf(disabled, sizeof(disabled), "%s; restart it without that flag", purpose);
	const struct attach_why why = { purpose, disabled, "" };
	struct gt_attach_status st;
	int tmp;
	if (attach_begin(pid, &st, &tmp, &why, err) != 0)
		return -1;
	char sock[64];
	int rc = ensure_listener(pid, &st, tmp, sock, &why, err);
	if (rc == 0) {
		struct attach_buf reply = { .max = reply_max };
		struct attach_peer peer = { tmp, sock, st.euid, pid, NULL };
		rc = attach_request(&peer, args, deadline_ns, &reply);
		if (rc != 0) {
			free(reply.buf);
			rc = request_failed(pid, rc, GT_EXIT_TIMEOUT, err);
		} else {
			out->text = reply.buf;
			out->len = reply.len;
			out->truncated = reply.truncated;
		}
	}
	close(tmp);
	return rc;
}
