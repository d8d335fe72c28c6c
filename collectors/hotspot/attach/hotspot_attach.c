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
/* The whole request and reply; a JVM loads the agent well within it. */
#define ATTACH_IO_TIMEOUT_MS 5000
#define ATTACH_REPLY_MAX 65536
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
 * attach (it is '0' with -XX:+DisableAttachMechanism). 1 yes, 0 no, -1
 * unknown (no perf data to ask). */
static int attach_supported(pid_t pid, uid_t euid)
{
	char path[512];
	struct gt_error e;
	if (hotspot_find_perfdata(pid, path, sizeof(path), &e) != 1)
		return -1;
	struct hsperf_map m;
	if (hsperf_map_open(path, euid, &m, &e) != 0)
		return -1;
	struct hsperf p;
	int result = -1;
	char caps[72];
	if (hsperf_init(&p, m.base, m.size, path, &e) == 0) {
		if (hsperf_read_string(&p, "sun.rt.jvmCapabilities", caps, sizeof(caps)) == 0 && caps[0])
			result = caps[0] == '1';
		hsperf_free(&p);
	}
	hsperf_map_close(&m);
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

static int start_listener(pid_t pid, const struct gt_attach_status *st, int tmp, const char *sock,
			  struct gt_error *err)
{
	/* -Xrs and -XX:+ReduceSignalUsage JVMs start the listener at boot and
	 * leave SIGQUIT to its default action, which would kill them. */
	if (!gt_attach_catches_sigquit(st))
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d does not handle SIGQUIT (started with -Xrs?) and its attach listener is not running, "
			       "so gctop will not signal it; start it with -agentpath:libgctop-agent.so to sample allocators",
			       (int)pid);
	struct gt_attach_trigger trigger;
	if (gt_attach_trigger_create(pid, st, tmp, &trigger) != 0)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "cannot create the attach trigger file for JVM %d: %s", (int)pid,
			       errno == EPERM ? "neither its working directory nor its /tmp belongs to its user or is a "
			       "sticky shared directory" : strerror(errno));
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
	struct gt_attach_copy *copy;   /* removed as soon as the JVM maps it */
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
		if (peer->copy->name[0] && gt_attach_copy_mapped(peer->pid, peer->copy))
			gt_attach_agent_remove(peer->tmp, peer->copy);
	}
}

/* One request, one reply: v1 framing, "1\0cmd\0arg0\0arg1\0arg2\0". The
 * socket is reached through the directory fd and must be the JVM's own. */
static int attach_request(const struct attach_peer *peer, const char *args[4], char *reply, size_t cap, size_t *got)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	uint64_t deadline = gt_mono_ns() + (uint64_t)ATTACH_IO_TIMEOUT_MS * 1000000ull;
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
	*got = 0;
	for (;;) {
		if (*got + 1 >= cap)
			break;
		ssize_t r = recv(fd, reply + *got, cap - 1 - *got, 0);
		if (r > 0) {
			*got += (size_t)r;
		} else if (r == 0) {
			break;
		} else if (errno == EAGAIN || errno == EINTR) {
			if (wait_reply(fd, peer, deadline) != 0) {
				rc = -ETIMEDOUT;
				goto out;
			}
		} else {
			rc = -errno;
			goto out;
		}
	}
	reply[*got] = '\0';
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
	snprintf(sock, sizeof(sock), ".java_pid%d", (int)st->nspid);
	if (!socket_trusted(tmp, sock, st)) {
		struct stat sb;
		if (fstatat(tmp, sock, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			return gt_fail(err, GT_EXIT_BAD_DATA,
				       "the attach socket /tmp/%s of JVM %d is not owned by the JVM's user with mode 0600; "
				       "not using it", sock, (int)pid);
		if (start_listener(pid, st, tmp, sock, err) != 0)
			return -1;
	}
	struct gt_attach_copy copy;
	if (gt_attach_agent_copy(agent_so, tmp, st, &copy, err) != 0)
		return -1;
	const char *args[4] = { "load", copy.load_path, "true", options ? options : "" };
	char *reply = malloc(ATTACH_REPLY_MAX);
	size_t got = 0;
	struct attach_peer peer = { tmp, sock, st->euid, pid, &copy };
	int rc = reply ? attach_request(&peer, args, reply, ATTACH_REPLY_MAX, &got) : -ENOMEM;
	/* The JVM keeps its mapping; the name is not needed after the load. */
	gt_attach_agent_remove(tmp, &copy);
	if (rc != 0) {
		free(reply);
		return gt_fail(err, GT_EXIT_FAILURE, "the attach conversation with JVM %d failed: %s%s", (int)pid,
			       rc == -EPROTO ? "its attach socket is not the JVM's own" : strerror(-rc),
			       rc == -ECONNRESET || rc == -EPIPE
			       ? " (the JVM accepts only its own user and group, or root)" : "");
	}
	struct gt_attach_reply r;
	if (gt_attach_parse_reply(reply, got, &r) != 0) {
		free(reply);
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d closed the attach connection without a reply (it accepts only its own user and group, or root)",
			       (int)pid);
	}
	free(reply);
	return gt_attach_load_result(&r, pid, err);
}

int gt_hotspot_attach_load(pid_t pid, const char *agent_so, const char *options, struct gt_error *err)
{
	struct gt_attach_status st;
	if (gt_attach_read_status(pid, &st, err) != 0)
		return -1;
	if (geteuid() != 0 && geteuid() != st.euid)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "JVM %d runs as another user; run gctop as that user or as root to sample its allocators",
			       (int)pid);
	int supported = attach_supported(pid, st.euid);
	if (supported == 0)
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d was started with -XX:+DisableAttachMechanism, so gctop cannot load its sampling agent; "
			       "restart it without that flag, or with -agentpath:libgctop-agent.so", (int)pid);
	if (supported < 0)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "cannot read the perf data of JVM %d to confirm it accepts attach; not signalling it", (int)pid);

	int tmp = open_target_tmp(pid, err);
	if (tmp < 0)
		return -1;
	int rc = attach_load_in(pid, &st, tmp, agent_so, options, err);
	close(tmp);
	return rc;
}
