/* A hostile "JVM" or ".NET process" for tests/integration/security_*.sh.
 * Started as root, it publishes a valid perf-data file (from a template,
 * with this process's start time) in the host's /tmp as the test user,
 * maps a file named like the runtime library, optionally chroots into a
 * directory the user owns, drops to the user and then misbehaves:
 *
 *   flip    its attach listener runs; /tmp is swapped with a link to VICTIM
 *           (an absolute path of root's) over and over
 *   chdir   no listener; on SIGQUIT it moves from a root-owned working
 *           directory to /work and only then opens its attach socket
 *   seg     no chroot; serves a live allocation segment whose size it keeps
 *           changing (truncate, rewrite)
 *   hold    its attach listener runs; a request is logged and never
 *           answered (the connection stays open), so gctop waits for the
 *           reply with the agent copy in place
 *   maphold the same, but the library a load request names is mapped
 *           first (as a JVM's dlopen would) and "mapped" logged
 *   sleep   just maps the library and waits (it catches SIGQUIT but never
 *           opens an attach socket, so gctop waits for one)
 *
 * Every attach request is logged to LOG ("load <args>"), answered with an
 * agent failure so that gctop ends quickly. SIGTERM ends it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "segment/gctop_segment.h"

static volatile sig_atomic_t quit, quitsig;

static void on_term(int s)
{
	(void)s;
	quit = 1;
}

static void on_quit(int s)
{
	(void)s;
	quitsig = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "fake_jvm: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t now_ns(int clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sets a 64-bit entry of a perf-data image by name. */
static void hsperf_set(uint8_t *b, size_t size, const char *name, int64_t v)
{
	uint32_t off, n;
	memcpy(&off, b + 24, 4);
	memcpy(&n, b + 28, 4);
	for (uint32_t i = 0; i < n && off + 20 < size; i++) {
		uint32_t len, name_off, data_off;
		memcpy(&len, b + off, 4);
		memcpy(&name_off, b + off + 4, 4);
		memcpy(&data_off, b + off + 16, 4);
		if (len == 0)
			return;
		if (strcmp((const char *)b + off + name_off, name) == 0) {
			memcpy(b + off + data_off, &v, 8);
			return;
		}
		off += len;
	}
}

/* /tmp/hsperfdata_USER/PID on the host, made as the user. */
static void publish_perfdata(const char *template, const char *user, uid_t uid, gid_t gid)
{
	int t = open(template, O_RDONLY);
	static uint8_t img[32768];
	if (t < 0 || read(t, img, sizeof(img)) != (ssize_t)sizeof(img))
		die("template");
	close(t);
	hsperf_set(img, sizeof(img), "sun.rt.createVmBeginTime", (int64_t)(now_ns(CLOCK_REALTIME) / 1000000));
	img[7] = 1;
	if (setegid(gid) != 0 || seteuid(uid) != 0)
		die("seteuid");
	char dir[256], path[300];
	snprintf(dir, sizeof(dir), "/tmp/hsperfdata_%s", user);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (fd < 0 || write(fd, img, sizeof(img)) != (ssize_t)sizeof(img))
		die("perfdata");
	close(fd);
	if (seteuid(0) != 0 || setegid(0) != 0)
		die("seteuid back");
}

static void become(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0)
		die("drop privileges");
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static int listen_attach(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/.java_pid%d", (int)getpid());
	unlink(sa.sun_path);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 || chmod(sa.sun_path, 0600) != 0 ||
	    listen(s, 8) != 0)
		die("attach socket");
	return s;
}

/* Reads one request (stops at the fifth NUL or after 1 s), logs it, and
 * answers that the agent failed. */
static void serve_one(int s, int log)
{
	int c = accept(s, NULL, NULL);
	if (c < 0)
		return;
	char req[4096];
	size_t n = 0;
	int nuls = 0;
	struct pollfd p = { .fd = c, .events = POLLIN };
	while (nuls < 5 && n < sizeof(req) - 1 && poll(&p, 1, 1000) > 0) {
		ssize_t r = read(c, req + n, sizeof(req) - 1 - n);
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			if (req[n + i] == '\0') {
				req[n + i] = ' ';
				nuls++;
			}
		n += (size_t)r;
	}
	req[n] = '\0';
	dprintf(log, "load %s\n", n > 2 ? req + 2 : "");
	const char reply[] = "0\nreturn code: 1\n";
	if (write(c, reply, sizeof(reply) - 1) < 0)
		dprintf(log, "reply failed\n");
	close(c);
}

/* Swaps /tmp and /tmp.alt (a link) until the parent goes. */
static void flipper(pid_t parent)
{
	while (getppid() == parent) {
		syscall(SYS_renameat2, AT_FDCWD, "/tmp", AT_FDCWD, "/tmp.alt", 2 /* RENAME_EXCHANGE */);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	_exit(0);
}

static void attach_loop(int s, int log)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	while (!quit)
		if (poll(&p, 1, 100) > 0)
			serve_one(s, log);
}

/* Maps the library a load request ("1 load PATH ...", NULs made spaces)
 * names, as dlopen would. */
