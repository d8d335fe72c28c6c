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
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../model/clock.h"
#include "../model/wait.h"
#include "hotspot.h"
#include "hotspot_attach.h"
#include "hsperf.h"

#define ATTACH_SOCKET_WAIT_MS 5000
/* The whole request and reply; a JVM loads the agent well within it. */
#define ATTACH_IO_TIMEOUT_MS 5000
#define ATTACH_REPLY_MAX 65536

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

/* The target's /tmp as we can reach it: through /proc/PID/root for a JVM in
 * another mount namespace, our own /tmp when that is not readable. */
static void target_tmp(pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/%d/root/tmp", (int)pid);
	if (access(buf, X_OK) != 0)
		snprintf(buf, len, "/tmp");
}

static bool socket_trusted(const char *path, const struct gt_attach_status *st)
{
	struct stat sb;
	if (lstat(path, &sb) != 0 || !S_ISSOCK(sb.st_mode) || (sb.st_mode & 077))
		return false;
	if (sb.st_uid != st->euid)
		return false;
	return geteuid() == 0 || (sb.st_uid == geteuid() && sb.st_gid == getegid());
}

/* Creates the trigger file the JVM looks for on SIGQUIT: in its working
 * directory first, else its /tmp. Returns 0 and the path we must remove
 * (empty when the trigger was already there), or -1. */
static int create_trigger(pid_t pid, const struct gt_attach_status *st, const char *tmp, char *made, size_t len)
{
	char dirs[2][300];
	snprintf(dirs[0], sizeof(dirs[0]), "/proc/%d/cwd", (int)pid);
	snprintf(dirs[1], sizeof(dirs[1]), "%s", tmp);
	made[0] = '\0';
	for (int i = 0; i < 2; i++) {
		char path[700];
		snprintf(path, sizeof(path), "%s/.attach_pid%d", dirs[i], (int)st->nspid);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			close(fd);
			snprintf(made, len, "%s", path);
			return 0;
		}
		struct stat sb;
		/* A trigger someone else left is fine if the JVM would accept it. */
		if (errno == EEXIST && lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    (sb.st_uid == st->euid || sb.st_uid == 0))
			return 0;
	}
	return -1;
}

static int start_listener(pid_t pid, const struct gt_attach_status *st, const char *tmp, const char *sock,
			  struct gt_error *err)
{
	/* -Xrs and -XX:+ReduceSignalUsage JVMs start the listener at boot and
	 * leave SIGQUIT to its default action, which would kill them. */
	if (!gt_attach_catches_sigquit(st))
		return gt_fail(err, GT_EXIT_FAILURE,
			       "JVM %d does not handle SIGQUIT (started with -Xrs?) and its attach listener is not running, "
			       "so gctop will not signal it; start it with -agentpath:libgctop-agent.so to sample allocators",
			       (int)pid);
	char trigger[700];
	if (create_trigger(pid, st, tmp, trigger, sizeof(trigger)) != 0)
		return gt_fail(err, GT_EXIT_PERMISSION,
			       "cannot create the attach trigger file for JVM %d (in its working directory or /tmp): %s",
			       (int)pid, strerror(errno));
	int rc = 0;
	if (kill(pid, SIGQUIT) != 0) {
		rc = gt_fail(err, errno == EPERM ? GT_EXIT_PERMISSION : GT_EXIT_NO_PROCESS,
			     "cannot signal JVM %d: %s", (int)pid, strerror(errno));
	} else {
		/* One signal only: a second one after the listener has started
		 * would be taken as a request for a thread dump. */
		uint64_t deadline = gt_mono_ns() + (uint64_t)ATTACH_SOCKET_WAIT_MS * 1000000ull;
		long step_ms = 20;
		while (!socket_trusted(sock, st)) {
			if (gt_mono_ns() >= deadline) {
				rc = gt_fail(err, GT_EXIT_TIMEOUT,
					     "JVM %d did not open its attach socket within %d s", (int)pid,
					     ATTACH_SOCKET_WAIT_MS / 1000);
				break;
			}
			if (gt_wait_sleep(gt_wait_deadline_in_ms((unsigned)step_ms)) == GT_WAIT_QUIT) {
				rc = gt_wait_interrupted(err);
				break;
			}
			if (step_ms < 200)
				step_ms += 20;
		}
	}
	if (trigger[0])
		unlink(trigger);
	return rc;
}

