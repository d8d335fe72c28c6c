/* Which process is a JVM, and where its perf-data file lives (reference §1.2).
 * Plain /proc and directory reads; nothing here touches the target. */
#include "collectors/hotspot/hotspot_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/array.h"
#include "base/clock.h"
#include "base/dir.h"
#include "base/wait.h"
#include "collectors/host/proc.h"
#include "collectors/host/safe_path.h"

/* A launcher named java this young may still be loading libjvm.so; gctop
 * waits up to HOTSPOT_FIND_LIBJVM_WAIT_MS for it, polling. */
#define HOTSPOT_FIND_YOUNG_MS 5000
#define HOTSPOT_FIND_LIBJVM_WAIT_MS 2000
#define HOTSPOT_FIND_STEP_MS 20
/* createVmBeginTime against the process start time: the start time is only
 * as precise as the boot time (whole seconds), and the launcher runs a
 * little before the VM is created. */
#define HOTSPOT_START_BEFORE_MS 3000
#define HOTSPOT_START_AFTER_MS 60000

/* Reads a small /proc file whole; returns its length or -1 (errno kept). */
static ssize_t hotspot_read_proc(pid_t pid, const char *leaf, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, leaf);
	return gt_proc_read_small(path, buf, len);
}

static bool hotspot_basename_is_java(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "java") == 0 || strcmp(base, "java (deleted)") == 0;
}

/* 1 when the process maps libjvm.so, 0 when not, -1 when its maps are
 * closed to us. */
static int hotspot_maps_libjvm(pid_t pid)
{
	return gt_proc_maps_file(pid, "/libjvm.so");
}

/* True for a process started less than HOTSPOT_FIND_YOUNG_MS ago whose
 * binary is named java: its launcher may not have loaded libjvm.so yet. */
static bool hotspot_young_launcher(pid_t pid)
{
	char path[64], exe[4096];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	uint64_t start_ms;
	return hotspot_basename_is_java(exe) && gt_proc_start_time_ms(pid, &start_ms) == 0 &&
	       (uint64_t)gt_wall_ms() < start_ms + HOTSPOT_FIND_YOUNG_MS;
}

bool hotspot_find_is_java(pid_t pid)
{
	/* A name is anyone's to choose: a HotSpot JVM is a process that maps
	 * libjvm.so. The name only makes gctop wait a little for a launcher
	 * that has just started to load it. */
	int maps = hotspot_maps_libjvm(pid);
	struct gt_retry retry;
	gt_retry_start(&retry, HOTSPOT_FIND_LIBJVM_WAIT_MS, HOTSPOT_FIND_STEP_MS);
	while (maps == 0 && hotspot_young_launcher(pid) && gt_retry_wait(&retry) == GT_WAIT_READY)
		maps = hotspot_maps_libjvm(pid);
	if (maps >= 0)
		return maps == 1;
	/* Another user's process, and we are not root: its maps are closed to
	 * us, comm and the command line are not. Such a process must then show
	 * a perf-data file of its own user (hotspot_find_perfdata) before gctop
	 * reads anything. */
	char buf[256];
	if (hotspot_read_proc(pid, "comm", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, "java") == 0)
			return true;
	}
	return hotspot_read_proc(pid, "cmdline", buf, sizeof(buf)) > 0 && hotspot_basename_is_java(buf);
}

/* Applies the perf-data options found in a list of words, last one winning. */
static void hotspot_scan_options(const char *words, size_t len, char sep, int *use_perf, int *disable_shared)
{
	const char *s = words, *end = words + len;
	while (s < end) {
		const char *w = s;
		while (s < end && *s != sep && *s != '\0')
			s++;
		size_t n = (size_t)(s - w);
		if (n == 16 && strncmp(w, "-XX:-UsePerfData", 16) == 0)
			*use_perf = 0;
		else if (n == 16 && strncmp(w, "-XX:+UsePerfData", 16) == 0)
			*use_perf = 1;
		else if (n == 25 && strncmp(w, "-XX:+PerfDisableSharedMem", 25) == 0)
			*disable_shared = 1;
		else if (n == 25 && strncmp(w, "-XX:-PerfDisableSharedMem", 25) == 0)
			*disable_shared = 0;
		s++;
	}
}

