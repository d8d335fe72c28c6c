/* Process facts of one PID: each sample from /proc/PID/stat and status
 * (collectors/host/proc_stat.c), the user and command line through libproc2
 * (procps 4.0.2) when a target opens. A select of one PID
 * (PIDS_SELECT_PID) opens /proc/PID only; procps_pids_get and _reap would
 * walk all of /proc. Results belong to the pids_info and are overwritten by
 * its next call, so values are copied out at once. */
#include "collectors/host/proc.h"
#include "collectors/host/proc_files.h"

#include <errno.h>
#include <fcntl.h>
#include <libproc2/misc.h>
#include <libproc2/pids.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* PIDS_VAL lost its info argument in procps 4.0.5; this spelling of the same
 * access works with both. */
#define PROC_RESULT(stack, slot, member) ((stack)->head[(slot)].result.member)

enum info_slot {
	INFO_EUSER,
	INFO_CMDLINE,
	INFO_CMD,
	INFO_COUNT
};

struct gt_proc {
	pid_t pid;
	unsigned long long began;  /* start ticks at open: a different value means PID reuse */
	bool began_valid;
	long hz;
	struct gt_u64 host_mem_total;  /* MemTotal, read once: it does not change */
	struct gt_proc_files files;  /* stat and status, kept open between samples */
};

int gt_proc_check_mounted(struct gt_error *err)
{
	/* libproc2 checks this file itself, but answers a failure with
	 * _exit(47) and a message on stderr. */
	if (access("/proc/self/stat", R_OK) != 0)
		return gt_fail(err, GT_EXIT_FAILURE,
			"/proc is not mounted or not readable; mount it (mount -t proc proc /proc) and try again");
	return 0;
}

static struct pids_fetch *select_one(struct pids_info *pids, pid_t pid)
{
	unsigned id = (unsigned)pid;
	return procps_pids_select(pids, &id, 1, PIDS_SELECT_PID);
}

static int check_target(pid_t pid, struct gt_error *err)
{
	if (gt_proc_check_mounted(err) != 0)
		return -1;
	if (pid <= 0 || !gt_proc_exists(pid))
		return gt_fail(err, GT_EXIT_NO_PROCESS,
			       "there is no process %d; run gctop --list to see the processes gctop can watch", (int)pid);
	return 0;
}

/* The host's memory: /proc/meminfo's MemTotal (n/a when unreadable). */
static struct gt_u64 read_mem_total(void)
{
	char text[GT_PROC_MEMINFO_TEXT];
	struct gt_u64 total = { 0 };
	if (gt_proc_read_small("/proc/meminfo", text, sizeof(text)) <= 0)
		return total;
	unsigned long long kib = gt_proc_parse_mem_total_kib(text);
	if (kib > 0 && kib <= UINT64_MAX / 1024)
		gt_u64_set(&total, (uint64_t)kib * 1024);
	return total;
}

struct gt_proc *gt_proc_open(pid_t pid, struct gt_error *err)
{
	if (check_target(pid, err) != 0)
		return NULL;
	struct gt_proc *p = gt_calloc(sizeof(*p), err);
	if (!p)
		return NULL;
	p->pid = pid;
	p->hz = procps_hertz_get();
	p->host_mem_total = read_mem_total();
	gt_proc_files_init(&p->files);
	struct gt_proc_stat st;
	if (gt_proc_read_stat(pid, &st) == 0) {
		p->began = st.start_ticks;
		p->began_valid = true;
	}
	if (!p->began_valid && !gt_proc_exists(pid)) {
		gt_fail(err, GT_EXIT_NO_PROCESS, "process %d has exited", (int)pid);
		gt_proc_close(p);
		return NULL;
	}
	return p;
}

static bool has_exited(char state)
{
	/* A zombie has freed its memory and runs nothing; only its parent has
	 * not collected its status yet. */
	return state == 'Z' || state == 'X';
}

int gt_proc_sample(struct gt_proc *p, struct gt_sample *out)
{
	struct gt_proc_stat st;
	if (gt_proc_files_stat(&p->files, p->pid, &st) != 0) {
		/* A directory we cannot read (hidepid) still means a live process. */
		return gt_proc_exists(p->pid) ? 0 : 1;
	}
	if (has_exited(st.state))
		return 1;
	if (p->began_valid && st.start_ticks != p->began)
		return 1; /* the PID now names another process */

	/* A live user process always has resident pages and a thread, so 0
	 * (or a status file that could not be read) means "not given", and
	 * the companions from the same file are no better. */
	struct gt_proc_status mem;
	if (gt_proc_files_status(&p->files, p->pid, &mem) == 0 && mem.rss_kib > 0) {
		gt_u64_set(&out->rss_bytes, (uint64_t)mem.rss_kib * 1024);
		gt_u64_set(&out->rss_anon_bytes, (uint64_t)mem.anon_kib * 1024);
		gt_u64_set(&out->rss_file_bytes, (uint64_t)mem.file_kib * 1024);
		gt_u64_set(&out->swap_bytes, (uint64_t)mem.swap_kib * 1024);
	}
	out->host_mem_total_bytes = p->host_mem_total;
	if (st.threads > 0) {
		gt_u64_set(&out->threads, (uint64_t)st.threads);
		/* stat gave a thread count, so the tick counts beside it are real. */
		gt_u64_set(&out->cpu_ticks, st.utime + st.stime);
		if (p->hz > 0)
			gt_u64_set(&out->cpu_hz, (uint64_t)p->hz);
	}
	return 0;
}