/* One deadline for the whole conversation (model/wait.h), which a quit
 * request also ends. */
static int wait_io(int fd, short events, uint64_t deadline)
{
	return gt_wait_fd(fd, events, deadline) == GT_WAIT_READY ? 0 : -1;
}

/* One request, one reply: v1 framing, "1\0cmd\0arg0\0arg1\0arg2\0". */
static int attach_request(const char *sock, const char *args[4], char *reply, size_t cap, size_t *got)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	if (strlen(sock) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	uint64_t deadline = gt_mono_ns() + (uint64_t)ATTACH_IO_TIMEOUT_MS * 1000000ull;
	int rc = 0;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		if (errno != EINPROGRESS || wait_io(fd, POLLOUT, deadline) != 0) {
			rc = -errno;
			goto out;
		}
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
			if (wait_io(fd, POLLIN, deadline) != 0) {
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

/* Copies the agent into the target's /tmp so the JVM can dlopen it in its
 * own mount namespace, readable by the JVM's user only. The name is fixed
 * per JVM: loading the same path again reaches the library already loaded. */
static int copy_agent(const char *src, const char *tmp, const struct gt_attach_status *st, char *dst, size_t len,
		      char *load_path, size_t load_len, struct gt_error *err)
{
	snprintf(dst, len, "%s/.gctop-agent-%d.so", tmp, (int)st->nspid);
	snprintf(load_path, load_len, "/tmp/.gctop-agent-%d.so", (int)st->nspid);
	char part[600];
	snprintf(part, sizeof(part), "%s.%d.part", dst, (int)getpid());
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return gt_fail(err, GT_EXIT_FAILURE, "cannot read gctop's agent %s: %s", src, strerror(errno));
	unlink(part);
	int out = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		int e = errno;
		close(in);
		return gt_fail(err, e == EACCES ? GT_EXIT_PERMISSION : GT_EXIT_FAILURE,
			       "cannot copy gctop's agent into %s: %s", tmp, strerror(e));
	}
	char buf[65536];
	ssize_t r;
	int rc = 0;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r) {
			r = -1;
			break;
		}
	if (r < 0)
		rc = gt_fail(err, GT_EXIT_FAILURE, "cannot copy gctop's agent into %s: %s", tmp, strerror(errno));
	else if (geteuid() == 0 && fchown(out, st->euid, st->egid) != 0)
		rc = gt_fail(err, GT_EXIT_FAILURE, "cannot hand gctop's agent to the JVM's user: %s", strerror(errno));
	close(in);
	if (close(out) != 0 && rc == 0)
		rc = gt_fail(err, GT_EXIT_FAILURE, "cannot copy gctop's agent into %s: %s", tmp, strerror(errno));
	if (rc == 0 && rename(part, dst) != 0)
		rc = gt_fail(err, GT_EXIT_FAILURE, "cannot copy gctop's agent into %s: %s", tmp, strerror(errno));
	if (rc != 0)
		unlink(part);
	return rc;
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

	char tmp[300], sock[400];
	target_tmp(pid, tmp, sizeof(tmp));
	snprintf(sock, sizeof(sock), "%s/.java_pid%d", tmp, (int)st.nspid);
	if (!socket_trusted(sock, &st)) {
		struct stat sb;
		if (lstat(sock, &sb) == 0)
			return gt_fail(err, GT_EXIT_BAD_DATA,
				       "the attach socket %s is not owned by the JVM's user with mode 0600; not using it", sock);
		if (start_listener(pid, &st, tmp, sock, err) != 0)
			return -1;
	}

	char dst[400], load_path[128];
	if (copy_agent(agent_so, tmp, &st, dst, sizeof(dst), load_path, sizeof(load_path), err) != 0)
		return -1;
	const char *args[4] = { "load", load_path, "true", options ? options : "" };
	char *reply = malloc(ATTACH_REPLY_MAX);
	size_t got = 0;
	int rc = reply ? attach_request(sock, args, reply, ATTACH_REPLY_MAX, &got) : -ENOMEM;
	/* The JVM keeps its mapping; the name is not needed after the load. */
	unlink(dst);
	if (rc != 0) {
		free(reply);
		return gt_fail(err, GT_EXIT_FAILURE, "the attach conversation with JVM %d failed: %s%s", (int)pid,
			       strerror(-rc), rc == -ECONNRESET || rc == -EPIPE
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
