/* The memory cgroup of one process, read through libcgroup 2.0.2.
 *
 * libcgroup maps the "memory" controller to its mount (v1, v2 or hybrid) and
 * reads the files; gctop parses /proc/PID/cgroup and every value itself
 * (collectors/host/cgroup_parse.c), because 2.0.2's own path lookup cannot parse
 * the v2 "0::" line. Nothing here may print: on stderr it would tear the
 * curses screen, on stdout it would break --json. A missing file or group
 * leaves its figure invalid. */
#include "collectors/host/cgroup.h"
#include "collectors/host/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/array.h"
#include "base/clock.h"
#include "collectors/host/cgroup_parse.h"
#include "collectors/host/cgroup_trust.h"
#include "collectors/host/container_ids.h"

_Static_assert(sizeof(((struct gt_target_info *)0)->container_id) == GT_CONTAINER_ID_LEN + 1,
	       "the target's container_id holds a whole id");
_Static_assert(sizeof(((struct gt_target_info *)0)->k8s_pod_uid) == GT_POD_UID_LEN + 1,
	       "the target's k8s_pod_uid holds a whole UID");

/* Processes move between groups (systemd, container restarts); looking the
 * path up again this often keeps the figures right without a read per tick. */
#define CGROUP_RESOLVE_EVERY 30

/* memory.stat is about 2 KiB on v1 and less on v2; the biggest file read. */
#define CGROUP_FILE_MAX 8192
/* Enough of cgroup.procs to tell one process from several. */
#define CGROUP_PROCS_READ 256

/* What gt_cgroup_sample fills, as the sample names it. */
struct gt_cgroup_figures {
	struct gt_u64 cgroup_limit_bytes;
	struct gt_u64 cgroup_usage_bytes;
	struct gt_u64 cgroup_working_set_bytes;
	struct gt_u64 cgroup_processes;
	struct gt_u64 oom_kills;
	struct gt_f64 memory_pressure_avg10;
	bool memory_pressure_system_wide;
};

struct gt_cgroup {
	pid_t pid;
	int version;                       /* 0 when there is no memory cgroup to read */
	char path[GT_CGROUP_PATH_MAX];
	struct gt_u64 ancestors_limit;     /* v2: the lowest memory.max above the group */
	unsigned samples_since_resolve;
};

/* libcgroup keeps one process-wide mount table, so its set-up is too. */
static int lib_state;          /* 0 not tried, 1 ready, -1 unusable */
static int lib_memory_version; /* of the memory controller's mount: 0, 1 or 2 */
static char *lib_memory_mount;  /* where it is mounted (container ids walk from it) */

/* libcgroup 2.0.2's default logger prints to stdout (CGROUP_LOGLEVEL=4
 * makes it chatty); gctop reports a missing cgroup as n/a instead, so the
 * messages are dropped. */
static void discard_log(void *userdata, int level, const char *fmt, va_list ap)
{
	(void)userdata;
	(void)level;
	(void)fmt;
	(void)ap;
}

/* Keeps the mount in lib_memory_mount when it is a cgroup file system. */
static int memory_mount_version(void)
{
	char *mount = NULL;
	if (cgroup_get_subsys_mount_point("memory", &mount) != 0 || !mount) {
		free(mount);
		return 0;
	}
	/* cgroup_get_controller_version() exists in 2.0.2 but is not in its
	 * public headers; the filesystem type says the same thing. */
	struct statfs fs;
	int version = 0;
	if (statfs(mount, &fs) == 0) {
		if (fs.f_type == CGROUP2_SUPER_MAGIC)
			version = 2;
		else if (fs.f_type == CGROUP_SUPER_MAGIC)
			version = 1;
	}
	if (version)
		lib_memory_mount = mount;
	else
		free(mount);
	return version;
}

/* Once per process, whichever thread asks first (a session's job opens
 * its target on a worker thread). */
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void lib_init(void)
{
	/* Before cgroup_init(), which otherwise installs the default logger. */
	cgroup_set_logger(discard_log, CGROUP_LOG_ERROR, NULL);
	if (cgroup_init() == 0) {
		lib_state = 1;
		lib_memory_version = memory_mount_version();
	} else {
		lib_state = -1;
	}
}