/* The value of NAME=... in a NUL-separated environment block, or NULL. */
static const char *hotspot_env_value(const char *env, size_t len, const char *name)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < len;) {
		const char *var = env + i;
		size_t vl = strnlen(var, len - i);
		if (vl > nl && strncmp(var, name, nl) == 0 && var[nl] == '=')
			return var + nl + 1;
		i += vl + 1;
	}
	return NULL;
}

const char *hotspot_find_disabled_flag(pid_t pid)
{
	enum { BLOCK = 65536 };
	char *env = malloc(BLOCK), *cmd = malloc(BLOCK);
	if (!env || !cmd) {
		free(env);
		free(cmd);
		return NULL;
	}
	int use_perf = 1, disable_shared = 0;
	ssize_t el = hotspot_read_proc(pid, "environ", env, BLOCK);
	ssize_t cl = hotspot_read_proc(pid, "cmdline", cmd, BLOCK);
	/* The JVM reads JAVA_TOOL_OPTIONS, then the command line (with
	 * JDK_JAVA_OPTIONS before it), then _JAVA_OPTIONS, later ones winning. */
	const char *v;
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "JAVA_TOOL_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "JDK_JAVA_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	if (cl > 0)
		hotspot_scan_options(cmd, (size_t)cl, '\0', &use_perf, &disable_shared);
	if (el > 0 && (v = hotspot_env_value(env, (size_t)el, "_JAVA_OPTIONS")))
		hotspot_scan_options(v, strlen(v), ' ', &use_perf, &disable_shared);
	free(env);
	free(cmd);
	if (!use_perf)
		return "-XX:-UsePerfData";
	if (disable_shared)
		return "-XX:+PerfDisableSharedMem";
	return NULL;
}

/* Largest file the readiness check copies; a larger one is left for
 * hsperf_map_open to judge. */
#define HOTSPOT_READY_MAX (1024 * 1024)

/* False while a starting JVM is still setting its file up: it creates and
 * sizes it (all zeros), writes the prologue, marks it accessible, and sets
 * sun.rt.createVmBeginTime a little later. Read from a pread copy, so a
 * file cut short meanwhile costs nothing. Anything odd is "ready": opening
 * it then refuses it with a sentence (hsperf_map_open, hsperf_init). */
static bool hotspot_copy_ready(const uint8_t *buf, size_t n)
{
	static const uint8_t zero[4] = { 0, 0, 0, 0 };
	if (n < 8 || memcmp(buf, zero, 4) == 0)
		return false;
	struct hsperf p;
	if (hsperf_init(&p, buf, n, "perf data", NULL) != 0)
		return true;
	int64_t begin = 1;
	bool ready = hsperf_accessible(&p) && (hsperf_read_long(&p, "sun.rt.createVmBeginTime", &begin) != 0 || begin != 0);
	hsperf_free(&p);
	return ready;
}

static bool hotspot_file_ready(int dir, const char *name, const struct stat *st)
{
	if (!S_ISREG(st->st_mode) || st->st_size > HOTSPOT_READY_MAX)
		return true;
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return true;
	struct stat now;
	uint8_t *buf = NULL;
	ssize_t n = -1;
	if (fstat(fd, &now) == 0 && S_ISREG(now.st_mode) && now.st_size <= HOTSPOT_READY_MAX &&
	    (buf = malloc((size_t)now.st_size + 8)))
		n = pread(fd, buf, (size_t)now.st_size, 0);
	close(fd);
	bool ready = n < 0 || hotspot_copy_ready(buf, (size_t)n);
	free(buf);
	return ready;
}