/* libproc2 shows what it could not read (another user's process, a kernel
 * thread) as "-" or an empty string. */
static void copy_given(char *dst, size_t cap, const char *src)
{
	if (!src || !src[0] || strcmp(src, "-") == 0)
		return;
	snprintf(dst, cap, "%s", src);
}

void gt_proc_fill_info(pid_t pid, struct gt_target_info *info)
{
	struct pids_info *pids = NULL;
	enum pids_item items[INFO_COUNT] = {
		[INFO_EUSER] = PIDS_ID_EUSER,
		[INFO_CMDLINE] = PIDS_CMDLINE,
		/* Not read, but without it libproc2 shows a kernel thread's
		 * empty command line as "[(null)]" instead of "[name]". */
		[INFO_CMD] = PIDS_CMD,
	};
	/* A context of its own: --list calls this for PIDs no gt_proc watches. */
	if (procps_pids_new(&pids, items, INFO_COUNT) >= 0) {
		struct pids_fetch *f = select_one(pids, pid);
		if (f && f->counts->total >= 1) {
			copy_given(info->user, sizeof(info->user), PROC_RESULT(f->stacks[0], INFO_EUSER, str));
			copy_given(info->command_line, sizeof(info->command_line),
				   PROC_RESULT(f->stacks[0], INFO_CMDLINE, str));
		}
		procps_pids_unref(&pids);
	}
	uint64_t ms;
	if (gt_proc_start_time_ms(pid, &ms) == 0)
		gt_u64_set(&info->start_time_ms, ms);
	pid_t nspid;
	if (gt_proc_nspid(pid, &nspid) == 0)
		info->nspid = nspid;
	else if (info->nspid == 0)
		info->nspid = pid; /* kernels before 4.1 have no NSpid and no nesting to show */
}

void gt_proc_close(struct gt_proc *p)
{
	if (p)
		gt_proc_files_close(&p->files);
	free(p);
}

/* The helpers below read /proc directly: each needs one line of one file,
 * libproc2 4.0.2 has no item for NSpid or the mount namespace identity, and a
 * pids context allocates its 1024 result stacks on first use. */

int gt_proc_exists(pid_t pid)
{
	char path[32];
	struct stat st;
	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) == 0 ? 1 : 0;
}

int gt_proc_parse_nspid(const char *status_text, pid_t *nspid)
{
	const char *line = strstr(status_text, "\nNSpid:");
	if (!line)
		return -1;
	/* "NSpid:\t1234\t1": outermost first, the process's own namespace last. */
	const char *p = line + strlen("\nNSpid:");
	long last = -1;
	for (;;) {
		while (*p == '\t' || *p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			break;
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (errno != 0 || v <= 0)
			return -1;
		last = v;
		p = end;
	}
	if (last <= 0 || (*p != '\n' && *p != '\0'))
		return -1;
	*nspid = (pid_t)last;
	return 0;
}

int gt_proc_euid(pid_t pid, uid_t *uid)
{
	char path[32], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (gt_proc_read_small(path, buf, sizeof(buf)) <= 0)
		return -1;
	const char *line = strstr(buf, "\nUid:");
	unsigned long real, eff;
	if (!line || sscanf(line + 5, "%lu %lu", &real, &eff) != 2)
		return -1;
	*uid = (uid_t)eff;
	return 0;
}

int gt_proc_nspid(pid_t pid, pid_t *nspid)
{
	char path[32], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (gt_proc_read_small(path, buf, sizeof(buf)) < 0)
		return -1;
	return gt_proc_parse_nspid(buf, nspid);
}

static int boot_time_s(uint64_t *btime)
{
	/* The boot time does not change while we run, and /proc/stat is costly
	 * to read (the kernel formats every interrupt counter): read it once. */
	static uint64_t cached;
	if (cached) {
		*btime = cached;
		return 0;
	}
	/* Its intr line can be tens of KiB, so it is read by line. */
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0;
	int rc = -1;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long v;
		if (sscanf(line, "btime %llu", &v) == 1) {
			*btime = cached = v;
			rc = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int gt_proc_start_ticks(pid_t pid, unsigned long long *ticks)
{
	struct gt_proc_stat st;
	if (gt_proc_read_stat(pid, &st) != 0)
		return -1;
	*ticks = st.start_ticks;
	return 0;
}

int gt_proc_start_time_ms(pid_t pid, uint64_t *ms)
{
	unsigned long long ticks;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t btime;
	if (gt_proc_start_ticks(pid, &ticks) != 0 || hz <= 0 || boot_time_s(&btime) != 0)
		return -1;
	*ms = btime * 1000 + (uint64_t)ticks * 1000 / (uint64_t)hz;
	return 0;
}

int gt_proc_same_mount_ns(pid_t pid)
{
	char path[48];
	struct stat ours, theirs;
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	/* The target's ns link needs ptrace rights; without them: unknown. */
	if (stat("/proc/self/ns/mnt", &ours) != 0 || stat(path, &theirs) != 0)
		return -1;
	return (ours.st_dev == theirs.st_dev && ours.st_ino == theirs.st_ino) ? 1 : 0;
}

int gt_proc_maps_file(pid_t pid, const char *part)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char line[4096];
	int found = 0;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, part) != NULL;
	fclose(f);
	return found;
}