static bool lib_ready(void)
{
	pthread_once(&lib_once, lib_init);
	return lib_state == 1 && lib_memory_version != 0;
}

/* Reads a whole memory-controller file of the group into buf (NUL-ended).
 * Returns its length, or -1 when it cannot be read. */
static long read_group_file(const char *path, const char *name, char *buf, size_t cap)
{
	char name_copy[64];  /* the 2.0.2 prototype takes a non-const name */
	char line[512];
	void *handle = NULL;
	size_t len = 0;
	bool truncated = false;

	if (strlen(name) >= sizeof(name_copy))
		return -1;
	strcpy(name_copy, name);
	int rc = cgroup_read_value_begin("memory", path, name_copy, &handle, line, (int)sizeof(line));
	/* On any other result begin has no open file and sets handle to NULL,
	 * and 2.0.2's cgroup_read_value_end(NULL) would fclose(NULL). */
	if (rc != 0 && rc != ECGEOF)
		return -1;
	while (rc == 0) {
		size_t n = strlen(line);
		if (len + n >= cap) {
			truncated = true;
			break;
		}
		memcpy(buf + len, line, n);
		len += n;
		rc = cgroup_read_value_next(&handle, line, (int)sizeof(line));
	}
	cgroup_read_value_end(&handle);
	if (truncated) {
		/* Keep whole lines only: a cut "key 12" of "key 1234" would parse. */
		while (len && buf[len - 1] != '\n')
			len--;
	}
	buf[len] = '\0';
	return (long)len;
}


static bool group_u64(const struct gt_cgroup *cg, const char *name, uint64_t *v)
{
	char buf[128];
	long n = read_group_file(cg->path, name, buf, sizeof(buf));
	return n >= 0 && gt_cgroup_parse_u64(buf, (size_t)n, v) == 0;
}

static enum gt_cgroup_limit group_limit(const char *path, const char *name, uint64_t *v)
{
	char buf[128];
	long n = read_group_file(path, name, buf, sizeof(buf));
	if (n < 0)
		return GT_CGROUP_LIMIT_BAD;
	return gt_cgroup_parse_limit(buf, (size_t)n, v);
}

static bool group_keyed(const struct gt_cgroup *cg, const char *name, const char *key, uint64_t *v)
{
	char buf[CGROUP_FILE_MAX];
	long n = read_group_file(cg->path, name, buf, sizeof(buf));
	return n >= 0 && gt_cgroup_parse_keyed(buf, (size_t)n, key, v) == 0;
}

static void keep_lower(struct gt_u64 *limit, uint64_t v)
{
	if (!limit->valid || v < limit->value)
		gt_u64_set(limit, v);
}

/* v2 enforces every ancestor's memory.max too, and a container runtime often
 * sets the limit one level above the process's own group. The root group has
 * no memory.max, so it is not read. */
static void find_ancestors_limit(struct gt_cgroup *cg)
{
	char prefix[GT_CGROUP_PATH_MAX];
	memset(&cg->ancestors_limit, 0, sizeof(cg->ancestors_limit));
	if (cg->version != 2)
		return;
	strcpy(prefix, cg->path);
	for (char *slash = strrchr(prefix, '/'); slash && slash != prefix; slash = strrchr(prefix, '/')) {
		*slash = '\0';
		uint64_t v;
		if (group_limit(prefix, "memory.max", &v) == GT_CGROUP_LIMIT_SET)
			keep_lower(&cg->ancestors_limit, v);
	}
}

/* /proc/PID/cgroup into text; its length, or -1. */
static long read_membership(pid_t pid, char *text, size_t cap)
{
	char file[64];
	snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)pid);
	return gt_proc_read_small(file, text, cap);
}

/* The group of the memory controller's hierarchy, the one gctop reads
 * (v1: the memory line; v2: the unified one), or NULL. */