/* The newest NAME in dir (a hsperfdata_* directory of owner's) made by
 * owner. A link or other odd file the owner made is kept: opening it then
 * refuses it with a sentence (hsperf_map_open). */
static bool hotspot_candidate(int dir, const char *name, uid_t owner, struct timespec *newest, bool have)
{
	struct stat st;
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != owner || !hotspot_file_ready(dir, name, &st))
		return false;
	if (have && (st.st_ctim.tv_sec < newest->tv_sec ||
		     (st.st_ctim.tv_sec == newest->tv_sec && st.st_ctim.tv_nsec <= newest->tv_nsec)))
		return false;
	*newest = st.st_ctim;
	return true;
}

/* The hsperfdata_* entries of our own /tmp, kept between opens: each open
 * read the whole of /tmp for them, and a /tmp of 2,700 entries (which ext4
 * hashes whole at each read) was a quarter of the CPU of opening 500 JVMs
 * (perf, bench/README.md 1k). A busy /tmp changes many times a second, so
 * the list is read again only when the JVM's file is in none of the
 * directories it names and /tmp changed since it was read (its inode or
 * modification time; a time less than HOTSPOT_TMP_SETTLE_NS old is not
 * trusted: an entry made in the same clock tick leaves it as it was). The
 * fleet's worker and the holder's thread may both open: under a lock. */
#define HOTSPOT_TMP_SETTLE_NS 1000000000ll
static struct {
	pthread_mutex_t lock;
	bool valid;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	char (*names)[NAME_MAX + 1];
	size_t n, cap;
} hotspot_tmp_names = { .lock = PTHREAD_MUTEX_INITIALIZER };

static bool hotspot_tmp_names_fresh(const struct stat *st)
{
	struct timespec now;
	if (!hotspot_tmp_names.valid || st->st_dev != hotspot_tmp_names.dev || st->st_ino != hotspot_tmp_names.ino ||
	    st->st_mtim.tv_sec != hotspot_tmp_names.mtime.tv_sec || st->st_mtim.tv_nsec != hotspot_tmp_names.mtime.tv_nsec ||
	    clock_gettime(CLOCK_REALTIME, &now) != 0)
		return false;
	long long age = (long long)(now.tv_sec - st->st_mtim.tv_sec) * 1000000000ll + (now.tv_nsec - st->st_mtim.tv_nsec);
	return age >= HOTSPOT_TMP_SETTLE_NS;
}

/* Reads tmp's hsperfdata_* names into the cache (lock held). */
static void hotspot_tmp_names_read(int tfd, const struct stat *st)
{
	hotspot_tmp_names.valid = false;
	hotspot_tmp_names.n = 0;
	DIR *d = gt_dir_adopt(fcntl(tfd, F_DUPFD_CLOEXEC, 0));
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "hsperfdata_", 11) != 0)
			continue;
		char (*names)[NAME_MAX + 1] = gt_array_grow(hotspot_tmp_names.names, &hotspot_tmp_names.cap,
							   hotspot_tmp_names.n + 1, sizeof(*names), 8);
		if (!names) {
			closedir(d);
			return;   /* not valid: read again at the next open */
		}
		hotspot_tmp_names.names = names;
		snprintf(names[hotspot_tmp_names.n++], sizeof(*names), "%s", e->d_name);
	}
	closedir(d);
	hotspot_tmp_names.valid = true;
	hotspot_tmp_names.dev = st->st_dev;
	hotspot_tmp_names.ino = st->st_ino;
	hotspot_tmp_names.mtime = st->st_mtim;
}

/* One hsperfdata_* entry of tmp: whether it holds the JVM's file (see
 * hotspot_scan_tmp), newer than the one found so far. */