static void map_requested(int c, int log)
{
	char req[1024], path[512];
	ssize_t n = 0;
	struct pollfd p = { .fd = c, .events = POLLIN };
	if (poll(&p, 1, 1000) > 0)
		n = read(c, req, sizeof(req) - 1);
	for (ssize_t i = 0; i < n; i++)
		if (req[i] == '\0')
			req[i] = ' ';
	req[n > 0 ? n : 0] = '\0';
	int fd = sscanf(req, "1 load %511s", path) == 1 ? open(path, O_RDONLY) : -1;
	if (fd >= 0 && mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) != MAP_FAILED)
		dprintf(log, "mapped %s\n", path);
	if (fd >= 0)
		close(fd);
}

/* Takes each request and holds its connection without a word; with map,
 * after mapping the library it names. */
static void mode_hold(int log, bool map)
{
	int s = listen_attach();
	struct pollfd p = { .fd = s, .events = POLLIN };
	while (!quit) {
		if (poll(&p, 1, 100) <= 0)
			continue;
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		if (map)
			map_requested(c, log);
		dprintf(log, "held %d\n", c);
	}
}

static void mode_chdir(int log)
{
	int s = -1;
	while (!quit) {
		if (quitsig && s < 0) {
			dprintf(log, "sigquit\n");
			if (chdir("/work") != 0)
				die("chdir /work");
			s = listen_attach();
		}
		if (s >= 0) {
			struct pollfd p = { .fd = s, .events = POLLIN };
			if (poll(&p, 1, 100) > 0)
				serve_one(s, log);
		} else {
			struct timespec ts = { 0, 10000000 };
			nanosleep(&ts, NULL);
		}
	}
}

/* A live segment: RUNNING, heartbeat fresh; steady for 1.5 s (gctop finds
 * it live), then emptied and rewritten in turn every 150 us. */
static void mode_seg(void)
{
	enum { SLOTS = 64 };
	size_t size = sizeof(struct gctop_seg_header) + 2 * SLOTS * sizeof(struct gctop_seg_site);
	uint8_t *img = calloc(1, size);
	struct gctop_seg_header *h = (struct gctop_seg_header *)img;
	memcpy(h->magic, GCTOP_SEG_MAGIC, 8);
	h->version = GCTOP_SEG_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = size;
	h->generation = 7;
	h->writer_pid = getpid();
	h->slot_size = sizeof(struct gctop_seg_site);
	h->frame_offset = sizeof(*h);
	h->frame_slots = SLOTS;
	h->type_offset = (uint32_t)(sizeof(*h) + SLOTS * sizeof(struct gctop_seg_site));
	h->type_slots = SLOTS;
	h->state = GCTOP_SEG_RUNNING;
	char path[64];
	snprintf(path, sizeof(path), "/tmp/" GCTOP_SEG_FILE_PREFIX "%d", (int)getpid());
	unlink(path);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		die("segment");
	uint64_t start = now_ns(CLOCK_MONOTONIC);
	while (!quit) {
		h->writer_heartbeat_ns = now_ns(CLOCK_MONOTONIC);
		if (pwrite(fd, img, size, 0) != (ssize_t)size)
			die("segment write");
		bool steady = h->writer_heartbeat_ns - start < 1500000000ull;
		struct timespec ts = { 0, steady ? 10000000 : 150000 };
		nanosleep(&ts, NULL);
		if (!steady && ftruncate(fd, 0) != 0)
			die("truncate");
		nanosleep(&ts, NULL);
	}
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc != 9) {
		fprintf(stderr, "usage: fake_jvm MODE USER UID GID ROOT TEMPLATE LIBFILE LOG\n");
		return 2;
	}
	const char *mode = argv[1], *user = argv[2], *root = argv[5];
	uid_t uid = (uid_t)atoi(argv[3]);
	gid_t gid = (gid_t)atoi(argv[4]);
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	signal(SIGQUIT, on_quit);
	int log = open(argv[8], O_WRONLY | O_CREAT | O_APPEND, 0644);
	int lib = open(argv[7], O_RDONLY);
	if (log < 0 || lib < 0 || mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, lib, 0) == MAP_FAILED)
		die("log or library");
	publish_perfdata(argv[6], user, uid, gid);
	if (strcmp(mode, "flip") == 0 || strcmp(mode, "chdir") == 0) {
		if (chroot(root) != 0 || chdir(strcmp(mode, "flip") == 0 ? "/work" : "/rootdir") != 0)
			die("chroot");
	}
	become(uid, gid);
	dprintf(log, "ready %d\n", (int)getpid());
	if (strcmp(mode, "flip") == 0) {
		int s = listen_attach();
		pid_t me = getpid();
		pid_t child = fork();
		if (child == 0)
			flipper(me);
		attach_loop(s, log);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	} else if (strcmp(mode, "chdir") == 0) {
		mode_chdir(log);
	} else if (strcmp(mode, "seg") == 0) {
		mode_seg();
	} else if (strcmp(mode, "hold") == 0 || strcmp(mode, "maphold") == 0) {
		mode_hold(log, strcmp(mode, "maphold") == 0);
	} else {
		while (!quit)
			pause();
	}
	return 0;
}