static const char *memory_path(const struct gt_cgroup_membership *m)
{
	if (lib_memory_version == 1 && m->has_v1_memory)
		return m->v1_memory_path;
	if (lib_memory_version == 2 && m->has_v2)
		return m->v2_path;
	return NULL;
}

/* Looks up the process's group again. Returns false when it has none we can
 * read (no memory controller, or /proc/PID/cgroup gone or unparsable). */
static bool resolve(struct gt_cgroup *cg)
{
	char text[CGROUP_FILE_MAX];
	struct gt_cgroup_membership m;

	cg->samples_since_resolve = 0;
	if (!lib_ready())
		return false;
	long n = read_membership(cg->pid, text, sizeof(text));
	if (n < 0 || gt_cgroup_parse_membership(text, (size_t)n, &m) != 0)
		return false;
	const char *path = memory_path(&m);
	if (!path)
		return false;
	cg->version = lib_memory_version;
	strcpy(cg->path, path);
	find_ancestors_limit(cg);
	return true;
}

static struct gt_u64 read_limit(const struct gt_cgroup *cg, struct gt_u64 *hierarchical_v1)
{
	struct gt_u64 limit = { 0 };
	uint64_t v;
	const char *name = cg->version == 2 ? "memory.max" : "memory.limit_in_bytes";
	if (group_limit(cg->path, name, &v) == GT_CGROUP_LIMIT_SET)
		gt_u64_set(&limit, v);
	if (cg->version == 2) {
		if (cg->ancestors_limit.valid)
			keep_lower(&limit, cg->ancestors_limit.value);
	} else if (hierarchical_v1 && hierarchical_v1->valid) {
		keep_lower(&limit, hierarchical_v1->value);
	}
	return limit;
}

static void copy_display_path(char *dst, size_t cap, const char *src)
{
	size_t n = strlen(src);
	if (n < cap) {
		memcpy(dst, src, n + 1);
		return;
	}
	/* Shown to people only; the full path stays in struct gt_cgroup. */
	memcpy(dst, src, cap - 4);
	memcpy(dst + cap - 4, "...", 4);
}

/* Read once: a process does not move between containers, and a label that
 * changed would start new series. From the memory controller's hierarchy
 * only, the one whose mount gctop knows and every container runtime
 * places a container in, and only from the part of its path that root
 * made (cgroup_trust.h): a group delegated to the target's user, and all
 * below it, is the user's to name. Without that hierarchy, no ids. */
static void find_container_ids(pid_t pid, struct gt_target_info *info)
{
	char text[CGROUP_FILE_MAX];
	struct gt_cgroup_membership m;
	struct gt_container_ids ids = { 0 };
	const char *path = NULL;
	if (lib_ready()) {
		long n = read_membership(pid, text, sizeof(text));
		if (n >= 0 && gt_cgroup_parse_membership(text, (size_t)n, &m) == 0)
			path = memory_path(&m);
	}
	if (path)
		gt_container_ids_from_path(path, gt_cgroup_trusted_len(lib_memory_mount, path), &ids);
	memcpy(info->container_id, ids.container_id, sizeof(info->container_id));
	memcpy(info->k8s_pod_uid, ids.pod_uid, sizeof(info->k8s_pod_uid));
}

struct gt_cgroup *gt_cgroup_open(pid_t pid, struct gt_target_info *info)
{
	struct gt_cgroup *cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	cg->pid = pid;
	find_container_ids(pid, info);
	if (!resolve(cg))
		return cg;
	info->cgroup_version = cg->version;
	copy_display_path(info->cgroup_path, sizeof(info->cgroup_path), cg->path);
	struct gt_u64 hierarchical = { 0 };
	uint64_t v;
	if (cg->version == 1 && group_keyed(cg, "memory.stat", "hierarchical_memory_limit", &v) &&
	    v < GT_CGROUP_V1_UNLIMITED_MIN)
		gt_u64_set(&hierarchical, v);
	info->cgroup_limit_bytes = read_limit(cg, &hierarchical);
	return cg;
}