static bool hotspot_scan_entry(int tfd, const char *entry, const char *shown, const char *leaf, uid_t owner,
			       struct timespec *newest, int found, char *path, size_t path_len)
{
	struct stat st;
	if (fstatat(tfd, entry, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != owner)
		return false;
	int dfd = openat(tfd, entry, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return false;
	bool hit = false;
	int n = snprintf(NULL, 0, "%s/%s/%s", shown, entry, leaf);
	if (n > 0 && (size_t)n < path_len && hotspot_candidate(dfd, leaf, owner, newest, found)) {
		snprintf(path, path_len, "%s/%s/%s", shown, entry, leaf);
		hit = true;
	}
	close(dfd);
	return hit;
}

/* The JVM's file in the kept list's directories (lock held): 1 found, 0 not. */
static int hotspot_scan_names(int tfd, const char *shown, const char *leaf, uid_t owner, char *path, size_t path_len)
{
	int found = 0;
	struct timespec newest = { 0, 0 };
	for (size_t i = 0; i < hotspot_tmp_names.n; i++)
		if (hotspot_scan_entry(tfd, hotspot_tmp_names.names[i], shown, leaf, owner, &newest, found, path, path_len))
			found = 1;
	return found;
}

/* Looks for tmp/hsperfdata_* /NAME under root (walked without following
 * links), keeping the newest by ctime as HotSpot does. Only a directory and
 * file of the JVM's own user count: another user's file of the same name is
 * not this JVM's and is passed over, never fatal. shown is how tmp is named
 * in the returned path; our own /tmp ("/tmp") is read through the cache
 * above. Returns 1 found, 0 not, -1 when tmp itself cannot be read (errno
 * kept). */
static int hotspot_scan_tmp(int root, const char *shown, pid_t name, uid_t owner, char *path, size_t path_len)
{
	int tfd = gt_sp_openat(root, "tmp", O_RDONLY | O_DIRECTORY, 0);
	if (tfd < 0)
		return -1;
	char leaf[32];
	snprintf(leaf, sizeof(leaf), "%d", (int)name);
	int found = 0;
	struct timespec newest = { 0, 0 };
	struct stat st;
	if (strcmp(shown, "/tmp") == 0 && fstat(tfd, &st) == 0) {
		pthread_mutex_lock(&hotspot_tmp_names.lock);
		bool read_now = !hotspot_tmp_names.valid;
		if (read_now)
			hotspot_tmp_names_read(tfd, &st);
		if (hotspot_tmp_names.valid)
			found = hotspot_scan_names(tfd, shown, leaf, owner, path, path_len);
		if (hotspot_tmp_names.valid && !found && !read_now && !hotspot_tmp_names_fresh(&st)) {
			hotspot_tmp_names_read(tfd, &st);
			if (hotspot_tmp_names.valid)
				found = hotspot_scan_names(tfd, shown, leaf, owner, path, path_len);
		}
		bool valid = hotspot_tmp_names.valid;
		pthread_mutex_unlock(&hotspot_tmp_names.lock);
		if (valid) {
			close(tfd);
			return found;
		}
	}
	DIR *d = gt_dir_adopt(tfd);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "hsperfdata_", 11) == 0 &&
		    hotspot_scan_entry(tfd, e->d_name, shown, leaf, owner, &newest, found, path, path_len))
			found = 1;
	closedir(d);
	return found;
}

static int hotspot_scan_root(pid_t pid, pid_t name, uid_t owner, char *path, size_t path_len)
{
	int root = gt_sp_open_root(pid);
	if (root < 0)
		return -1;
	char shown[64];
	snprintf(shown, sizeof(shown), "/proc/%d/root/tmp", (int)pid);
	int rc = hotspot_scan_tmp(root, shown, name, owner, path, path_len);
	int e = errno;
	close(root);
	errno = e;
	return rc;
}