static void sample_pressure(const struct gt_cgroup *cg, struct gt_cgroup_figures *out)
{
	char buf[512];
	long n;
	double avg10;
	if (cg->version == 2) {
		n = read_group_file(cg->path, "memory.pressure", buf, sizeof(buf));
		out->memory_pressure_system_wide = false;
	} else {
		/* v1 has no per-group pressure; the system's is the next best. */
		n = gt_proc_read_small("/proc/pressure/memory", buf, sizeof(buf));
		out->memory_pressure_system_wide = true;
	}
	if (n >= 0 && gt_cgroup_parse_psi_some_avg10(buf, (size_t)n, &avg10) == 0)
		gt_f64_set(&out->memory_pressure_avg10, avg10);
}

/* How many processes share the group's usage: the lines of cgroup.procs,
 * plus (v2, whose usage counts the subtree) one at least per descendant
 * group. Only a count of 1 makes the usage the process's own; a session's
 * group on a desktop or CI host holds hundreds. A list longer than the
 * buffer counts what fits: still more than one. */
static void sample_processes(const struct gt_cgroup *cg, struct gt_cgroup_figures *out)
{
	char buf[CGROUP_PROCS_READ];
	long n = read_group_file(cg->path, "cgroup.procs", buf, sizeof(buf));
	if (n < 0)
		return;
	uint64_t procs = gt_cgroup_parse_count_lines(buf, (size_t)n);
	uint64_t desc;
	if (cg->version == 2 && group_keyed(cg, "cgroup.stat", "nr_descendants", &desc))
		procs += desc;
	gt_u64_set(&out->cgroup_processes, procs);
}

/* The group's own figures, the same for every process in it; the count
 * of its processes apart (read_processes_counted). */
static void read_figures(const struct gt_cgroup *cg, struct gt_cgroup_figures *out)
{
	char stat[CGROUP_FILE_MAX];
	long stat_len = read_group_file(cg->path, "memory.stat", stat, sizeof(stat));
	uint64_t v, inactive_file;
	bool have_inactive = false;
	struct gt_u64 hierarchical = { 0 };
	if (stat_len >= 0) {
		const char *inactive_key = cg->version == 2 ? "inactive_file" : "total_inactive_file";
		have_inactive = gt_cgroup_parse_keyed(stat, (size_t)stat_len, inactive_key, &inactive_file) == 0;
		if (cg->version == 1 &&
		    gt_cgroup_parse_keyed(stat, (size_t)stat_len, "hierarchical_memory_limit", &v) == 0 &&
		    v < GT_CGROUP_V1_UNLIMITED_MIN)
			gt_u64_set(&hierarchical, v);
	}

	out->cgroup_limit_bytes = read_limit(cg, &hierarchical);

	const char *usage_name = cg->version == 2 ? "memory.current" : "memory.usage_in_bytes";
	if (group_u64(cg, usage_name, &v)) {
		gt_u64_set(&out->cgroup_usage_bytes, v);
		if (have_inactive)
			gt_u64_set(&out->cgroup_working_set_bytes, v > inactive_file ? v - inactive_file : 0);
	}

	const char *oom_file = cg->version == 2 ? "memory.events" : "memory.oom_control";
	if (group_keyed(cg, oom_file, "oom_kill", &v))
		gt_u64_set(&out->oom_kills, v);

	sample_pressure(cg, out);
}

/* Rounds (gt_cgroup_round_begin): each group is read once a round, and the
 * count of its processes once every CGROUP_PROCS_EVERY_NS. cgroup v1
 * builds and sorts a group's whole list of pids at every open of
 * cgroup.procs, however little is read: with 220 processes in one group,
 * 7-8% of gctop --serve's CPU (perf, bench/README.md 1f). The count only
 * says whose memory the group's usage counts (text output and the full-screen UI;
 * not exported by --serve), and a group's members come and go far less
 * often than a fleet's rounds. */
#define CGROUP_PROCS_EVERY_NS 10000000000ull

struct round_entry {
	int version;
	char *path;
	bool read, used;              /* this round: figures read, group sampled */
	struct gt_cgroup_figures figures;
	uint64_t procs_read_ns;       /* when figures.cgroup_processes was read */
};

/* The groups of the last round, kept for the next. */
struct round {
	struct round_entry *e;
	size_t count, capacity;
	bool open;
};

/* Per thread: a round belongs to the loop that began it, and a worker
 * thread's reads (a session's job) stay outside it. */
static _Thread_local struct round *round_now;

void gt_cgroup_round_begin(void)
{
	if (!round_now)
		round_now = calloc(1, sizeof(*round_now));
	if (!round_now)
		return;
	round_now->open = true;
	for (size_t i = 0; i < round_now->count; i++)
		round_now->e[i].read = round_now->e[i].used = false;
}

/* Drops the groups no process of this round was in. */
void gt_cgroup_round_end(void)
{
	struct round *r = round_now;
	if (!r)
		return;
	size_t w = 0;
	for (size_t i = 0; i < r->count; i++) {
		if (r->e[i].used)
			r->e[w++] = r->e[i];
		else
			free(r->e[i].path);
	}
	r->count = w;
	r->open = false;
}

void gt_cgroup_rounds_free(void)
{
	if (!round_now)
		return;
	for (size_t i = 0; i < round_now->count; i++)
		free(round_now->e[i].path);
	free(round_now->e);
	free(round_now);
	round_now = NULL;
}

static struct round_entry *round_entry(struct round *r, const struct gt_cgroup *cg)
{
	for (size_t i = 0; i < r->count; i++)
		if (r->e[i].version == cg->version && strcmp(r->e[i].path, cg->path) == 0)
			return &r->e[i];
	struct round_entry *e = gt_array_grow(r->e, &r->capacity, r->count + 1, sizeof(*e), 16);
	if (!e)
		return NULL;
	r->e = e;
	e = &r->e[r->count];
	memset(e, 0, sizeof(*e));
	e->path = strdup(cg->path);
	if (!e->path)
		return NULL;
	e->version = cg->version;
	r->count++;
	return e;
}

/* The group's figures, read now or earlier in this round. */
static void group_figures(const struct gt_cgroup *cg, struct gt_cgroup_figures *out)
{
	struct round *r = round_now;
	struct round_entry *e = r && r->open ? round_entry(r, cg) : NULL;
	if (!e) {
		/* read again next time: right, only slower */
		read_figures(cg, out);
		sample_processes(cg, out);
		return;
	}
	e->used = true;
	if (!e->read) {
		struct gt_u64 procs = e->figures.cgroup_processes;
		memset(&e->figures, 0, sizeof(e->figures));
		read_figures(cg, &e->figures);
		uint64_t now = gt_mono_ns();
		if (!e->procs_read_ns || now - e->procs_read_ns >= CGROUP_PROCS_EVERY_NS) {
			sample_processes(cg, &e->figures);
			e->procs_read_ns = now;
		} else {
			e->figures.cgroup_processes = procs;
		}
		e->read = true;
	}
	*out = e->figures;
}

void gt_cgroup_sample(struct gt_cgroup *cg, struct gt_sample *out)
{
	if (!cg)
		return;
	/* A failed look-up keeps the previous group: the process may be exiting,
	 * and its last group's figures are still the right ones. */
	if (++cg->samples_since_resolve >= CGROUP_RESOLVE_EVERY)
		resolve(cg);
	if (cg->version == 0)
		return;
	struct gt_cgroup_figures f = { 0 };
	group_figures(cg, &f);
	out->cgroup_limit_bytes = f.cgroup_limit_bytes;
	out->cgroup_usage_bytes = f.cgroup_usage_bytes;
	out->cgroup_working_set_bytes = f.cgroup_working_set_bytes;
	out->cgroup_processes = f.cgroup_processes;
	out->oom_kills = f.oom_kills;
	out->memory_pressure_avg10 = f.memory_pressure_avg10;
	out->memory_pressure_system_wide = f.memory_pressure_system_wide;
}

void gt_cgroup_close(struct gt_cgroup *cg)
{
	free(cg);
}