int hotspot_find_perfdata(pid_t pid, char *path, size_t path_len, struct gt_error *err)
{
	pid_t nspid = pid;
	if (gt_proc_nspid(pid, &nspid) != 0 || nspid <= 0)
		nspid = pid;
	uid_t owner;
	if (gt_proc_euid(pid, &owner) != 0)
		return 0;
	if (gt_proc_same_mount_ns(pid) == 1 && nspid == pid) {
		int host = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		int rc = host >= 0 ? hotspot_scan_tmp(host, "/tmp", pid, owner, path, path_len) : -1;
		if (host >= 0)
			close(host);
		if (rc == 1)
			return 1;
	}
	int rc = hotspot_scan_root(pid, nspid, owner, path, path_len);
	if (rc < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return gt_fail(err, GT_EXIT_BAD_DATA,
				       "the /tmp of process %d is a symbolic link or not a directory; gctop follows no links "
				       "under another process's root, so it will not look for perf data there", (int)pid);
		if (errno == EACCES || errno == EPERM)
			return gt_fail(err, GT_EXIT_PERMISSION,
				       "process %d belongs to another user, so gctop cannot look into its /tmp; "
				       "run gctop as that user or as root", (int)pid);
		return 0;
	}
	/* A container sharing the host's pid namespace names the file by host pid. */
	if (rc == 0 && nspid != pid)
		rc = hotspot_scan_root(pid, pid, owner, path, path_len);
	return rc > 0 ? 1 : 0;
}

int hotspot_find_alive(pid_t pid)
{
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return 0;
	/* A zombie still answers kill(); its state says it has exited. */
	char buf[512];
	if (hotspot_read_proc(pid, "stat", buf, sizeof(buf)) <= 0)
		return 0;
	const char *paren = strrchr(buf, ')');
	if (!paren || paren[1] != ' ')
		return 1;
	char state = paren[2];
	return state == 'Z' || state == 'X' ? 0 : 1;
}

int hotspot_find_peek(pid_t pid, uid_t euid, void (*read)(const struct hsperf *p, void *arg), void *arg)
{
	char path[512];
	struct gt_error e;
	if (hotspot_find_perfdata(pid, path, sizeof(path), &e) != 1)
		return -1;
	struct hsperf_map m;
	if (hsperf_map_open(path, euid, &m, &e) != 0)
		return -1;
	struct hsperf p;
	int rc = hsperf_init(&p, m.base, m.size, path, &e);
	if (rc == 0) {
		read(&p, arg);
		hsperf_free(&p);
	}
	hsperf_map_close(&m);
	return rc;
}

int hotspot_find_same_process(pid_t pid, const struct hotspot_counters *c, const char *path,
				      struct gt_u64 *start_out, struct gt_error *err)
{
	uint64_t start_ms;
	if (gt_proc_start_time_ms(pid, &start_ms) != 0 || !c->create_vm_begin_ms)
		return 0;
	gt_u64_set(start_out, start_ms);
	int64_t vm_ms = hsperf_load(c->create_vm_begin_ms);
	/* HotSpot records the time only when it has finished creating the VM,
	 * after it made the file accessible: 0 is a JVM still starting, which
	 * the list skips until a later refresh (hotspot_open waits for it). */
	if (vm_ms == 0)
		return gt_fail(err, GT_EXIT_TIMEOUT, "the JVM (process %d) is still starting; try again in a moment",
			       (int)pid);
	if (vm_ms + HOTSPOT_START_BEFORE_MS < (int64_t)start_ms || vm_ms > (int64_t)start_ms + HOTSPOT_START_AFTER_MS)
		return gt_fail(err, GT_EXIT_NO_DATA,
			       "%s was left by an earlier process with PID %d (its JVM started %.1f s %s this process); "
			       "this process publishes no perf data of its own",
			       path, (int)pid, (double)llabs(vm_ms - (int64_t)start_ms) / 1000.0,
			       vm_ms < (int64_t)start_ms ? "before" : "after");
	return 0;
}
